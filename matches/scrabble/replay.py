"""Checking a game record: its arithmetic always, and on request the board (docs/gcg.md,
"What the checker verifies").

Arithmetic: every cumulative total is the previous one plus the score change; a withdrawn phony
takes off exactly the placement before it; end-of-game lines are 2 × (North-American rule) or
1 × (international rule) the unplayed tiles' value, and an own-rack deduction is minus their
value; a game that ends by passes has three passes by every player in a row (G3). Challenge
bonuses are read as the record shows them, or, given the game's challenge rule, held to it (G5).
Replaying (``verify=True``) also puts every placement on the board and recomputes its score
(G4), and tracks the bag so that an exchange with fewer than seven tiles in it is refused (G6)
and a club bonus once the bag is empty is found (G5). Each problem names its line; checking
never stops at the first one.
"""

from collections import Counter
from dataclasses import dataclass, field

from .board import SIZE, Board
from .endgame import (
    CHALLENGE_RULES,
    CLUB_BONUS_TO_CHALLENGER,
    CLUB_CHALLENGE_BONUS,
    NORTH_AMERICAN,
    OUT_BONUS,
    PASSES_EACH_TO_END,
    POINTS_TO_CHALLENGED,
    SCORELESS_TURN_KINDS,
    STANDARD,
    TURN_KINDS,
    passes_end_at,
    passes_in_a_row_before,
)
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
    # Which end-of-game rule the record follows: NORTH_AMERICAN, STANDARD (international: 1 ×
    # the tiles, own tiles deducted), OUT_BONUS (1 ×, no deduction line), or None when the record
    # cannot tell (no one went out, or the unplayed tiles were worth 0).
    end_rule: str | None = None
    board: Board | None = None  # the final position, when the board was replayed
    tiles_in_bag: int | None = None  # likewise

    @property
    def consistent(self) -> bool:
        return not self.problems


def check_gcg(
    source: bytes | str, *, verify: bool = False, challenge_rule: str | None = None
) -> CheckReport:
    """Read a GCG record and check it; raises GcgError if it cannot be read."""
    return check_record(parse_gcg(source), verify=verify, challenge_rule=challenge_rule)


def check_record(
    record: GameRecord, *, verify: bool = False, challenge_rule: str | None = None
) -> CheckReport:
    """Check a record's arithmetic and, with ``verify``, replay it on the board.

    ``challenge_rule`` is the game's challenge rule (G5, one of ``CHALLENGE_RULES``): a challenge
    bonus kept under another rule is a problem. None accepts either kind of bonus line the
    record shows (to the challenged player after their valid play, or the club's to the
    challenger after a withdrawn play)."""
    if challenge_rule is not None and challenge_rule not in CHALLENGE_RULES:
        raise ValueError(
            f"unknown challenge rule {challenge_rule!r}; expected one of {CHALLENGE_RULES}"
        )
    checker = _Checker(record, verify, challenge_rule)
    for event in record.events:
        checker.check(event)
    return checker.report()


@dataclass
class _Placed:
    """What the board replay remembers of a placement, to take it back if it is withdrawn."""

    squares: list[int]
    drawn: int


