"""Checking a record: arithmetic of every line, then (verify) the board replay (G4, G6, G1)."""

import pytest

from matches.scrabble import (
    NORTH_AMERICAN,
    STANDARD,
    Board,
    Position,
    check_gcg,
    score_word,
)
from matches.scrabble.tiles import rack_value
from tests.matches.scrabble_simulate import rows_game

HEADER = "#player1 ada Ada Quill\n#player2 brin Brin Tamsworth\n"

CLUB_NIGHT = (
    HEADER
    + """\
>ada: DINNVWY 8D WINDY +32 32
>brin: ADEEGIL 7C GALE +16 16
>ada: ENORSTU H8 .OUTERS +11 43
>brin: ADEIIXZ I9 AX +22 38
>brin: DEIIZ (challenge) +5 43
>ada: ABCNU?E - +0 43
>brin: DEIIZQ? -QZ +0 43
>ada: ABCNU?E -3 +0 43
>brin: DEIIZ?? 12E DIZ. +14 57
>brin: DEIIZ?? -- -14 43
>ada: ABCDEFG (time) -10 33
>ada: (EI) +2 35
>brin: EI (EI) -2 41
"""
)


def _messages(report):
    return [str(problem) for problem in report.problems]


@pytest.mark.parametrize("verify", [False, True])
def test_a_consistent_record_has_no_problems(verify):
    report = check_gcg(CLUB_NIGHT, verify=verify)
    assert report.consistent, _messages(report)
    assert report.final_totals == {"ada": 35, "brin": 41}


def test_replay_leaves_the_final_position_and_bag():
    report = check_gcg(CLUB_NIGHT, verify=True)
    assert report.board.at(7, 7) == "Y"
    assert report.board.at(11, 4) is None  # DIZ. was withdrawn
    assert report.tiles_in_bag == 100 - 14 - (5 + 4 + 6 + 2)


def test_a_wrong_cumulative_total_is_reported_with_its_line():
    text = CLUB_NIGHT.replace(">ada: ENORSTU H8 .OUTERS +11 43", ">ada: ENORSTU H8 .OUTERS +11 44")
    report = check_gcg(text)
    assert _messages(report)[0] == "line 5: ada's total should be 43 (32 +11), the record says 44"


def test_one_wrong_total_does_not_cascade():
    text = CLUB_NIGHT.replace("+11 43", "+11 44").replace("- +0 43", "- +0 44", 1)
    text = text.replace("-3 +0 43", "-3 +0 44").replace("(time) -10 33", "(time) -10 34")
    text = text.replace("(EI) +2 35", "(EI) +2 36")
    assert [problem.line for problem in check_gcg(text).problems] == [5]


def test_g4_a_wrong_move_score_is_found_only_by_replaying_the_board():
    text = CLUB_NIGHT.replace("I9 AX +22 38", "I9 AX +20 36").replace("+5 43", "+5 41")
    text = text.replace("-QZ +0 43", "-QZ +0 41").replace("+14 57", "+14 55")
    text = text.replace("-- -14 43", "-- -14 41").replace("-2 41", "-2 39")
    assert check_gcg(text).consistent  # the arithmetic adds up
    report = check_gcg(text, verify=True)
    assert _messages(report) == ["line 6: I9 AX scores 22, the record says +20"]


def test_g4_an_illegal_play_is_reported_when_replaying():
    text = HEADER + ">ada: DINNVWY 8D WINDY +32 32\n>brin: QI A1 QI +22 22\n"
    report = check_gcg(text, verify=True)
    assert _messages(report) == [
        "line 4: illegal play A1 QI: the play does not touch any tile on the board"
    ]


def test_g4_first_play_off_the_centre_is_reported():
    report = check_gcg(HEADER + ">ada: DINNVWY 1A WINDY +9 9\n", verify=True)
    assert "must cover the centre square H8" in _messages(report)[0]


def test_g4_played_through_letters_may_be_written_out():
    text = HEADER + ">ada: DINNVWY 8D WINDY +32 32\n>brin: AE H7 AYE +6 6\n"
    assert check_gcg(text, verify=True).consistent


def test_withdrawn_phony_must_take_off_exactly_the_placement_score():
    text = HEADER + ">ada: DINNVWY 8D WINDY +32 32\n>ada: DINNVWY -- -30 2\n"
    assert _messages(check_gcg(text)) == [
        "line 4: withdrawing WINDY should take off 32, the record says -30"
    ]


