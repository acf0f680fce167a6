"""The game move by move, for the match page and the ruling page: each move's summary and
the totals after it, what the replay found wrong in it, and the board after any move."""

from dataclasses import dataclass
from functools import lru_cache

from ..scrabble import Board, IllegalPlay, Problem, check_record, tiles_from_word
from ..scrabble.board import LETTER_MULTIPLIERS, SIZE, WORD_MULTIPLIERS, square_name
from ..scrabble.gcg import (
    CHALLENGE_BONUS,
    END_RACK_PENALTY,
    END_RACK_POINTS,
    EXCHANGE,
    PASS,
    PLACEMENT,
    TIME_PENALTY,
    WITHDRAWAL,
    Event,
    GameRecord,
)
from ..scrabble.tiles import TILE_VALUES
from .reading import RecordError, read_record


@dataclass(frozen=True)
class Move:
    number: int  # 1-based, every event line of the record counts
    nickname: str
    full_name: str
    kind: str
    summary: str  # "8D WINDY", "exchanged 3", "passed", …
    change: int
    totals: tuple[int, ...]  # every player's total after it, in the record's order
    line: int
    nicknames: tuple[str, ...] = ()  # the record's players, in order, for ``scoreline``
    problems: tuple[str, ...] = ()

    @property
    def scoreline(self) -> str:
        """Every player's total after this move: "ada 43, brin 38"."""
        return ", ".join(
            f"{name} {total}" for name, total in zip(self.nicknames, self.totals, strict=True)
        )


@dataclass(frozen=True)
class Square:
    letter: str  # "" when empty; lowercase is a blank
    premium: str  # "tw", "dw", "tl", "dl" or ""
    is_new: bool  # placed by the move being shown
    name: str  # "H8"
    value: int

    @property
    def is_blank(self) -> bool:
        return self.letter.islower()


def _premium(index: int) -> str:
    """The premium square's CSS name: triple/double word, triple/double letter, or ""."""
    word, letter = WORD_MULTIPLIERS[index], LETTER_MULTIPLIERS[index]
    if word > 1:
        return f"{'t' if word == 3 else 'd'}w"
    if letter > 1:
        return f"{'t' if letter == 3 else 'd'}l"
    return ""


def _summary(event: Event, players: int) -> str:
    if event.kind == PLACEMENT:
        return f"{event.position} {event.word}"
    if event.kind == EXCHANGE:
        return f"exchanged {event.exchanged or event.exchanged_count}"
    return {
        PASS: "passed",
        WITHDRAWAL: "phony withdrawn",
        CHALLENGE_BONUS: "challenge bonus",
        END_RACK_POINTS: (
            f"tiles left by the {'opponent' if players == 2 else 'others'} ({event.tiles})"
        ),
        END_RACK_PENALTY: f"own tiles left ({event.tiles})",
        TIME_PENALTY: "time penalty",
    }.get(event.kind, event.kind)


def moves(record: GameRecord, problems: list[Problem] = ()) -> list[Move]:
    by_line: dict[int, list[str]] = {}
    for problem in problems:
        by_line.setdefault(problem.line, []).append(problem.message)
    names = {player.nickname: player.full_name or player.nickname for player in record.players}
    totals = dict.fromkeys(record.nicknames, 0)
    listed = []
    for number, event in enumerate(record.events, start=1):
        totals[event.nickname] = event.total
        listed.append(
            Move(
                number=number,
                nickname=event.nickname,
                full_name=names[event.nickname],
                kind=event.kind,
                summary=_summary(event, len(record.players)),
                change=event.change,
                totals=tuple(totals.values()),
                line=event.line,
                nicknames=tuple(totals),
                problems=tuple(by_line.get(event.line, ())),
            )
        )
    return listed


def stored_moves(
    text: str, challenge_rule: str | None = None
) -> tuple[GameRecord, list[Move]] | None:
    """A stored report's record and its moves, each with what the replay found wrong in it under
    the league's challenge rule (G5); None if the record no longer reads (it was read when
    reported: a later change to the reader must not break a page). The same text and rule
    always give the same answer, so the process keeps the last few (a match page would
    otherwise replay the whole game on every request): callers read what it returns, never change it."""
    return _stored_moves(text, challenge_rule)


@lru_cache(maxsize=256)
def _stored_moves(text: str, challenge_rule: str | None):
    try:
        _, record = read_record(text)
    except RecordError:
        return None
    return record, moves(
        record, check_record(record, verify=True, challenge_rule=challenge_rule).problems
    )


def board_after(record: GameRecord, move: int) -> tuple[list[list[Square]], set[int]]:
    """The board after the first ``move`` events, as rows of squares, and the squares that
    move placed. A play the engine finds illegal is still drawn where the record puts it."""
    board = Board()
    placed: list[int] = []
    for event in record.events[:move]:
        if event.kind == PLACEMENT:
            placed = _put(board, event)
        elif event.kind == WITHDRAWAL:
            board.lift(placed)
            placed = []
        else:
            placed = []
    new = set(placed)
    rows = []
    for row in range(SIZE):
        squares = []
        for col in range(SIZE):
            index = row * SIZE + col
            letter = board[index] or ""
            squares.append(
                Square(
                    letter=letter,
                    premium=_premium(index),
                    is_new=index in new,
                    name=square_name(index),
                    value=TILE_VALUES.get(letter, 0) if letter else 0,
                )
            )
        rows.append(squares)
    return rows, new


def _put(board: Board, event: Event) -> list[int]:
    try:
        tiles = tiles_from_word(board, event.position, event.word)
        squares = {tile.row * SIZE + tile.col: tile.letter for tile in tiles}
    except IllegalPlay:
        position = event.position
        squares = {}
        for offset, letter in enumerate(event.word):
            row = position.row + (0 if position.across else offset)
            col = position.col + (offset if position.across else 0)
            if letter != "." and row < SIZE and col < SIZE:
                squares[row * SIZE + col] = letter
    board.put(squares)
    return list(squares)
