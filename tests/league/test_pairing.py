"""Round-robin pairing by the circle method (pure, no database)."""

from itertools import combinations

import pytest

from league.pairing import round_robin


@pytest.mark.parametrize("count", [2, 3, 4, 5, 8, 9, 16, 31])
def test_everyone_meets_everyone_exactly_once(count):
    players = list(range(count))
    rounds = round_robin(players)
    met = [frozenset(pair) for pairs in rounds for pair in pairs if None not in pair]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in combinations(players, 2)), key=sorted
    )


@pytest.mark.parametrize("count", [3, 5, 7, 9])
def test_with_an_odd_count_each_round_has_one_bye_and_everyone_sits_out_once(count):
    rounds = round_robin(list(range(count)))
    assert len(rounds) == count
    byes = [pair[0] for pairs in rounds for pair in pairs if pair[1] is None]
    assert sorted(byes) == list(range(count))
    assert all(sum(pair[1] is None for pair in pairs) == 1 for pairs in rounds)


@pytest.mark.parametrize("count", [4, 6, 10])
def test_each_player_plays_once_per_round(count):
    for pairs in round_robin(list(range(count))):
        seated = [p for pair in pairs for p in pair]
        assert sorted(seated) == list(range(count))


def test_first_seat_is_shared_fairly():
    rounds = round_robin(list(range(8)))
    firsts = [sum(pair[0] == p for pairs in rounds for pair in pairs) for p in range(8)]
    assert max(firsts) - min(firsts) <= 2


def test_fewer_than_two_players_make_no_rounds_and_duplicates_are_refused():
    assert round_robin(["solo"]) == []
    with pytest.raises(ValueError, match="twice"):
        round_robin(["a", "a"])
