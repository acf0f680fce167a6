"""Records of club tables: three or four players (G9), the club's challenge bonus (G5, 003 rule
9), games ended by passes (G3) and the end-of-game lines of a table (G1).

The two club-night records in tests/fixtures/gcg/ were written for these tests; their scores
were worked out on the board and every one replays (G4)."""

import pytest

from matches.scrabble import (
    CLUB_BONUS_TO_CHALLENGER,
    LOSE_TURN,
    OUT_BONUS,
    POINTS_TO_CHALLENGED,
    STANDARD,
    Position,
    check_gcg,
    ended_by_passes,
    parse_gcg,
    score_word,
)
from matches.scrabble.tiles import rack_value
from tests.matches.scrabble_simulate import rows_game
from tests.support import GCG_FIXTURES

FIXTURES = GCG_FIXTURES
# Sam, Ines and Theo (003): Sam challenges Theo's ROUZE off the board and gains 10 (line 10),
# Theo loses a challenge and his next turn (line 14), three passes each end the game.
CLUB_THREE = (FIXTURES / "club_night_three_players.gcg").read_text()
# Mara, Jo, Lev and Nia: five plays, then twelve passes end the game; each loses their tiles.
CLUB_FOUR = (FIXTURES / "club_night_four_players_passes.gcg").read_text()
THREE = "#player1 ada Ada Quill\n#player2 brin Brin Tamsworth\n#player3 cy Cy Osei\n"


def _messages(report):
    return [str(problem) for problem in report.problems]


def _lines(text: str, first: int, last: int) -> str:
    """Lines ``first`` to ``last`` (counting from 1) of a record."""
    return "".join(text.splitlines(keepends=True)[first - 1 : last])


# Up to Sam's club bonus on line 10, then Sam's HOME on line 11.
CLUB_OPENING = _lines(CLUB_THREE, 1, 9)
SAM_PLAYS_HOME = ">sam: ADEHMOS 4D HOME. +20 {total}\n"


# --- G5: the club's bonus to a successful challenger --------------------------------------------


@pytest.mark.parametrize("verify", [False, True])
def test_g5_club_bonus_to_the_challenger_while_tiles_remain_is_accepted(verify):
    report = check_gcg(CLUB_THREE, verify=verify, challenge_rule=CLUB_BONUS_TO_CHALLENGER)
    assert _messages(report) == []
    assert report.final_totals == {"sam": 47, "ines": 12, "theo": 2}


def test_g5_without_a_challenge_rule_the_club_bonus_line_is_read_as_the_record_shows_it():
    assert check_gcg(CLUB_THREE, verify=True).consistent


@pytest.mark.parametrize("rule", [LOSE_TURN, POINTS_TO_CHALLENGED])
def test_g5_a_club_bonus_under_another_challenge_rule_is_a_problem_naming_its_line(rule):
    report = check_gcg(CLUB_THREE, verify=True, challenge_rule=rule)
    assert _messages(report) == [
        "line 10: a challenge bonus to the challenger sam is kept under another challenge rule "
        f"(club_bonus_to_challenger) than this game's ({rule})"
    ]


@pytest.mark.parametrize("rule", [LOSE_TURN, CLUB_BONUS_TO_CHALLENGER])
def test_g5_a_bonus_to_the_challenged_player_is_kept_under_another_rule_than_the_clubs(rule):
    """GCG's usual (challenge) line: Ines's valid SLOPE was challenged and she gains 5."""
    text = _lines(CLUB_THREE, 1, 6) + ">ines: AEGLOPS (challenge) +5 13\n"
    assert check_gcg(text, challenge_rule=POINTS_TO_CHALLENGED).consistent
    assert _messages(check_gcg(text, challenge_rule=rule)) == [
        "line 7: a challenge bonus to ines, whose valid play was challenged, is kept under "
        f"another challenge rule (points_to_challenged) than this game's ({rule})"
    ]


def test_g5_the_club_bonus_is_exactly_ten():
    text = CLUB_OPENING + ">sam: ADEHMOS (challenge) +5 31\n"
    assert _messages(check_gcg(text, challenge_rule=CLUB_BONUS_TO_CHALLENGER)) == [
        "line 10: the club's challenge bonus is +10, not +5"
    ]


