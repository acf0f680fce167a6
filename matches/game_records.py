"""A result report's game record (issue 6): a GCG file checked against the reported scores, and
the game replayed move by move for the match page.

Plain functions over plain values: the service passes in the league's end-of-game rule (G1), the
two seats' names and the reported scores, and gets back the record's totals by seat and a
sentence for each score that differs.

A record may score the unplayed tiles by another rule than the league's (Woogles and Quackle
use the North-American one). Its end-of-game lines say which tiles were left, so the totals are
put under the league's rule before they are compared, and the report says so.
"""

import re
from dataclasses import dataclass, field

from .scrabble import (
    NO_ADJUSTMENT,
    NORTH_AMERICAN,
    STANDARD,
    Board,
    GcgError,
    IllegalPlay,
    Problem,
    check_record,
    end_of_game_adjustments,
    parse_gcg,
    tiles_from_word,
)
from .scrabble.board import LETTER_MULTIPLIERS, SIZE, WORD_MULTIPLIERS, square_name
from .scrabble.gcg import (
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
    decode,
)
from .scrabble.tiles import TILE_VALUES

# A whole game's record is a few kilobytes; anything far bigger is the wrong file.
MAX_RECORD_BYTES = 64 * 1024

RULE_NAMES = {
    STANDARD: "the standard rule",
    NORTH_AMERICAN: "the North-American rule",
    NO_ADJUSTMENT: "no adjustment for unplayed tiles",
}


class RecordError(ValueError):
    """The file cannot be used as this match's game record; the message says why."""


@dataclass(frozen=True)
class SeatName:
    """What a record might call a seat's player."""

    full_name: str
    first_name: str = ""
    email: str = ""


@dataclass
class RecordComparison:
    record: GameRecord
    text: str
    player_of_seat: list[int]  # seat index → index of that player in record.players
    recorded_totals: list[int]  # by seat, as the record states them
    totals: list[int]  # by seat, under the league's end-of-game rule
    pre_adjustment: list[int]  # by seat, before the unplayed tiles
    tiles_left: list[str]  # by seat
    conversion: str = ""  # a sentence when the totals were converted to the league's rule
    differences: list[str] = field(default_factory=list)  # one sentence per score that differs
    problems: list[Problem] = field(default_factory=list)  # the replay's findings (G4, G6)


def read_record(data: bytes | str) -> tuple[str, GameRecord]:
    """The record's text and its parsed form; RecordError naming the line if it cannot be read."""
    size = len(data.encode() if isinstance(data, str) else data)
    if size > MAX_RECORD_BYTES:
        raise RecordError(
            f"The file is {size // 1024} KB; a game record is a few KB. Is it the right file?"
        )
    try:
        text = decode(data) if isinstance(data, bytes) else data
        record = parse_gcg(text)
    except GcgError as error:
        raise RecordError(f"The game record cannot be read: {error}") from None
    if len(record.players) != 2:
        raise RecordError(
            f"The game record has {len(record.players)} players; a league match has two."
        )
    if not record.events:
        raise RecordError("The game record has no moves.")
    return text.removeprefix("\ufeff"), record


def _key(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.casefold())


def _names_of(name: SeatName) -> set[str]:
    keys = {_key(name.full_name), _key(name.first_name), _key(name.email.partition("@")[0])}
    keys.update(_key(part) for part in name.full_name.split())
    keys.discard("")
    return keys


def seat_players(record: GameRecord, seats: list[SeatName]) -> list[int] | None:
    """Which record player sits in each seat, when the names say so unambiguously."""
    candidates = []
    for player in record.players:
        said = {_key(player.nickname), _key(player.full_name)} - {""}
        candidates.append([seat for seat, name in enumerate(seats) if said & _names_of(name)])
    if all(len(found) == 1 for found in candidates) and candidates[0] != candidates[1]:
        player_of_seat = [0, 0]
        for player, found in enumerate(candidates):
            player_of_seat[found[0]] = player
        return player_of_seat
    return None


