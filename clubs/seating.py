"""Seating a club night (E4, G9): plain data in, plain data out, no database.

Those checked in tonight sit at tables of four and three (``league.tables.table_sizes``). Fours
come first, and a table's number is its position in the list (table 1 is the first).

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
than those of ten nights before.) A meeting so old that its weight falls under the search's
rounding (about 120 nights back) no longer counts. The grouping itself is
``league.tables.least_cost_groups``.
"""

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from random import Random

from league.tables import SeatingError, least_cost_groups, table_sizes

# A pair who met last night costs 1; each night further back weighs 0.8 times the one after it.
RECENCY_DECAY = 0.8

Player = Hashable
History = Sequence[Sequence[Sequence[Player]]]


@dataclass
class ClubSeating:
    """Tables in number order (fours first); each table's players in seat order, the first
    seat keeping score."""

    tables: list[list[Player]] = field(default_factory=list)


def seat_tables(players: Sequence[Player], *, history: History, seed: int) -> ClubSeating:
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
    groups = least_cost_groups(costs, sizes, rng)
    tables = [[everyone[i] for i in group] for group in groups]
    for table in tables:
        rng.shuffle(table)  # the draw for first play: seat order, scorekeeper first
    # Tables of one size are interchangeable; shuffle them so table 1 is no one's fixed place.
    rng.shuffle(tables)
    tables.sort(key=len, reverse=True)  # a stable sort: fours first, the draw kept within a size
    return ClubSeating(tables=tables)


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
