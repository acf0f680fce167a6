"""The standard 15×15 board: premium squares, coordinates and the tiles placed on it (G4).

Squares are numbered 0–224, row by row from the top left, so a board is one flat list and a
step of 1 moves across while a step of 15 moves down. Coordinates follow GCG: rows 1–15 from
the top, columns A–O from the left; ``8H`` (row first) starts a word going across, ``H8``
(column first) one going down.
"""

import re
from dataclasses import dataclass

SIZE = 15
SQUARES = SIZE * SIZE
CENTRE = 7 * SIZE + 7  # H8, which the first play must cover
COLUMNS = "ABCDEFGHIJKLMNO"

# T = triple word, D = double word (the centre too), t = triple letter, d = double letter.
_PREMIUM_MAP = (
    "T..d...T...d..T",
    ".D...t...t...D.",
    "..D...d.d...D..",
    "d..D...d...D..d",
    "....D.....D....",
    ".t...t...t...t.",
    "..d...d.d...d..",
    "T..d...D...d..T",
    "..d...d.d...d..",
    ".t...t...t...t.",
    "....D.....D....",
    "d..D...d...D..d",
    "..D...d.d...D..",
    ".D...t...t...D.",
    "T..d...T...d..T",
)
_LETTER_FACTOR = {"d": 2, "t": 3}
# How an empty square is drawn by Board.__str__ (letters would be mistaken for tiles).
_EMPTY_MARKS = {"T": "=", "D": "-", "t": '"', "d": "'", ".": "."}
_WORD_FACTOR = {"D": 2, "T": 3}

LETTER_MULTIPLIERS: tuple[int, ...] = tuple(
    _LETTER_FACTOR.get(mark, 1) for row in _PREMIUM_MAP for mark in row
)
WORD_MULTIPLIERS: tuple[int, ...] = tuple(
    _WORD_FACTOR.get(mark, 1) for row in _PREMIUM_MAP for mark in row
)

_ACROSS_RE = re.compile(r"([0-9]{1,2})([A-Oa-o])")
_DOWN_RE = re.compile(r"([A-Oa-o])([0-9]{1,2})")


def square_name(index: int) -> str:
    """A square's name in GCG style, column then row: ``H8`` for the centre."""
    row, col = divmod(index, SIZE)
    return f"{COLUMNS[col]}{row + 1}"


@dataclass(frozen=True, slots=True)
class Position:
    """Where a word starts (0-based row and column) and which way it runs."""

    row: int
    col: int
    across: bool

    @classmethod
    def parse(cls, text: str) -> "Position":
        """Read ``8H`` (across) or ``H8`` (down), either case; ValueError if it is neither."""
        if match := _ACROSS_RE.fullmatch(text):
            row_text, col_text, across = match.group(1), match.group(2), True
        elif match := _DOWN_RE.fullmatch(text):
            col_text, row_text, across = match.group(1), match.group(2), False
        else:
            raise ValueError(f"{text!r} is not a board position such as 8H or H8")
        row = int(row_text) - 1
        if not 0 <= row < SIZE:
            raise ValueError(f"{text!r} is not a board position: rows run from 1 to 15")
        return cls(row, COLUMNS.index(col_text.upper()), across)

    @property
    def index(self) -> int:
        return self.row * SIZE + self.col

    def __str__(self) -> str:
        if self.across:
            return f"{self.row + 1}{COLUMNS[self.col]}"
        return f"{COLUMNS[self.col]}{self.row + 1}"


class Board:
    """The tiles on the board: ``squares[i]`` is a letter (lowercase for a blank) or None."""

    __slots__ = ("squares",)

    def __init__(self) -> None:
        self.squares: list[str | None] = [None] * SQUARES

    def __getitem__(self, index: int) -> str | None:
        return self.squares[index]

    def at(self, row: int, col: int) -> str | None:
        return self.squares[row * SIZE + col]

    def is_empty(self) -> bool:
        return not any(self.squares)

    def tiles(self) -> str:
        """Every tile on the board, in square order (lowercase letters are blanks)."""
        return "".join(tile for tile in self.squares if tile)

    def copy(self) -> "Board":
        other = Board()
        other.squares = self.squares.copy()
        return other

    def put(self, placed: dict[int, str]) -> None:
        """Put tiles down without any check: use ``scoring.play`` for a checked move."""
        for index, letter in placed.items():
            self.squares[index] = letter

    def lift(self, indexes) -> None:
        """Take tiles back off the board (a withdrawn phony)."""
        for index in indexes:
            self.squares[index] = None

    def __str__(self) -> str:
        rows = []
        for row in range(SIZE):
            marks = []
            for col in range(SIZE):
                tile = self.squares[row * SIZE + col]
                marks.append(tile or _EMPTY_MARKS[_PREMIUM_MAP[row][col]])
            rows.append(f"{row + 1:2} " + " ".join(marks))
        return "   " + " ".join(COLUMNS) + "\n" + "\n".join(rows)
