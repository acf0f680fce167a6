"""A record against the report it came with: which record player sits in which seat, the
record's totals put under the league's end-of-game rule (G1), and a sentence for each reported
score that differs.

A record may score the unplayed tiles by another rule than the league's (Woogles and Quackle
use the North-American one). Its end-of-game lines say which tiles were left, so the totals are
put under the league's rule before they are compared, and the report says so.
"""

import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations, permutations

from ..scrabble import (
    NO_ADJUSTMENT,
    NORTH_AMERICAN,
    OUT_BONUS,
    STANDARD,
    Problem,
    check_record,
    end_of_game_adjustments,
)
from ..scrabble.gcg import END_RACK_PENALTY, END_RACK_POINTS, GameRecord

RULE_NAMES = {
    STANDARD: "the standard rule",
    NORTH_AMERICAN: "the North-American rule",
    OUT_BONUS: "the out-bonus rule (going out earns the others' tiles once, nobody loses their own)",
    NO_ADJUSTMENT: "no adjustment for unplayed tiles",
}


@dataclass(frozen=True)
class SeatName:
    """What a record might call a seat's player."""

    full_name: str
    first_name: str = ""
    email: str = ""


@dataclass
class RecordComparison:
    """The record against the report. When the record cannot be put against the seats at all
    (another number of players, unplayed tiles it does not attribute), ``differences`` says why
    and the lists by seat are empty."""

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


def _key(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.casefold())


def _names_of(name: SeatName) -> set[str]:
    keys = {_key(name.full_name), _key(name.first_name), _key(name.email.partition("@")[0])}
    keys.update(_key(part) for part in name.full_name.split())
    keys.discard("")
    return keys


def _name_matches(record: GameRecord, seats: list[SeatName]) -> list[set[int]]:
    """For each record player, the seats whose student the record's names could be."""
    seat_names = [_names_of(name) for name in seats]
    matches = []
    for player in record.players:
        said = {_key(player.nickname), _key(player.full_name)} - {""}
        matches.append({seat for seat, names in enumerate(seat_names) if said & names})
    return matches


def seat_players(
    record: GameRecord, seats: list[SeatName], totals: list[int], reported: list[int]
) -> list[int]:
    """Which record player sits in each seat (seat index → player index): the seating that
    agrees with the most names (nickname or full name against each student's names), then
    ranks the players as the reported scores do, then agrees with the most reported scores,
    then comes closest to them; the record's order on a full tie.

    Names alone may not settle it (a record player whose name fits no seat, or two seats): the
    scores then place whoever the names leave open, so the messages name the right player."""
    names = _name_matches(record, seats)
    pairs = list(combinations(range(len(seats)), 2))

    def same_order(player_of_seat) -> int:
        """How many pairs of seats the record ranks as the report does: the winner reports
        (L7), so the record's winner belongs in the reporter's seat whatever the totals."""
        return sum(
            _sign(reported[a] - reported[b])
            == _sign(totals[player_of_seat[a]] - totals[player_of_seat[b]])
            for a, b in pairs
        )

    best, best_key = None, None
    for player_of_seat in permutations(range(len(seats))):
        key = (
            sum(seat in names[player] for seat, player in enumerate(player_of_seat)),
            same_order(player_of_seat),
            sum(totals[player] == reported[seat] for seat, player in enumerate(player_of_seat)),
            -sum(
                abs(totals[player] - reported[seat]) for seat, player in enumerate(player_of_seat)
            ),
        )
        if best_key is None or key > best_key:
            best, best_key = list(player_of_seat), key
    return best


def _sign(number: int) -> int:
    return (number > 0) - (number < 0)


@dataclass
class _Ending:
    recorded: list[int]  # each player's end-of-game change as the record has it
    racks: list[str]  # each player's unplayed tiles
    went_out: int | None
    # Players whose tiles the record does not attribute (no deduction line, and more than one
    # player to hold what the going-out lines name): all those tiles stand on the first of them.
    unattributed: list[int] = field(default_factory=list)


