"""Pairing a round of a one-day event (E3): plain data in, plain data out, no database.

Each pairing group is paired on its own (Competitive among itself; Just for Fun and Corporate
Team together). Round 1 is drawn at random from the seed, or, where the event says so, goes by
rating (R4: highest first, the seeded draw between equal ratings, so nearest ratings meet, as
later rounds meet by score); later rounds go by cumulative score
(then games won, then spread; still equal, the seeded draw), so players of similar totals meet:
from the top down, each unpaired player takes the nearest-ranked opponent allowed. Allowed means
not a teammate (tsh's "exagony": never, whatever it costs) and, while it can be avoided, not
someone met in an earlier round. An odd group gets one table of three when untimed, at the
bottom of the order where the constraints allow, and a bye when timed, to the lowest-ranked
entrant who has not had one (never the same entrant twice).

How (tsh's way, written out): a depth-first search from the top of the order, trying opponents
nearest first, with backtracking. It is branch and bound on the number of repeat pairings:
options that repeat are tried after those that don't, and the search stops at the first
pairing with no repeat; when none exists it keeps the pairing with the fewest. With no
constraint in play the first leaf is 1v2, 3v4, … and nothing is backtracked, so 500 entrants
take milliseconds. The search is exact (it proves "no repeat while avoidable" and finds the
fewest repeats) within ``NODE_BUDGET`` steps per group, which covers every group the property
tests can check by brute force and any real evening (three rounds, so each player has met at
most two others); past the budget it returns the best pairing found. Whether teammates can be
kept apart at all is decided before the search: a group can be split into tables with no two
teammates together exactly when no team holds more than half of it (rounded down), so a
refusal names that team.

A networkx matching was the alternative (issue 15: 13.7 s for a complete graph of 500, 0.6 s
restricted to the 8 nearest totals): slower than this search on real evenings, and the nearest-
totals restriction can miss the pairing that avoids a repeat.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

NODE_BUDGET = 200_000


@dataclass(frozen=True)
class PairingEntrant:
    id: int
    group: str
    team: str | None = None
    total: int = 0
    wins: float = 0
    spread: int = 0
    opponents: frozenset[int] = frozenset()
    had_bye: bool = False
    rating: float = 0.0  # for a first round by rating (R4): the unrated at the starting rating


@dataclass(frozen=True)
class Group:
    name: str
    timed: bool


@dataclass
class Pairing:
    tables: list[list[int]]
    byes: list[int]
    repeats: int


class PairingError(ValueError):
    """The group cannot be paired: its message names the team or group."""


def pair_round(
    entrants: Sequence[PairingEntrant],
    groups: Sequence[Group],
    *,
    by_score: bool,
    seed: int,
    by_rating: bool = False,
) -> Pairing:
    """Tables (numbered by position, groups in the order given, each group's top table first;
    each table's ids in seat order, seat 1 first) and byes; see the module's docstring."""
    ids = [entrant.id for entrant in entrants]
    if len(set(ids)) != len(ids):
        duplicate = next(i for i in ids if ids.count(i) > 1)
        raise PairingError(f"Entrant {duplicate!r} is listed twice.")
    names = [group.name for group in groups]
    if len(set(names)) != len(names):
        raise PairingError("Two pairing groups have the same name.")
    known = set(names)
    stray = sorted({entrant.group for entrant in entrants} - known)
    if stray:
        raise PairingError(f"Pairing group {stray[0]!r} is not one of the event's groups.")
    rng = Random(seed)
    everyone = sorted(entrants, key=lambda entrant: entrant.id)
    # One draw per entrant, in id order: the same inputs in any order draw the same.
    draw = {entrant.id: rng.random() for entrant in everyone}
    pairing = Pairing(tables=[], byes=[], repeats=0)
    for group in groups:
        members = [entrant for entrant in everyone if entrant.group == group.name]
        if not members:
            continue
        if len(members) == 1:
            raise PairingError(
                f"{group.name} has one entrant checked in: nobody to play. Check in another "
                "or move them to another category."
            )
        if by_score:
            members.sort(key=lambda e: (-e.total, -e.wins, -e.spread, draw[e.id]))
        elif by_rating:
            members.sort(key=lambda e: (-e.rating, draw[e.id]))
        else:
            members.sort(key=lambda e: draw[e.id])
        tables, byes, repeats = _pair_group(group, members)
        for table in tables:
            rng.shuffle(table)  # the draw for first play: seat 1 plays first, keeps the card
        pairing.tables.extend(tables)
        pairing.byes.extend(byes)
        pairing.repeats += repeats
    return pairing


def _largest_team(members: Sequence[PairingEntrant]) -> tuple[str | None, int]:
    counts: dict[str, int] = {}
    for entrant in members:
        if entrant.team is not None:
            counts[entrant.team] = counts.get(entrant.team, 0) + 1
    if not counts:
        return None, 0
    team = min(counts, key=lambda name: (-counts[name], name))
    return team, counts[team]


def _teams_can_part(members: Sequence[PairingEntrant]) -> bool:
    return _largest_team(members)[1] <= len(members) // 2


def _pair_group(
    group: Group, members: list[PairingEntrant]
) -> tuple[list[list[int]], list[int], int]:
    if len(members) % 2 == 0 or not group.timed:
        if not _teams_can_part(members):
            team, count = _largest_team(members)
            raise PairingError(
                f"Team {team} has {count} of the {len(members)} entrants paired in "
                f"{group.name}: teammates cannot all be kept apart."
            )
        tables, repeats = _search(members)
        return tables, [], repeats
    # An odd timed group: a bye to the lowest-ranked who has not had one.
    candidates = [index for index in range(len(members) - 1, -1, -1) if not members[index].had_bye]
    if not candidates:
        raise PairingError(f"Everyone in {group.name} has had a bye: no one can have a second.")
    best = None
    for index in candidates:
        rest = members[:index] + members[index + 1 :]
        if not _teams_can_part(rest):
            continue
        tables, repeats = _search(rest)
        if best is None or repeats < best[2]:
            best = (tables, [members[index].id], repeats)
        if repeats == 0:
            break
    if best is None:
        team, count = _largest_team(members)
        raise PairingError(
            f"Team {team} has {count} of the {len(members)} entrants paired in {group.name}: "
            "teammates cannot all be kept apart."
        )
    return best


def _search(members: list[PairingEntrant]) -> tuple[list[list[int]], int]:
    """Tables of two (and one of three when the count is odd) with no teammates together and
    the fewest repeat pairings, trying nearest-ranked opponents first."""
    count = len(members)
    team = [entrant.team for entrant in members]
    met = [
        {j for j, other in enumerate(members) if other.id in entrant.opponents}
        for entrant in members
    ]

    def allowed(a: int, b: int) -> bool:
        return team[a] is None or team[a] != team[b]

    def cost(*seats: int) -> int:
        return sum(1 for i, a in enumerate(seats) for b in seats[i + 1 :] if b in met[a])

    taken = [False] * count
    chosen: list[tuple[int, ...]] = []
    best: dict = {"tables": None, "repeats": None}
    nodes = 0

    def first_free(start: int) -> int:
        while start < count and taken[start]:
            start += 1
        return start

    def options(a: int, left: int):
        """(repeats, table) choices for the top free player `a`: by number of repeats, and
        within that nearest first, pairs before the odd group's one table of three; made
        lazily, since a large odd group has tens of thousands of threes never looked at."""
        free = [b for b in range(a + 1, count) if not taken[b] and allowed(a, b)]
        pairs_ok = left != 3  # a pair may not leave one player alone
        threes_ok = left % 2 == 1
        for repeats in range(4):
            if pairs_ok and repeats <= 1:
                for b in free:
                    if cost(a, b) == repeats:
                        yield repeats, (a, b)
            if threes_ok:
                for i, b in enumerate(free):
                    for c in free[i + 1 :]:
                        if allowed(b, c) and cost(a, b, c) == repeats:
                            yield repeats, (a, b, c)

    def walk(start: int, left: int, repeats: int) -> bool:
        """True stops the search: a pairing with no repeat is found (or the budget is out)."""
        nonlocal nodes
        nodes += 1
        if best["repeats"] is not None and (repeats >= best["repeats"] or nodes > NODE_BUDGET):
            return nodes > NODE_BUDGET
        if left == 0:
            best["tables"], best["repeats"] = [list(t) for t in chosen], repeats
            return repeats == 0
        a = first_free(start)
        for extra, table in options(a, left):
            if best["repeats"] is not None and repeats + extra >= best["repeats"]:
                break  # options come by repeats: the rest cost as much or more
            for seat in table:
                taken[seat] = True
            chosen.append(table)
            stop = walk(a + 1, left - len(table), repeats + extra)
            chosen.pop()
            for seat in table:
                taken[seat] = False
            if stop:
                return True
        return False

    walk(0, count, 0)
    if best["tables"] is None:
        # Unreachable after _teams_can_part; kept so a future rule cannot fail silently.
        raise PairingError("These entrants cannot be paired without teammates meeting.")
    tables = [[members[i].id for i in table] for table in best["tables"]]
    return tables, best["repeats"]
