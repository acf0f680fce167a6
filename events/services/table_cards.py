"""Players enter their own table's card (S1–S6, ours): the table's scorekeeper enters every
seat's score from the table's page, the other seats confirm it on their own phones or one after
another on the same phone, and the card counts once they agree (S2). A seat that disagrees
enters its own version: the table is then in conflict and only the event's staff settle it
(S3). A signed-in entrant is known by their login; every other entrant by their own slip (S4,
``events.slips``): the phone that opened its link remembers them, or its code is typed here.
The table's card carries no codes, so the player who keeps it cannot act for the others; wrong
codes are limited per table and per device, every attempt kept.

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
from events.card_board import not_begun_words, round_begun, round_time_up, self_entry_open
from events.models import CardConfirmation, CodeAttempt, EntrantSlip, TableCard
from events.rights import EventError
from events.slips import (
    CODE_WINDOW,
    MOST_SLIPS_ON_A_PHONE,
    WRONG_CODES_PER_DEVICE,
    WRONG_CODES_PER_TABLE,
    normalised,
)
from matches import services as match_services
from matches.models import GameEnd, Match, MatchStatus, Seat
from matches.services import scoreline


@dataclass(frozen=True)
class SeatProof:
    """Who is acting at the table (S4): a signed-in user (their login proves their own seat),
    the entrants this phone remembers (`slips`: their slips' tokens, from the phone's cookie),
    or a slip's code typed here. `order` is the seat they act for (None: the one the proof
    gives, when it gives one); `device` is the device cookie's id."""

    user: object = None
    slips: tuple[str, ...] = ()
    code: str = ""
    order: int | None = None
    device: str = ""


@dataclass(frozen=True)
class Proved:
    """The seat a proof proved, and the slip a typed code proved it with (the phone remembers
    it from now on), or the refusal to raise once the attempt is kept."""

    seat: Seat | None = None
    slip: EntrantSlip | None = None
    refusal: Exception | None = None


class WrongCode(NotAllowed):
    """The code is no live slip's of a player at this table, or too many wrong codes came from
    this table or this phone."""


def _about_seat(text: str, seat: Seat, league) -> Said:
    """A sentence about a seat, "{seat}" in `text` where it goes: "seat 2 (No. 7, her name)",
    her name in the names the reader may read (``accounts.naming``): a refusal at the table's
    page is read by anyone holding its link."""
    number = _number(league, seat)
    where = f"seat {seat.order} (No. {number}, {{}})" if number else f"seat {seat.order} ({{}})"
    return Said(text.replace("{seat}", where), (seat.player, number), league=league)


def _number(league, seat: Seat) -> int | None:
    """The seat's player number at the event: who they are on the card (P2)."""
    return (
        league.entries.filter(player_id=seat.player_id)
        .values_list("player_number", flat=True)
        .first()
    )


def _own_seat(user, seats: list[Seat]) -> Seat | None:
    return match_services.seat_of(user, seats) if user is not None else None


def _prove(match: Match, seats: list[Seat], proof: SeatProof, action: str, now) -> Proved:
    """The seat `proof` proves at this table. Called with the table locked, so the wrong codes
    of one table are counted one after another; a typed code's attempt is kept whatever comes
    of it (the refusal is raised by the caller, after the attempt's commit)."""
    user = proof.user if getattr(proof.user, "is_authenticated", False) else None
    by_player = {seat.player_id: seat for seat in seats}
    provable = {}  # seat order -> seat, for the seats this phone may act for
    own = _own_seat(user, seats) if user else None
    if own is not None:
        provable[own.order] = own
    remembered = EntrantSlip.objects.filter(
        token__in=list(proof.slips)[:MOST_SLIPS_ON_A_PHONE],
        revoked_at=None,
        entry__league_id=match.league_id,
        entry__player_id__in=list(by_player),
    ).values_list("entry__player_id", flat=True)
    for player_id in remembered:
        provable[by_player[player_id].order] = by_player[player_id]
    if proof.order is not None and proof.order not in {seat.order for seat in seats}:
        return Proved(refusal=EventError("Choose your seat at this table."))
    if proof.code.strip():
        return _prove_by_code(match, seats, proof, provable, action, now)
    if proof.order is None:
        if own is not None:  # a signed-in player acts for their own seat unless they choose
            return Proved(seat=own)
        if len(provable) == 1:
            return Proved(seat=next(iter(provable.values())))
        if provable:
            return Proved(refusal=EventError("Choose whose seat you act for at this table."))
        return Proved(
            refusal=EventError(
                "This phone does not know your seat yet: open the link on your slip, or type "
                "your slip's code."
            )
        )
    if proof.order in provable:
        return Proved(seat=provable[proof.order])
    seat = next(seat for seat in seats if seat.order == proof.order)
    return Proved(
        refusal=NotAllowed(
            _about_seat(
                "Only {seat} acts for their seat: on their own phone, with their own slip, or at "
                "the scoring table.",
                seat,
                match.league,
            )
        )
    )


def _prove_by_code(match, seats, proof, provable, action, now) -> Proved:
    """A slip's code typed at the table: limited per table and per phone, every attempt kept."""
    since = now - CODE_WINDOW
    wrong = CodeAttempt.objects.filter(ok=False, at__gte=since)
    slip, refusal = None, None
    if wrong.filter(match=match).count() >= WRONG_CODES_PER_TABLE:
        refusal = WrongCode(
            "Too many wrong codes were typed at this table: ask at the scoring table, or try "
            "again in a few minutes."
        )
    elif proof.device and wrong.filter(device=proof.device).count() >= WRONG_CODES_PER_DEVICE:
        refusal = WrongCode(
            "Too many wrong codes from this phone: ask at the scoring table, or try again in a "
            "few minutes."
        )
    else:
        slip = EntrantSlip.objects.filter(
            code=normalised(proof.code),
            revoked_at=None,
            entry__league_id=match.league_id,
            entry__player_id__in=[seat.player_id for seat in seats],
        ).first()
        if slip is None:
            refusal = WrongCode(
                "That code is not the slip of a player at this table: check the slip (a slip "
                "printed again has a new code)."
            )
    seat = next(
        (s for s in seats if slip is not None and s.player_id == slip.entry.player_id), None
    )
    if seat is not None and proof.order not in (None, seat.order):
        refusal = NotAllowed(
            _about_seat(
                "That code is {seat}'s slip: it acts for their seat only.", seat, match.league
            )
        )
    CodeAttempt.objects.create(
        league_id=match.league_id,
        match=match,
        entry=slip.entry if slip is not None else None,
        device=proof.device[:40],
        ok=refusal is None,
        action=action,
        at=now,
    )
    if refusal is not None:
        return Proved(refusal=refusal)
    return Proved(seat=seat, slip=slip)


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
    if not round_begun(league, match.round, now):
        raise EventError(
            f"{not_begun_words(league, match.round)}: enter your card once you have played."
        )
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
        proved = _prove(match, seats, proof, "enter", now)
        refusal = proved.refusal
        if refusal is None:
            card = _enter(match, seats, proved.seat, proof, scores, ended_by, time_up, now)
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
        proved = _prove(match, seats, proof, "confirm", now)
        refusal, seat = proved.refusal, proved.seat
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
