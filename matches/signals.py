from django.dispatch import Signal

# Sent after the transaction that made a match's result final (confirmed, resolved, forfeit,
# double forfeit) commits, with `league_ids`: the leagues whose standings and brackets must
# follow. `league` connects to it; `matches` never imports `league`.
results_finalised = Signal()