def _end_of_game(record: GameRecord) -> _Ending:
    """The record's end-of-game lines, read per player. A player's own tiles are on their
    deduction line; without one, the going-out lines tell them only when a single player is
    left to hold what those lines name."""
    index = {player.nickname: number for number, player in enumerate(record.players)}
    recorded = [0] * len(record.players)
    racks = [""] * len(record.players)
    deducted = set()
    went_out = None
    gained = ""  # every tile the going-out lines name
    for event in record.events:
        player = index[event.nickname]
        if event.kind == END_RACK_POINTS:
            recorded[player] += event.change
            went_out = player
            gained += event.tiles
        elif event.kind == END_RACK_PENALTY:
            recorded[player] += event.change
            racks[player] = event.tiles
            deducted.add(player)
    ending = _Ending(recorded, racks, went_out)
    if went_out is None:
        return ending
    racks[went_out] = ""
    unknown = [player for player in range(len(racks)) if player not in deducted | {went_out}]
    if not unknown:
        return ending
    left = Counter(gained)
    for player in deducted - {went_out}:
        left.subtract(racks[player])
    # The going-out tiles as written, unless deduction lines have claimed some of them.
    racks[unknown[0]] = gained if deducted <= {went_out} else "".join(sorted((+left).elements()))
    if len(unknown) > 1 and racks[unknown[0]]:
        ending.unattributed = unknown
    return ending


def compare_with_report(
    text: str,
    record: GameRecord,
    *,
    league_rule: str,
    seats: list[SeatName],
    reported: list[int],
    reporter: int,
    challenge_rule: str | None = None,
) -> RecordComparison:
    """The record's final totals under the league's end-of-game rule, by seat, and how they
    differ from the reported scores (one per seat, in seat order). ``reporter`` is the reporting
    player's seat index (0-based): messages speak to them. ``challenge_rule`` is the league's
    (G5): the replay reports a challenge bonus kept under another rule."""
    if len(reported) != len(seats) or not 0 <= reporter < len(seats):
        raise ValueError("give one reported score per seat and the reporter's seat index")
    check = check_record(record, verify=True, challenge_rule=challenge_rule)
    comparison = RecordComparison(
        record=record,
        text=text,
        player_of_seat=[],
        recorded_totals=[],
        totals=[],
        pre_adjustment=[],
        tiles_left=[],
        problems=check.problems,
    )
    if len(record.players) != len(seats):
        comparison.differences.append(
            f"The game record has {len(record.players)} players; this match has {len(seats)} seats."
        )
        return comparison
    stated = [check.final_totals[player.nickname] for player in record.players]
    ending = _end_of_game(record)
    racks = ending.racks
    if ending.unattributed and league_rule == STANDARD:
        comparison.differences.append(
            f"The game record does not say which player held which of the unplayed tiles "
            f"{racks[ending.unattributed[0]]}, so its totals cannot be put under "
            f"{RULE_NAMES[league_rule]}: attach a record that deducts each player's own "
            "tiles, or report without it."
        )
        return comparison
    pre = [total - change for total, change in zip(stated, ending.recorded, strict=True)]
    if any(ending.recorded) or ending.went_out is not None or any(racks):
        # Under every rule but the standard one the tiles' holders gain and lose nothing, so
        # unattributed tiles may stand on any one of them.
        league_end = end_of_game_adjustments(league_rule, racks, ending.went_out)
    else:
        # A record that stops before the end (or never wrote the lines).
        league_end = [0] * len(stated)
    converted = [score + change for score, change in zip(pre, league_end, strict=True)]

    if converted != stated:
        if ending.went_out is None:
            used = "deducting each player's own tiles"
        else:
            used = RULE_NAMES.get(check.end_rule, "another end-of-game rule")
        changes = ", ".join(
            f"{player.nickname} {before} → {after}"
            for player, before, after in zip(record.players, stated, converted, strict=True)
        )
        comparison.conversion = (
            f"The record scores the unplayed tiles by {used}; this league uses "
            f"{RULE_NAMES[league_rule]}, so its totals were converted: {changes}."
        )

    player_of_seat = seat_players(record, seats, converted, reported)
    by_seat = [converted[player] for player in player_of_seat]
    comparison.player_of_seat = player_of_seat
    comparison.recorded_totals = [stated[player] for player in player_of_seat]
    comparison.totals = by_seat
    comparison.pre_adjustment = [pre[player] for player in player_of_seat]
    comparison.tiles_left = [
        "" if player in ending.unattributed else racks[player] for player in player_of_seat
    ]
    others = [seat for seat in range(len(seats)) if seat != reporter]
    for seat in [reporter, *others]:
        if by_seat[seat] != reported[seat]:
            nickname = record.players[player_of_seat[seat]].nickname
            comparison.differences.append(
                f"{_whose_score(seat, reporter, seats)} differs from the game record: you "
                f"entered {reported[seat]}, the record's final total for {nickname} is "
                f"{by_seat[seat]}."
            )
    return comparison


def _whose_score(seat: int, reporter: int, seats: list[SeatName]) -> str:
    if seat == reporter:
        return "Your score"
    if len(seats) == 2:
        return "Your opponent's score"
    return f"{seats[seat].full_name or f'Seat {seat + 1}'}'s score"
