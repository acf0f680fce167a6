"""English tiles: letter values, the 100-tile distribution and rack arithmetic (G4, G1).

A tile is written as its letter: uppercase for a lettered tile, ``?`` for a blank on a rack or
in the bag, and lowercase for a blank on the board (it stands for that letter and scores 0).
"""

from collections import Counter

BLANK = "?"
RACK_SIZE = 7
BINGO_BONUS = 50  # G4: playing all seven tiles in one turn
EXCHANGE_MINIMUM_BAG = 7  # G6: exchanging needs at least this many tiles in the bag

TILE_VALUES: dict[str, int] = {
    "A": 1, "B": 3, "C": 3, "D": 2, "E": 1, "F": 4, "G": 2, "H": 4, "I": 1,
    "J": 8, "K": 5, "L": 1, "M": 3, "N": 1, "O": 1, "P": 3, "Q": 10, "R": 1,
    "S": 1, "T": 1, "U": 1, "V": 4, "W": 4, "X": 8, "Y": 4, "Z": 10,
}  # fmt: skip

TILE_COUNTS: dict[str, int] = {
    "A": 9, "B": 2, "C": 2, "D": 4, "E": 12, "F": 2, "G": 3, "H": 2, "I": 9,
    "J": 1, "K": 1, "L": 4, "M": 2, "N": 6, "O": 8, "P": 2, "Q": 1, "R": 6,
    "S": 4, "T": 6, "U": 4, "V": 2, "W": 2, "X": 1, "Y": 2, "Z": 1, BLANK: 2,
}  # fmt: skip

BAG_SIZE = sum(TILE_COUNTS.values())  # 100
LETTERS = frozenset(TILE_VALUES)


def exchange_allowed(tiles_in_bag: int) -> bool:
    """Whether a player may exchange (G6); passing is always allowed."""
    return tiles_in_bag >= EXCHANGE_MINIMUM_BAG


def rack_value(tiles: str) -> int:
    """The sum of the tiles' face values, e.g. the unplayed tiles at the end of a game (G1)."""
    return sum(TILE_VALUES.get(tile, 0) for tile in tiles)


def full_bag() -> list[str]:
    """All 100 tiles of an English set, blanks as ``?``, in alphabetical order."""
    return [tile for tile, count in TILE_COUNTS.items() for _ in range(count)]


def as_rack_tile(tile: str) -> str:
    """The tile as it sits on a rack: a blank on the board (lowercase) goes back to ``?``."""
    return BLANK if tile.islower() or tile == BLANK else tile


def unseen_tiles(tiles_in_play: str) -> Counter:
    """The tiles of a full set that are not among ``tiles_in_play`` (board letters or racks).

    Lowercase letters count as blanks. A tile played more often than the set holds makes a
    negative count, which the caller may report.
    """
    remaining = Counter(TILE_COUNTS)
    remaining.subtract(as_rack_tile(tile) for tile in tiles_in_play)
    return remaining