def test_older_phony_line_plus_zero_is_accepted_when_the_total_drops():
    text = HEADER + ">ada: DINNVWY 8D WINDY +32 32\n>ada: DINNVWY -- +0 0\n"
    assert check_gcg(text, verify=True).consistent


def test_older_phony_line_plus_zero_with_an_unchanged_total_is_reported():
    text = HEADER + ">ada: DINNVWY 8D WINDY +32 32\n>ada: DINNVWY -- +0 32\n"
    assert _messages(check_gcg(text)) == [
        "line 4: withdrawing WINDY should take off 32, the record says +0"
    ]


def test_withdrawn_phony_must_follow_the_same_players_placement():
    text = HEADER + ">ada: DINNVWY 8D WINDY +32 32\n>brin: AB -- -32 -32\n"
    assert _messages(check_gcg(text)) == [
        "line 4: a withdrawn phony must follow a placement by brin"
    ]


def test_withdrawn_phony_is_taken_off_the_board():
    text = (
        HEADER
        + ">ada: DINNVWY 8D WINDY +32 32\n>ada: DINNVWY -- -32 0\n"
        + ">brin: AEEGILR 8G GALE +10 10\n"  # the centre is free again
    )
    assert check_gcg(text, verify=True).consistent


def test_challenge_bonus_must_follow_the_challenged_players_placement():
    text = HEADER + ">ada: DINNVWY 8D WINDY +32 32\n>brin: (challenge) +5 5\n"
    assert _messages(check_gcg(text)) == [
        "line 4: a challenge bonus goes to the player whose valid play was challenged, right "
        "after that play, or (the club's rule) to a successful challenger, right after the "
        "challenged play is taken back: this line follows neither"
    ]


@pytest.mark.parametrize(
    "line, message",
    [
        (">brin: AB - +5 5", "a pass scores 0, not +5"),
        (">brin: AB -A +3 3", "an exchange scores 0, not +3"),
        (">brin: (challenge) -5 -5", "a challenge bonus must add points, not -5"),
        (">brin: AB (time) +10 10", "a time penalty cannot add points (+10)"),
        (">brin: AB 8H AB -3 -3", "a placement cannot score -3"),
    ],
)
def test_lines_with_an_impossible_score_change_are_reported(line, message):
    text = HEADER + ">ada: DINNVWY 8D WINDY +32 32\n" + line + "\n"
    assert message in _messages(check_gcg(text))[0]


def test_g1_north_american_end_of_game_is_detected():
    text = HEADER + ">ada: DINNVWY 8D WINDY +32 32\n>ada: (QZ) +40 72\n"
    report = check_gcg(text)
    assert report.consistent
    assert report.end_rule == NORTH_AMERICAN


def test_g1_international_end_of_game_is_detected():
    text = HEADER + ">ada: DINNVWY 8D WINDY +32 32\n>ada: (QZ) +20 52\n>brin: QZ (QZ) -20 -20\n"
    report = check_gcg(text)
    assert report.consistent
    assert report.end_rule == STANDARD


# After ada's WINDY, three passes each end the game (G3).
PASSED_OUT = HEADER + ">ada: DINNVWY 8D WINDY +32 32\n" + ">brin: AB - +0 0\n>ada: QZ - +0 32\n" * 3


def test_g1_end_of_game_rule_cannot_be_told_without_going_out_points():
    text = PASSED_OUT + ">ada: QZ (QZ) -20 12\n>brin: ?? (??) -0 0\n"
    report = check_gcg(text)
    assert report.consistent
    assert report.end_rule is None


def test_g1_going_out_points_must_be_once_or_twice_the_tiles():
    text = HEADER + ">ada: DINNVWY 8D WINDY +32 32\n>ada: (QZ) +30 62\n"
    assert _messages(check_gcg(text)) == [
        "line 4: the unplayed tiles QZ are worth 20: going out earns +40 (North-American rule)"
        " or +20 (international rule), not +30"
    ]


def test_g1_own_rack_deduction_must_be_the_tiles_value():
    text = PASSED_OUT + ">ada: QZ (QZ) -10 22\n"
    assert _messages(check_gcg(text)) == [
        "line 10: deducting the unplayed tiles QZ should be -20, the record says -10"
    ]


