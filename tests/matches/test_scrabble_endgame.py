"""End-of-game adjustment (G1), the tie-break (G2) and challenge outcomes (G5)."""

import pytest

from matches.scrabble import (
    CLUB_BONUS_TO_CHALLENGER,
    EXCHANGE_MINIMUM_BAG,
    LOSE_TURN,
    NO_ADJUSTMENT,
    NORTH_AMERICAN,
    OUT_BONUS,
    POINTS_TO_CHALLENGED,
    STANDARD,
    end_of_game_adjustments,
    exchange_allowed,
    final_scores,
    resolve_challenge,
    scores_before_adjustment,
    winners,
)


def test_g1_standard_rule_moves_the_unplayed_tiles_to_the_player_who_went_out():
    # QZ is worth 20: the one who went out gains it, the holder loses it.
    assert end_of_game_adjustments(STANDARD, ["", "QZ"], went_out=0) == [20, -20]


def test_g1_north_american_rule_doubles_the_opponents_tiles_without_a_deduction():
    assert end_of_game_adjustments(NORTH_AMERICAN, ["", "QZ"], went_out=0) == [40, 0]


def test_g1_rule_none_makes_no_adjustment():
    assert end_of_game_adjustments(NO_ADJUSTMENT, ["AE", "QZ"], went_out=None) == [0, 0]
    assert end_of_game_adjustments(NO_ADJUSTMENT, ["", "QZ"], went_out=0) == [0, 0]


@pytest.mark.parametrize("rule", [STANDARD, NORTH_AMERICAN])
def test_g1_when_nobody_went_out_each_player_loses_their_own_tiles(rule):
    assert end_of_game_adjustments(rule, ["AE", "QZ"], went_out=None) == [-2, -20]


def test_g1_blanks_left_unplayed_are_worth_nothing():
    assert end_of_game_adjustments(STANDARD, ["?", ""], went_out=1) == [0, 0]


def test_g1_standard_rule_with_three_players_gains_everyone_elses_tiles():
    assert end_of_game_adjustments(STANDARD, ["K", "", "JX"], went_out=1) == [-5, 21, -16]


def test_g1_north_american_rule_with_three_players_doubles_all_the_others_tiles():
    assert end_of_game_adjustments(NORTH_AMERICAN, ["K", "", "JX"], went_out=1) == [0, 42, 0]


def test_g1_out_bonus_gains_the_others_tiles_once_and_nobody_loses_their_own():
    """Document 004: going out earns the others' tiles; nothing is deducted at the end."""
    assert end_of_game_adjustments(OUT_BONUS, ["K", "", "JX"], went_out=1) == [0, 21, 0]
    assert end_of_game_adjustments(OUT_BONUS, ["", "QZ"], went_out=0) == [20, 0]


def test_g1_out_bonus_changes_nothing_when_nobody_went_out():
    assert end_of_game_adjustments(OUT_BONUS, ["AE", "QZ", "K", "?"], went_out=None) == [0] * 4


def test_g1_standard_rule_with_four_players_gains_all_three_other_racks():
    adjustments = end_of_game_adjustments(STANDARD, ["K", "JX", "", "AE"], went_out=2)
    assert adjustments == [-5, -16, 23, -2]


def test_g1_final_scores_apply_the_adjustment():
    assert final_scores(STANDARD, [380, 377], ["", "VW"], went_out=0) == [388, 369]


def test_g1_a_player_who_went_out_holds_no_tiles():
    with pytest.raises(ValueError, match="went out but still holds"):
        end_of_game_adjustments(STANDARD, ["A", "B"], went_out=0)


def test_g1_unknown_rule_is_refused():
    with pytest.raises(ValueError, match="unknown end-of-game rule"):
        end_of_game_adjustments("house", ["", "B"], went_out=0)


def test_g1_went_out_must_name_a_player():
    with pytest.raises(ValueError, match="not one of the 2 players"):
        end_of_game_adjustments(STANDARD, ["", "B"], went_out=2)


def test_g2_higher_final_score_wins():
    assert winners([400, 390], [380, 395]) == [0]


def test_g2_tie_on_final_score_goes_to_the_higher_score_before_the_adjustment():
    assert winners([350, 350], [340, 352]) == [1]