def _end_of_game(record: GameRecord) -> tuple[list[int], list[str], int | None]:
    """Each player's end-of-game change as recorded, their unplayed tiles, and who went out."""
    index = {player.nickname: number for number, player in enumerate(record.players)}
    recorded = [0] * len(record.players)
    racks = [""] * len(record.players)
    went_out = None
    others_tiles = ""
    for event in record.events:
        player = index[event.nickname]
        if event.kind == END_RACK_POINTS:
            recorded[player] += event.change
            went_out = player
            others_tiles = event.tiles
        elif event.kind == END_RACK_PENALTY:
            recorded[player] += event.change
            racks[player] = event.tiles
    if went_out is not None:
        other = 1 - went_out
        racks[other] = racks[other] or others_tiles
        racks[went_out] = ""
    return recorded, racks, went_out


def compare_with_report(
    text: str,
    record: GameRecord,
    *,
    league_rule: str,
    seats: list[SeatName],
    reported: list[int],
    reporter: int,
) -> RecordComparison:
    """The record's final totals under the league's rule, by seat, and how they differ from the
    reported scores. ``reporter`` is the reporting player's seat index (0 or 1): messages speak to
    them."""
    check = check_record(record, verify=True)
    stated = [check.final_totals[player.nickname] for player in record.players]
    recorded_end, racks, went_out = _end_of_game(record)
    pre = [total - change for total, change in zip(stated, recorded_end, strict=True)]
    has_end_lines = any(recorded_end) or went_out is not None or any(racks)
    if has_end_lines:
        league_end = end_of_game_adjustments(league_rule, racks, went_out)
    else:
        league_end = [0, 0]  # a record that stops before the end (or never wrote the lines)
    converted = [score + change for score, change in zip(pre, league_end, strict=True)]

    conversion = ""
    if converted != stated:
        used = RULE_NAMES.get(check.end_rule, "another end-of-game rule")
        changes = ", ".join(
            f"{player.nickname} {before} → {after}"
            for player, before, after in zip(record.players, stated, converted, strict=True)
        )
        conversion = (
            f"The record scores the unplayed tiles by {used}; this league uses "
            f"{RULE_NAMES[league_rule]} (G1), so its totals were converted: {changes}."
        )

    player_of_seat = seat_players(record, seats)
    if player_of_seat is None:
        player_of_seat = _order_by_scores(converted, reported)
    by_seat = [converted[player] for player in player_of_seat]
    comparison = RecordComparison(
        record=record,
        text=text,
        player_of_seat=player_of_seat,
        recorded_totals=[stated[player] for player in player_of_seat],
        totals=by_seat,
        pre_adjustment=[pre[player] for player in player_of_seat],
        tiles_left=[racks[player] for player in player_of_seat],
        conversion=conversion,
        problems=check.problems,
    )
    for seat in (reporter, 1 - reporter):
        if by_seat[seat] != reported[seat]:
            whose = "Your score" if seat == reporter else "Your opponent's score"
            nickname = record.players[player_of_seat[seat]].nickname
            comparison.differences.append(
                f"{whose} differs from the game record: you entered {reported[seat]}, "
                f"the record's final total for {nickname} is {by_seat[seat]}."
            )
    return comparison


def _order_by_scores(totals: list[int], reported: list[int]) -> list[int]:
    """Without names to go by, the seating that agrees with more of the reported scores; the
    record's order when neither agrees better."""
    straight = sum(a == b for a, b in zip(totals, reported, strict=True))
    crossed = sum(a == b for a, b in zip(reversed(totals), reported, strict=True))
    return [1, 0] if crossed > straight else [0, 1]


# --- The game move by move ----------------------------------------------------------------------


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


def _summary(event: Event) -> str:
    if event.kind == PLACEMENT:
        return f"{event.position} {event.word}"
    if event.kind == EXCHANGE:
        return f"exchanged {event.exchanged or event.exchanged_count}"
    return {
        PASS: "passed",
        WITHDRAWAL: "phony withdrawn",
        CHALLENGE_BONUS: "challenge bonus",
        END_RACK_POINTS: f"tiles left by the opponent ({event.tiles})",
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
                summary=_summary(event),
                change=event.change,
                totals=tuple(totals.values()),
                line=event.line,
                nicknames=tuple(totals),
                problems=tuple(by_line.get(event.line, ())),
            )
        )
    return listed


def stored_moves(text: str) -> tuple[GameRecord, list[Move]] | None:
    """A stored report's record and its moves, each with what the replay found wrong in it; None
    if the record no longer reads (it was read when reported: a later change to the reader must
    not break a page)."""
    try:
        _, record = read_record(text)
    except RecordError:
        return None
    return record, moves(record, check_record(record, verify=True).problems)


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
