"""Rating an institution's periods (R1, R2): what the nightly job and `manage.py rate` run.

The games are read in one query, grouped into periods (a round, or a whole event) ordered by
their play-by day, and each period fingerprinted. The stored periods are compared with them in order: everything up to the
first that differs (a late ruling changed its games, or a period now ready falls before it) is
kept, and from there on every period is rated again, so running it twice changes nothing and a
late ruling re-rates from its period forward. One institution is rated by one run at a time
(its row is locked)."""

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.db import transaction
from django.db.models import Count, F, Q, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from accounts.models import Institution
from matches.models import Match, MatchStatus, Seat

from . import glicko
from .models import PlayerRating, RatingChange, RatingPeriod
from .naspa import Pairing

RATED_STATUSES = (MatchStatus.CONFIRMED, MatchStatus.RESOLVED)
UNFINISHED_STATUSES = (
    MatchStatus.UNSCHEDULED,
    MatchStatus.SCHEDULED,
    MatchStatus.REPORTED,
    MatchStatus.DISPUTED,
)
IDLE_DAYS = 7  # a week without games widens a rating's deviation by one idle period (ours)


@dataclass
class Period:
    key: str
    league_id: int
    round_id: int | None
    ends_on: date
    games: dict[int, dict[int, int]] = field(default_factory=dict)  # match -> {player: place}

    def fingerprint(self) -> str:
        text = ";".join(
            f"{match}:" + ",".join(f"{p}={place}" for p, place in sorted(seats.items()))
            for match, seats in sorted(self.games.items())
        )
        return hashlib.sha256(text.encode()).hexdigest()

    def pairings(self) -> list[Pairing]:
        """Each seat against each other seat (G9): the better place wins, equal places tie."""
        found = []
        for seats in self.games.values():
            players = sorted(seats)
            for i, a in enumerate(players):
                for b in players[i + 1 :]:
                    result = 1.0 if seats[a] < seats[b] else 0.5 if seats[a] == seats[b] else 0.0
                    found.append(Pairing(a, b, result))
        return found


@dataclass
class RatingRun:
    periods: int = 0  # periods rated (again) by this run
    kept: int = 0  # periods left as they were
    players: int = 0  # players whose rating this run wrote

    def line(self) -> str:
        return f"{self.periods} periods rated, {self.kept} kept, {self.players} players"


def rate_institution(
    institution: Institution,
    *,
    whole_leagues=(),
    from_scratch: bool = False,
    now: datetime | None = None,
) -> RatingRun:
    """Rate what is ready and not yet rated as it stands. `whole_leagues`: the ids of leagues
    rated as one period (events: league asks its formats); `from_scratch` rates every period
    again."""
    now = now or timezone.now()
    whole = set(whole_leagues)
    with transaction.atomic():
        Institution.objects.select_for_update().filter(pk=institution.pk).first()
        periods = _ready_periods(institution, whole)
        stored = {p.key: p for p in RatingPeriod.objects.filter(institution=institution)}
        start = 0 if from_scratch else _first_change(periods, stored)
        if start is None:
            return RatingRun(kept=len(periods))
        kept = periods[:start]
        RatingPeriod.objects.filter(institution=institution).exclude(
            key__in=[p.key for p in kept]
        ).delete()
        state = _state_after(institution)
        done = _rate(institution, periods[start:], state, now)
        _store_ratings(institution, state)
        return RatingRun(periods=done, kept=len(kept), players=len(state))