def test_g2_only_an_exact_tie_on_both_scores_is_a_tie():
    assert winners([350, 350], [344, 344]) == [0, 1]


def test_g2_tie_break_looks_only_at_the_players_tied_on_final_score():
    # Player 2 had the most before the adjustment but is not tied for first.
    assert winners([410, 410, 300], [400, 405, 420]) == [1]


def test_g2_needs_both_scores_for_every_player():
    with pytest.raises(ValueError):
        winners([400, 390], [380])


def test_g5_lose_turn_unsuccessful_challenger_loses_a_turn():
    outcome = resolve_challenge(LOSE_TURN, play_is_acceptable=True, tiles_in_bag=40)
    assert outcome.play_stands and outcome.challenger_loses_turn
    assert outcome.points_to_challenged == outcome.points_to_challenger == 0


@pytest.mark.parametrize("rule", [LOSE_TURN, POINTS_TO_CHALLENGED])
def test_g5_an_unacceptable_play_is_taken_back(rule):
    outcome = resolve_challenge(rule, play_is_acceptable=False, tiles_in_bag=40)
    assert not outcome.play_stands
    assert not outcome.challenger_loses_turn
    assert outcome.points_to_challenger == 0


@pytest.mark.parametrize("points", [5, 10])
def test_g5_points_to_challenged_gives_5_or_10_points_instead_of_a_lost_turn(points):
    outcome = resolve_challenge(
        POINTS_TO_CHALLENGED, play_is_acceptable=True, tiles_in_bag=40, points=points
    )
    assert outcome.play_stands and not outcome.challenger_loses_turn
    assert outcome.points_to_challenged == points


def test_g5_challenge_points_are_5_or_10():
    with pytest.raises(ValueError, match="5 or 10"):
        resolve_challenge(POINTS_TO_CHALLENGED, play_is_acceptable=True, tiles_in_bag=0, points=7)


def test_g5_club_bonus_gives_10_to_a_successful_challenger_while_tiles_remain():
    outcome = resolve_challenge(CLUB_BONUS_TO_CHALLENGER, play_is_acceptable=False, tiles_in_bag=1)
    assert not outcome.play_stands
    assert outcome.points_to_challenger == 10


def test_g5_club_bonus_stops_once_the_bag_is_empty():
    outcome = resolve_challenge(CLUB_BONUS_TO_CHALLENGER, play_is_acceptable=False, tiles_in_bag=0)
    assert not outcome.play_stands
    assert outcome.points_to_challenger == 0


def test_g5_club_rule_unsuccessful_challenger_loses_a_turn_and_no_points():
    outcome = resolve_challenge(CLUB_BONUS_TO_CHALLENGER, play_is_acceptable=True, tiles_in_bag=9)
    assert outcome.play_stands and outcome.challenger_loses_turn
    assert outcome.points_to_challenged == outcome.points_to_challenger == 0


def test_g5_unknown_challenge_rule_is_refused():
    with pytest.raises(ValueError, match="unknown challenge rule"):
        resolve_challenge("double", play_is_acceptable=True, tiles_in_bag=9)


@pytest.mark.parametrize("tiles_in_bag, allowed", [(100, True), (7, True), (6, False), (0, False)])
def test_g6_exchanging_needs_at_least_seven_tiles_in_the_bag(tiles_in_bag, allowed):
    assert EXCHANGE_MINIMUM_BAG == 7
    assert exchange_allowed(tiles_in_bag) is allowed


@pytest.mark.parametrize(
    ("rule", "went_out", "before"),
    [
        ("standard", 1, [411, 389]),  # the loser lost QI's 11, the one out gained it
        ("north_american", 1, [400, 378]),  # only the gain, twice the tiles
        ("out_bonus", 1, [400, 389]),  # only the gain, once
        ("none", 1, [400, 400]),
        ("standard", None, [411, 400]),  # nobody out: each lost their own
        ("out_bonus", None, [400, 400]),  # time up under 004: nothing moves
    ],
)
def test_g1_g2_scores_before_the_adjustment_run_the_rule_backwards(rule, went_out, before):
    racks = ["QI", ""]
    assert scores_before_adjustment(rule, [400, 400], racks, went_out) == before
    assert final_scores(rule, before, racks, went_out) == [400, 400]