def test_g5_club_rule_a_play_taken_back_while_tiles_remain_owes_the_challenger_a_bonus():
    """Known only when the board is replayed: the bag is followed then."""
    text = CLUB_OPENING + SAM_PLAYS_HOME.format(total=46)
    assert check_gcg(text, challenge_rule=CLUB_BONUS_TO_CHALLENGER).consistent
    report = check_gcg(text, verify=True, challenge_rule=CLUB_BONUS_TO_CHALLENGER)
    assert _messages(report) == [
        "line 8: theo's play was taken back with tiles in the bag: under the club's rule its "
        "challenger gains 10, and no (challenge) line follows"
    ]


def test_g5_a_club_bonus_must_go_to_another_player_than_the_one_whose_play_was_taken_back():
    text = _lines(CLUB_THREE, 1, 8) + ">theo: EIOQUXZ (challenge) +10 10\n"
    report = check_gcg(text, challenge_rule=CLUB_BONUS_TO_CHALLENGER)
    assert [problem.line for problem in report.problems] == [9]
    assert "this line follows neither" in report.problems[0].message


def _three_player_rows(tiles_left_in_bag: int) -> tuple[str, dict]:
    """Ada, Brin and Cy fill rows until ``tiles_left_in_bag`` remain of the 79 (100 - 3 × 7);
    then Ada's play is challenged off and Brin, the challenger, writes the club's bonus."""
    text, _, totals, board = rows_game([7] * 11 + [2 - tiles_left_in_bag], THREE)
    ada, score = totals["ada"], score_word(board, Position.parse("3B"), "AB").score
    return text + (
        f">ada: ABC 3B AB +{score} {ada + score}\n>ada: ABC -- -{score} {ada}\n"
        f">brin: DEF (challenge) +10 {totals['brin'] + 10}\n"
    ), totals


def test_g5_club_bonus_with_the_last_tile_still_in_the_bag_is_accepted():
    text, _ = _three_player_rows(tiles_left_in_bag=1)
    report = check_gcg(text, verify=True, challenge_rule=CLUB_BONUS_TO_CHALLENGER)
    assert _messages(report) == []
    assert report.tiles_in_bag == 1


def test_g5_club_bonus_after_the_bag_is_empty_is_a_problem_naming_its_line():
    """003 rule 9: "once all the tiles have been drawn, this rule will no longer be in effect"."""
    text, _ = _three_player_rows(tiles_left_in_bag=0)
    report = check_gcg(text, verify=True, challenge_rule=CLUB_BONUS_TO_CHALLENGER)
    assert _messages(report) == [
        "line 18: a challenge bonus to brin with the bag empty: the club's bonus stops once "
        "all the tiles have been drawn"
    ]
    assert report.tiles_in_bag == 0


def test_g5_an_unknown_challenge_rule_is_refused():
    with pytest.raises(ValueError, match="unknown challenge rule"):
        check_gcg(CLUB_THREE, challenge_rule="double_challenge")


# --- G3: three passes by every player end the game ----------------------------------------------


def test_g3_twelve_passes_end_a_game_of_four():
    report = check_gcg(CLUB_FOUR, verify=True)
    assert _messages(report) == []
    assert report.final_totals == {"mara": 28, "jo": 4, "lev": -12, "nia": -20}
    assert ended_by_passes(parse_gcg(CLUB_FOUR))


def test_g3_nine_passes_end_a_game_of_three():
    assert ended_by_passes(parse_gcg(CLUB_THREE))


def test_g3_eleven_passes_do_not_end_a_game_of_four():
    text = CLUB_FOUR.replace(">mara: AGIOSTU - +0 36\n", "", 1)
    assert not ended_by_passes(parse_gcg(text))
    assert _messages(check_gcg(text)) == [
        "line 23: deducting each player's own tiles with nobody going out ends the game by "
        "passes, but only 11 passes in a row come before: with 4 players that takes 12, three "
        "by each"
    ]


def test_g3_an_exchange_is_not_a_pass():
    """002: a pass is neither a play nor an exchange; Lev exchanges in the middle of the run."""
    text = CLUB_FOUR.replace(">lev: EEFGUWY - +0 5\n", ">lev: EEFGUWY -FW +0 5\n", 2)
    text = text.replace(">lev: EEFGUWY -FW +0 5\n", ">lev: EEFGUWY - +0 5\n", 1)
    assert not ended_by_passes(parse_gcg(text))
    report = check_gcg(text)
    assert [problem.line for problem in report.problems] == [24]
    assert "only 6 passes in a row" in report.problems[0].message


