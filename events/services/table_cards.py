"""Players enter their own table's card (S1–S6, ours): the table's scorekeeper enters every
seat's score from the table's page, the other seats confirm it on their own phones or one after
another on the same phone, and the card counts once they agree (S2). A seat that disagrees
enters its own version: the table is then in conflict and only the event's staff settle it
(S3). A signed-in entrant is known by their login; a guest proves their seat with the seat's
code printed on the card (``events.seat_codes``), and wrong codes are limited per table and
per device, every attempt kept (S4).

Every change here locks the table's match row first, as the scoring table's card service and
the pairing do, so a confirmation, a correction, a card typed at the scoring table and a
re-pairing of the same table happen one after another; the partial unique constraints on
``TableCard`` are the last guard against two cards of one table both counting."""

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from accounts.naming import Said
from core.errors import NotAllowed
from events.card_board import round_time_up, self_entry_open
from events.models import CardConfirmation, SeatCodeAttempt, TableCard
from events.rights import EventError
from events.seat_codes import (
    CODE_WINDOW,
    WRONG_CODES_PER_DEVICE,
    WRONG_CODES_PER_TABLE,
    matches_code,
)
from matches import services as match_services
from matches.models import GameEnd, Match, MatchStatus, Seat
from matches.services import scoreline


@dataclass(frozen=True)
class SeatProof:
    """Who is acting at the table: a signed-in user (their login proves their own seat), or
    a seat's order with its code; `device` is the device cookie's id."""

    user: object = None
    order: int | None = None
    code: str = ""
    device: str = ""


class WrongSeatCode(NotAllowed):
    """The code is not that seat's, or too many wrong codes came from this table or device."""


def _about_seat(text: str, seat: Seat, league) -> Said:
    """A sentence about a seat, "{seat}" in `text` where it goes: "seat 2 (her name)", her name
    in the names the reader may read (``accounts.naming``): a refusal at the table's page is
    read by anyone holding its link."""
    return Said(
        text.replace("{seat}", f"seat {seat.order} ({{}})"),
        (seat.player, _number(league, seat)),
        league=league,
    )


def _number(league, seat: Seat) -> int | None:
    """The seat's player number at the event: who they are on the card (P2)."""
    return (
        league.entries.filter(player_id=seat.player_id)
        .values_list("player_number", flat=True)
        .first()
    )


# --- Proving a seat ------------------------------------------------------------------------------


def _own_seat(user, seats: list[Seat]) -> Seat | None:
    return match_services.seat_of(user, seats) if user is not None else None


def _prove(match: Match, seats: list[Seat], proof: SeatProof, action: str, now):
    """The seat `proof` proves, or the refusal to raise once the attempt is kept (raising here
    would roll the attempt back with the rest). Called with the table locked, so the wrong
    codes of one table are counted one after another."""
    user = proof.user if getattr(proof.user, "is_authenticated", False) else None
    own = _own_seat(user, seats) if user else None
    if own is not None and proof.order in (None, own.order):
        return own, None
    seat = next((seat for seat in seats if seat.order == proof.order), None)
    if seat is None:
        return None, EventError("Choose your seat at this table.")
    if not proof.code.strip():
        return None, EventError(
            _about_seat(
                "Type {seat}'s code: it is printed beside their name on the card.",
                seat,
                match.league,
            )
        )
    since = now - CODE_WINDOW
    wrong = SeatCodeAttempt.objects.filter(ok=False, at__gte=since)
    if wrong.filter(match=match).count() >= WRONG_CODES_PER_TABLE:
        refusal = WrongSeatCode(
            "Too many wrong codes were typed at this table: ask at the scoring table, or try "
            "again in a few minutes."
        )
        ok = False
    elif proof.device and wrong.filter(device=proof.device).count() >= WRONG_CODES_PER_DEVICE:
        refusal = WrongSeatCode(
            "Too many wrong codes from this phone: ask at the scoring table, or try again in a "
            "few minutes."
        )
        ok = False
    else:
        ok = matches_code(match, seat, proof.code)
        refusal = (
            None
            if ok
            else WrongSeatCode(
                _about_seat(
                    "That is not {seat}'s code for this round: check the card.", seat, match.league
                )
            )
        )
    SeatCodeAttempt.objects.create(
        match=match,
        seat_order=seat.order,
        device=proof.device[:40],
        ok=ok,
        action=action,
        at=now,
    )
    return (seat if ok else None), refusal


