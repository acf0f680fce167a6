"""Reading an event (E3, E5): its rounds and tables, the board (the leaderboard's rows), who is
checked in, the next round and the round's clock; each page reads the event through
``event_state`` in a fixed number of queries."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Count, F, Q

from events.leaderboard import BoardEntrant, BoardTable, Leaderboard, leaderboard
from events.models import (
    AssistSale,
    RoundCards,
    SentCard,
    TableCard,
    event_of_league,
)
from league.door import search_filter
from league.models import CheckIn, Entry, League, Round
from league.names import NamesAt
from league.selectors import rating_cells
from matches.models import FINAL_STATUSES, OPEN_STATUSES, Match, MatchStatus, Seat


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


def board_of(
    league: League, entries: Sequence[Entry], rounds, up_to: int | None = None, style: str = ""
):
    """The leaderboard (a pure function's answer) from the event's entries and tables; only
    rounds numbered below `up_to` when given (what a pairing may look at); players named under
    a privacy style (``league.names``; empty: as given)."""
    categories = list(league.categories.order_by("position", "id"))
    names = {c.pk: c.name for c in categories}
    entrants = [
        BoardEntrant(
            id=entry.player_id,
            number=entry.player_number,
            name=entry.player.name_in(style, entry.player_number),
            category=names.get(entry.entrant.category_id, ""),
            team=entry.entrant.team.name if entry.entrant.team_id else None,
            withdrawn=entry.withdrawn_at is not None,
            rating=_shown_rating(entry),
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
        # The champion is named once the last round is complete (a board up to a round, what a
        # pairing looks at, names none).
        decided=up_to is None
        and bool(rounds)
        and all(round_status(matches) == "complete" for _, matches in rounds),
    )


def rating_of(entry: Entry) -> dict:
    """The entrant's rating now (R1) as standings show it, read with the entries (no query of
    its own): event.json's two keys and the leaderboard's column."""
    try:
        rated = entry.player.rating
    except ObjectDoesNotExist:
        return rating_cells(None, None)
    return rating_cells(rated.rating, rated.deviation)


def _shown_rating(entry: Entry) -> str:
    cells = rating_of(entry)
    return cells["rating_display"] if cells["rating"] is not None else ""


def event_entries(league: League) -> list[Entry]:
    return list(
        Entry.objects.filter(league=league)
        .select_related("player__user", "player__rating", "entrant__category", "entrant__team")
        .order_by("player_number", "id")
    )


@dataclass
class EventState:
    league: League
    entries: list[Entry]
    rounds: list[tuple[Round, list[Match]]]
    board: Leaderboard
    style: str = ""  # how its pages name players (``league.names``)

    @cached_property
    def names(self) -> NamesAt:
        """Its pages' naming: the style, and each entrant's player number (P2); made once, as
        every seat of a round asks it (made for each, a 500-table round's pages and printouts
        numbered all its entrants a thousand times)."""
        return NamesAt(self.style, numbers_of(self.entries))


def numbers_of(entries) -> dict[int, int]:
    """Each entrant's player number by profile id: what they go by here when shown by number."""
    return {entry.player_id: entry.player_number for entry in entries if entry.player_number}


def event_state(league: League, style: str = "") -> EventState:
    """What the event's pages show: entries, rounds with tables, the leaderboard, its players
    named under a privacy style (``league.names``: the page's reader decides it)."""
    entries = event_entries(league)
    rounds = rounds_with_tables(league)
    return EventState(
        league, entries, rounds, board_of(league, entries, rounds, style=style), style
    )


def next_round(league: League) -> Round | None:
    """The first round not yet paired (None once all are)."""
    return league.rounds.filter(matches__isnull=True).order_by("number").first()


def _checked_in(league: League):
    return Entry.objects.filter(
        league=league, withdrawn_at__isnull=True, check_ins__round__league=league
    ).distinct()


def checked_in_entries(league: League) -> list[Entry]:
    """Everyone checked in for the evening who has not left: those a round being paired takes
    in. A check-in waits on the round that was next to pair when they arrived, so someone who
    came after a round was paired is on a later round's; a round is paired (or paired again)
    only while no later one is (the later ones wait for it to be complete), so all of them
    count, the latecomer too."""
    return list(
        _checked_in(league)
        .select_related("player__user", "entrant__category", "entrant__team")
        .order_by("player_number", "id")
    )


def checked_in_without_a_seat(league: League, round_: Round) -> list[Entry]:
    """Those checked in (and still here) who have no seat in the paired round `round_`: they
    came after it was paired, or came back after leaving. One query."""
    return list(
        _checked_in(league)
        .exclude(player__seats__match__round=round_)
        .select_related("player__user")
        .order_by("player_number", "id")
    )


def cards_begun(round_: Round) -> bool:
    """A score is entered in the round, or a players' own card (S1): it is never paired again."""
    tables = Match.objects.filter(round=round_)
    return (
        tables.exclude(status__in=OPEN_STATUSES + [MatchStatus.BYE]).exists()
        or TableCard.objects.filter(match__in=tables).exists()
    )


def round_still_drawable(league: League) -> Round | None:
    """The last paired round while no card of it is in: someone checked in now is paired from
    the next round, or in this one if the director draws it again. None otherwise."""
    last = league.rounds.filter(matches__isnull=False).order_by("-number").first()
    return last if last is not None and not cards_begun(last) else None


def has_played(entry: Entry) -> bool:
    return Seat.objects.filter(match__league=entry.league_id, player=entry.player_id).exists()


