"""Leagues, entries, rounds, standings and brackets (issues: the life of a match, nightly)."""