class _Checker:
    def __init__(self, record: GameRecord, verify: bool, challenge_rule: str | None) -> None:
        self.record = record
        self.verify = verify
        self.challenge_rule = challenge_rule
        self.totals = dict.fromkeys(record.nicknames, 0)
        self.problems: list[Problem] = []
        self.previous: Event | None = None
        self.previous_placed: _Placed | None = None
        self.rule_lines: dict[str, int] = {}  # end-of-game rule → first line showing it
        self.board = Board()
        self.board_complete = True  # False once an illegal play could not be put down
        self.bag = BAG_SIZE - RACK_SIZE * len(record.players)
        self.going_out: Event | None = None  # the first going-out line
        self.out_tiles = ""  # the tiles of the going-out lines
        self.last_out_line = 0  # the last of them
        self.unseen_at_out: Counter | None = None  # tiles off the board then, if the bag was empty
        self.deductions = False  # whether any line deducts a player's own tiles
        # Under the club's rule, with the bag known to hold tiles: a withdrawn play whose
        # challenger's bonus line has not come yet (G5).
        self.bonus_due: Event | None = None

    def problem(self, event: Event, message: str) -> None:
        self.problems.append(Problem(event.line, message))

    def report(self) -> CheckReport:
        end_rule = None
        if len(self.rule_lines) == 1:
            end_rule = next(iter(self.rule_lines))
            if end_rule == STANDARD and not self.deductions:
                end_rule = OUT_BONUS  # once the tiles, and nobody lost their own
        self.check_missing_club_bonus(None)
        self.check_tiles_left()
        self.check_end_by_passes()
        return CheckReport(
            record=self.record,
            final_totals=dict(self.totals),
            problems=sorted(self.problems, key=lambda problem: problem.line),
            end_rule=end_rule,
            board=self.board if self.verify else None,
            tiles_in_bag=self.bag if self.verify else None,
        )

    def check(self, event: Event) -> None:
        self.check_missing_club_bonus(event)
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
                    f"least {EXCHANGE_MINIMUM_BAG}",
                )
        elif kind == CHALLENGE_BONUS:
            self.check_challenge_bonus(event)
        elif kind == END_RACK_POINTS:
            self.check_end_rack_points(event)
        elif kind == END_RACK_PENALTY:
            self.deductions = True
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
        if self.challenge_rule == CLUB_BONUS_TO_CHALLENGER and self.verify and self.bag:
            self.bonus_due = event
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
        """A ``(challenge)`` line is either the bonus to the player whose valid play was
        challenged (right after that placement: ``points_to_challenged``) or the club's bonus to
        a successful challenger (right after another player's withdrawn play:
        ``club_bonus_to_challenger``); under the game's rule, only its own kind (G5)."""
        if event.change <= 0:
            self.problem(event, f"a challenge bonus must add points, not {event.change:+d}")
        previous = self.previous
        same_player = previous is not None and previous.nickname == event.nickname
        if previous is not None and previous.kind == PLACEMENT and same_player:
            kept_under = POINTS_TO_CHALLENGED
            what = f"a challenge bonus to {event.nickname}, whose valid play was challenged,"
        elif previous is not None and previous.kind == WITHDRAWAL and not same_player:
            kept_under = CLUB_BONUS_TO_CHALLENGER
            what = f"a challenge bonus to the challenger {event.nickname}"
        else:
            self.problem(
                event,
                "a challenge bonus goes to the player whose valid play was challenged, right "
                "after that play, or (the club's rule) to a successful challenger, right after "
                "the challenged play is taken back: this line follows neither",
            )
            return
        if self.challenge_rule is not None and self.challenge_rule != kept_under:
            self.problem(
                event,
                f"{what} is kept under another challenge rule ({kept_under}) than this "
                f"game's ({self.challenge_rule})",
            )
        elif kept_under == CLUB_BONUS_TO_CHALLENGER:
            self.check_club_bonus(event)

    def check_club_bonus(self, event: Event) -> None:
        """The club's bonus (003 rule 9): exactly 10, and only while tiles remain in the bag,
        which is known only when the board is replayed."""
        self.bonus_due = None
        if event.change != CLUB_CHALLENGE_BONUS:
            self.problem(
                event,
                f"the club's challenge bonus is +{CLUB_CHALLENGE_BONUS}, not {event.change:+d}",
            )
        if self.verify and not self.bag:
            self.problem(
                event,
                f"a challenge bonus to {event.nickname} with the bag empty: the club's "
                "bonus stops once all the tiles have been drawn",
            )

    def check_missing_club_bonus(self, event: Event | None) -> None:
        """Under the club's rule a play taken back while tiles remain earns its challenger 10:
        the next line (``event``; None at the end of the record) must be that bonus."""
        due = self.bonus_due
        if due is None or (event is not None and event.kind == CHALLENGE_BONUS):
            return
        self.bonus_due = None
        self.problem(
            due,
            f"{due.nickname}'s play was taken back with tiles in the bag: under the club's "
            f"rule its challenger gains {CLUB_CHALLENGE_BONUS}, and no (challenge) line "
            "follows",
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
        if self.going_out is None:
            self.going_out = event
            if self.verify and self.board_complete and not self.bag:
                # With the bag empty and one player out, every tile not on the board is on
                # the other players' racks.
                self.unseen_at_out = unseen_tiles(self.board.tiles())
        elif event.nickname != self.going_out.nickname:
            self.problem(
                event,
                f"{self.going_out.nickname} went out on line {self.going_out.line}: only one "
                f"player gains the others' tiles, not {event.nickname} too",
            )
            return
        self.out_tiles += event.tiles
        self.last_out_line = event.line

    def check_tiles_left(self) -> None:
        """The going-out lines (one for all the others' tiles, or one per player) must name
        exactly the tiles not on the board, when the bag was empty."""
        left = self.unseen_at_out
        if left is None or any(count < 0 for count in left.values()):
            return  # not known, or the board holds more of a tile than the set: reported above
        if +left != Counter(self.out_tiles):
            expected = "".join(sorted((+left).elements()))
            self.problems.append(
                Problem(
                    self.last_out_line,
                    f"the tiles left unplayed are {expected or 'none'}, "
                    f"the record says {self.out_tiles or 'none'}",
                )
            )

    def check_end_by_passes(self) -> None:
        """G3: the game is over once every player has passed three times in a row, so no turn
        may follow; and end-of-game lines that deduct each player's own tiles with nobody going
        out claim that ending, so the passes must be there before them."""
        record = self.record
        events = record.events
        players = len(record.players)
        needed = PASSES_EACH_TO_END * players
        end = passes_end_at(record)
        if end is not None:
            after = next((event for event in events[end + 1 :] if event.kind in TURN_KINDS), None)
            if after is not None:
                self.problem(
                    after,
                    f"the game ended on line {events[end].line}, after {needed} passes in a row "
                    f"(three by each of the {players} players): no turn comes after",
                )
        if self.going_out is not None:
            return
        claim = next(
            (index for index, event in enumerate(events) if event.kind == END_RACK_PENALTY), None
        )
        if claim is None or (end is not None and end < claim):
            return
        if players == 2:
            scoreless = passes_end_at(record, counted=SCORELESS_TURN_KINDS)
            if scoreless is not None and scoreless < claim:
                return  # the tournament's six scoreless turns, as two-player records show
        self.problem(
            events[claim],
            f"deducting each player's own tiles with nobody going out ends the game by passes, "
            f"but only {passes_in_a_row_before(record, claim)} passes in a row come before: "
            f"with {players} players that takes {needed}, three by each",
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
