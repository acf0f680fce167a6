"""Seating a club night (E4, G9): plain data in, plain data out, no database.

Those checked in tonight sit at tables of four and three: as many fours as the count allows
(n = 4a + 3b with a as large as it can be), a table of two only when the count forces it (2
present, or 5: a three and a two). One player cannot make a table. Fours come first, and a
table's number is its position in the list (table 1 is the first).

Each table's seat order is drawn: it stands for the draw for first play (003 rule 1), so the
first seat, who keeps score (003 rule 2, G9), is whoever the draw puts there.

Avoiding recent tablemates (ours). Two players who sat at one table on an earlier night cost
``RECENCY_DECAY ** age`` for that night, where ``age`` is 0 for the most recent night in the
history, 1 for the one before and so on; a pair's cost is the sum over the nights they met, and
a seating's cost the sum over its tables' pairs. With a decay of 0.8 a meeting last night costs
1, one four nights before that 0.41, ten nights before 0.11: recent tablemates are kept apart
first, yet every earlier meeting still counts, so among seatings equally fresh the one with
fewer old repeats wins. (Measured with ``benchmarks/seating_repeats.py`` over ten nights: a
steeper 0.5 seats about 6% more old pairs together at 20 players and half as many again at 30;
no decay at all, 1.0, about 4% and 11% fewer, but then last night's tablemates weigh no more
than those of ten nights before.) A meeting so old that its weight falls under ``_EPSILON``
(about 120 nights back) no longer counts.

The search is a heuristic, bounded so that a night of 60 takes well under half a second and one of
200 about a second, even when everyone present has met everyone (two cores, Python 3.11):
  1. greedy: take the players in a random order and sit each at the open table where they add
     the least cost;
  2. local search: swap two players at different tables while some swap lowers the cost (only
     players who already cost something at their table can gain by moving);
  3. iterated: from the best seating so far, swap a few random pairs of players (a kick), search
     again, and keep the result when it is no worse; every few rounds start afresh from a new
     greedy seating instead. The number of rounds depends only on the number of players, never on
     the clock, so the same inputs and seed always give the same seating.
Every seating returned is a local optimum: no swap of two players lowers its cost.
"""

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from random import Random

# A pair who met last night costs 1; each night further back weighs 0.8 times the one after it.
RECENCY_DECAY = 0.8
# Costs are sums of powers of RECENCY_DECAY; smaller differences are rounding, not a gain.
_EPSILON = 1e-12
# Search rounds (a kick and a local search) per seating: more for small nights, where they are
# cheap, fewer for large ones, where each costs more; bounded both ways.
_WORK_BUDGET = 3000
_MIN_ROUNDS, _MAX_ROUNDS = 8, 200
# Every this many rounds, start again from a fresh greedy seating instead of kicking the best.
_RESTART_EVERY = 10

Player = Hashable
History = Sequence[Sequence[Sequence[Player]]]


class SeatingError(ValueError):
    """Those present cannot be seated: a lone player, or the same player checked in twice."""


@dataclass
class Seating:
    """Tables in number order (fours first); each table's players in seat order, the first
    seat keeping score."""

    tables: list[list[Player]] = field(default_factory=list)


def table_sizes(count: int) -> list[int]:
    """Table sizes for ``count`` players: fours first, as many as the count allows."""
    if count < 0:
        raise ValueError("A count of players cannot be negative.")
    if count == 1:
        raise SeatingError("One player cannot make a table.")
    if count == 0:
        return []
    if count == 2:
        return [2]
    if count == 5:
        return [3, 2]
    # n = 4a + 3b with a as large as it can be: b is the fewest threes with 3b = n (mod 4), that
    # is 0, 3, 2, 1 threes for n % 4 = 0, 1, 2, 3 (5, needing three threes, is too few: above).
    threes = (-count) % 4
    fours = (count - 3 * threes) // 4
    return [4] * fours + [3] * threes


