"""Scoring a play and refusing illegal placements (G4)."""

import pytest

from matches.scrabble import (
    Board,
    IllegalPlay,
    Position,
    play,
    score_placement,
    score_word,
    tiles_from_word,
)


def _board(*plays: tuple[str, str]) -> Board:
    """A board with these GCG-style plays made in order (each must be legal)."""
    board = Board()
    for position, word in plays:
        at = Position.parse(position)
        play(board, tiles_from_word(board, at, word), across=at.across)
    return board


def _row(row: int, col: int, word: str) -> list[tuple[int, int, str]]:
    """New tiles across from 0-based (row, col), skipping spaces (squares left as they are)."""
    return [(row, col + offset, letter) for offset, letter in enumerate(word) if letter != " "]


def test_g4_first_play_doubles_on_the_centre_after_its_letter_premium():
    # W on the double-letter D8 counts 8 before the centre doubles the word: (8+1+1+2+4) × 2.
    scored = score_word(Board(), Position.parse("8D"), "WINDY")
    assert scored.score == 32
    assert scored.main_word.letters == "WINDY"
    assert scored.cross_words == ()


def test_g4_word_premiums_multiply_two_double_words_make_four_times():
    board = Board()
    board.put({4 * 15 + 7: "S"})  # an S already on H5, between the double words E5 and K5
    scored = score_placement(board, _row(4, 4, "TOA TER"))
    assert scored.main_word.letters == "TOASTER"
    assert scored.score == 7 * 4


def test_g4_word_premiums_multiply_two_triple_words_make_nine_times():
    board = Board()
    board.put({3: "A"})  # an A already on D1, a double-letter square that no longer counts
    scored = score_placement(board, _row(0, 0, "REL TION"))
    assert scored.main_word.letters == "RELATION"
    assert scored.bingo
    assert scored.score == 8 * 9 + 50


def test_g4_premiums_count_only_under_newly_placed_tiles():
    board = _board(("8D", "WINDY"))  # the Y sits on the centre double word
    scored = score_word(board, Position.parse("H7"), "A.E")
    assert scored.score == 1 + 4 + 1


def test_g4_blank_scores_zero_but_its_word_premium_still_applies():
    scored = score_word(Board(), Position.parse("8D"), "WINDy")
    assert scored.main_word.letters == "WINDy"
    assert scored.score == (8 + 1 + 1 + 2 + 0) * 2


def test_g4_blank_on_a_letter_premium_scores_zero():
    assert score_word(Board(), Position.parse("8D"), "wINDY").score == (0 + 1 + 1 + 2 + 4) * 2


def test_g4_cross_words_are_scored_with_the_main_word():
    board = _board(("8D", "WINDY"))
    scored = score_word(board, Position.parse("7C"), "GALE")
    assert [(word.letters, word.score) for word in scored.words] == [
        ("GALE", 2 * 2 + 1 + 1 + 1),  # G on the double-letter C7
        ("AW", 5),
        ("LI", 2),
        ("EN", 2),
    ]
    assert scored.score == 16


def test_g4_shared_letter_counts_in_each_word_with_its_premiums():
    board = Board()
    board.put({4 * 15 + 5: "T", 5 * 15 + 4: "O"})  # T on F5, O on E6
    scored = score_placement(board, [(4, 4, "X")])  # X on the double-word E5
    assert sorted((word.letters, word.score) for word in scored.words) == [
        ("XO", (8 + 1) * 2),
        ("XT", (8 + 1) * 2),
    ]
    assert scored.score == 36


def test_g4_all_seven_tiles_earn_fifty_more():
    scored = score_placement(Board(), _row(7, 1, "RETAINS"))
    assert scored.bingo
    assert scored.score == (1 + 1 + 2 + 1 + 1 + 1 + 1) * 2 + 50


def test_g4_six_tiles_earn_no_bonus():
    scored = score_placement(Board(), _row(7, 2, "RETAIN"))
    assert not scored.bingo
    assert scored.score == (1 + 2 + 1 + 1 + 1 + 1) * 2


def test_g4_letter_premium_is_multiplied_by_the_word_premium():
    board = _board(("8D", "WINDY"))
    # J on the triple-letter F10 (24), under no word premium; cross-word none.
    scored = score_word(board, Position.parse("F8"), ".AJ")
    assert scored.score == 1 + 1 + 8 * 3