def test_g3_a_turn_after_the_passes_is_a_problem():
    text = CLUB_FOUR.replace(
        ">jo: AADELRT (AADELRT) -8 4\n",
        ">jo: AADELRT 12D .ADE +5 17\n>jo: AADELRT (AADELRT) -8 9\n",
    )
    assert not ended_by_passes(parse_gcg(text))
    assert _messages(check_gcg(text)) == [
        "line 24: the game ended on line 23, after 12 passes in a row (three by each of the 4 "
        "players): no turn comes after"
    ]


def test_g3_a_two_player_record_may_end_after_six_scoreless_turns_as_tournaments_do():
    """Tournament software ends a two-player game after six scoreless turns of any kind
    (docs/gcg.md): its records are read as they are, although under G3 an exchange is no pass."""
    text = (
        "#player1 ada Ada Quill\n#player2 brin Brin Tamsworth\n"
        ">ada: DINNVWY 8D WINDY +32 32\n>brin: ACEEQRT -Q +0 0\n"
        + ">ada: AEINNRV - +0 32\n>brin: ACEEGRT - +0 0\n" * 2
        + ">ada: AEINNRV - +0 32\n>ada: AEINNRV (AEINNRV) -10 22\n"
        + ">brin: ACEEGRT (ACEEGRT) -10 -10\n"
    )
    assert check_gcg(text).consistent
    assert not ended_by_passes(parse_gcg(text))


def test_g3_a_game_that_went_out_did_not_end_by_passes():
    text, left, totals, _ = rows_game([7] * 13, THREE)
    tiles = "".join(left)
    text += f">brin: ({tiles}) +{rack_value(tiles)} {totals['brin'] + rack_value(tiles)}\n"
    assert not ended_by_passes(parse_gcg(text))


# --- G9, G1: the end of a game of three ---------------------------------------------------------


def _went_out(lines_per_player: bool, deduct: bool) -> tuple[str, list[str], dict]:
    """Three players fill 13 rows (91 tiles: the bag is empty, 9 tiles left); Brin goes out
    with Ada holding the first four and Cy the other five, gaining them once."""
    text, left, totals, _ = rows_game([7] * 13, THREE)
    ada, cy = "".join(left[:4]), "".join(left[4:])
    brin = totals["brin"]
    for tiles in [ada, cy] if lines_per_player else [ada + cy]:
        brin += rack_value(tiles)
        text += f">brin: ({tiles}) +{rack_value(tiles)} {brin}\n"
    if deduct:
        text += f">ada: {ada} ({ada}) -{rack_value(ada)} {totals['ada'] - rack_value(ada)}\n"
        text += f">cy: {cy} ({cy}) -{rack_value(cy)} {totals['cy'] - rack_value(cy)}\n"
    return text, left, totals


@pytest.mark.parametrize("lines_per_player", [True, False])
def test_g9_going_out_in_a_game_of_three_gains_both_other_racks(lines_per_player):
    text, left, totals = _went_out(lines_per_player, deduct=True)
    report = check_gcg(text, verify=True)
    assert _messages(report) == []
    assert report.end_rule == STANDARD
    assert report.final_totals["brin"] == totals["brin"] + rack_value("".join(left))


def test_g1_going_out_once_without_deductions_is_the_out_bonus_rule():
    text, _, _ = _went_out(lines_per_player=True, deduct=False)
    report = check_gcg(text, verify=True)
    assert _messages(report) == []
    assert report.end_rule == OUT_BONUS


def test_g9_the_going_out_lines_of_a_game_of_three_name_the_tiles_really_left():
    text, left, _ = _went_out(lines_per_player=True, deduct=False)
    wrong = text.replace("(YYZ??)", "(YYQ??)")  # Cy's Z written as a Q: the same value
    assert wrong != text
    report = check_gcg(wrong, verify=True)
    assert [problem.line for problem in report.problems] == [18]
    assert report.problems[0].message.startswith(
        f"the tiles left unplayed are {''.join(sorted(left))}"
    )


def test_g9_only_one_player_goes_out():
    text, _, totals = _went_out(lines_per_player=True, deduct=False)
    text += f">cy: (A) +1 {totals['cy'] + 1}\n"
    report = check_gcg(text)
    assert _messages(report) == [
        "line 19: brin went out on line 17: only one player gains the others' tiles, not cy too"
    ]


def test_g9_a_game_of_three_starts_with_79_tiles_in_the_bag():
    report = check_gcg(THREE + ">ada: DINNVWY 8D WINDY +32 32\n", verify=True)
    assert report.tiles_in_bag == 100 - 3 * 7 - 5
