"""`clubs` follows what matches announces: a seat confirming a report at a night already closed
(G9, ours: once the night is closed, one confirmation besides the scorekeeper's makes it final,
as closing the night does for the reports confirmed before it)."""

from django.dispatch import receiver

from matches.services.tables import confirm_answered_tables
from matches.signals import seat_confirmed

from .models import NightClosing


@receiver(seat_confirmed)
def a_closed_nights_table_counts_once_another_seat_confirms(
    sender, match, actor, now, **kwargs
) -> bool:
    """The match row is locked by the confirmation; the closing, committed before that lock was
    granted or after this transaction, is read fresh: a night closing meanwhile waits for this
    row and then confirms the report itself."""
    if not NightClosing.objects.filter(night_id=match.round_id).exists():
        return False
    return bool(
        confirm_answered_tables([match.pk], actor=actor, when="after the night closed", now=now)
    )