def test_g4_single_tile_scores_both_words_and_picks_the_asked_direction_as_main():
    board = Board()
    board.put({7 * 15 + 6: "A", 6 * 15 + 7: "B"})
    across = score_placement(board, [(7, 7, "X")], across=True)
    down = score_placement(board, [(7, 7, "X")], across=False)
    assert across.main_word.letters == "AX" and down.main_word.letters == "BX"
    assert across.score == down.score == (1 + 8) * 2 + (3 + 8) * 2


def test_gcg_word_marks_letters_already_on_the_board_with_dots():
    board = _board(("8D", "WINDY"))
    scored = score_word(board, Position.parse("H7"), "AYE")  # the Y written out
    assert scored.gcg_word() == "A.E"
    assert [tile.letter for tile in scored.tiles] == ["A", "E"]


def test_play_puts_the_tiles_on_the_board():
    board = Board()
    play(board, _row(7, 6, "OX"))
    assert board.at(7, 6) == "O" and board.at(7, 7) == "X"


@pytest.mark.parametrize(
    "tiles, reason, words",
    [
        ([(7, 7, "A"), (8, 8, "B")], "not_in_line", "not all in one row or one column"),
        ([(7, 7, "A"), (7, 9, "B")], "gap", "I8 is left empty"),
        ([(0, 0, "A"), (0, 1, "B")], "misses_centre", "centre square H8"),
        ([(7, 7, "A")], "one_letter", "at least two letters"),
        ([(7, 7, "A"), (7, 7, "B")], "duplicate_square", "two tiles are put on H8"),
        ([(7, 14, "A"), (7, 15, "B")], "off_board", "off the board"),
        ([(7, 7, "1"), (7, 8, "B")], "bad_letter", "not a letter"),
        ([(7, 7, "É"), (7, 8, "B")], "bad_letter", "not a letter"),
        ([], "no_tiles", "at least one tile"),
        (_row(7, 0, "ABCDEFGH"), "too_many_tiles", "at most 7"),
    ],
)
def test_g4_illegal_first_plays_are_refused_saying_why(tiles, reason, words):
    with pytest.raises(IllegalPlay, match=words) as refused:
        score_placement(Board(), tiles)
    assert refused.value.reason == reason


def test_g4_a_later_play_must_touch_a_tile_on_the_board():
    board = _board(("8D", "WINDY"))
    with pytest.raises(IllegalPlay, match="does not touch") as refused:
        score_placement(board, _row(0, 0, "AB"))
    assert refused.value.reason == "not_touching"


def test_g4_a_play_may_not_overwrite_a_tile():
    board = _board(("8D", "WINDY"))
    with pytest.raises(IllegalPlay, match="H8 already holds Y") as refused:
        score_placement(board, [(7, 7, "A"), (8, 7, "B")])
    assert refused.value.reason == "overwrites"


def test_g4_a_gap_filled_by_a_tile_on_the_board_is_no_gap():
    board = _board(("8D", "WINDY"))
    scored = score_placement(board, [(6, 4, "A"), (8, 4, "T")])  # A, I (on the board), T
    assert scored.main_word.letters == "AIT"
    assert scored.score == 3


def test_gcg_word_with_a_letter_over_a_different_tile_is_refused():
    board = _board(("8D", "WINDY"))
    with pytest.raises(IllegalPlay, match="puts Q on H8, which already holds Y") as refused:
        tiles_from_word(board, Position.parse("H7"), "AQE")
    assert refused.value.reason == "overwrites"


def test_gcg_word_with_a_dot_on_an_empty_square_is_refused():
    board = _board(("8D", "WINDY"))
    with pytest.raises(IllegalPlay, match="I8, but that square is empty") as refused:
        tiles_from_word(board, Position.parse("I7"), "A.E")
    assert refused.value.reason == "empty_through"


def test_gcg_word_must_be_the_whole_word():
    board = _board(("8D", "WINDY"))
    with pytest.raises(IllegalPlay, match="not the whole word") as refused:
        tiles_from_word(board, Position.parse("8E"), "...YS")  # the W before it is left out
    assert refused.value.reason == "not_whole_word"


def test_gcg_word_running_off_the_board_is_refused():
    with pytest.raises(IllegalPlay, match="runs off the board"):
        tiles_from_word(Board(), Position.parse("8M"), "WINDY")
