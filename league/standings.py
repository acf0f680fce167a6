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
from dataclasses import field, make_dataclass
from decimal import Decimal
from itertools import groupby

from django.db import connection, transaction
from django.utils import timezone

from core.copy import copy_rows
from core.raw import placeholders
from matches.models import FINAL_STATUSES, Outcome

from .models import STANDING_COLUMNS, Entry, League, Standing

PLAYED = [Outcome.WIN, Outcome.LOSS, Outcome.TIE]
# The league's settings the standings are computed from: editing one rebuilds them (receivers.py).
LEAGUE_SETTINGS = ("forfeit_spread", "double_forfeit_spread")

# Every seat of a counted match beside every other seat of it (G9: a game of N seats counts as
# N-1 games between its seats), summed per league and player. A bye has no other seat: the LEFT
# JOIN keeps it as one row. Pairs are judged from the stored places (G2) and outcomes: a seat
# that forfeits loses to each seat that does not; two forfeiting seats, or a double forfeit,
# count a double forfeit between them. Plain SQL for PostgreSQL and the SQLite demo alike: the
# ORM cannot join a table to itself on a column other than a foreign key.
PAIRS_SQL = """
SELECT m.league_id, s.player_id,
    SUM(CASE WHEN {played} AND o.place > s.place THEN 1 ELSE 0 END) AS won,
    SUM(CASE WHEN {played} AND o.place < s.place THEN 1 ELSE 0 END) AS lost,
    SUM(CASE WHEN {played} AND o.place = s.place THEN 1 ELSE 0 END) AS tied,
    SUM(CASE WHEN s.outcome = 'bye' THEN 1 ELSE 0 END) AS byes,
    SUM(CASE WHEN s.outcome = 'forfeit_win' AND o.outcome = 'forfeit_loss' THEN 1 ELSE 0 END)
        AS forfeits_won,
    SUM(CASE WHEN s.outcome = 'forfeit_loss' AND o.outcome = 'forfeit_win' THEN 1 ELSE 0 END)
        AS forfeits_lost,
    SUM(CASE WHEN (s.outcome = 'double_forfeit' AND o.outcome = 'double_forfeit')
        OR (s.outcome = 'forfeit_loss' AND o.outcome = 'forfeit_loss') THEN 1 ELSE 0 END)
        AS double_forfeits,
    COALESCE(SUM(CASE WHEN {played} THEN s.score ELSE 0 END), 0) AS points_for,
    COALESCE(SUM(CASE WHEN {played} THEN o.score ELSE 0 END), 0) AS points_against,
    COUNT(DISTINCT CASE WHEN s.outcome <> 'bye' THEN s.match_id END) AS matches
FROM matches_seat s
JOIN matches_match m ON m.id = s.match_id
JOIN league_round r ON r.id = m.round_id
LEFT JOIN matches_seat o ON o.match_id = s.match_id AND o.id <> s.id
WHERE m.league_id IN ({leagues}) AND r.playoff = %s AND m.status IN ({final})
    AND NOT (m.status = 'bye' AND m.deadline > %s)
GROUP BY m.league_id, s.player_id
""".format(
    played="s.outcome IN ('win', 'loss', 'tie') AND o.outcome IN ('win', 'loss', 'tie')",
    leagues="{leagues}",
    final=", ".join(f"'{status}'" for status in FINAL_STATUSES),
)
RESULT_KEYS = [
    "won", "lost", "tied", "byes", "forfeits_won", "forfeits_lost", "double_forfeits",
    "points_for", "points_against", "matches",
]  # fmt: skip


def _results(league_ids: list[int], now) -> dict:
    """(league, player) -> counts of each kind of pairing, points for and against, and the
    matches sat: one query (a final bye counts once its round's deadline has passed)."""
    sql = PAIRS_SQL.format(leagues=placeholders(len(league_ids)))
    with connection.cursor() as cursor:
        cursor.execute(sql, [*league_ids, False, now])
        return {
            (league_id, player_id): dict(zip(RESULT_KEYS, values, strict=True))
            for league_id, player_id, *values in cursor.fetchall()
        }


