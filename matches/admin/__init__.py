"""The director's queues: open disputes oldest first with both versions side by side, can't-reach
reports, and every match's rulings. Each ruling is a form with a required reason that calls one
service; the audit trail is read-only."""

# Importing each module registers its admins: the queues (disputes, can't-reach reports) and
# every match with the audit trail; ruling holds the one ruling form and view they share.
from . import match, queues  # noqa: F401
