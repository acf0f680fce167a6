"""Rating an institution's periods (R1, R2): what the nightly job and `manage.py rate` run.

The periods (a round, or a whole event) are found and fingerprinted in two aggregate queries,
ordered by their play-by day, and only the games of the periods to rate are read. The stored
periods are compared with them in order: everything up to the
first that differs (a late ruling changed its games, or a period now ready falls before it) is
kept, and from there on every period is rated again, so running it twice changes nothing and a
late ruling re-rates from its period forward. One institution is rated by one run at a time
(its row is locked)."""

import hashlib
import logging
from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta

from django.db import connection, transaction
from django.db.models import Count, F, Q, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from accounts.models import Institution
from core.copy import copy_rows, upsert_rows
from core.isolation import Failure, in_words
from matches.models import Match, MatchStatus, Seat

from . import glicko
from .models import ImportedRating, PlayerRating, RatingChange, RatingPeriod
from .naspa import Pairing, table_pairings

RATED_STATUSES = (MatchStatus.CONFIRMED, MatchStatus.RESOLVED)
UNFINISHED_STATUSES = (
    MatchStatus.UNSCHEDULED,
    MatchStatus.SCHEDULED,
    MatchStatus.REPORTED,
    MatchStatus.DISPUTED,
)
logger = logging.getLogger("failures")
IDLE_DAYS = 7  # a week without games widens a rating's deviation by one idle period (ours)


@dataclass
class Period:
    key: str
    league_id: int
    round_id: int | None
    ends_on: date
    weight: float = 1.0  # its league's weight in ratings (R3)
    unfinished: int = 0
    rounds: list[int] = field(default_factory=list)  # those holding a rated game, in order
    round_prints: list[str] = field(default_factory=list)
    games: dict[int, dict[int, int]] = field(default_factory=dict)  # match -> {player: place}

    @property
    def fingerprint(self) -> str:
        """Its results in short: its one round's fingerprint, or its rounds' together; a weight
        other than 1 is part of it, so changing a league's weight re-rates its periods."""
        prints = self.round_prints if self.weight == 1 else [*self.round_prints, f"w{self.weight}"]
        if len(prints) == 1:
            return prints[0]
        return hashlib.md5(",".join(prints).encode()).hexdigest()

    def pairings(self) -> list[Pairing]:
        """Each seat against each other seat (G9): the better place wins, equal places tie;
        each weighs its league's weight (R3)."""
        return [
            replace(pairing, weight=self.weight) if self.weight != 1 else pairing
            for seats in self.games.values()
            for pairing in table_pairings({player: -place for player, place in seats.items()})
        ]


@dataclass(frozen=True)
class Stopped:
    """The period whose rating failed: the institution's rating stopped there (each period
    starts from the ratings the one before left), and the later periods wait for it."""

    league_id: int
    key: str
    failure: Failure


@dataclass
class RatingRun:
    periods: int = 0  # periods rated (again) by this run
    kept: int = 0  # periods left as they were
    players: int = 0  # players whose rating this run wrote
    stopped: Stopped | None = None  # the period that failed, if one did
    waiting: int = 0  # periods after it, left to rate once it is mended
    # Whose rating this run wrote or took away: the pages that show them follow.
    changed: frozenset[int] = frozenset()

    def line(self) -> str:
        line = f"{self.periods} periods rated, {self.kept} kept, {self.players} players"
        if self.stopped:
            line += f"; stopped at a period that failed ({self.stopped.failure.reason}), "
            line += f"{self.waiting} after it waiting"
        return line


def rate_institution(
    institution: Institution,
    *,
    whole_leagues=(),
    not_ready=(),
    weights: dict[int, float] | None = None,
    from_scratch: bool = False,
    now: datetime | None = None,
) -> RatingRun:
    """Rate what is ready and not yet rated as it stands. `whole_leagues`: the ids of leagues
    rated as one period (events: league asks its formats); `not_ready`: leagues whose games
    are not all there yet (an event with a round still to pair); `weights`: a league's weight
    where it is not 1 (R3); `from_scratch` rates every period again."""
    now = now or timezone.now()
    whole, waiting = set(whole_leagues), set(not_ready)
    with transaction.atomic():
        Institution.objects.select_for_update().filter(pk=institution.pk).first()
        periods = [
            period
            for period in _ready_periods(institution, whole, weights or {})
            if period.league_id not in waiting
        ]
        stored = {p.key: p for p in RatingPeriod.objects.filter(institution=institution)}
        start = 0 if from_scratch else _first_change(periods, stored)
        if start is None:
            return RatingRun(kept=len(periods))
        kept, again = periods[:start], periods[start:]
        undone = RatingPeriod.objects.filter(institution=institution).exclude(
            key__in=[p.key for p in kept]
        )
        # Only these players' ratings can move: those of the periods undone and rated again.
        touched = set(
            RatingChange.objects.filter(period__in=undone).values_list("player_id", flat=True)
        )
        undone.delete()
        state = _state_after(institution)
        _load_games(again)
        rated, stopped = _rate(institution, again, state, now)
        touched |= rated
        written = _store_ratings(state, touched)
        done = len(again) if stopped is None else again.index(stopped[0])
        return RatingRun(
            periods=done,
            kept=len(kept),
            players=written,
            changed=frozenset(touched),
            stopped=None if stopped is None else Stopped(stopped[0].league_id, *stopped[1:]),
            waiting=len(again) - done - 1 if stopped else 0,
        )