# One standings row while it is computed: the columns of ``Standing`` as a plain object.
# Building 20,000 model instances cost more than the aggregate query behind them.
Row = make_dataclass(
    "Row", [*STANDING_COLUMNS, ("per_game", bool, field(default=False))], slots=True
)


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
    games = won + lost + tied + fw + fl + df
    win_points = Decimal(wins) + Decimal(tied) / 2
    spread = (
        points_for
        - points_against
        + league.forfeit_spread * (fw + byes - fl)
        - league.double_forfeit_spread * df
    )
    counted = games + byes
    return Row(
        league_id=league.pk,
        player_id=player_id,
        rank=0,
        win_points=win_points,
        wins=wins,
        losses=lost + fl + df,
        ties=tied,
        byes=byes,
        forfeits_won=fw,
        forfeits_lost=fl,
        double_forfeits=df,
        spread=spread,
        points_for=points_for,
        points_against=points_against,
        games=games,
        matches=r.get("matches", 0),
        win_pct=(win_points / counted).quantize(Decimal("0.001")) if counted else Decimal(0),
        withdrawn=withdrawn,
        updated_at=now,
    )


HEAD_TO_HEAD_SQL = """
SELECT m.league_id, s.player_id, o.player_id,
    SUM(CASE WHEN (s.outcome IN ('win', 'loss', 'tie') AND o.outcome IN ('win', 'loss', 'tie')
            AND o.place > s.place)
        OR (s.outcome = 'forfeit_win' AND o.outcome = 'forfeit_loss') THEN 2
        WHEN s.outcome IN ('win', 'loss', 'tie') AND o.outcome IN ('win', 'loss', 'tie')
            AND o.place = s.place THEN 1
        ELSE 0 END)
FROM matches_seat s
JOIN matches_match m ON m.id = s.match_id
JOIN league_round r ON r.id = m.round_id
JOIN matches_seat o ON o.match_id = s.match_id AND o.id <> s.id
WHERE m.league_id IN ({leagues}) AND s.player_id IN ({players}) AND r.playoff = %s
    AND m.status IN ({final})
GROUP BY m.league_id, s.player_id, o.player_id
"""


def _head_to_head(league_ids: list[int], player_ids: set[int]) -> dict:
    """(league, player, opponent) -> win points of player against opponent, for level players
    (a tie half a point; counted in halves so SQL sums integers)."""
    if not player_ids:
        return {}
    sql = HEAD_TO_HEAD_SQL.format(
        leagues=placeholders(len(league_ids)),
        players=placeholders(len(player_ids)),
        final=placeholders(len(FINAL_STATUSES)),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*league_ids, *sorted(player_ids), False, *FINAL_STATUSES])
        return {
            (league_id, player_id, opponent_id): Decimal(halves) / 2
            for league_id, player_id, opponent_id, halves in cursor.fetchall()
        }


def _key(row: Row):
    """Scrabble convention: wins, spread, points for. A club, where attendance varies, ranks by
    win percentage, then spread per pairing (G9): `row.per_game` is set for club leagues."""
    if row.per_game:
        spread_per_game = Decimal(row.spread) / (row.games + row.byes or 1)
        return (-row.win_pct, -spread_per_game, -row.points_for)
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


def rebuild_standings(league_ids: Iterable[int], now=None) -> int:
    """Recompute and store the standings of these leagues as of `now`; returns how many."""
    ids = sorted(set(league_ids))
    if not ids:
        return 0
    with transaction.atomic():
        # Lock the leagues first so two rebuilds of one league (a confirmation and the nightly
        # job) run one after the other, each reading what the other committed. A "no key" lock:
        # a result marking its league's refresh wanted (RefreshWanted's key refers to the
        # league) must not wait for the rebuild.
        list(
            League.objects.select_for_update(no_key=True)
            .filter(pk__in=ids)
            .values_list("pk", flat=True)
        )
        now = now or timezone.now()
        leagues = {league.pk: league for league in League.objects.filter(pk__in=ids)}
        results = _results(ids, now)
        entries = Entry.objects.filter(league_id__in=ids).values_list(
            "league_id", "player_id", "withdrawn_at"
        )
        withdrawn = {(league_id, player_id): at is not None for league_id, player_id, at in entries}
        keys = set(results) | set(withdrawn)
        by_league = defaultdict(list)
        for league_id, player_id in keys:
            if withdrawn.get((league_id, player_id)) and (league_id, player_id) not in results:
                continue  # withdrew before playing: not in the table
            row = _row(
                leagues[league_id],
                player_id,
                results.get((league_id, player_id)),
                withdrawn.get((league_id, player_id), False),
                now,
            )
            row.per_game = leagues[league_id].ranks_per_game
            by_league[league_id].append(row)
        level = set()
        for rows in by_league.values():
            counts = defaultdict(int)
            for row in rows:
                counts[_key(row)] += 1
            level |= {row.player_id for row in rows if counts[_key(row)] > 1 and row.games}
        h2h = _head_to_head(ids, level)
        standings = [row for league_id in ids for row in _rank(by_league.get(league_id, []), h2h)]
        Standing.objects.filter(league_id__in=ids).delete()
        copy_rows(
            Standing,
            STANDING_COLUMNS,
            ([getattr(row, column) for column in STANDING_COLUMNS] for row in standings),
        )
        return len(ids)


