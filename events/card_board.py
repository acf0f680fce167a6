"""What the players entered at their tables (S1–S3), as the table's page and the scoring
table read it: each pending version of a table's card with who confirmed it, and the scoring
table's board of what needs a person, in a fixed number of queries."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count

from core.clock import clock_time
from events.models import (
    CodeAttempt,
    RoundSelfEntry,
    RoundStartedEarly,
    TableCard,
    event_of_league,
)
from events.slips import CODE_WINDOW, WRONG_CODES_PER_TABLE
from league.models import League, Round
from matches.models import Match, Seat


def round_ends(league: League, round_: Round) -> datetime | None:
    """When the round's last period ends (its time is up), in the institution's time zone;
    None for a round without periods (a club night's, or an event's set up without times)."""
    periods = list(round_.periods.order_by("number"))
    if not periods or event_of_league(league).date is None:
        return None
    tz = league.season.institution.tz
    begin = datetime.combine(round_.play_by, periods[0].starts, tzinfo=tz)
    end = begin
    for period in periods:
        starts = datetime.combine(round_.play_by, period.starts, tzinfo=tz)
        if starts < begin:  # a period after midnight
            starts += timedelta(days=1)
        end = max(end, starts + timedelta(minutes=period.minutes))
    return end


def round_begun(league: League, round_: Round, now: datetime) -> bool:
    """The round's tables take cards: its first period has begun, or the director started it
    early (``RoundStartedEarly``). A round without a time (no periods, or an event without a
    day) has begun as soon as it is paired."""
    starts = round_begins(league, round_)
    if starts is None or now >= starts:
        return True
    return RoundStartedEarly.objects.filter(round=round_).exists()


def round_begins(league: League, round_: Round) -> datetime | None:
    """When the round's first period begins, in the institution's time zone; None for a round
    without periods or an event without a day."""
    first = round_.periods.order_by("number").first()
    if first is None or event_of_league(league).date is None:
        return None
    return datetime.combine(round_.play_by, first.starts, tzinfo=league.season.institution.tz)


def not_begun_yet(league: League, round_: Round, now: datetime) -> str:
    """ "" once the round's tables take cards, else the words saying when it begins."""
    return "" if round_begun(league, round_, now) else not_begun_words(league, round_)


def not_begun_words(league: League, round_: Round) -> str:
    """ "Round 2 starts at 8:00 PM", in the campus's clock."""
    return f"Round {round_.number} starts at {clock_time(round_begins(league, round_))}"


def round_time_up(league: League, round_: Round, now: datetime) -> bool:
    """The round's time is up (S2): its last period ended. A round without periods has no
    clock: its time is up from the start, and one other seat's confirmation counts a card."""
    ends = round_ends(league, round_)
    return ends is None or now >= ends


def self_entry_open(league: League, round_: Round) -> bool:
    """Players may enter and confirm their table's card for this round (S1, S5): the event
    allows it and the director has not closed it for the round."""
    if not event_of_league(league).self_entry:
        return False
    closing = RoundSelfEntry.objects.filter(round=round_).values_list("closed_at", flat=True)
    return not any(closed is not None for closed in closing)


@dataclass(frozen=True)
class CardVersion:
    """One pending version of a table's card, as the table's page and the scoring table show
    it: who entered it, each seat's score, who confirmed it and who has not yet."""

    card: TableCard
    entered_by: Seat
    rows: list[tuple[Seat, int, bool]]  # each seat, its score, whether the versions part there
    confirmed: list[Seat]
    waiting: list[Seat]
    # Those waiting who may still say "yes, this is our card": not a seat that entered a
    # version of its own (it disagrees; the scoring table settles it, S3).
    confirmable: list[Seat]


def _versions(cards, seats: list[Seat]) -> list[CardVersion]:
    by_order = {seat.order: seat for seat in seats}
    cards = list(cards)
    # Where versions part, the score is marked: what the scoring table asks the table about.
    differs = [
        len({card.scores[at] for card in cards if at < len(card.scores)}) > 1
        for at in range(len(seats))
    ]
    versions = []
    own_versions = {card.seat_order for card in cards}
    for card in cards:
        confirmed = {each.seat_order for each in card.confirmations.all()}
        waiting = [
            seat for seat in seats if seat.order not in confirmed and seat.order != card.seat_order
        ]
        versions.append(
            CardVersion(
                card=card,
                entered_by=by_order.get(card.seat_order),
                rows=list(zip(seats, card.scores, differs, strict=False)),
                confirmed=[by_order[o] for o in sorted(confirmed) if o in by_order],
                waiting=waiting,
                confirmable=[seat for seat in waiting if seat.order not in own_versions],
            )
        )
    return versions


def table_versions(match: Match, seats: list[Seat]) -> list[CardVersion]:
    """The table's pending versions, oldest first (two queries)."""
    cards = TableCard.objects.filter(match=match, state=TableCard.State.PENDING).prefetch_related(
        "confirmations"
    )
    return _versions(cards, seats)


@dataclass
class CardBoard:
    """What the scoring table must look at in a round where players enter their own cards
    (S3): conflicts, tables owing a card (tsh's "missing"), cards still waiting for a
    confirmation once the round's time is up, and tables locked by wrong codes. Tables that
    need nothing are only counted."""

    conflicts: list[tuple[Match, list[CardVersion]]]
    missing: list[Match]
    unconfirmed: list[tuple[Match, CardVersion]]
    locked: list[Match]
    counted: int
    confirming: int
    time_up: bool

    @property
    def needs_a_person(self) -> int:
        return len(self.conflicts) + len(self.missing) + len(self.unconfirmed) + len(self.locked)


def card_board(league: League, round_: Round, tables: Sequence[Match], now: datetime) -> CardBoard:
    """The scoring table's board from the round's tables (with their seats prefetched), in
    three queries whatever the number of tables."""
    time_up = round_time_up(league, round_, now)
    cards: dict[int, list[TableCard]] = {}
    for card in TableCard.objects.filter(
        match__round=round_, state=TableCard.State.PENDING
    ).prefetch_related("confirmations"):
        cards.setdefault(card.match_id, []).append(card)
    locked_ids = set(
        CodeAttempt.objects.filter(match__round=round_, ok=False, at__gte=now - CODE_WINDOW)
        .values("match_id")
        .annotate(wrong=Count("id"))
        .filter(wrong__gte=WRONG_CODES_PER_TABLE)
        .values_list("match_id", flat=True)
    )
    board = CardBoard([], [], [], [], 0, 0, time_up)
    for match in tables:
        seats = list(match.seats.all())
        if match.pk in locked_ids and not match.is_final:
            board.locked.append(match)
        if match.is_final:
            board.counted += 1
        elif len(cards.get(match.pk, [])) > 1:
            board.conflicts.append((match, _versions(cards[match.pk], seats)))
        elif match.pk in cards:
            if time_up:
                board.unconfirmed.append((match, _versions(cards[match.pk], seats)[0]))
            else:
                board.confirming += 1
        elif time_up:
            board.missing.append(match)
    return board
