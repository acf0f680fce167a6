from django.dispatch import Signal

# Sent inside the transaction of the director's ruling that a student is ineligible for a season
# (L10), with `profile`, `season`, `actor` and `reason`. `league` connects to it to settle the
# student's remaining matches; `accounts` imports neither `matches` nor `league`. A receiver that
# fails undoes the ruling.
ruled_ineligible = Signal()

# Sent inside the transaction that changes how players are named in public (P2: a withheld
# name, the registrar's or their own; P4: forgotten), with `profile_ids`. `league` connects to it
# to render the pages of those players' leagues again once the change is committed.
names_changed = Signal()

# Sent inside the transaction that forgets people (P4), once their rows are erased, with
# `profile_ids`, `user_ids` and `actor` (who asked; None for the nightly's retention): apps that
# keep their own copy of a name or an address (an event's volunteer invitations) erase it, and
# `league` takes them out of what they were still to play, as a withdrawal does. A receiver that
# fails undoes the forgetting.
forgotten = Signal()