def count_results(league_id: int, player_ids: Iterable[int], now=None) -> None:
    """A card counted: the standings rows of its players computed again from their own results
    and stored with the ranks they had; a fixed number of queries, none reading another
    player's games or rows, so counting a card costs the same in a hall of 40 as of 1,000.
    A card can move every rank (each winner passes everyone who has not played yet): the ranks
    are set again once for every card counted meanwhile by ``rank_standings``, as the pages are
    rendered (``refresh.render_wanted_pages``). Both together store the rows
    ``rebuild_standings`` would (``tests/events/test_counting_cards.py``). PostgreSQL only
    (the arrays): the SQLite demo rebuilds. Takes the league's lock as a rebuild does, so a
    card racing the nightly or a correction is counted after it, from what it committed."""
    players = sorted(set(player_ids))
    with transaction.atomic():
        league = League.objects.select_for_update(no_key=True).get(pk=league_id)
        now = now or timezone.now()
        sql = PAIRS_SQL.format(leagues="%s").replace(
            "GROUP BY", "AND s.player_id = ANY(%s)\nGROUP BY"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [league_id, False, now, players])
            results = {
                player_id: dict(zip(RESULT_KEYS, values, strict=True))
                for _, player_id, *values in cursor.fetchall()
            }
        withdrawn = dict(
            Entry.objects.filter(league_id=league_id, player_id__in=players).values_list(
                "player_id", "withdrawn_at"
            )
        )
        fresh = []
        for player_id in players:
            gone = withdrawn.get(player_id) is not None
            if gone and player_id not in results:
                continue  # withdrew before playing: not in the table
            if player_id not in withdrawn and player_id not in results:
                continue  # no entry and no result: nothing to show
            row = _row(league, player_id, results.get(player_id), gone, now)
            row.per_game = league.ranks_per_game
            fresh.append(row)
        with connection.cursor() as cursor:
            cursor.execute(
                f"DELETE FROM {Standing._meta.db_table} "
                "WHERE league_id = %s AND player_id = ANY(%s) RETURNING player_id, rank",
                [league_id, players],
            )
            ranks = dict(cursor.fetchall())
        for row in fresh:
            row.rank = ranks.get(row.player_id, 0)
        copy_rows(
            Standing,
            STANDING_COLUMNS,
            ([getattr(row, column) for column in STANDING_COLUMNS] for row in fresh),
        )


def rank_standings(league_id: int) -> None:
    """Rank the league's stored rows again (after ``count_results``) and write the ranks that
    moved, under the league's lock: three queries and one more for the head-to-head of the
    players level with another."""
    with transaction.atomic():
        league = League.objects.select_for_update(no_key=True).get(pk=league_id)
        values = Standing.objects.filter(league_id=league_id).order_by()
        _rerank(league, list(values.values_list(*STANDING_COLUMNS)))


def _rerank(league: League, values: list[tuple]) -> None:
    rows = [Row(*row, per_game=league.ranks_per_game) for row in values]
    was = {row.player_id: row.rank for row in rows}
    counts = defaultdict(int)
    for row in rows:
        counts[_key(row)] += 1
    level = {row.player_id for row in rows if counts[_key(row)] > 1 and row.games}
    ranked = _rank(rows, _head_to_head([league.pk], level))
    moved = [(row.player_id, row.rank) for row in ranked if was[row.player_id] != row.rank]
    if not moved:
        return
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Standing._meta.db_table} AS s SET rank = m.rank "
            "FROM (SELECT unnest(%s::bigint[]) AS player_id, unnest(%s::int[]) AS rank) AS m "
            "WHERE s.league_id = %s AND s.player_id = m.player_id",
            [[player for player, _ in moved], [rank for _, rank in moved], league.pk],
        )