def test_g1_mixing_the_two_end_of_game_rules_is_reported():
    text = (
        "#player1 a A\n#player2 b B\n#player3 c C\n>a: DINNVWY 8D WINDY +32 32\n"
        ">a: (QZ) +40 72\n>a: (K) +5 77\n"
    )
    report = check_gcg(text)
    assert [problem.line for problem in report.problems] == [6]
    assert "mix the North-American rule" in report.problems[0].message
    assert report.end_rule is None


def _filled_game(lengths: list[int]) -> tuple[str, list[str], dict, Board]:
    """A two-player game of rows of tiles (``tests/matches/scrabble_simulate.py`` · ``rows_game``)."""
    return rows_game(lengths, HEADER)


def test_g6_exchange_with_seven_tiles_in_the_bag_is_allowed():
    text, _, totals, board = _filled_game([7] * 11 + [2])  # 86 - 79 = 7 tiles left in the bag
    text += f">ada: ABC -ABC +0 {totals['ada']}\n"
    report = check_gcg(text, verify=True)
    assert report.consistent, _messages(report)
    assert report.tiles_in_bag == 7


def test_g6_exchange_with_fewer_than_seven_tiles_in_the_bag_is_refused():
    text, _, totals, board = _filled_game([7] * 11 + [3])  # 6 tiles left in the bag
    text += f">ada: ABC -ABC +0 {totals['ada']}\n"
    report = check_gcg(text, verify=True)
    assert _messages(report) == [
        "line 15: exchange with only 6 tiles in the bag: exchanging needs at least 7"
    ]


def test_g6_arithmetic_check_alone_does_not_track_the_bag():
    text, _, totals, board = _filled_game([7] * 11 + [3])
    text += f">ada: ABC -ABC +0 {totals['ada']}\n"
    assert check_gcg(text).consistent


def test_g6_a_withdrawn_play_puts_its_drawn_tiles_back_in_the_bag():
    text, _, totals, board = _filled_game([7] * 11 + [2])  # 7 in the bag, brin to play
    brin = totals["brin"]
    score = score_word(board, Position.parse("3B"), "AB").score
    text += f">brin: AB 3B AB +{score} {brin + score}\n>brin: AB -- -{score} {brin}\n"
    text += f">ada: A -A +0 {totals['ada']}\n"
    report = check_gcg(text, verify=True)
    assert report.consistent, _messages(report)
    assert report.tiles_in_bag == 7


def test_g1_going_out_names_the_tiles_really_left():
    text, left, totals, _ = _filled_game([7] * 13)  # 91 tiles placed: the bag is empty
    value = rack_value("".join(left))
    good = text + f">ada: ({''.join(left)}) +{2 * value} {totals['ada'] + 2 * value}\n"
    assert check_gcg(good, verify=True).consistent
    wrong_tiles = "".join(left).replace("Z", "Q")  # same value, other tiles
    bad = text + f">ada: ({wrong_tiles}) +{2 * value} {totals['ada'] + 2 * value}\n"
    report = check_gcg(bad, verify=True)
    assert [problem.line for problem in report.problems] == [16]
    assert report.problems[0].message.startswith(
        f"the tiles left unplayed are {''.join(sorted(left))}"
    )


def test_an_illegal_play_is_reported_once_and_replay_goes_on():
    text = (
        HEADER
        + ">ada: DINNVWY 8D WINDY +32 32\n>brin: AB 8H AB +5 5\n"  # puts A on the Y
        + ">ada: AE H7 A.E +6 38\n"
    )
    report = check_gcg(text, verify=True)
    assert [problem.line for problem in report.problems] == [4]
    assert "puts A on H8, which already holds Y" in report.problems[0].message


def test_records_of_four_players_keep_a_total_per_player():
    text = (
        "#player1 a A\n#player2 b B\n#player3 c C\n#player4 d D\n"
        ">a: DINNVWY 8D WINDY +32 32\n>b: ADEEGIL 7C GALE +16 16\n>c: AE H7 A.E +6 6\n"
        ">d: XY - +0 0\n"
    )
    report = check_gcg(text, verify=True)
    assert report.consistent
    assert report.final_totals == {"a": 32, "b": 16, "c": 6, "d": 0}
    assert report.tiles_in_bag == 100 - 4 * 7 - 5 - 4 - 2
