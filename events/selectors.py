"""Reading an event (E3, E5): its rounds and tables, the board (the leaderboard's rows), who is
checked in, the next round and the round's clock; each page reads the event through
``event_state`` in a fixed number of queries."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import F, Q, Sum

from events.leaderboard import BoardEntrant, BoardTable, Leaderboard, leaderboard
from events.models import AssistItem, AssistSale, RoundCards, event_of_league
from league.models import Entry, League, Round
from matches.models import FINAL_STATUSES, Match, MatchStatus, Seat


def round_status(tables: Sequence[Match]) -> str:
    """ "unpaired", "paired" (some table without its result) or "complete" (event.json)."""
    if not tables:
        return "unpaired"
    return "complete" if all(table.status in FINAL_STATUSES for table in tables) else "paired"


def rounds_with_tables(league: League) -> list[tuple[Round, list[Match]]]:
    """Every round, in order, with its tables (byes last) and their seats: three queries."""
    rounds = list(league.rounds.order_by("number").prefetch_related("periods"))
    tables: dict[int, list[Match]] = {round_.pk: [] for round_ in rounds}
    for match in (
        Match.objects.filter(league=league)
        .order_by("round__number", "table", "id")
        .prefetch_related("seats__player__user")
    ):
        tables[match.round_id].append(match)
    return [(round_, tables[round_.pk]) for round_ in rounds]


def board_of(league: League, entries: Sequence[Entry], rounds, up_to: int | None = None):
    """The leaderboard (a pure function's answer) from the event's entries and tables; only
    rounds numbered below `up_to` when given (what a pairing may look at)."""
    categories = list(league.categories.order_by("position", "id"))
    names = {c.pk: c.name for c in categories}
    entrants = [
        BoardEntrant(
            id=entry.player_id,
            number=entry.player_number,
            name=entry.player.name,
            category=names.get(entry.entrant.category_id, ""),
            team=entry.entrant.team.name if entry.entrant.team_id else None,
            withdrawn=entry.withdrawn_at is not None,
        )
        for entry in entries
    ]
    tables = []
    for round_, matches in rounds:
        if up_to is not None and round_.number >= up_to:
            continue
        for match in matches:
            if match.status in (MatchStatus.CONFIRMED, MatchStatus.RESOLVED):
                seats = tuple((s.player_id, s.score) for s in match.seats.all())
            elif match.status in (MatchStatus.BYE, MatchStatus.DOUBLE_FORFEIT):
                seats = tuple((s.player_id, None) for s in match.seats.all())
            else:
                continue  # not played yet
            tables.append(
                BoardTable(
                    round=round_.number,
                    seats=seats,
                    bye=match.status == MatchStatus.BYE,
                    double_forfeit=match.status == MatchStatus.DOUBLE_FORFEIT,
                )
            )
    event = event_of_league(league)
    champion = next((c.name for c in categories if c.pk == event.champion_category_id), None)
    return leaderboard(
        entrants,
        tables,
        categories=[c.name for c in categories],
        champion_category=champion,
        team_size=event.team_size,
        short_team=event.short_team,
    )


def event_entries(league: League) -> list[Entry]:
    return list(
        Entry.objects.filter(league=league)
        .select_related("player__user", "entrant__category", "entrant__team")
        .order_by("player_number", "id")
    )


@dataclass
class EventState:
    league: League
    entries: list[Entry]
    rounds: list[tuple[Round, list[Match]]]
    board: Leaderboard


def event_state(league: League) -> EventState:
    """What the event's pages show: entries, rounds with tables, the leaderboard."""
    entries = event_entries(league)
    rounds = rounds_with_tables(league)
    return EventState(league, entries, rounds, board_of(league, entries, rounds))


def next_round(league: League) -> Round | None:
    """The first round not yet paired (None once all are)."""
    return league.rounds.filter(matches__isnull=True).order_by("number").first()


def checked_in_entries(league: League, round_: Round) -> list[Entry]:
    """Entrants checked in for this round or an earlier one, who have not left."""
    return list(
        Entry.objects.filter(
            league=league,
            withdrawn_at__isnull=True,
            check_ins__round__league=league,
            check_ins__round__number__lte=round_.number,
        )
        .distinct()
        .select_related("player__user", "entrant__category", "entrant__team")
        .order_by("player_number", "id")
    )


def has_played(entry: Entry) -> bool:
    return Seat.objects.filter(match__league=entry.league_id, player=entry.player_id).exists()


@dataclass(frozen=True)
class RoundClock:
    """Where a round stands at a moment (E5's periods): "before" it, in "period" N with
    `minutes_left`, in the "break" before period N, or "over"."""

    state: str
    period: int = 0
    minutes_left: int = 0

    def __str__(self) -> str:
        if self.state == "period":
            return f"Period {self.period}: {self.minutes_left} min left"
        if self.state == "break":
            return f"Break: period {self.period} starts in {self.minutes_left} min"
        if self.state == "before":
            return f"Starts in {self.minutes_left} min"
        return "Time is up: play on until every player has had the same number of turns"


def round_clock(day, periods, tz, now: datetime) -> RoundClock:
    """The round's clock from its day, its periods [(starts, minutes)] and the time zone."""
    spans = []
    for starts, minutes in periods:
        begin = datetime.combine(day, starts, tzinfo=tz)
        spans.append((begin, begin + timedelta(minutes=minutes)))
    if not spans:
        return RoundClock("over")

    def minutes_until(moment) -> int:
        return max(0, -(-int((moment - now).total_seconds()) // 60))  # rounded up

    for number, (begin, end) in enumerate(spans, start=1):
        if now < begin:
            return RoundClock("before" if number == 1 else "break", number, minutes_until(begin))
        if now < end:
            return RoundClock("period", number, minutes_until(end))
    return RoundClock("over")


def round_starts(league: League, round_: Round) -> datetime | None:
    """When the round's first period starts, in the institution's time zone."""
    first = round_.periods.order_by("number").first()
    if first is None or event_of_league(league).date is None:
        return None
    return datetime.combine(
        event_of_league(league).date, first.starts, tzinfo=league.season.institution.tz
    )


# --- Assists: the price in force and the ledger (E5) -----------------------------------------


def current_round(league: League) -> Round | None:
    """The round under way: the last paired one, else the first."""
    rounds = league.rounds.order_by("number")
    return rounds.filter(matches__isnull=False).order_by("-number").first() or rounds.first()


def later_price_from(league: League) -> datetime | None:
    """When the later prices start: the second period of round 1, else round 2's start."""
    rounds = list(league.rounds.order_by("number").prefetch_related("periods")[:2])
    if not rounds or event_of_league(league).date is None:
        return None
    tz = league.season.institution.tz
    first_periods = list(rounds[0].periods.all())
    if len(first_periods) > 1:
        return datetime.combine(event_of_league(league).date, first_periods[1].starts, tzinfo=tz)
    if len(rounds) > 1 and rounds[1].periods.all():
        return datetime.combine(
            event_of_league(league).date, rounds[1].periods.all()[0].starts, tzinfo=tz
        )
    return None


def price_in_force(item: AssistItem, round_: Round, now: datetime, later_from) -> int:
    if round_.number > 1 or (later_from is not None and now >= later_from):
        return item.later_cents
    return item.first_cents


@dataclass
class Ledger:
    total_cents: int
    by_item: list[tuple[str, int, int]]  # (item, quantity, cents)
    by_team: list[tuple[str, int]]  # (team or "No team", cents), most first
    by_round: list[tuple[int, int]]  # (round number, cents)


LIVE = Q(voided_at__isnull=True)
CENTS = Sum(F("quantity") * F("unit_cents"))


def ledger(league: League) -> Ledger:
    """Money raised, by item, team and round: four aggregate queries, whatever the sales."""
    sales = AssistSale.objects.filter(LIVE, league=league)
    by_item = [
        (row["item__name"], row["sold"], row["cents"])
        for row in sales.values("item__name", "item__position")
        .annotate(sold=Sum("quantity"), cents=CENTS)
        .order_by("item__position", "item__name")
    ]
    by_team = [
        (row["entry__entrant__team__name"] or "No team", row["cents"])
        for row in sales.values("entry__entrant__team__name")
        .annotate(cents=CENTS)
        .order_by("-cents")
    ]
    by_round = [
        (row["round__number"], row["cents"])
        for row in sales.values("round__number").annotate(cents=CENTS).order_by("round__number")
    ]
    return Ledger(
        total_cents=sales.aggregate(cents=CENTS)["cents"] or 0,
        by_item=by_item,
        by_team=by_team,
        by_round=by_round,
    )


def numbers_required(round_: Round) -> bool:
    """The round was paired again or swapped after its cards were printed: each card needs its
    players' numbers typed from it (``RoundCards``)."""
    return RoundCards.objects.filter(round=round_, seating_changed_after_print=True).exists()
