from django.dispatch import Signal

# Sent after the transaction that made a match's result final (confirmed, resolved, forfeit,
# double forfeit) commits, with `league_ids`: the leagues whose standings and brackets must
# follow. `league` connects to it; `matches` never imports `league`.
results_finalised = Signal()

# Sent inside the transaction of a seat's confirmation that leaves the report waiting on other
# seats, with `match` (locked), `actor` and `now`. A format whose tables settle sooner connects
# to it (a club night already closed, G9) and returns True when it made the result final.
seat_confirmed = Signal()
