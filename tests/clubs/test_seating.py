"""Seating a club night (E4, G9): tables of four and three, the seat order drawn, recent
tablemates kept apart. Pure: no database."""

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubs.seating import RECENCY_DECAY, ClubSeating, count_repeats, seat_tables
from league.tables import SeatingError, table_sizes


def _expected_sizes(count: int) -> list[int]:
    """Written out from the rule, apart from the module: fours first, as many as possible."""
    if count in (2, 5):
        return {2: [2], 5: [3, 2]}[count]
    for fours in range(count // 4, -1, -1):
        if (count - 4 * fours) % 3 == 0:
            return [4] * fours + [3] * ((count - 4 * fours) // 3)
    raise AssertionError(f"no tables for {count}")


def _random_history(rng: random.Random, present: list, nights: int) -> list[list[list]]:
    """Earlier nights among a roster larger than tonight's (some of them absent tonight), at
    tables of two to four, most recent first."""
    roster = list(present) + [f"absent-{i}" for i in range(rng.randint(0, 8))]
    history = []
    for _ in range(nights):
        came = rng.sample(roster, rng.randint(0, len(roster)))
        tables, start = [], 0
        while start < len(came):
            size = rng.randint(2, 4)
            tables.append(came[start : start + size])
            start += size
        history.append(tables)
    return history


def _pair_weights(history) -> dict[frozenset, float]:
    weights: dict[frozenset, float] = {}
    for age, night in enumerate(history):
        for pair in {frozenset(p) for table in night for p in combinations(table, 2)}:
            weights[pair] = weights.get(pair, 0.0) + RECENCY_DECAY**age
    return weights


def _table_cost(table, weights) -> float:
    return sum(weights.get(frozenset(pair), 0.0) for pair in combinations(table, 2))


# (players tonight, earlier nights, a seed for the history, the draw's seed); one player alone is
# refused, tested on its own.
nights_of_players = st.tuples(
    st.integers(0, 80).filter(lambda count: count != 1),
    st.integers(0, 6),
    st.integers(0, 2**32 - 1),
    st.integers(0, 2**32 - 1),
)


@settings(max_examples=60, deadline=None)
@given(nights_of_players)
def test_e4_everyone_sits_once_at_fours_then_threes(case):
    count, nights, history_seed, seed = case
    rng = random.Random(history_seed)
    players = rng.sample(range(1000), count)
    history = _random_history(rng, players, nights)

    seating = seat_tables(players, history=history, seed=seed)

    seated = [player for table in seating.tables for player in table]
    assert sorted(seated) == sorted(players)
    assert [len(table) for table in seating.tables] == _expected_sizes(count)


@pytest.mark.parametrize("count", [0, *range(2, 41)])  # one alone is refused: the next test
def test_e4_table_sizes_use_as_many_fours_as_the_count_allows(count):
    sizes = table_sizes(count)
    assert sum(sizes) == count
    assert sizes == sorted(sizes, reverse=True)  # fours first
    if count in (2, 5):
        assert sizes == {2: [2], 5: [3, 2]}[count]
    else:
        assert set(sizes) <= {3, 4}
        # No split with more fours exists: the threes left over could not be regrouped.
        assert sizes.count(3) < 4
    assert sizes == _expected_sizes(count)


def test_e4_one_player_cannot_make_a_table_and_nobody_makes_none():
    with pytest.raises(SeatingError, match="One player cannot make a table"):
        seat_tables(["ann"], history=[], seed=1)
    assert issubclass(SeatingError, ValueError)
    assert seat_tables([], history=[["ann", "bob"]], seed=1) == ClubSeating(tables=[])


def test_e4_a_player_checked_in_twice_is_refused_by_name():
    with pytest.raises(SeatingError, match="'ann'"):
        seat_tables(["ann", "bob", "ann", "cy"], history=[], seed=1)


@settings(max_examples=40, deadline=None)
@given(nights_of_players)
def test_e4_the_same_night_and_seed_give_the_same_seating_whatever_the_check_in_order(case):
    count, nights, history_seed, seed = case
    rng = random.Random(history_seed)
    players = rng.sample(range(1000), count)
    history = _random_history(rng, players, nights)
    first = seat_tables(players, history=history, seed=seed)

    assert seat_tables(list(players), history=history, seed=seed) == first
    rng.shuffle(players)
    assert seat_tables(players, history=history, seed=seed) == first


def test_e4_the_draw_uses_its_own_random_generator():
    random.seed(7)
    state = random.getstate()
    seat_tables(list(range(30)), history=[[list(range(0, 30, 2))]], seed=3)
    assert random.getstate() == state


@settings(max_examples=40, deadline=None)
@given(nights_of_players)
def test_e4_players_absent_tonight_do_not_change_the_seating(case):
    count, nights, history_seed, seed = case
    rng = random.Random(history_seed)
    players = rng.sample(range(1000), count)
    history = _random_history(rng, players, nights)
    here = set(players)
    only_tonights = [[[p for p in table if p in here] for table in night] for night in history]

    assert seat_tables(players, history=history, seed=seed) == seat_tables(
        players, history=only_tonights, seed=seed
    )


@settings(max_examples=40, deadline=None)
@given(
    st.tuples(
        st.integers(2, 40),
        st.integers(4, 20),  # many nights, so that often not every repeat can be avoided
        st.integers(0, 2**32 - 1),
        st.integers(0, 2**32 - 1),
    )
)
def test_e4_no_swap_of_two_players_would_seat_fewer_recent_tablemates(case):
    """The search ends at a local optimum: any two players at different tables trading places
    would cost at least as much (the recency-weighted cost the module documents)."""
    count, nights, history_seed, seed = case
    rng = random.Random(history_seed)
    players = rng.sample(range(1000), count)
    history = _random_history(rng, players, nights)
    weights = _pair_weights(history)
    tables = seat_tables(players, history=history, seed=seed).tables

    for (i, first), (j, second) in combinations(enumerate(tables), 2):
        before = _table_cost(first, weights) + _table_cost(second, weights)
        for p in first:
            for q in second:
                first_after = [q if x == p else x for x in first]
                second_after = [p if x == q else x for x in second]
                after = _table_cost(first_after, weights) + _table_cost(second_after, weights)
                assert after >= before - 1e-9, (
                    f"swapping {p} (table {i + 1}) and {q} (table {j + 1})"
                )


def _grid_night(tables_of_four: int) -> tuple[list[int], list[list[int]], list[list[int]]]:
    """Players 0..4k-1 laid out in a 4 x k grid. Last night's tables were the grid's columns;
    the diagonals (row r, column c + r) give every player three strangers: a seating with no
    repeat exists by construction."""
    k = tables_of_four
    players = [row * k + column for row in range(4) for column in range(k)]
    columns = [[row * k + column for row in range(4)] for column in range(k)]
    diagonals = [[row * k + (column + row) % k for row in range(4)] for column in range(k)]
    return players, columns, diagonals


@pytest.mark.parametrize("tables_of_four", [4, 5, 8, 15])
@pytest.mark.parametrize("seed", range(5))
def test_e4_when_no_repeat_is_needed_none_is_seated(tables_of_four, seed):
    players, last_night, no_repeat_seating = _grid_night(tables_of_four)
    assert count_repeats(no_repeat_seating, [last_night]) == 0  # the construction holds

    seating = seat_tables(players, history=[last_night], seed=seed)

    assert count_repeats(seating.tables, [last_night]) == 0


@settings(max_examples=30, deadline=None)
@given(st.integers(4, 20), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_e4_the_draw_seats_fewer_old_tablemates_than_seating_in_check_in_order(k, order_seed, seed):
    """Last night's tables checked in together again: seating in check-in order repeats every
    pair; the draw, where a repeat-free seating exists, repeats far fewer."""
    _, last_night, _ = _grid_night(k)
    random.Random(order_seed).shuffle(last_night)
    players = [player for table in last_night for player in table]
    naive = [players[i : i + 4] for i in range(0, len(players), 4)]

    seating = seat_tables(players, history=[last_night], seed=seed)

    assert count_repeats(naive, [last_night]) == 6 * k
    assert count_repeats(seating.tables, [last_night]) <= k  # at most one pair in six


@pytest.mark.parametrize("seed", range(10))
def test_e4_last_nights_tablemates_are_kept_apart_before_older_ones(seed):
    """Ann sat with Bob last night and with Cy, Di and Ed four nights before that; at two
    tables of three she must share with one of them, and it is not Bob."""
    history = [[["ann", "bob"]], [], [], [], [["ann", "cy", "di", "ed"]]]
    seating = seat_tables(["ann", "bob", "cy", "di", "ed", "flo"], history=history, seed=seed)
    anns_table = next(table for table in seating.tables if "ann" in table)
    assert "bob" not in anns_table
    assert "flo" in anns_table


def test_e4_g9_the_seat_order_is_drawn_so_anyone_may_keep_score():
    """The first seat keeps score (G9) and stands for the draw for first play: across draws
    each player gets it, and the order within a table changes."""
    players = ["ann", "bob", "cy", "di"]
    draws = [seat_tables(players, history=[], seed=seed).tables[0] for seed in range(100)]
    assert {table[0] for table in draws} == set(players)
    assert len({tuple(table) for table in draws}) > 10

    # At several tables too, the first seat is drawn, not the lowest id or the first checked in.
    history = [[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]]
    tables = [
        table
        for seed in range(20)
        for table in seat_tables(list(range(12)), history=history, seed=seed).tables
    ]
    assert {table[0] == min(table) for table in tables} == {True, False}


def test_e4_any_ids_that_can_be_told_apart_are_seated():
    mixed = ["ann", 7, ("guest", 2), "bob", 3.5, None, "cy"]
    seating = seat_tables(mixed, history=[[["ann", 7, None]]], seed=4)
    assert sorted(map(repr, (p for table in seating.tables for p in table))) == sorted(
        map(repr, mixed)
    )
    assert [len(table) for table in seating.tables] == [4, 3]
    # Three who met, at two tables: two of them must meet again, and only two.
    assert count_repeats(seating.tables, [[["ann", 7, None]]]) == 1