def round_starts(league: League, round_: Round) -> datetime | None:
    """When the round's first period starts, in the institution's time zone, on the round's
    own day (the event's, or the next for a round after midnight: events.files.round_days)."""
    first = round_.periods.order_by("number").first()
    if first is None or event_of_league(league).date is None:
        return None
    return datetime.combine(round_.play_by, first.starts, tzinfo=league.season.institution.tz)


def numbers_required(round_: Round) -> bool:
    """The round was paired again or swapped after its cards were printed: each card needs its
    players' numbers typed from it (``RoundCards``)."""
    return RoundCards.objects.filter(round=round_, seating_changed_after_print=True).exists()


# --- The door, the scoring table, the assists table: what their pages list ---------------------


@dataclass
class Desk:
    """The door's list: the entrants the search found, with who is here and who has played."""

    rows: list[dict]
    here_count: int  # checked in and still here
    entrant_count: int  # still in the event (those who left are not)
    left_count: int


def desk(league: League, query: str | None) -> Desk:
    """`query` None lists nobody (a search that could not be read), "" everybody."""
    entries = Entry.objects.filter(league=league).select_related(
        "player__user", "entrant__category", "entrant__team"
    )
    if query is None:
        entries = entries.none()
    elif query:
        entries = entries.filter(search_filter(query))
    here = set(
        CheckIn.objects.filter(round__league=league, entry__withdrawn_at__isnull=True).values_list(
            "entry_id", flat=True
        )
    )
    seated = set(
        Entry.objects.filter(league=league, player__seats__match__league=league).values_list(
            "pk", flat=True
        )
    )
    return Desk(
        rows=[
            {"entry": entry, "here": entry.pk in here, "seated": entry.pk in seated}
            for entry in entries.order_by("player_number", "id")
        ],
        here_count=len(here),
        **Entry.objects.filter(league=league).aggregate(
            entrant_count=Count("pk", filter=Q(withdrawn_at__isnull=True)),
            left_count=Count("pk", filter=Q(withdrawn_at__isnull=False)),
        ),
    )


def player_numbers(league: League) -> dict[int, int]:
    """Each entrant's player number by profile id."""
    return dict(Entry.objects.filter(league=league).values_list("player_id", "player_number"))


def _played_tables(round_: Round):
    return (
        Match.objects.filter(round=round_)
        .exclude(status=MatchStatus.BYE)
        .prefetch_related("seats__player__user")
    )


def late_cards(round_: Round) -> list[SentCard]:
    """The round's cards that devices sent more than a minute after they were typed (kept
    offline meanwhile), and every card refused, by device then arrival: the director's list."""
    return list(
        SentCard.objects.filter(round=round_, kind=SentCard.Kind.SCORING)
        .filter(
            Q(arrived_at__gt=F("typed_at") + timedelta(minutes=1))
            | Q(outcome=SentCard.Outcome.REFUSED)
        )
        .order_by("device", "arrived_at")
    )


def scoring_tables(round_: Round) -> list[Match]:
    """The round's tables (byes left out) with their seats, by table number."""
    return list(_played_tables(round_).order_by("table"))


def scoring_table(round_: Round, table: int) -> Match | None:
    return _played_tables(round_).filter(table=table).first()


def assist_tables(league: League, round_: Round) -> list[tuple[Match, list[Entry | None], str]]:
    """The round's tables for the assists table: each with its seats' entrants (and teams) and
    the page anchor that brings the seller back to it."""
    entries = {
        entry.player_id: entry
        for entry in Entry.objects.filter(league=league).select_related(
            "player__user", "entrant__team"
        )
    }
    return [
        (
            match,
            [entries.get(seat.player_id) for seat in match.seats.all()],
            f"table-{match.table or match.pk}",
        )
        for match in Match.objects.filter(round=round_)
        .order_by("table", "id")
        .prefetch_related("seats__player__user")
    ]


def recent_sales(league: League, count: int = 30):
    return (
        AssistSale.objects.filter(league=league)
        .select_related("item", "entry__player__user", "round")
        .order_by("-sold_at", "-id")[:count]
    )


def table_seats(round_: Round, table: int) -> tuple[Match, list[tuple[Seat, Entry | None]]] | None:
    """A table of the round with each seat's entrant (category and team), None when there is
    no such table."""
    match = (
        Match.objects.prefetch_related("seats__player__user")
        .filter(round=round_, table=table)
        .first()
    )
    if match is None:
        return None
    entries = {
        entry.player_id: entry
        for entry in Entry.objects.filter(
            league=round_.league_id, player__in=[seat.player_id for seat in match.seats.all()]
        ).select_related("entrant__category", "entrant__team")
    }
    return match, [(seat, entries.get(seat.player_id)) for seat in match.seats.all()]


def round_cards(round_: Round) -> RoundCards | None:
    return RoundCards.objects.filter(round=round_).first()


def paired_round(league: League, number: int) -> Round | None:
    """The round `number` once it has tables, None before."""
    return league.rounds.filter(number=number, matches__isnull=False).distinct().first()


# --- A volunteer's home ---------------------------------------------------------------------


def scoring_for(user) -> list[League]:
    """The events a volunteer was invited to score, newest first, each with its event row."""
    return list(
        League.objects.filter(scorers__user=user)
        .select_related("season__institution", "event")
        .order_by("-event__date", "name")
    )


def round_to_score(league: League) -> Round | None:
    """The round whose cards are coming in: the first paired round with a table still without
    its card, else the last paired round; None before any is paired."""
    paired = league.rounds.filter(matches__isnull=False).distinct().order_by("number")
    waiting = paired.filter(
        matches__in=Match.objects.exclude(status__in=[*FINAL_STATUSES, MatchStatus.BYE])
    ).first()
    return waiting or paired.last()
