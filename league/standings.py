"""Standings (DESIGN.md, Scrabble convention), rebuilt from final results of the regular season.

Rank by wins (a tie counts half), then spread, then points for, then head-to-head among the
players still level; players level on all four share a rank. A forfeit win is a win with
+forfeit_spread and the loss -forfeit_spread; a double forfeit is a loss for both with
-double_forfeit_spread each; a bye is a win with +forfeit_spread. Forfeits, double forfeits and
byes add to spread only, never to points for or against.

`rebuild_standings` is set-based: one aggregate query for all the leagues given, one query for
their entries, ranking in memory, then one DELETE and one COPY, whatever their size. It renders
nothing: ``refresh.refresh_leagues`` renders the pages once the bracket has followed too.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, make_dataclass
from decimal import Decimal
from itertools import groupby

from django.db import connection, transaction
from django.db.models import Count, IntegerField, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from matches.models import FINAL_STATUSES, MatchStatus, Outcome, Seat

from .models import STANDING_COLUMNS, Entry, League, Standing

PLAYED = [Outcome.WIN, Outcome.LOSS, Outcome.TIE]
# The league's settings the standings are computed from: editing one rebuilds them (receivers.py).
LEAGUE_SETTINGS = ("forfeit_spread", "double_forfeit_spread")


def _counted(now):
    """Final regular-season results; a bye counts once its round's deadline has passed."""
    return Q(match__round__playoff=False, match__status__in=FINAL_STATUSES) & ~Q(
        match__status=MatchStatus.BYE, match__deadline__gt=now
    )


def _results(league_ids: list[int], now):
    """Per league and player: counts of each outcome and points for and against."""
    # No ordering: Seat's default (by the match's round) joined two tables per seat.
    opponent_score = Subquery(
        Seat.objects.filter(match_id=OuterRef("match_id"))
        .exclude(pk=OuterRef("pk"))
        .order_by()
        .values("score")[:1],
        output_field=IntegerField(),
    )

    def count(outcome):
        return Count("id", filter=Q(outcome=outcome))

    return (
        Seat.objects.filter(_counted(now), match__league_id__in=league_ids)
        .annotate(opponent_score=opponent_score)
        .values("match__league_id", "player_id")
        .annotate(
            won=count(Outcome.WIN),
            lost=count(Outcome.LOSS),
            tied=count(Outcome.TIE),
            byes=count(Outcome.BYE),
            forfeits_won=count(Outcome.FORFEIT_WIN),
            forfeits_lost=count(Outcome.FORFEIT_LOSS),
            double_forfeits=count(Outcome.DOUBLE_FORFEIT),
            points_for=Coalesce(Sum("score", filter=Q(outcome__in=PLAYED)), Value(0)),
            points_against=Coalesce(Sum("opponent_score", filter=Q(outcome__in=PLAYED)), Value(0)),
        )
        .order_by()
    )


# One standings row while it is computed: the columns of ``Standing`` as a plain object.
# Building 20,000 model instances cost more than the aggregate query behind them.
Row = make_dataclass("Row", STANDING_COLUMNS, slots=True)


def _row(league: League, player_id: int, result: dict | None, withdrawn: bool, now) -> Row:
    r = result or {}
    won, lost, tied = r.get("won", 0), r.get("lost", 0), r.get("tied", 0)
    byes, fw, fl, df = (
        r.get("byes", 0),
        r.get("forfeits_won", 0),
        r.get("forfeits_lost", 0),
        r.get("double_forfeits", 0),
    )
    points_for, points_against = r.get("points_for", 0), r.get("points_against", 0)
    wins = won + fw + byes
    return Row(
        league_id=league.pk,
        player_id=player_id,
        rank=0,
        win_points=Decimal(wins) + Decimal(tied) / 2,
        wins=wins,
        losses=lost + fl + df,
        ties=tied,
        byes=byes,
        forfeits_won=fw,
        forfeits_lost=fl,
        double_forfeits=df,
        spread=points_for
        - points_against
        + league.forfeit_spread * (fw + byes - fl)
        - league.double_forfeit_spread * df,
        points_for=points_for,
        points_against=points_against,
        games=won + lost + tied + fw + fl + df,
        withdrawn=withdrawn,
        updated_at=now,
    )


