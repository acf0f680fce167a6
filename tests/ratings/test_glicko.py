"""R1–R3: Glicko-2 as the site rates (ratings/glicko.py), pure. The worked example is Mark
Glickman's, from *Example of the Glicko-2 system*, on the paper's own scale."""

import math
import random

from hypothesis import given
from hypothesis import strategies as st

from ratings import glicko, naspa
from ratings.glicko import GLICKO_SCALE, Rated, idle, rate_period
from ratings.naspa import Pairing, table_pairings


def test_r1_glicko2_gives_glickmans_worked_example():
    """A 1500 (deviation 200, volatility 0.06) beats a 1400 (30), loses to a 1550 (100) and a
    1700 (300), τ = 0.5: the paper's 1464.06, 151.52 and 0.05999."""
    before = {
        1: Rated(1500, 200, 0.06),
        2: Rated(1400, 30, 0.06),
        3: Rated(1550, 100, 0.06),
        4: Rated(1700, 300, 0.06),
    }
    games = [Pairing(1, 2, 1), Pairing(1, 3, 0), Pairing(1, 4, 0)]
    after = rate_period(games, before, scale=GLICKO_SCALE, tau=0.5)[1]
    assert round(after.rating, 2) == 1464.05  # the paper rounds its steps: 1464.06
    assert round(after.deviation, 2) == 151.52
    assert round(after.volatility, 5) == 0.06000  # the paper: 0.05999
    assert after.games == 3


def test_r1_settled_ratings_expect_naspas_wins():
    """On NASPA's scale two ratings with little doubt left expect what NASPA's formula does."""
    for difference in (0, 127, 266, 435, 689):
        mine, theirs = Rated(1500 + difference, 1), Rated(1500, 1)
        assert math.isclose(
            glicko.expected(mine, theirs), naspa.expected(1500 + difference, 1500), abs_tol=1e-4
        )


def test_r1_a_newcomer_starts_at_1500_and_350():
    newcomer = rate_period([Pairing(1, 2, 1)], {})
    assert newcomer[1].rating > 1500 > newcomer[2].rating
    assert Rated().rating == 1500 and Rated().deviation == 350


def test_r1_a_period_without_games_leaves_the_rating_and_widens_the_doubt_up_to_the_start():
    settled = Rated(1700, 80, 0.06, 40)
    later = idle(settled)
    assert later.rating == 1700 and 80 < later.deviation < 350 and later.games == 40
    assert idle(Rated(1700, 349.9, 0.5)).deviation == 350


def test_r3_a_game_of_less_weight_moves_the_rating_less():
    before = {1: Rated(1500, 200), 2: Rated(1500, 200)}
    full = rate_period([Pairing(1, 2, 1)], before)[1]
    third = rate_period([Pairing(1, 2, 1, weight=1 / 3)], before)[1]
    assert 1500 < third.rating < full.rating
    assert third.games == 1 / 3


ratings = st.floats(min_value=600, max_value=2200)
deviations = st.floats(min_value=40, max_value=350)


@given(ratings, ratings, deviations, deviations, st.sampled_from([0.0, 0.5, 1.0]))
def test_r1_a_rating_moves_toward_the_result(mine, theirs, my_doubt, their_doubt, result):
    before = {1: Rated(mine, my_doubt), 2: Rated(theirs, their_doubt)}
    after = rate_period([Pairing(1, 2, result)], before)
    surprise = result - glicko.expected(before[1], before[2])
    change = after[1].rating - mine
    assert change * surprise >= -1e-9  # a float's last bit aside
    assert (after[2].rating - theirs) * change <= 1e-9


@given(ratings, deviations, st.sampled_from([0.0, 1.0]))
def test_r1_two_equal_players_changes_mirror_each_other(rating, doubt, result):
    before = {1: Rated(rating, doubt), 2: Rated(rating, doubt)}
    after = rate_period([Pairing(1, 2, result)], before)
    assert math.isclose(after[1].rating - rating, rating - after[2].rating, abs_tol=1e-9)
    assert math.isclose(after[1].deviation, after[2].deviation)


@given(st.randoms(use_true_random=False))
def test_r2_the_order_of_a_periods_games_does_not_matter(rng):
    before = {p: Rated(1200 + 50 * p, 60 + 20 * p) for p in range(1, 7)}
    tables = [
        {a: rng.randint(250, 500) for a in rng.sample(range(1, 10), rng.choice([2, 3, 4]))}
        for _ in range(8)
    ]
    pairings = [p for table in tables for p in table_pairings(table)]
    shuffled = list(pairings)
    random.Random(rng.random()).shuffle(shuffled)
    assert rate_period(shuffled, before) == rate_period(pairings, before)
