"""Checking a game record: its arithmetic always, and on request the board (docs/gcg.md,
"What the checker verifies").

Arithmetic: every cumulative total is the previous one plus the score change; a withdrawn phony
takes off exactly the placement before it; end-of-game lines are 2 × (North-American rule) or
1 × (international rule) the unplayed tiles' value, and an own-rack deduction is minus their
value. Replaying (``verify=True``) also puts every placement on the board and recomputes its
score (G4), and tracks the bag so that an exchange with fewer than seven tiles in it is refused
(G6). Each problem names its line; checking never stops at the first one.
"""

from collections import Counter
from dataclasses import dataclass, field

from .board import SIZE, Board
from .endgame import NORTH_AMERICAN, STANDARD
from .errors import IllegalPlay
from .gcg import (
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
    parse_gcg,
)
from .scoring import score_placement, tiles_from_word
from .tiles import (
    BAG_SIZE,
    EXCHANGE_MINIMUM_BAG,
    RACK_SIZE,
    exchange_allowed,
    rack_value,
    unseen_tiles,
)


@dataclass(frozen=True)
class Problem:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass
class CheckReport:
    record: GameRecord
    final_totals: dict[str, int]
    problems: list[Problem] = field(default_factory=list)
    # Which end-of-game rule the record follows: NORTH_AMERICAN, STANDARD (international), or
    # None when the record cannot tell (no one went out, or the unplayed tiles were worth 0).
    end_rule: str | None = None
    board: Board | None = None  # the final position, when the board was replayed
    tiles_in_bag: int | None = None  # likewise

    @property
    def consistent(self) -> bool:
        return not self.problems


def check_gcg(source: bytes | str, *, verify: bool = False) -> CheckReport:
    """Read a GCG record and check it; raises GcgError if it cannot be read."""
    return check_record(parse_gcg(source), verify=verify)


def check_record(record: GameRecord, *, verify: bool = False) -> CheckReport:
    """Check a record's arithmetic and, with ``verify``, replay it on the board."""
    checker = _Checker(record, verify)
    for event in record.events:
        checker.check(event)
    return checker.report()


@dataclass
class _Placed:
    """What the board replay remembers of a placement, to take it back if it is withdrawn."""

    squares: list[int]
    drawn: int


