"""The board, its coordinates and the English tile set (G4)."""

from collections import Counter

import pytest

from matches.scrabble import BAG_SIZE, TILE_COUNTS, TILE_VALUES, Board, Position, rack_value
from matches.scrabble.board import (
    CENTRE,
    LETTER_MULTIPLIERS,
    SIZE,
    WORD_MULTIPLIERS,
    square_name,
)
from matches.scrabble.tiles import full_bag, unseen_tiles


def square_index(row: int, col: int) -> int:
    """The flat index the board's tables use for a square given its 0-based row and column."""
    return row * SIZE + col


def _squares_with(multipliers, factor):
    return {square_name(index) for index, value in enumerate(multipliers) if value == factor}


def test_g4_board_is_fifteen_by_fifteen_with_the_centre_at_h8():
    assert SIZE == 15
    assert square_name(CENTRE) == "H8"
    assert WORD_MULTIPLIERS[CENTRE] == 2  # the centre star is a double-word square


def test_g4_triple_word_squares_are_the_corners_and_edge_midpoints():
    assert _squares_with(WORD_MULTIPLIERS, 3) == {
        "A1", "H1", "O1", "A8", "O8", "A15", "H15", "O15",
    }  # fmt: skip


def test_g4_premium_square_counts_match_the_standard_board():
    assert Counter(WORD_MULTIPLIERS) == {1: 225 - 8 - 17, 2: 17, 3: 8}
    assert Counter(LETTER_MULTIPLIERS) == {1: 225 - 24 - 12, 2: 24, 3: 12}


def test_g4_no_square_has_both_a_letter_and_a_word_premium():
    assert all(
        letter == 1 or word == 1
        for letter, word in zip(LETTER_MULTIPLIERS, WORD_MULTIPLIERS, strict=True)
    )


@pytest.mark.parametrize("name, letter_factor", [("D1", 2), ("F2", 3), ("G7", 2), ("B6", 3)])
def test_g4_some_letter_premium_squares(name, letter_factor):
    position = Position.parse(name)
    assert LETTER_MULTIPLIERS[position.index] == letter_factor


def test_g4_premium_layout_is_symmetric_under_rotation_and_reflection():
    for row in range(SIZE):
        for col in range(SIZE):
            index = square_index(row, col)
            for other in (
                square_index(col, row),
                square_index(SIZE - 1 - row, col),
                square_index(row, SIZE - 1 - col),
            ):
                assert WORD_MULTIPLIERS[index] == WORD_MULTIPLIERS[other]
                assert LETTER_MULTIPLIERS[index] == LETTER_MULTIPLIERS[other]


def test_g4_english_set_has_100_tiles_with_two_blanks():
    assert BAG_SIZE == 100
    assert len(full_bag()) == 100
    assert TILE_COUNTS["?"] == 2
    assert TILE_COUNTS["E"] == 12
    assert set(TILE_VALUES) == set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


@pytest.mark.parametrize(
    "tiles, value", [("Q", 10), ("Z", 10), ("JX", 16), ("KEA", 7), ("?", 0), ("", 0), ("FHVWY", 20)]
)
def test_g4_tile_values(tiles, value):
    assert rack_value(tiles) == value


def test_g4_total_face_value_of_the_set_is_187():
    assert (
        sum(TILE_VALUES[tile] * count for tile, count in TILE_COUNTS.items() if tile != "?") == 187
    )


def test_unseen_tiles_counts_blanks_on_the_board_as_blanks():
    left = unseen_tiles("QaZ")
    assert left["Q"] == 0 and left["Z"] == 0
    assert left["?"] == 1
    assert left["A"] == 9  # the lowercase a is a blank, not one of the nine As


@pytest.mark.parametrize(
    "text, row, col, across",
    [("8H", 7, 7, True), ("H8", 7, 7, False), ("15a", 14, 0, True), ("o1", 0, 14, False)],
)
def test_positions_read_row_first_as_across_and_column_first_as_down(text, row, col, across):
    position = Position.parse(text)
    assert (position.row, position.col, position.across) == (row, col, across)
    assert str(position) == text.upper()


@pytest.mark.parametrize(
    "text", ["16A", "0H", "P8", "8", "H", "88", "HH", "8H8", "", "8H\n", "\u0668H"]
)
def test_positions_off_the_board_or_malformed_are_refused(text):
    with pytest.raises(ValueError, match="not a board position"):
        Position.parse(text)


def test_board_starts_empty_and_prints_premiums_then_tiles():
    board = Board()
    assert board.is_empty()
    board.put({CENTRE: "Q", CENTRE + 1: "i"})
    assert board.at(7, 7) == "Q"
    assert board.tiles() == "Qi"
    drawing = str(board).splitlines()
    assert drawing[8].split()[1:] == [
        "=",
        ".",
        ".",
        "'",
        ".",
        ".",
        ".",
        "Q",
        "i",
        ".",
        ".",
        "'",
        ".",
        ".",
        "=",
    ]
    copy = board.copy()
    board.lift([CENTRE])
    assert copy.at(7, 7) == "Q" and board.at(7, 7) is None
