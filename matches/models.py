"""Matches, seats, schedule proposals, reports, disputes and the audit trail (issue: the life of
a match). Empty until that issue lands."""