class _Checker:
    def __init__(self, record: GameRecord, verify: bool) -> None:
        self.record = record
        self.verify = verify
        self.totals = dict.fromkeys(record.nicknames, 0)
        self.problems: list[Problem] = []
        self.previous: Event | None = None
        self.previous_placed: _Placed | None = None
        self.rule_lines: dict[str, int] = {}  # end-of-game rule → first line showing it
        self.board = Board()
        self.board_complete = True  # False once an illegal play could not be put down
        self.bag = BAG_SIZE - RACK_SIZE * len(record.players)

    def problem(self, event: Event, message: str) -> None:
        self.problems.append(Problem(event.line, message))

    def report(self) -> CheckReport:
        end_rule = None
        if len(self.rule_lines) == 1:
            end_rule = next(iter(self.rule_lines))
        return CheckReport(
            record=self.record,
            final_totals=dict(self.totals),
            problems=sorted(self.problems, key=lambda problem: problem.line),
            end_rule=end_rule,
            board=self.board if self.verify else None,
            tiles_in_bag=self.bag if self.verify else None,
        )

    def check(self, event: Event) -> None:
        before = self.totals[event.nickname]
        change = event.change
        kind = event.kind
        placed = None
        if kind == PLACEMENT:
            if change < 0:
                self.problem(event, f"a placement cannot score {change}")
            if self.verify:
                placed = self.replay_placement(event)
        elif kind == WITHDRAWAL:
            change = self.check_withdrawal(event, before)
        elif kind in (PASS, EXCHANGE):
            if change != 0:
                what = "a pass" if kind == PASS else "an exchange"
                self.problem(event, f"{what} scores 0, not {change:+d}")
            if kind == EXCHANGE and self.verify and not exchange_allowed(self.bag):
                self.problem(
                    event,
                    f"exchange with only {self.bag} tiles in the bag: exchanging needs at "
                    f"least {EXCHANGE_MINIMUM_BAG} (G6)",
                )
        elif kind == CHALLENGE_BONUS:
            self.check_challenge_bonus(event)
        elif kind == END_RACK_POINTS:
            self.check_end_rack_points(event)
        elif kind == END_RACK_PENALTY:
            value = rack_value(event.tiles)
            if change != -value:
                self.problem(
                    event,
                    f"deducting the unplayed tiles {event.tiles} should be -{value}, "
                    f"the record says {change:+d}",
                )
        elif kind == TIME_PENALTY and change > 0:
            self.problem(event, f"a time penalty cannot add points ({change:+d})")
        if before + change != event.total:
            self.problem(
                event,
                f"{event.nickname}'s total should be {before + change} "
                f"({before} {change:+d}), the record says {event.total}",
            )
        self.totals[event.nickname] = event.total
        self.previous = event
        self.previous_placed = placed

    def check_withdrawal(self, event: Event, before: int) -> int:
        """Check a withdrawn phony; return the change it really makes, for the total."""
        previous = self.previous
        if previous is None or previous.kind != PLACEMENT or previous.nickname != event.nickname:
            self.problem(event, f"a withdrawn phony must follow a placement by {event.nickname}")
            return event.change
        if self.previous_placed is not None:
            self.board.lift(self.previous_placed.squares)
            self.bag += self.previous_placed.drawn
        expected = -previous.change
        if event.change == expected:
            return expected
        if event.change == 0 and event.total == before + expected:
            return expected  # older files write "-- +0" and let the total drop: trust the total
        self.problem(
            event,
            f"withdrawing {previous.word} should take off {previous.change}, "
            f"the record says {event.change:+d}",
        )
        return event.change

    def check_challenge_bonus(self, event: Event) -> None:
        if event.change <= 0:
            self.problem(event, f"a challenge bonus must add points, not {event.change:+d}")
        previous = self.previous
        if previous is None or previous.kind != PLACEMENT or previous.nickname != event.nickname:
            self.problem(
                event,
                f"a challenge bonus goes to the player whose play was challenged: it must "
                f"follow a placement by {event.nickname}",
            )

    def check_end_rack_points(self, event: Event) -> None:
        value = rack_value(event.tiles)
        if value and event.change == 2 * value:
            self.rule_lines.setdefault(NORTH_AMERICAN, event.line)
        elif value and event.change == value:
            self.rule_lines.setdefault(STANDARD, event.line)
        elif event.change != value:  # value 0: +0 whatever the rule
            self.problem(
                event,
                f"the unplayed tiles {event.tiles} are worth {value}: going out earns "
                f"+{2 * value} (North-American rule) or +{value} (international rule), "
                f"not {event.change:+d}",
            )
        if len(self.rule_lines) == 2 and max(self.rule_lines.values()) == event.line:
            self.problem(
                event,
                "the end-of-game lines mix the North-American rule (2 × the tiles) and "
                "the international rule (1 ×)",
            )
        if self.verify and self.board_complete and len(self.record.players) == 2 and not self.bag:
            # With the bag empty and one player out, every tile not on the board is on the
            # other player's rack.
            left = unseen_tiles(self.board.tiles())
            if +left != Counter(event.tiles) and all(count >= 0 for count in left.values()):
                expected = "".join(sorted((+left).elements()))
                self.problem(
                    event,
                    f"the tiles left unplayed are {expected or 'none'}, "
                    f"the record says {event.tiles or 'none'}",
                )

    def replay_placement(self, event: Event) -> _Placed | None:
        board = self.board
        try:
            tiles = tiles_from_word(board, event.position, event.word)
            scored = score_placement(board, tiles, across=event.position.across)
        except IllegalPlay as illegal:
            self.problem(event, f"illegal play {event.position} {event.word}: {illegal.message}")
            self.board_complete = False
            return None
        if scored.score != event.change:
            self.problem(
                event,
                f"{event.position} {event.word} scores {scored.score}, "
                f"the record says {event.change:+d}",
            )
        squares = [tile.row * SIZE + tile.col for tile in scored.tiles]
        board.put(dict(zip(squares, (tile.letter for tile in scored.tiles), strict=True)))
        drawn = min(len(squares), self.bag)
        self.bag -= drawn
        return _Placed(squares, drawn)