def _ready_periods(institution, whole: set[int], weights: dict[int, float]) -> list[Period]:
    """The periods whose every match is final and that hold a rated game, in order, each with
    its fingerprint but not yet its games (``_load_games``): two aggregate queries."""
    rounds = (
        Match.objects.filter(league__season__institution=institution)
        .values("league_id", "round_id", "round__play_by")
        .annotate(unfinished=Count("id", filter=Q(status__in=UNFINISHED_STATUSES)))
        .order_by("round_id")
    )
    prints = _round_fingerprints(institution)
    periods: dict[str, Period] = {}
    for row in rounds:
        league, round_ = row["league_id"], row["round_id"]
        key = _key(league, round_, whole)
        period = periods.get(key)
        if period is None:
            period = periods[key] = Period(
                key,
                league,
                None if league in whole else round_,
                row["round__play_by"],
                weight=weights.get(league, 1.0),
            )
        period.ends_on = max(period.ends_on, row["round__play_by"])
        period.unfinished += row["unfinished"]
        if round_ in prints:
            period.round_prints.append(prints[round_])
            period.rounds.append(round_)
    ready = [p for p in periods.values() if not p.unfinished and p.round_prints]
    return sorted(ready, key=lambda p: (p.ends_on, p.key))


def _round_fingerprints(institution) -> dict[int, str]:
    """Each round's rated results in short: on PostgreSQL the sum of a 64-bit hash of each
    "match:player=place", which needs no sorting (0.29 s for 200,000 matches, where an md5 of
    the ordered text took 0.48 s and reading every seat into Python nearly a second); the
    SQLite demo takes an md5 of the ordered text in Python. Each database keeps its own kind."""
    rated = Seat.objects.filter(
        match__league__season__institution=institution,
        match__status__in=RATED_STATUSES,
        place__isnull=False,
    ).order_by()  # a seat's default order would sort every seat for nothing
    if connection.vendor == "postgresql":
        sql, params = (
            rated.annotate(round_id=F("match__round_id"))
            .values("round_id", "match_id", "player_id", "place")
            .query.sql_with_params()
        )
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT round_id, 'h' || sum(hashtextextended(match_id || ':' || player_id "
                f"|| '=' || place, 0)::numeric) FROM ({sql}) AS seat GROUP BY round_id",
                params,
            )
            return dict(cursor.fetchall())
    lines = defaultdict(list)
    rows = rated.order_by("match_id", "player_id").values_list(
        "match__round_id", "match_id", "player_id", "place"
    )
    for round_, match, player, place in rows:
        lines[round_].append(f"{match}:{player}={place}")
    return {r: hashlib.md5(",".join(text).encode()).hexdigest() for r, text in lines.items()}


def _load_games(periods: list[Period]) -> None:
    """The rated games of these periods, by match: {player: place}; one query."""
    by_round = {round_: period for period in periods for round_ in period.rounds}
    seats = Seat.objects.filter(
        match__round_id__in=list(by_round),
        match__status__in=RATED_STATUSES,
        place__isnull=False,
    ).values_list("match__round_id", "match_id", "player_id", "place")
    for round_, match, player, place in seats.iterator(chunk_size=5000):
        by_round[round_].games.setdefault(match, {})[player] = place
    for period in periods:
        period.games = {m: seats for m, seats in period.games.items() if len(seats) > 1}


def _key(league_id: int, round_id: int, whole: set[int]) -> str:
    return f"l{league_id}" if league_id in whole else f"r{round_id}"


def _first_change(periods: list[Period], stored: dict[str, RatingPeriod]) -> int | None:
    """The position of the first period to rate again, or None when everything stands."""
    computed = {p.key for p in periods}
    for index, period in enumerate(periods):
        before = stored.get(period.key)
        if before is None or before.fingerprint != period.fingerprint:
            return index
    if set(stored) - computed:  # a period no longer ready or gone: rate from where it stood
        gone = min(stored[key].ends_on for key in set(stored) - computed)
        return next((i for i, p in enumerate(periods) if p.ends_on >= gone), len(periods))
    return None


def _state_after(institution) -> dict[int, tuple[glicko.Rated, date | None]]:
    """Each player's rating after the periods still stored: their latest change, or where they
    have none an imported rating (R5), not yet played on (no day)."""
    imported = ImportedRating.objects.filter(player__institution=institution).values_list(
        "player_id", "rating", "deviation"
    )
    state = {
        player: (glicko.Rated(rating, deviation), None) for player, rating, deviation in imported
    }
    latest = (
        RatingChange.objects.filter(period__institution=institution)
        .annotate(
            newest=Window(
                RowNumber(),
                partition_by=F("player_id"),
                order_by=[F("period__ends_on").desc(), F("period__key").desc()],
            )
        )
        .filter(newest=1)
        .values_list("player_id", "rating", "deviation", "volatility", "games", "period__ends_on")
    )
    state.update(
        (player, (glicko.Rated(rating, deviation, volatility, games), ends_on))
        for player, rating, deviation, volatility, games, ends_on in latest
    )
    return state


def _rate(institution, periods: list[Period], state, now):
    """Rate the periods in order, carrying `state` (player -> rating, last played) along; the
    periods and changes are written in two statements at the end. Returns who was rated, and
    (the period, its key, the failure) where a period's rating failed: the periods before it
    are rated, it and those after it wait (each starts from the ratings the one before left)."""
    rows, changes = [], []
    for period in periods:
        try:
            before, after = _rate_period(period, state)
        except Exception as error:  # noqa: BLE001 - said in words, logged whole
            logger.error(
                "%s: rating period %s failed", institution.slug, period.key, exc_info=error
            )
            return _write(rows, changes), (
                period,
                period.key,
                Failure("rating", in_words("rating", error)),
            )
        row = RatingPeriod(
            institution=institution,
            league_id=period.league_id,
            round_id=period.round_id,
            key=period.key,
            ends_on=period.ends_on,
            fingerprint=period.fingerprint,
            rated_at=now,
        )
        rows.append(row)
        for player, rated in after.items():
            was = before.get(player, glicko.Rated())
            changes.append((row, player, was, rated))
            state[player] = (rated, period.ends_on)
    return _write(rows, changes), None


def _rate_period(period: Period, state) -> tuple[dict, dict]:
    """The period's players' ratings before it (each idle week widening its deviation) and
    after it."""
    pairings = period.pairings()
    players = {p.first for p in pairings} | {p.second for p in pairings}
    before = {}
    for player in players:
        if player in state:
            rated, last = state[player]
            idle = 0 if last is None else (period.ends_on - last) // timedelta(days=IDLE_DAYS)
            for _ in range(min(idle, 50)):
                rated = glicko.idle(rated)
            before[player] = rated
    return before, glicko.rate_period(pairings, before)


def _write(rows: list[RatingPeriod], changes: list[tuple]) -> set[int]:
    """The rated periods and their changes, in two statements; returns who was rated."""
    RatingPeriod.objects.bulk_create(rows, batch_size=2000)  # each row learns its id
    _copy_in(changes)
    return {player for _, player, _, _ in changes}


CHANGE_COLUMNS = [
    "period_id", "player_id", "rating_before", "deviation_before", "rating", "deviation",
    "volatility", "games", "period_games",
]  # fmt: skip


def _copy_in(changes: list[tuple]) -> None:
    """The changes (period, player, rating before, rating after) as ``RatingChange`` rows, as
    plain rows, not model instances: from scratch they are 120,000 at the benchmark's size,
    a night's about 15,000. COPY (core.copy)."""
    copy_rows(
        RatingChange,
        CHANGE_COLUMNS,
        (
            [
                period.pk,
                player,
                was.rating,
                was.deviation,
                rated.rating,
                rated.deviation,
                rated.volatility,
                rated.games,
                rated.games - was.games,
            ]  # fmt: skip
            for period, player, was, rated in changes
        ),
    )


def _store_ratings(state, touched: set[int]) -> int:
    """The touched players' ratings now, in one statement; those no longer rated lose theirs.
    Returns how many were written."""
    PlayerRating.objects.filter(player_id__in=touched - set(state)).delete()
    upsert_rows(
        PlayerRating,
        ["player_id", "rating", "deviation", "volatility", "games", "last_played"],
        (
            [player, rated.rating, rated.deviation, rated.volatility, rated.games, last]
            for player, (rated, last) in state.items()
            if player in touched
        ),
        key="player_id",
    )
    return len(touched & set(state))