def seat_tables(players: Sequence[Player], *, history: History, seed: int) -> Seating:
    """Seat tonight's ``players`` at tables of four and three, avoiding recent tablemates.

    ``history`` holds earlier nights, most recent first, each a list of tables of player ids;
    players absent tonight are ignored. The same players, history and ``seed`` give the same
    seating, whatever order the players are listed in (when their ids can be sorted).
    """
    _refuse_duplicates(players)
    sizes = table_sizes(len(players))
    rng = Random(seed)
    everyone = _canonical_order(players)
    costs = _pair_costs(everyone, history)
    groups = _least_cost_groups(costs, sizes, rng)
    tables = [[everyone[i] for i in group] for group in groups]
    for table in tables:
        rng.shuffle(table)  # the draw for first play: seat order, scorekeeper first
    # Tables of one size are interchangeable; shuffle them so table 1 is no one's fixed place.
    rng.shuffle(tables)
    tables.sort(key=len, reverse=True)  # a stable sort: fours first, the draw kept within a size
    return Seating(tables=tables)


def count_repeats(tables: Sequence[Sequence[Player]], history: History) -> int:
    """Pairs at one table tonight who already sat together on any earlier night."""
    met = _meetings_by_age(history)
    return sum(frozenset(pair) in met for table in tables for pair in _pairs(table))


def _refuse_duplicates(players: Sequence[Player]) -> None:
    seen = set()
    for player in players:
        if player in seen:
            raise SeatingError(f"Player {player!r} is checked in twice.")
        seen.add(player)


def _canonical_order(players: Sequence[Player]) -> list[Player]:
    """Players sorted, so the check-in order does not change the draw; ids that cannot be
    compared (mixed kinds) keep the order given."""
    try:
        return sorted(players)
    except TypeError:
        return list(players)


def _pairs(table: Sequence[Player]):
    return ((table[i], table[j]) for i in range(len(table)) for j in range(i + 1, len(table)))


def _meetings_by_age(history: History) -> dict[frozenset, list[int]]:
    """For each pair who shared a table, the ages of the nights they did (0 = most recent)."""
    met: dict[frozenset, list[int]] = {}
    for age, night in enumerate(history):
        pairs_that_night = {frozenset(pair) for table in night for pair in _pairs(table)}
        for pair in pairs_that_night:
            if len(pair) == 2:  # a player listed twice at one table is not their own tablemate
                met.setdefault(pair, []).append(age)
    return met


def _pair_costs(everyone: list[Player], history: History) -> list[list[float]]:
    """A square matrix of pair costs, indexed by position in ``everyone``."""
    index = {player: i for i, player in enumerate(everyone)}
    costs = [[0.0] * len(everyone) for _ in everyone]
    for pair, ages in _meetings_by_age(history).items():
        a, b = pair
        if a in index and b in index:
            weight = sum(RECENCY_DECAY**age for age in ages)
            costs[index[a]][index[b]] = costs[index[b]][index[a]] = weight
    return costs


def _least_cost_groups(costs: list[list[float]], sizes: list[int], rng: Random) -> list[list[int]]:
    """Groups of player indexes with the given sizes and a low total pair cost."""
    count = len(costs)
    if len(sizes) <= 1 or not any(any(row) for row in costs):
        # One table, or nobody has met: every seating costs nothing; draw one.
        order = list(range(count))
        rng.shuffle(order)
        return _split(order, sizes)

    return improve_groups(costs, _greedy(costs, sizes, rng), rng, restart=sizes)