def _open_table(match: Match, now) -> tuple[list[Seat], bool]:
    """The table's seats, once self-entry is open for its round; and whether its time is up."""
    league = match.league
    if not self_entry_open(league, match.round):
        raise EventError(
            f"Cards for round {match.round.number} are entered at the scoring table: hand "
            "yours in there."
        )
    seats = match_services.seats_of(match)
    if match.status == MatchStatus.BYE or len(seats) < 2:
        raise EventError("A bye has no score card.")
    return seats, round_time_up(league, match.round, now)


def already_in(match: Match, seats: list[Seat]) -> EventError:
    if match.status in match_services.SCORED_STATUSES:
        scores = scoreline([seat.score for seat in seats])
        return EventError(
            f"Table {match.table}'s card is already in: {scores}. If that is wrong, see the "
            "scoring table."
        )
    return EventError(
        f"Table {match.table} is already {match.get_status_display().lower()}: see the "
        "scoring table."
    )


def pending_cards(match: Match) -> list[TableCard]:
    return list(
        TableCard.objects.filter(match=match, state=TableCard.State.PENDING).prefetch_related(
            "confirmations"
        )
    )


# --- Entering and confirming at the table --------------------------------------------------------


def table_card_enter(
    *,
    match: Match,
    proof: SeatProof,
    scores: Sequence[int],
    ended_by: str = GameEnd.WENT_OUT,
    unusual_confirmed: bool = False,
    now=None,
) -> TableCard:
    """A seat enters the table's card (S1): the scorekeeper first; once the round's time is
    up, any seat; a seat that disagrees with a card already entered, its own version (S3).
    The same card again changes nothing; the same scores as another seat's version confirm
    it; a seat's new version replaces its earlier one and leaves any version it confirmed."""
    now = now or timezone.now()
    scores = list(scores)
    match_services.require_scores(scores, unusual_confirmed=unusual_confirmed)
    if ended_by not in GameEnd.values:
        raise EventError("Say how the game ended.")
    refusal = None
    with transaction.atomic():
        match = match_services.lock(match)
        seats, time_up = _open_table(match, now)
        seat, refusal = _prove(match, seats, proof, "enter", now)
        if refusal is None:
            card = _enter(match, seats, seat, proof, scores, ended_by, time_up, now)
    if refusal is not None:
        raise refusal
    return card


def _enter(match, seats, seat, proof, scores, ended_by, time_up, now) -> TableCard:
    if match.is_final:
        raise already_in(match, seats)
    if len(scores) != len(seats):
        raise EventError(
            f"This table has {len(seats)} seats: enter one score for each ({len(scores)} given)."
        )
    pending = pending_cards(match)
    mine = next((card for card in pending if card.seat_order == seat.order), None)
    others = [card for card in pending if card.seat_order != seat.order]
    if mine is None and not others and seat.order != match.scorekeeper and not time_up:
        keeper = next((each for each in seats if each.order == match.scorekeeper), seats[0])
        raise EventError(
            _about_seat(
                "The scorekeeper, {seat}, enters the table's card; any seat may once the "
                "round's time is up.",
                keeper,
                match.league,
            )
        )
    if mine is not None and mine.scores == scores and mine.ended_by == ended_by:
        return mine  # the same card again
    same = next((card for card in others if card.scores == scores), None)
    if same is not None:
        return _confirm(match, seats, same, seat, proof, time_up, now)
    if mine is not None:
        mine.state = TableCard.State.REPLACED
        mine.settled_at = now
        mine.save(update_fields=["state", "settled_at"])
    # A seat holds one view of the card: entering a version leaves any it had confirmed.
    CardConfirmation.objects.filter(card__in=others, seat_order=seat.order).delete()
    user = proof.user if getattr(proof.user, "is_authenticated", False) else None
    card = TableCard.objects.create(
        match=match,
        seat_order=seat.order,
        entered_by=user if _own_seat(user, seats) == seat else None,
        players=[each.player_id for each in seats],
        scores=scores,
        ended_by=ended_by,
        entered_at=now,
    )
    count_if_agreed(match, seats, time_up, now)
    return card


