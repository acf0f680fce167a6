"""Single-elimination brackets (L11), pure: seeding, byes to the top seeds, advancing, champions."""

import random

import pytest

from league.brackets import (
    EMPTY,
    bracket_size,
    champion,
    new_bracket,
    ready_slots,
    record_result,
    seeding_order,
)


def test_l11_seeding_puts_1_v_n_and_keeps_the_top_seeds_apart():
    assert seeding_order(2) == [1, 2]
    assert seeding_order(4) == [1, 4, 2, 3]
    assert seeding_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = seeding_order(16)
    assert order.index(1) < 8 <= order.index(2)


@pytest.mark.parametrize(
    ("entrants", "size"), [(2, 2), (3, 4), (5, 8), (8, 8), (9, 16), (100, 128), (128, 128)]
)
def test_the_bracket_has_the_next_power_of_two_of_places(entrants, size):
    assert bracket_size(entrants) == size
    assert len(new_bracket(entrants)[0]) == size // 2


@pytest.mark.parametrize("entrants", [3, 5, 6, 7, 12, 100])
def test_l11_byes_go_to_the_top_seeds(entrants):
    first = new_bracket(entrants)[0]
    byes = sorted(slot.winner for slot in first if slot.decided)
    assert byes == list(range(1, bracket_size(entrants) - entrants + 1))
    assert all(slot.seed_b == EMPTY for slot in first if slot.decided)


def test_a_bye_advances_straight_into_round_two():
    rounds = new_bracket(3)
    assert (rounds[1][0].seed_a, rounds[1][0].seed_b) == (1, None)  # seed 1 waits for 2 v 3
    assert ready_slots(rounds) == [(0, 1)]
    assert record_result(rounds, 0, 1, 3) == [(1, 0)]
    assert (rounds[1][0].seed_a, rounds[1][0].seed_b) == (1, 3)


@pytest.mark.parametrize("entrants", list(range(2, 129)))
def test_l11_any_field_from_2_to_128_plays_down_to_one_champion(entrants):
    rng = random.Random(entrants)
    rounds = new_bracket(entrants)
    games = 0
    while ready_slots(rounds):
        r, i = ready_slots(rounds)[0]
        slot = rounds[r][i]
        record_result(rounds, r, i, rng.choice([slot.seed_a, slot.seed_b]))
        games += 1
    assert games == entrants - 1
    assert champion(rounds) in range(1, entrants + 1)


def test_the_favourites_win_when_the_better_seed_always_wins():
    rounds = new_bracket(6)
    while ready_slots(rounds):
        r, i = ready_slots(rounds)[0]
        slot = rounds[r][i]
        record_result(rounds, r, i, min(slot.seed_a, slot.seed_b))
    assert champion(rounds) == 1
    assert (rounds[-1][0].seed_a, rounds[-1][0].seed_b) == (1, 2)


def test_a_double_forfeit_sends_the_next_opponent_through_by_walkover():
    rounds = new_bracket(4)  # 1v4, 2v3
    record_result(rounds, 0, 0, None)
    record_result(rounds, 0, 1, 2)
    assert rounds[1][0].decided and champion(rounds) == 2


def test_two_double_forfeits_leave_no_champion():
    rounds = new_bracket(4)
    record_result(rounds, 0, 0, None)
    record_result(rounds, 0, 1, None)
    assert rounds[1][0].decided and champion(rounds) is None


def test_a_result_for_a_slot_not_being_played_is_refused():
    rounds = new_bracket(4)
    with pytest.raises(ValueError, match="not waiting"):
        record_result(rounds, 1, 0, 1)
    with pytest.raises(ValueError, match="not playing"):
        record_result(rounds, 0, 0, 2)


def test_fewer_than_two_entrants_make_no_bracket():
    with pytest.raises(ValueError):
        new_bracket(1)
