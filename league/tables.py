"""Sitting players at tables so that those who should not meet seldom do: plain data in, plain
data out, no database. The club's nights (``clubs.seating``) and the team challenge's rounds
(``events.seating``) both group players this way, each with its own costs.

Tables are of four and three (``table_sizes``): as many fours as the count allows (n = 4a + 3b
with a as large as it can be), a table of two only when the count forces it (2 present, or 5: a
three and a two). One player cannot make a table.

Who sits with whom comes from a square matrix of pair costs (what two players at one table
cost); a grouping's cost is the sum over its tables' pairs. The search is a heuristic, bounded
so that a night of 60 takes well under half a second and one of 200 about a second, even when
everyone present has met everyone (two cores, Python 3.11):
  1. greedy: take the players in a random order and sit each at the open table where they add
     the least cost;
  2. local search: swap two players at different tables while some swap lowers the cost (only
     players who already cost something at their table can gain by moving);
  3. iterated: from the best grouping so far, swap a few random pairs of players (a kick),
     search again, and keep the result when it is no worse; every few rounds start afresh from
     a new greedy grouping instead. The number of rounds depends only on the number of players,
     never on the clock, so the same inputs and seed always give the same grouping.
Every grouping returned is a local optimum: no swap of two players lowers its cost.
"""

from random import Random

# Costs are sums of small weights; smaller differences are rounding, not a gain.
_EPSILON = 1e-12
# Search rounds (a kick and a local search) per seating: more for small nights, where they are
# cheap, fewer for large ones, where each costs more; bounded both ways.
_WORK_BUDGET = 3000
_MIN_ROUNDS, _MAX_ROUNDS = 8, 200
# Every this many rounds, start again from a fresh greedy seating instead of kicking the best.
_RESTART_EVERY = 10


class SeatingError(ValueError):
    """Those present cannot be seated: a lone player, or the same player checked in twice."""


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


def least_cost_groups(costs: list[list[float]], sizes: list[int], rng: Random) -> list[list[int]]:
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
