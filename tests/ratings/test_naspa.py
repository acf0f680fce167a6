"""R1–R2: NASPA's rating method (ratings/naspa.py), pure. The published example (an 1800 against
a 1700 expects 0.57903 wins) and the multiplier table are NASPA's; the seven-game example was
worked by hand from the published formula, as no worked tournament is published where we could
read it."""

import math
import random

from hypothesis import given
from hypothesis import strategies as st

from ratings.naspa import (
    Pairing,
    Rated,
    expected,
    multiplier,
    performance,
    rate_period,
    table_pairings,
)


def test_r1_expected_wins_are_naspas_published_figures():
    assert round(expected(1800, 1700), 5) == 0.57903
    # "0.6 wins at a difference of 127 rating points, 0.7 at 266, 0.8 at 435 and 0.9 at 689"
    for difference, wins in [(127, 0.6), (266, 0.7), (435, 0.8), (689, 0.9)]:
        assert math.isclose(expected(1500 + difference, 1500), wins, abs_tol=0.001)
    assert expected(1500, 1500) == 0.5


def test_r1_the_multiplier_falls_with_the_rating_and_after_fifty_games():
    assert [multiplier(r, 10) for r in (1200, 1799, 1800, 1999, 2000)] == [30, 30, 24, 24, 15]
    assert [multiplier(r, 50) for r in (1200, 1799, 1800, 1999, 2000)] == [20, 20, 16, 16, 10]


def test_r1_a_seven_game_period_worked_by_hand():
    """An 1850 with 30 rated games plays 1702, 1702, 1778, 1922, 1922, 1998 and 1998 and wins
    four. Expected wins: 0.6158 + 0.6158 + 0.5571 + 0.4429 + 0.4429 + 0.3842 + 0.3842 = 3.4429;
    excess 4 − 3.4429 = 0.5571; multiplier 24 (1800–1999, fewer than 50 games): +13.37."""
    opponents = [1702, 1702, 1778, 1922, 1922, 1998, 1998]
    before = {1: Rated(1850, 30)} | {10 + i: Rated(r, 100) for i, r in enumerate(opponents)}
    won = [1, 1, 0, 1, 0, 0, 1]
    after = rate_period([Pairing(1, 10 + i, r) for i, r in enumerate(won)], before)
    assert math.isclose(after[1].rating, 1850 + 13.371, abs_tol=0.001)
    assert after[1].games == 37


def test_r2_a_table_of_three_is_rated_as_its_three_pairings():
    pairings = table_pairings({7: 380, 8: 420, 9: 380})
    assert [(p.first, p.second, p.result) for p in pairings] == [
        (7, 8, 0.0),
        (7, 9, 0.5),
        (8, 9, 1.0),
    ]


def test_r1_a_newcomers_first_rating_is_the_one_their_period_leaves_unchanged():
    before = {2: Rated(1400, 80), 3: Rated(1600, 80), 4: Rated(1500, 80)}
    games = [Pairing(1, 2, 1), Pairing(1, 3, 0), Pairing(1, 4, 1)]
    first = rate_period(games, before)[1].rating
    excess = sum(p.result - expected(first, before[p.second].rating) for p in games)
    assert abs(excess) < 0.01  # within the search's one point
    assert first == performance([(before[p.second].rating, p.result, 1) for p in games])


def test_r1_a_newcomer_is_never_below_500_nor_far_above_their_strongest_opponent():
    lost_all = rate_period([Pairing(1, 2, 0)] * 3, {2: Rated(600, 80)})
    assert lost_all[1].rating == 500
    won_all = rate_period([Pairing(1, 2, 1)] * 3, {2: Rated(1000, 80)})
    assert won_all[1].rating == 1000 + 400  # the strongest opponent + 400 × a perfect record


ratings = st.integers(min_value=600, max_value=2200)
games = st.integers(min_value=0, max_value=120)


@given(ratings, ratings, games, games, st.sampled_from([0.0, 0.5, 1.0]))
def test_r1_a_rating_moves_toward_the_result(mine, theirs, my_games, their_games, result):
    before = {1: Rated(mine, my_games), 2: Rated(theirs, their_games)}
    after = rate_period([Pairing(1, 2, result)], before)
    change = after[1].rating - mine
    assert math.copysign(1, change) == math.copysign(1, result - expected(mine, theirs)) or (
        change == 0
    )
    assert (after[2].rating - theirs) * change <= 0  # the opponent moves the other way


@given(ratings, games, st.sampled_from([0.0, 1.0]))
def test_r1_two_equal_players_changes_mirror_each_other(rating, played, result):
    before = {1: Rated(rating, played), 2: Rated(rating, played)}
    after = rate_period([Pairing(1, 2, result)], before)
    assert math.isclose(after[1].rating - rating, rating - after[2].rating)


@given(st.randoms(use_true_random=False))
def test_r1_the_order_of_a_periods_games_does_not_matter(rng):
    before = {p: Rated(1200 + 50 * p, 20 * p) for p in range(1, 7)}
    tables = [
        {a: rng.randint(250, 500) for a in rng.sample(range(1, 10), rng.choice([2, 3, 4]))}
        for _ in range(8)
    ]
    pairings = [p for table in tables for p in table_pairings(table)]
    shuffled = list(pairings)
    random.Random(rng.random()).shuffle(shuffled)
    one, other = rate_period(shuffled, before), rate_period(pairings, before)
    assert one.keys() == other.keys()
    for player, rated in one.items():  # equal but for the last bits of a float's sum
        assert math.isclose(rated.rating, other[player].rating, abs_tol=1e-6)
        assert rated.games == other[player].games
