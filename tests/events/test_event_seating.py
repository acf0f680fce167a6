"""Seating an event's round at tables of four (E5, E3's exagony): every member of a team at a
different table, tables of three only where the count forces it, repeat meetings kept down over
the rounds. Pure: no database; checked for 4 to 200 teams, teams short of members and odd
totals, against the rule written out here apart from the module."""

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.pairing import PairingEntrant, PairingError
from events.seating import seat_round, sizes_for


def _sizes(count: int) -> list[int]:
    """Fours first, as many as the count allows, threes for the rest (2: one pair; 5: 3 + 2)."""
    if count in (2, 5):
        return {2: [2], 5: [3, 2]}[count]
    for fours in range(count // 4, -1, -1):
        if (count - 4 * fours) % 3 == 0:
            return [4] * fours + [3] * ((count - 4 * fours) // 3)
    raise AssertionError(count)


def _event(rng: random.Random, teams: int, loners: int, history_rounds: int):
    entrants, team_of = [], {}
    next_id = 1
    for t in range(teams):
        for _ in range(rng.randint(1, 4)):  # teams short of members too
            team_of[next_id] = f"Team {t}"
            next_id += 1
    for _ in range(loners):
        team_of[next_id] = None
        next_id += 1
    ids = list(team_of)
    met = {i: set() for i in ids}
    for _ in range(history_rounds):
        rng.shuffle(ids)
        for start in range(0, len(ids), 4):
            table = ids[start : start + 4]
            for a, b in combinations(table, 2):
                met[a].add(b)
                met[b].add(a)
    for i in sorted(team_of):
        entrants.append(
            PairingEntrant(id=i, group="G", team=team_of[i], opponents=frozenset(met[i]))
        )
    return entrants


def _repeats(table, by_id) -> int:
    return sum(1 for a, b in combinations(table, 2) if b in by_id[a].opponents)


def _apart(table, by_id) -> bool:
    teams = [by_id[p].team for p in table if by_id[p].team is not None]
    return len(teams) == len(set(teams))


@settings(max_examples=200, deadline=None)
@given(
    st.integers(4, 60),
    st.integers(0, 7),
    st.integers(0, 2),
    st.integers(0, 10**6),
)
def test_e5_every_member_of_a_team_sits_at_a_different_table(teams, loners, history, seed):
    entrants = _event(random.Random(seed), teams, loners, history)
    by_id = {e.id: e for e in entrants}
    biggest = max(sum(1 for e in entrants if e.team == f"Team {t}") for t in range(teams))
    tables_possible = len(_sizes(len(entrants)))
    if biggest > tables_possible:
        with pytest.raises(PairingError, match="members are checked in"):
            seat_round(entrants, seats=4, seed=seed)
        return
    seating = seat_round(entrants, seats=4, seed=seed)
    assert sorted(p for t in seating.tables for p in t) == sorted(by_id)  # each seated once
    assert [len(t) for t in seating.tables] == _sizes(len(entrants))  # threes only if forced
    assert all(_apart(t, by_id) for t in seating.tables)
    assert seating.repeats == sum(_repeats(t, by_id) for t in seating.tables)
    # A local optimum: no swap of two players at different tables lowers the repeats while
    # keeping teammates apart.
    if len(entrants) <= 80:
        for x, y in combinations(range(len(seating.tables)), 2):
            for a in seating.tables[x]:
                for b in seating.tables[y]:
                    tx = [b if p == a else p for p in seating.tables[x]]
                    ty = [a if p == b else p for p in seating.tables[y]]
                    if _apart(tx, by_id) and _apart(ty, by_id):
                        before = _repeats(seating.tables[x], by_id) + _repeats(
                            seating.tables[y], by_id
                        )
                        assert _repeats(tx, by_id) + _repeats(ty, by_id) >= before


def test_e5_two_hundred_teams_of_four_over_three_rounds_never_meet_a_teammate():
    team_of = {i: f"Team {(i - 1) // 4}" for i in range(1, 801)}
    met = {i: set() for i in team_of}
    total_repeats = 0
    for number in (1, 2, 3):
        entrants = [
            PairingEntrant(i, "G", team_of[i], opponents=frozenset(met[i])) for i in team_of
        ]
        seating = seat_round(entrants, seats=4, seed=number)
        assert len(seating.tables) == 200
        for table in seating.tables:
            assert len({team_of[p] for p in table}) == 4
            for a, b in combinations(table, 2):
                met[a].add(b)
                met[b].add(a)
        total_repeats += seating.repeats
    assert total_repeats == 0  # 800 players and three rounds leave room for no repeat at all


def test_e5_a_team_with_more_members_than_tables_is_named():
    entrants = [PairingEntrant(i, "G", "Acme") for i in range(1, 4)] + [
        PairingEntrant(4, "G"),
        PairingEntrant(5, "G"),
    ]
    with pytest.raises(
        PairingError, match="Acme: 3 members are checked in but there are only 2 tables"
    ):
        seat_round(entrants, seats=4, seed=1)


def test_e5_the_same_seed_seats_the_same_whatever_order_they_come_in():
    entrants = _event(random.Random(4), 12, 3, 1)
    shuffled = list(entrants)
    random.Random(9).shuffle(shuffled)
    assert seat_round(entrants, seats=4, seed=5) == seat_round(shuffled, seats=4, seed=5)


@pytest.mark.parametrize(
    ("count", "sizes"), [(2, [2]), (4, [2, 2]), (5, [3, 2]), (7, [3, 2, 2]), (9, [3, 3, 3])]
)
def test_e3_tables_of_three_use_pairs_only_where_the_count_forces_it(count, sizes):
    assert sizes_for(count, 3) == sizes
    with pytest.raises(PairingError, match="One player"):
        sizes_for(1, 3)


def test_e5_teammates_who_met_before_are_still_kept_apart():
    """A meeting in an earlier round (a swap the director allowed) must not lower the price of
    seating two teammates together (a bug the property above found)."""
    entrants = [
        PairingEntrant(1, "G", "Acme", opponents=frozenset({2})),
        PairingEntrant(2, "G", "Acme", opponents=frozenset({1})),
    ] + [PairingEntrant(i, "G") for i in range(3, 9)]
    for seed in range(20):
        for table in seat_round(entrants, seats=4, seed=seed).tables:
            assert not {1, 2} <= set(table)