def table_card_confirm(*, match: Match, card_id: int, proof: SeatProof, now=None) -> TableCard:
    """A seat confirms the version it was shown (S2); a version corrected since is refused,
    so a confirmation never lands on scores its seat did not see."""
    now = now or timezone.now()
    refusal = None
    with transaction.atomic():
        match = match_services.lock(match)
        seats, time_up = _open_table(match, now)
        seat, refusal = _prove(match, seats, proof, "confirm", now)
        if refusal is None:
            card = TableCard.objects.filter(match=match, pk=card_id).first()
            if card is None:
                raise EventError("That card is not this table's.")
            if card.state == TableCard.State.COUNTED:
                return card  # confirmed twice, or counted meanwhile: nothing to do
            if match.is_final:
                raise already_in(match, seats)
            if card.state != TableCard.State.PENDING:
                raise EventError(
                    "The card was corrected since this page was loaded: check the new one and "
                    "confirm it if it is right."
                )
            if seat.order == card.seat_order:
                raise EventError("You entered this card: the other seats confirm it.")
            card = _confirm(match, seats, card, seat, proof, time_up, now)
    if refusal is not None:
        raise refusal
    return card


def _confirm(match, seats, card, seat, proof, time_up, now) -> TableCard:
    TableCard.objects.filter(
        match=match, seat_order=seat.order, state=TableCard.State.PENDING
    ).update(state=TableCard.State.WITHDRAWN, settled_at=now)
    CardConfirmation.objects.filter(
        card__match=match, card__state=TableCard.State.PENDING, seat_order=seat.order
    ).exclude(card=card).delete()
    user = proof.user if getattr(proof.user, "is_authenticated", False) else None
    CardConfirmation.objects.get_or_create(
        card=card,
        seat_order=seat.order,
        defaults={"user": user if _own_seat(user, seats) == seat else None, "at": now},
    )
    count_if_agreed(match, seats, time_up, now)
    card.refresh_from_db()
    return card


def count_if_agreed(match: Match, seats: list[Seat], time_up: bool, now) -> TableCard | None:
    """Count the table's only pending version once every other seat confirmed it, or once one
    did and the round's time is up (S2). Two versions are a conflict: nothing counts (S3)."""
    pending = pending_cards(match)
    if len(pending) != 1:
        return None
    card = pending[0]
    confirmed = {each.seat_order for each in card.confirmations.all()}
    others = {seat.order for seat in seats} - {card.seat_order}
    if not (others <= confirmed or (confirmed and time_up)):
        return None
    count_card(match, seats, card, None, now)
    return card


def count_card(match: Match, seats: list[Seat], card: TableCard, actor, now) -> None:
    """The version becomes the table's result through the card service (audited), and every
    other pending version is overruled."""
    confirmed = sorted(each.seat_order for each in card.confirmations.all())
    note = f"Entered at the table by seat {card.seat_order}" + (
        f", confirmed by seat{'s' if len(confirmed) > 1 else ''} " + ", ".join(map(str, confirmed))
        if confirmed
        else ""
    )
    if actor is not None:
        note += f"; counted at the scoring table by {actor}"
    match_services.card_enter(
        actor=None,
        as_system=True,
        match=match,
        scores=card.scores,
        players=card.players,
        ended_by=card.ended_by,
        unusual_confirmed=True,
        note=note,
        now=now,
    )
    TableCard.objects.filter(match=match, state=TableCard.State.PENDING).exclude(pk=card.pk).update(
        state=TableCard.State.OVERRULED, settled_at=now, settled_by=actor
    )
    card.state = TableCard.State.COUNTED
    card.settled_at = now
    card.settled_by = actor
    card.save(update_fields=["state", "settled_at", "settled_by"])
