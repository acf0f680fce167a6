"""Checking and scoring one placement on the board (G4).

A play's score is the sum of every word it forms: the main word along the line of the new
tiles and each cross-word a new tile makes at right angles. In each word a new tile's letter
premium applies first, then the word premiums under new tiles multiply the word (two double-word
squares make ×4, two triple-word squares ×9). Tiles already on the board count at face value
with no premium; a blank counts 0 but its square's word premium still applies; a letter shared
by two words counts in both. Playing all seven tiles adds 50.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from .board import (
    CENTRE,
    LETTER_MULTIPLIERS,
    SIZE,
    SQUARES,
    WORD_MULTIPLIERS,
    Board,
    Position,
    square_name,
)
from .errors import IllegalPlay
from .tiles import BINGO_BONUS, RACK_SIZE, TILE_VALUES


class NewTile(NamedTuple):
    """A tile put down by the play: uppercase letter for a tile, lowercase for a blank."""

    row: int
    col: int
    letter: str


@dataclass(frozen=True, slots=True)
class Word:
    """A word formed by a play: where it starts, its letters (lowercase = blank) and score."""

    start: Position
    letters: str
    score: int


@dataclass(frozen=True, slots=True)
class ScoredPlay:
    """A legal placement with its score broken down into words."""

    tiles: tuple[NewTile, ...]
    main_word: Word
    cross_words: tuple[Word, ...]
    bingo: bool
    score: int

    @property
    def words(self) -> tuple[Word, ...]:
        return (self.main_word, *self.cross_words)

    def gcg_word(self) -> str:
        """The main word as GCG writes it: ``.`` for each letter that was already on the board."""
        start = self.main_word.start
        new = {(tile.row, tile.col) for tile in self.tiles}
        word = []
        for offset, letter in enumerate(self.main_word.letters):
            square = (
                (start.row, start.col + offset) if start.across else (start.row + offset, start.col)
            )
            word.append(letter if square in new else ".")
        return "".join(word)


def _neighbours(index: int) -> tuple[int, ...]:
    row, col = divmod(index, SIZE)
    found = []
    if row > 0:
        found.append(index - SIZE)
    if row < SIZE - 1:
        found.append(index + SIZE)
    if col > 0:
        found.append(index - 1)
    if col < SIZE - 1:
        found.append(index + 1)
    return tuple(found)


_NEIGHBOURS = tuple(_neighbours(index) for index in range(SQUARES))
_ASCII_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def score_placement(
    board: Board, tiles: Iterable[tuple[int, int, str]], *, across: bool | None = None
) -> ScoredPlay:
    """Check a placement of new tiles (row, column, letter; 0-based) and score it.

    ``across`` only matters for a single tile that forms words both ways: it picks which one is
    the main word (the score is the same). Raises IllegalPlay saying what is wrong.
    """
    squares = board.squares
    placed = _placed_squares(squares, tiles)
    line_across = _check_geometry(squares, placed, across)
    return _score(squares, placed, line_across)


def play(
    board: Board, tiles: Iterable[tuple[int, int, str]], *, across: bool | None = None
) -> ScoredPlay:
    """Score a placement and put its tiles on the board."""
    scored = score_placement(board, tiles, across=across)
    board.put({tile.row * SIZE + tile.col: tile.letter for tile in scored.tiles})
    return scored


def tiles_from_word(board: Board, position: Position, word: str) -> list[NewTile]:
    """The new tiles of a GCG placement: the whole main word from ``position``, where ``.`` (or
    the letter itself) marks a tile already on the board. Raises IllegalPlay if the word runs off
    the board, puts a letter on a different tile, has ``.`` on an empty square, or is only part
    of the word the tiles form."""
    squares = board.squares
    step = 1 if position.across else SIZE
    room = SIZE - (position.col if position.across else position.row)
    if not word:
        raise IllegalPlay("no_tiles", "a play must place at least one tile")
    if len(word) > room:
        raise IllegalPlay("off_board", f"{position} {word} runs off the board")
    start = position.index
    new_tiles = []
    for offset, letter in enumerate(word):
        index = start + offset * step
        existing = squares[index]
        if letter == ".":
            if existing is None:
                raise IllegalPlay(
                    "empty_through",
                    f"'.' in {position} {word} stands for a tile on {square_name(index)}, "
                    "but that square is empty",
                )
        elif existing is not None:
            if existing.upper() != letter.upper():
                raise IllegalPlay(
                    "overwrites",
                    f"{position} {word} puts {letter} on {square_name(index)}, "
                    f"which already holds {existing}",
                )
        else:
            row, col = divmod(index, SIZE)
            new_tiles.append(NewTile(row, col, letter))
    if _continues(squares, start, step, position, len(word)):
        raise IllegalPlay(
            "not_whole_word",
            f"{position} {word} is not the whole word: tiles on the board continue it",
        )
    return new_tiles


def score_word(board: Board, position: Position, word: str) -> ScoredPlay:
    """Check and score a GCG-style placement (see ``tiles_from_word``)."""
    return score_placement(board, tiles_from_word(board, position, word), across=position.across)


def _continues(squares, start: int, step: int, position: Position, length: int) -> bool:
    """Whether a tile sits right before the word's first square or right after its last."""
    first = position.col if position.across else position.row
    last = first + length - 1
    if first > 0 and squares[start - step] is not None:
        return True
    return last < SIZE - 1 and squares[start + length * step] is not None