def improve_groups(
    costs: list[list[float]], groups: list[list[int]], rng: Random, *, restart=None
) -> list[list[int]]:
    """Iterated local search from `groups` (player indexes per table): swaps of two players
    while one lowers the total pair cost, then kicks; a seating is kept only when no worse, so
    the result never costs more than the start. With `restart` (the table sizes), every few
    rounds starts afresh from a new greedy seating too."""
    count = len(costs)
    rounds = max(_MIN_ROUNDS, min(_MAX_ROUNDS, _WORK_BUDGET // max(count, 1)))
    best = _Tables(costs, [list(group) for group in groups])
    best.improve(rng)
    for round_number in range(1, rounds):
        if best.total < _EPSILON:
            break
        if restart is not None and round_number % _RESTART_EVERY == 0:
            candidate = _Tables(costs, _greedy(costs, restart, rng))
        else:
            candidate = best.copy()
            candidate.kick(rng)
        candidate.improve(rng)
        if candidate.total <= best.total + _EPSILON:
            best = candidate
    return best.groups


def _split(order: list[int], sizes: list[int]) -> list[list[int]]:
    groups, start = [], 0
    for size in sizes:
        groups.append(order[start : start + size])
        start += size
    return groups


def _greedy(costs: list[list[float]], sizes: list[int], rng: Random) -> list[list[int]]:
    """Players in a random order, each to the open table where they add the least cost (ties:
    the emptiest table, so early players spread out)."""
    order = list(range(len(costs)))
    rng.shuffle(order)
    groups: list[list[int]] = [[] for _ in sizes]
    for player in order:
        row = costs[player]
        open_tables = (t for t, group in enumerate(groups) if len(group) < sizes[t])
        best_table = min(
            open_tables,
            key=lambda t: (sum(row[other] for other in groups[t]), len(groups[t]), t),
        )
        groups[best_table].append(player)
    return groups


class _Tables:
    """A seating under search: who sits where, and each player's cost towards every table."""

    def __init__(self, costs: list[list[float]], groups: list[list[int]], *, _copy_of=None):
        self.costs = costs
        if _copy_of is not None:
            self.groups = [list(group) for group in _copy_of.groups]
            self.table_of = list(_copy_of.table_of)
            self.towards = [list(row) for row in _copy_of.towards]
            self.total = _copy_of.total
            return
        self.groups = groups
        self.table_of = [0] * len(costs)
        for t, group in enumerate(groups):
            for player in group:
                self.table_of[player] = t
        # towards[p][t]: what p would pay sitting at table t as it is now (p excluded).
        self.towards = [
            [sum(costs[p][other] for other in group if other != p) for group in groups]
            for p in range(len(costs))
        ]
        self.total = sum(self.towards[p][self.table_of[p]] for p in range(len(costs))) / 2

    def copy(self) -> "_Tables":
        return _Tables(self.costs, [], _copy_of=self)

    def swap_gain(self, p: int, q: int) -> float:
        """How much the total cost falls if p and q change tables."""
        a, b = self.table_of[p], self.table_of[q]
        towards_p, towards_q = self.towards[p], self.towards[q]
        before = towards_p[a] + towards_q[b]
        after = towards_p[b] + towards_q[a] - 2 * self.costs[p][q]
        return before - after

    def swap(self, p: int, q: int) -> None:
        a, b = self.table_of[p], self.table_of[q]
        self.total -= self.swap_gain(p, q)
        group_a, group_b = self.groups[a], self.groups[b]
        group_a[group_a.index(p)] = q
        group_b[group_b.index(q)] = p
        self.table_of[p], self.table_of[q] = b, a
        cost_p, cost_q = self.costs[p], self.costs[q]
        for x, row in enumerate(self.towards):
            change = cost_q[x] - cost_p[x]
            row[a] += change
            row[b] -= change

    def improve(self, rng: Random) -> None:
        """Make the best swap for each player who costs something, until no swap helps."""
        players = list(range(len(self.costs)))
        improved = True
        while improved:
            improved = False
            rng.shuffle(players)
            for p in players:
                if self.towards[p][self.table_of[p]] < _EPSILON:
                    continue  # nobody at p's table has met p: moving p cannot help
                partner = self._best_partner(p)
                if partner is not None:
                    self.swap(p, partner)
                    improved = True

    def _best_partner(self, p: int) -> int | None:
        """The player whose swap with p lowers the cost most, if any does (swap_gain, written
        out table by table: this loop is where the time goes)."""
        a = self.table_of[p]
        towards, cost_p = self.towards, self.costs[p]
        towards_p = towards[p]
        best_gain, best_q = _EPSILON, None
        for b, group in enumerate(self.groups):
            if b == a:
                continue
            p_moving = towards_p[a] - towards_p[b]
            for q in group:
                towards_q = towards[q]
                gain = p_moving + towards_q[b] - towards_q[a] + 2 * cost_p[q]
                if gain > best_gain:
                    best_gain, best_q = gain, q
        return best_q

    def kick(self, rng: Random) -> None:
        """Swap a few players who cost something with random players at other tables."""
        count = len(self.costs)
        troubled = [p for p in range(count) if self.towards[p][self.table_of[p]] >= _EPSILON]
        for _ in range(min(3, len(troubled))):
            p = rng.choice(troubled)
            q = rng.randrange(count)
            if self.table_of[q] != self.table_of[p]:
                self.swap(p, q)