def _head_to_head(league_ids: list[int], player_ids: set[int]) -> dict:
    """(league, player, opponent) -> win points of player against opponent, for level players."""
    if not player_ids:
        return {}
    opponent = Subquery(
        Seat.objects.filter(match_id=OuterRef("match_id"))
        .exclude(pk=OuterRef("pk"))
        .order_by()
        .values("player_id")[:1]
    )
    points = defaultdict(Decimal)
    rows = (
        Seat.objects.filter(
            match__league_id__in=league_ids,
            match__round__playoff=False,
            match__status__in=FINAL_STATUSES,
            player_id__in=player_ids,
            outcome__in=[*PLAYED, Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS],
        )
        .annotate(opponent_id=opponent)
        .values_list("match__league_id", "player_id", "opponent_id", "outcome")
    )
    for league_id, player_id, opponent_id, outcome in rows:
        value = {"win": 1, "forfeit_win": 1, "tie": Decimal("0.5")}.get(outcome, 0)
        points[(league_id, player_id, opponent_id)] += value
    return points


def _key(row: Row):
    return (-row.win_points, -row.spread, -row.points_for)


def _points_against(row: Row, group_ids: set[int], h2h: dict):
    return sum(
        h2h.get((row.league_id, row.player_id, other), 0)
        for other in group_ids
        if other != row.player_id
    )


def _rank(rows: list[Row], h2h: dict) -> list[Row]:
    """Sort by the four tie-breaks; players level on all of them share a rank."""
    rows.sort(key=_key)
    ranked: list[Row] = []
    for _, level in groupby(rows, key=_key):
        group = list(level)
        ids = {row.player_id for row in group}
        score = {row.player_id: _points_against(row, ids, h2h) for row in group}
        group.sort(key=lambda row: -score[row.player_id])
        first = len(ranked) + 1
        for offset, row in enumerate(group):
            previous = group[offset - 1] if offset else None
            if previous is not None and score[previous.player_id] == score[row.player_id]:
                row.rank = previous.rank
            else:
                row.rank = first + offset
            ranked.append(row)
    return ranked


def _copy_in(standings: list[Row]) -> None:
    """Store the rows with PostgreSQL's COPY: ``bulk_create`` spent 2 s preparing 20,000 rows ×
    17 values in Python and psycopg's arrays; COPY takes a sixth of that. (The SQLite demo of
    ``make run`` has no COPY.)"""
    if connection.vendor != "postgresql":
        Standing.objects.bulk_create([Standing(**asdict(row)) for row in standings], batch_size=500)
        return
    with connection.cursor() as cursor:
        with cursor.cursor.copy(
            f"COPY {Standing._meta.db_table} ({', '.join(STANDING_COLUMNS)}) FROM STDIN"
        ) as copy:
            for row in standings:
                copy.write_row([getattr(row, column) for column in STANDING_COLUMNS])


def rebuild_standings(league_ids: Iterable[int], now=None) -> int:
    """Recompute and store the standings of these leagues as of `now`; returns how many."""
    ids = sorted(set(league_ids))
    if not ids:
        return 0
    with transaction.atomic():
        # Lock the leagues first so two rebuilds of one league (a confirmation and the nightly
        # job) run one after the other, each reading what the other committed.
        list(League.objects.select_for_update().filter(pk__in=ids).values_list("pk", flat=True))
        now = now or timezone.now()
        leagues = {league.pk: league for league in League.objects.filter(pk__in=ids)}
        results = {(r["match__league_id"], r["player_id"]): r for r in _results(ids, now)}
        entries = Entry.objects.filter(league_id__in=ids).values_list(
            "league_id", "player_id", "withdrawn_at"
        )
        withdrawn = {(league_id, player_id): at is not None for league_id, player_id, at in entries}
        keys = set(results) | set(withdrawn)
        by_league = defaultdict(list)
        for league_id, player_id in keys:
            if withdrawn.get((league_id, player_id)) and (league_id, player_id) not in results:
                continue  # withdrew before playing: not in the table
            by_league[league_id].append(
                _row(
                    leagues[league_id],
                    player_id,
                    results.get((league_id, player_id)),
                    withdrawn.get((league_id, player_id), False),
                    now,
                )
            )
        level = set()
        for rows in by_league.values():
            counts = defaultdict(int)
            for row in rows:
                counts[_key(row)] += 1
            level |= {row.player_id for row in rows if counts[_key(row)] > 1 and row.games}
        h2h = _head_to_head(ids, level)
        standings = [row for league_id in ids for row in _rank(by_league.get(league_id, []), h2h)]
        Standing.objects.filter(league_id__in=ids).delete()
        _copy_in(standings)
        return len(ids)
