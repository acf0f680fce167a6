"""The scoring table's side of the players' own cards (S2, S3, S5): counting one version of a
table's card, a typed card meeting the players' versions, the cards another seat confirmed
counted once their round's time is up, and the director's switch. Every change locks the
table's match row first, as ``table_cards`` does."""

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from core.errors import NotAllowed
from events.card_board import round_time_up
from events.models import RoundSelfEntry, TableCard
from events.rights import EventError, lock_event, may_score, require
from events.services.table_cards import already_in, count_card, count_if_agreed, pending_cards
from league.models import Round
from matches import services as match_services
from matches.models import FINAL_STATUSES, Match, MatchStatus
from matches.services import scoreline


def table_card_count(*, actor, match: Match, card_id: int, now=None) -> TableCard:
    """Staff count one version of a table's card (S3): a conflict settled, or a card whose
    other seats never confirmed. The other versions are overruled."""
    now = now or timezone.now()
    with transaction.atomic():
        match = match_services.lock(match)
        if actor is None or not may_score(actor, match.league):
            raise NotAllowed("Only the event's staff and volunteers settle a table's card.")
        card = TableCard.objects.filter(match=match, pk=card_id).first()
        if card is None:
            raise EventError("That card is not this table's.")
        if card.state == TableCard.State.COUNTED:
            return card
        seats = match_services.seats_of(match)
        if match.is_final:
            raise already_in(match, seats)
        if card.state != TableCard.State.PENDING:
            raise EventError(
                "That version was corrected or withdrawn: count the table's current one."
            )
        count_card(match, seats, card, actor, now)
    return card


def pending_for_staff_card(match: Match, scores: Sequence[int], *, overriding: bool):
    """Called by the scoring table's card service with the table locked: the players' pending
    version the typed card agrees with (it counts), or the conflict when the typed card
    differs from every version and no director's reason overrides (S3)."""
    pending = pending_cards(match)
    if not pending:
        return None
    same = next((card for card in pending if card.scores == list(scores)), None)
    if same is None and not overriding:
        versions = " or ".join(scoreline(card.scores) for card in pending)
        raise match_services.CardConflict(
            f"Table {match.table} has a card its players entered, {versions}, not "
            f"{scoreline(scores)}"
        )
    return same


def after_staff_card(match: Match, agreed: TableCard | None, actor, now) -> None:
    """The typed card is the table's result: the version it agrees with is counted, the rest
    overruled."""
    pending = TableCard.objects.filter(match=match, state=TableCard.State.PENDING)
    if agreed is not None:
        pending.filter(pk=agreed.pk).update(
            state=TableCard.State.COUNTED, settled_at=now, settled_by=actor
        )
    pending.update(state=TableCard.State.OVERRULED, settled_at=now, settled_by=actor)


def settle_due_cards(round_: Round, now=None, *, closing: bool = False) -> int:
    """Count each table's only pending version that another seat confirmed, once the round's
    time is up (or the round is closing). Run when the round ends (a task), when the scoring
    table looks, and when the director closes the round. Returns how many counted."""
    now = now or timezone.now()
    if not closing and not round_time_up(round_.league, round_, now):
        return 0
    due = (
        Match.objects.filter(
            round=round_,
            table_cards__state=TableCard.State.PENDING,
            table_cards__confirmations__isnull=False,
        )
        .distinct()
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    counted = 0
    for match_id in due:
        with transaction.atomic():
            match = match_services.lock(Match(pk=match_id))
            if match.is_final:
                continue
            seats = match_services.seats_of(match)
            counted += count_if_agreed(match, seats, True, now) is not None
    return counted


def settle_all_due_cards(now=None) -> int:
    """``settle_due_cards`` for every round with a confirmed card still pending: beat runs it
    every half minute (events.tasks), so a card counts soon after its round's time is up
    whether or not anyone looks. Returns how many counted."""
    rounds = Round.objects.filter(
        matches__table_cards__state=TableCard.State.PENDING,
        matches__table_cards__confirmations__isnull=False,
    ).distinct()
    return sum(
        settle_due_cards(round_, now)
        for round_ in rounds.select_related("league__season__institution")
    )


# --- The director's switch ------------------------------------------------------------------------


def self_entry_close(*, actor, round: Round, closed: bool = True, now=None) -> None:
    """The director closes self-entry for a round at any time (S5), or opens it again. Cards
    already entered stay for the scoring table to settle."""
    now = now or timezone.now()
    with transaction.atomic():
        league = lock_event(round.league)
        require(actor, league)
        RoundSelfEntry.objects.update_or_create(
            round=round,
            defaults={"closed_at": now if closed else None, "closed_by": actor if closed else None},
        )


def cards_waiting(round_: Round) -> list[int]:
    """The tables of the round whose players' card still waits for a person (S3): in conflict,
    or never confirmed. Closing the round would forfeit them, so it waits for these first."""
    return sorted(
        Match.objects.filter(round=round_, table_cards__state=TableCard.State.PENDING)
        .exclude(status__in=[*FINAL_STATUSES, MatchStatus.BYE])
        .values_list("table", flat=True)
        .distinct()
    )
