"""The door (E3): checking entrants in for the evening, out again, and entrants who leave
mid-event (they keep their scores and are not paired again) or come back."""

from django.db import transaction
from django.utils import timezone

from events.rights import EventError, lock_event, require
from events.selectors import has_played, next_round
from league.models import CheckIn, Entry, League
from league.refresh import refresh_leagues


def check_in_entry(league: League, entry: Entry, actor, now) -> CheckIn | None:
    """Check in for the evening, on the next round to pair (or the last round once all are
    paired: they are then paired for nothing more, but the list shows them here)."""
    if CheckIn.objects.filter(round__league=league, entry=entry).exists():
        return None
    round_ = next_round(league) or league.rounds.order_by("-number").first()
    if round_ is None:
        raise EventError(f"{league} has no rounds.")
    return CheckIn.objects.create(
        round=round_,
        entry=entry,
        checked_in_at=now,
        checked_in_by=actor if actor is not None and actor.is_authenticated else None,
    )


def event_check_in(
    *, actor, league: League, entry: Entry, now=None, as_system: bool = False
) -> bool:
    """The entrant is here (front desk). Returns False when they already were."""
    now = now or timezone.now()
    with transaction.atomic():
        league = lock_event(league)
        require(actor, league, staff=True, as_system=as_system)
        entry = Entry.objects.select_for_update().get(pk=entry.pk, league=league)
        if entry.withdrawn_at is not None:
            raise EventError(f"{entry.player.name} has left the event.")
        return check_in_entry(league, entry, actor, now) is not None


def event_arrive(*, actor, league: League, entry: Entry, now=None) -> str:
    """Someone at the door gives their number or scans their card: checked in ("checked_in"),
    or already here ("already"); someone marked as leaving comes back ("back": paired again
    from the next round to pair), so the desk never has to find the other button."""
    now = now or timezone.now()
    with transaction.atomic():
        league = lock_event(league)
        require(actor, league, staff=True)
        entry = Entry.objects.select_for_update().get(pk=entry.pk, league=league)
        if entry.withdrawn_at is not None:
            entry.withdrawn_at = None
            entry.withdrawn_reason = ""
            entry.save(update_fields=["withdrawn_at", "withdrawn_reason"])
            check_in_entry(league, entry, actor, now)
            refresh_leagues([league.pk])
            return "back"
        return "checked_in" if check_in_entry(league, entry, actor, now) else "already"


def event_check_out(*, actor, league: League, entry: Entry) -> None:
    """Undo a check-in made by mistake; refused once they have been paired (they leave
    instead: ``entrant_leave``)."""
    with transaction.atomic():
        league = lock_event(league)
        require(actor, league, staff=True)
        if has_played(entry):
            raise EventError(
                f"{entry.player.name} is already paired: mark them as leaving instead."
            )
        CheckIn.objects.filter(round__league=league, entry=entry).delete()


def entrant_leave(*, actor, league: League, entry: Entry, reason: str = "", now=None) -> None:
    """An entrant leaves mid-event (E3): they keep their scores and are not paired again. Their
    table in a round under way keeps its place: its card is entered as played, or the round's
    closing makes it a double forfeit."""
    now = now or timezone.now()
    with transaction.atomic():
        league = lock_event(league)
        require(actor, league, staff=True)
        entry = Entry.objects.select_for_update().get(pk=entry.pk, league=league)
        if entry.withdrawn_at is not None:
            raise EventError(f"{entry.player.name} has already left.")
        entry.withdrawn_at = now
        entry.withdrawn_reason = (reason or "").strip() or "Left the event"
        entry.save(update_fields=["withdrawn_at", "withdrawn_reason"])
        refresh_leagues([league.pk])


def entrant_return(*, actor, league: League, entry: Entry) -> None:
    """An entrant marked as leaving comes back (or was marked by mistake): paired again from
    the next round to pair."""
    with transaction.atomic():
        league = lock_event(league)
        require(actor, league, staff=True)
        entry = Entry.objects.select_for_update().get(pk=entry.pk, league=league)
        if entry.withdrawn_at is None:
            raise EventError(f"{entry.player.name} has not left.")
        entry.withdrawn_at = None
        entry.withdrawn_reason = ""
        entry.save(update_fields=["withdrawn_at", "withdrawn_reason"])
        refresh_leagues([league.pk])
