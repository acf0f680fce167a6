"""Seating an event's round at tables of three or four (E5, E3's exagony): plain data in, plain
data out, no database.

Every member of a team sits at a different table. Tables are of the event's size (four at the
corporate challenge), with smaller ones only where the count forces it: for four seats, fours
and threes as ``seating.table_sizes`` makes them (a two only for 2 or 5 entrants); for three
seats, threes and twos. Over several rounds, players who have met sit together as little as
possible.

How: a seating that keeps teammates apart exists exactly when no team has more members than
there are tables, and one is built directly: the seats are listed seat by seat across the
tables (every table's first seat, then every table's second seat, …, the fuller tables first),
and the players are dealt into them team by team, the largest teams first, so a team's members
land in consecutive seats, which are at different tables. From there ``seating.improve_groups``
swaps players to lower the cost of repeat meetings (each pair who met costs 1 a meeting), where
a pair of teammates costs far more than every possible repeat together: no swap that seats
teammates together is ever kept, and the result never costs more than the start.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

from league.tables import SeatingError, improve_groups, table_sizes

from .pairing import PairingEntrant, PairingError


@dataclass
class TeamSeating:
    tables: list[list[int]]  # table number = position + 1; ids in seat order, seat 1 first
    repeats: int  # pairs at one table who had met before


def sizes_for(count: int, seats: int) -> list[int]:
    """Table sizes for `count` players at tables of `seats` (3 or 4), largest first."""
    if seats == 4:
        try:
            return table_sizes(count)
        except SeatingError as error:
            raise PairingError(str(error)) from None
    if seats != 3:
        raise ValueError("Tables of three or four here; pairs are event_pairing's.")
    if count == 1:
        raise PairingError("One player cannot make a table.")
    twos = (-count) % 3  # 3a + 2b = n with b (0, 1 or 2) as small as it can be
    threes = (count - 2 * twos) // 3
    return [3] * threes + [2] * twos


def seat_round(
    entrants: Sequence[PairingEntrant], *, seats: int, seed: int, group: str = ""
) -> TeamSeating:
    """Seat these entrants (one pairing group) at tables of `seats`, teammates apart and repeat
    meetings as few as the search finds; the seat order at each table is drawn."""
    ids = [entrant.id for entrant in entrants]
    if len(set(ids)) != len(ids):
        raise PairingError("An entrant is listed twice.")
    if not entrants:
        return TeamSeating(tables=[], repeats=0)
    sizes = sizes_for(len(entrants), seats)
    teams: dict[str, list[PairingEntrant]] = {}
    for entrant in entrants:
        if entrant.team is not None:
            teams.setdefault(entrant.team, []).append(entrant)
    for name, members in sorted(teams.items(), key=lambda item: (-len(item[1]), item[0])):
        if len(members) > len(sizes):
            where = f" ({group})" if group else ""
            raise PairingError(
                f"{name}: {len(members)} members are checked in{where} but there are only "
                f"{len(sizes)} tables, so teammates cannot all sit apart."
            )
    rng = Random(seed)
    everyone = sorted(entrants, key=lambda entrant: entrant.id)
    index = {entrant.id: i for i, entrant in enumerate(everyone)}
    # Teams largest first, then the players without a team, each in a drawn order.
    dealt: list[PairingEntrant] = []
    for _, members in sorted(teams.items(), key=lambda item: (-len(item[1]), item[0])):
        dealt.extend(sorted(members, key=lambda entrant: entrant.id))
    loners = [entrant for entrant in everyone if entrant.team is None]
    rng.shuffle(loners)
    dealt.extend(loners)
    slots = [
        (seat, table)
        for seat in range(max(sizes))
        for table, size in enumerate(sizes)
        if seat < size
    ]
    groups: list[list[int]] = [[] for _ in sizes]
    for (_, table), entrant in zip(slots, dealt, strict=True):
        groups[table].append(index[entrant.id])
    costs = _costs(everyone, index)
    groups = improve_groups(costs, groups, rng)
    tables = [[everyone[i].id for i in group] for group in groups]
    for table in tables:
        rng.shuffle(table)  # the draw for first play; seat 1 keeps the score sheet
    rng.shuffle(tables)
    tables.sort(key=len, reverse=True)  # stable: the fuller tables first, the draw kept within
    by_id = {entrant.id: entrant for entrant in entrants}
    repeats = sum(
        1
        for table in tables
        for i, a in enumerate(table)
        for b in table[i + 1 :]
        if b in by_id[a].opponents
    )
    return TeamSeating(tables=tables, repeats=repeats)


# A teammate pair costs more than all possible repeats at once, so no kept swap seats one.
TEAMMATES = 1_000_000.0


def _costs(everyone: list[PairingEntrant], index: dict[int, int]) -> list[list[float]]:
    count = len(everyone)
    costs = [[0.0] * count for _ in range(count)]
    for i, entrant in enumerate(everyone):
        for other in entrant.opponents:
            j = index.get(other)
            if j is not None and j != i:
                costs[i][j] = costs[j][i] = 1.0
    # After every meeting is in: teammates who also met must cost the teammates' price.
    for i, entrant in enumerate(everyone):
        if entrant.team is not None:
            for j in range(i + 1, count):
                if everyone[j].team == entrant.team:
                    costs[i][j] = costs[j][i] = TEAMMATES
    return costs