def _placed_squares(squares: list, tiles: Iterable[tuple[int, int, str]]) -> dict[int, str]:
    placed: dict[int, str] = {}
    for row, col, letter in tiles:
        if not (0 <= row < SIZE and 0 <= col < SIZE):
            raise IllegalPlay("off_board", f"row {row + 1}, column {col + 1} is off the board")
        if letter not in _ASCII_LETTERS:
            raise IllegalPlay(
                "bad_letter", f"{letter!r} is not a letter A-Z (lowercase for a blank)"
            )
        index = row * SIZE + col
        if index in placed:
            raise IllegalPlay("duplicate_square", f"two tiles are put on {square_name(index)}")
        if squares[index] is not None:
            raise IllegalPlay("overwrites", f"{square_name(index)} already holds {squares[index]}")
        placed[index] = letter
    if not placed:
        raise IllegalPlay("no_tiles", "a play must place at least one tile")
    if len(placed) > RACK_SIZE:
        raise IllegalPlay("too_many_tiles", f"a play places at most {RACK_SIZE} tiles")
    return placed


def _check_geometry(squares: list, placed: dict[int, str], across: bool | None) -> bool | None:
    """Return the direction of the line of tiles (for a single tile, the one asked for, if any)
    or raise IllegalPlay."""
    indexes = sorted(placed)
    if len(indexes) > 1:
        if len({index // SIZE for index in indexes}) == 1:
            across = True
        elif len({index % SIZE for index in indexes}) == 1:
            across = False
        else:
            raise IllegalPlay("not_in_line", "the new tiles are not all in one row or one column")
        step = 1 if across else SIZE
        for index in range(indexes[0], indexes[-1], step):
            if index not in placed and squares[index] is None:
                raise IllegalPlay(
                    "gap", f"{square_name(index)} is left empty between the new tiles"
                )
    if squares[CENTRE] is None and not any(squares):
        if CENTRE not in placed:
            raise IllegalPlay("misses_centre", "the first play must cover the centre square H8")
        if len(placed) < 2:
            raise IllegalPlay(
                "one_letter", "the first play must form a word of at least two letters"
            )
    elif not any(squares[n] is not None for index in indexes for n in _NEIGHBOURS[index]):
        raise IllegalPlay("not_touching", "the play does not touch any tile on the board")
    return across


def _word_through(squares: list, placed: dict[int, str], index: int, across: bool) -> Word | None:
    """The word through ``index`` in one direction, scored, or None if it is a lone letter."""
    if across:
        step = 1
        first = index - index % SIZE
        last = first + SIZE - 1
    else:
        step = SIZE
        first = index % SIZE
        last = first + SQUARES - SIZE
    start = index
    while start != first and (squares[start - step] is not None or start - step in placed):
        start -= step
    end = index
    while end != last and (squares[end + step] is not None or end + step in placed):
        end += step
    if start == end:
        return None
    letters = []
    letter_sum = 0
    word_factor = 1
    for square in range(start, end + step, step):
        letter = placed.get(square)
        if letter is None:
            letter = squares[square]
            letter_sum += TILE_VALUES.get(letter, 0)
        else:
            letter_sum += TILE_VALUES.get(letter, 0) * LETTER_MULTIPLIERS[square]
            word_factor *= WORD_MULTIPLIERS[square]
        letters.append(letter)
    row, col = divmod(start, SIZE)
    return Word(Position(row, col, across), "".join(letters), letter_sum * word_factor)


def _score(squares: list, placed: dict[int, str], across: bool | None) -> ScoredPlay:
    indexes = sorted(placed)
    if across is None:  # one tile, no direction asked for: the across word if there is one
        across = _word_through(squares, placed, indexes[0], True) is not None
    main = _word_through(squares, placed, indexes[0], across)
    if main is None:  # one tile whose only word runs the other way
        across = not across
        main = _word_through(squares, placed, indexes[0], across)
    cross_words = []
    for index in indexes:
        cross = _word_through(squares, placed, index, not across)
        if cross is not None:
            cross_words.append(cross)
    bingo = len(placed) == RACK_SIZE
    total = main.score + sum(word.score for word in cross_words) + (BINGO_BONUS if bingo else 0)
    new_tiles = tuple(NewTile(*divmod(index, SIZE), placed[index]) for index in indexes)
    return ScoredPlay(new_tiles, main, tuple(cross_words), bingo, total)