def _ready_periods(institution, whole: set[int]) -> list[Period]:
    """The periods whose every match is final, with their rated games, in order."""
    matches = Match.objects.filter(league__season__institution=institution)
    rounds = matches.values("league_id", "round_id").annotate(
        unfinished=Count("id", filter=Q(status__in=UNFINISHED_STATUSES))
    )
    unfinished = defaultdict(int)
    for row in rounds:
        key = _key(row["league_id"], row["round_id"], whole)
        unfinished[key] += row["unfinished"]
    seats = (
        Seat.objects.filter(
            match__league__season__institution=institution,
            match__status__in=RATED_STATUSES,
            place__isnull=False,
        )
        .annotate(
            league_id=F("match__league_id"),
            round_id=F("match__round_id"),
            play_by=F("match__round__play_by"),
        )
        .values_list("match_id", "league_id", "round_id", "play_by", "player_id", "place")
    )
    periods: dict[str, Period] = {}
    for match, league, round_, play_by, player, place in seats.iterator(chunk_size=5000):
        key = _key(league, round_, whole)
        if unfinished[key]:
            continue
        period = periods.get(key)
        if period is None:
            period = periods[key] = Period(
                key, league, None if league in whole else round_, play_by
            )
        period.ends_on = max(period.ends_on, play_by)
        period.games.setdefault(match, {})[player] = place
    for period in periods.values():
        period.games = {m: seats for m, seats in period.games.items() if len(seats) > 1}
    ready = [p for p in periods.values() if p.games]
    return sorted(ready, key=lambda p: (p.ends_on, p.key))


def _key(league_id: int, round_id: int, whole: set[int]) -> str:
    return f"l{league_id}" if league_id in whole else f"r{round_id}"


def _first_change(periods: list[Period], stored: dict[str, RatingPeriod]) -> int | None:
    """The position of the first period to rate again, or None when everything stands."""
    computed = {p.key for p in periods}
    for index, period in enumerate(periods):
        before = stored.get(period.key)
        if before is None or before.fingerprint != period.fingerprint():
            return index
    if set(stored) - computed:  # a period no longer ready or gone: rate from where it stood
        gone = min(stored[key].ends_on for key in set(stored) - computed)
        return next((i for i, p in enumerate(periods) if p.ends_on >= gone), len(periods))
    return None


def _state_after(institution) -> dict[int, tuple[glicko.Rated, date]]:
    """Each player's rating after the periods still stored: their latest change."""
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
    return {
        player: (glicko.Rated(rating, deviation, volatility, games), ends_on)
        for player, rating, deviation, volatility, games, ends_on in latest
    }


def _rate(institution, periods: list[Period], state, now) -> int:
    """Rate the periods in order, carrying `state` (player -> rating, last played) along; the
    periods and changes are written in two statements at the end."""
    rows, changes = [], []
    for period in periods:
        pairings = period.pairings()
        players = {p.first for p in pairings} | {p.second for p in pairings}
        before = {}
        for player in players:
            if player in state:
                rated, last = state[player]
                for _ in range(min((period.ends_on - last) // timedelta(days=IDLE_DAYS), 50)):
                    rated = glicko.idle(rated)
                before[player] = rated
        row = RatingPeriod(
            institution=institution,
            league_id=period.league_id,
            round_id=period.round_id,
            key=period.key,
            ends_on=period.ends_on,
            fingerprint=period.fingerprint(),
            rated_at=now,
        )
        rows.append(row)
        for player, rated in glicko.rate_period(pairings, before).items():
            was = before.get(player, glicko.Rated())
            changes.append(
                RatingChange(
                    period=row,
                    player_id=player,
                    rating_before=was.rating,
                    deviation_before=was.deviation,
                    rating=rated.rating,
                    deviation=rated.deviation,
                    volatility=rated.volatility,
                    games=rated.games,
                    period_games=rated.games - was.games,
                )
            )
            state[player] = (rated, period.ends_on)
    RatingPeriod.objects.bulk_create(rows, batch_size=2000)  # each row learns its id
    RatingChange.objects.bulk_create(changes, batch_size=2000)
    return len(periods)


def _store_ratings(institution, state) -> None:
    """Every rated player's rating now, in one statement; players no longer rated lose theirs."""
    PlayerRating.objects.filter(player__institution=institution).exclude(
        player_id__in=list(state)
    ).delete()
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(
                player_id=player,
                rating=rated.rating,
                deviation=rated.deviation,
                volatility=rated.volatility,
                games=rated.games,
                last_played=last,
            )
            for player, (rated, last) in state.items()
        ],
        update_conflicts=True,
        unique_fields=["player"],
        update_fields=["rating", "deviation", "volatility", "games", "last_played"],
        batch_size=2000,
    )
