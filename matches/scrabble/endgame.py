"""End-of-game adjustment (G1), the tie-break (G2), how a game ends by passes (G3) and
challenge outcomes (G5).

Scores before the adjustment are what the players had when the last tile was played; the
adjustment then moves the value of the unplayed tiles, according to the league's rule:

- ``standard`` (the international rule): each player loses the value of their own unplayed
  tiles, and the player who went out gains the total of everyone else's.
- ``north_american``: the player who went out gains twice the others' tiles; nobody loses
  anything. If nobody went out (the game ended by passes), each player loses their own tiles.
- ``out_bonus`` (document 004 as RULES G1 reads it): the player who went out gains the others'
  tiles once; nobody loses their own, and if nobody went out nothing changes.
- ``none``: no adjustment (a timed game that stops mid-play).
"""

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .gcg import EXCHANGE, PASS, PLACEMENT, WITHDRAWAL, Event, GameRecord
from .tiles import rack_value

STANDARD = "standard"
NORTH_AMERICAN = "north_american"
OUT_BONUS = "out_bonus"
NO_ADJUSTMENT = "none"
END_OF_GAME_RULES = (STANDARD, NORTH_AMERICAN, OUT_BONUS, NO_ADJUSTMENT)

LOSE_TURN = "lose_turn"
POINTS_TO_CHALLENGED = "points_to_challenged"
CLUB_BONUS_TO_CHALLENGER = "club_bonus_to_challenger"
CHALLENGE_RULES = (LOSE_TURN, POINTS_TO_CHALLENGED, CLUB_BONUS_TO_CHALLENGER)
CHALLENGE_POINTS = (5, 10)
CLUB_CHALLENGE_BONUS = 10  # 003 rule 9: ten points to a successful challenger

# G3: the game ends when every player has passed three times in a row. A turn lost to an
# unsuccessful challenge is written as a pass; an exchange is not a pass (002 rule 11), nor is a
# play taken back after a challenge (the player tried to play).
PASSES_EACH_TO_END = 3
# Two-player GCG records come from tournament software, which ends a game after six scoreless
# turns of any kind (docs/gcg.md); these are the turns that count there.
SCORELESS_TURN_KINDS = frozenset({PASS, EXCHANGE, WITHDRAWAL})
TURN_KINDS = (PLACEMENT, PASS, EXCHANGE)  # events that are a player's turn


def end_of_game_adjustments(rule: str, racks: Sequence[str], went_out: int | None) -> list[int]:
    """Each player's change of score for their unplayed tiles (G1).

    ``racks`` holds every player's unplayed tiles (``?`` for a blank); ``went_out`` is the index
    of the player who played their last tile, or None when the game ended otherwise.
    """
    if rule not in END_OF_GAME_RULES:
        raise ValueError(f"unknown end-of-game rule {rule!r}; expected one of {END_OF_GAME_RULES}")
    if went_out is not None:
        if not 0 <= went_out < len(racks):
            raise ValueError(f"player {went_out} is not one of the {len(racks)} players")
        if racks[went_out]:
            raise ValueError(f"player {went_out} went out but still holds {racks[went_out]}")
    values = [rack_value(rack) for rack in racks]
    if rule == NO_ADJUSTMENT or (rule == OUT_BONUS and went_out is None):
        return [0] * len(racks)
    if went_out is None:  # no one went out: each loses their own tiles
        return [-value for value in values]
    others = sum(values)
    if rule in (NORTH_AMERICAN, OUT_BONUS):
        gain = 2 * others if rule == NORTH_AMERICAN else others
        return [gain if player == went_out else 0 for player in range(len(racks))]
    return [others if player == went_out else -values[player] for player in range(len(racks))]


def final_scores(
    rule: str, scores: Sequence[int], racks: Sequence[str], went_out: int | None
) -> list[int]:
    """The scores after the end-of-game adjustment (G1)."""
    if len(scores) != len(racks):
        raise ValueError("give one rack per player")
    adjustments = end_of_game_adjustments(rule, racks, went_out)
    return [score + change for score, change in zip(scores, adjustments, strict=True)]


def scores_before_adjustment(
    rule: str, final: Sequence[int], racks: Sequence[str], went_out: int | None
) -> list[int]:
    """The scores before the end-of-game adjustment, from the final scores and every player's
    unplayed tiles: G1 run backwards, so G2 can break a tie on final score."""
    if len(final) != len(racks):
        raise ValueError("give one rack per player")
    adjustments = end_of_game_adjustments(rule, racks, went_out)
    return [score - change for score, change in zip(final, adjustments, strict=True)]


def winners(final: Sequence[int], before_adjustment: Sequence[int]) -> list[int]:
    """The indexes of the winning players (G2): the highest final score; a tie on it goes to
    the higher score before the unplayed-tile adjustment. More than one index is a tie, which
    takes an exact tie on both scores."""
    if len(final) != len(before_adjustment) or not final:
        raise ValueError("give both scores for every player")
    best = max(final)
    leaders = [player for player, score in enumerate(final) if score == best]
    best_before = max(before_adjustment[player] for player in leaders)
    return [player for player in leaders if before_adjustment[player] == best_before]


@dataclass(frozen=True)
class ChallengeOutcome:
    """What a challenge does under the league's rule (G5)."""

    play_stands: bool  # the challenged play stays on the board with its score
    challenger_loses_turn: bool
    points_to_challenged: int  # to the player whose play was challenged
    points_to_challenger: int


def resolve_challenge(
    rule: str, *, play_is_acceptable: bool, tiles_in_bag: int, points: int = 10
) -> ChallengeOutcome:
    """The outcome of a challenge (G5). An unacceptable play is always taken back, costing its
    player the turn. If the play was acceptable: ``lose_turn`` and ``club_bonus_to_challenger``
    cost the challenger their next turn, ``points_to_challenged`` gives ``points`` (5 or 10) to
    the challenged player instead. Under ``club_bonus_to_challenger`` a successful challenger
    gains ``points`` (the club's 10) while tiles remain in the bag."""
    if rule not in CHALLENGE_RULES:
        raise ValueError(f"unknown challenge rule {rule!r}; expected one of {CHALLENGE_RULES}")
    if points not in CHALLENGE_POINTS:
        raise ValueError(f"challenge points are 5 or 10, not {points}")
    if not play_is_acceptable:
        bonus = points if rule == CLUB_BONUS_TO_CHALLENGER and tiles_in_bag > 0 else 0
        return ChallengeOutcome(False, False, 0, bonus)
    if rule == POINTS_TO_CHALLENGED:
        return ChallengeOutcome(True, False, points, 0)
    return ChallengeOutcome(True, True, 0, 0)


def _turns(events: Sequence[Event]) -> list[tuple[int, str, str]]:
    """Each turn of a record as (index of its last event, nickname, kind): a placement, pass or
    exchange; a placement taken back after a challenge is a WITHDRAWAL turn. Challenge bonuses,
    time penalties and end-of-game lines are no turns."""
    turns: list[tuple[int, str, str]] = []
    for index, event in enumerate(events):
        if event.kind in TURN_KINDS:
            turns.append((index, event.nickname, event.kind))
        elif event.kind == WITHDRAWAL and turns and turns[-1][1:] == (event.nickname, PLACEMENT):
            turns[-1] = (index, event.nickname, WITHDRAWAL)
    return turns


def passes_end_at(record: GameRecord, *, counted: frozenset[str] = frozenset({PASS})) -> int | None:
    """The index of the event that ends the game by passes (G3): the first time the last
    3 × N turns (N players) are all passes, three by each player; None if that never happens.
    ``counted`` says which turns count as passes (``SCORELESS_TURN_KINDS`` for the tournament
    reading of a two-player record)."""
    players = len(record.players)
    needed = PASSES_EACH_TO_END * players
    run: list[str] = []  # the nicknames of the passes in a row so far
    for index, nickname, kind in _turns(record.events):
        if kind not in counted:
            run = []
            continue
        run.append(nickname)
        passes = Counter(run[-needed:])
        if len(passes) == players and min(passes.values()) >= PASSES_EACH_TO_END:
            return index
    return None


def passes_in_a_row_before(record: GameRecord, index: int) -> int:
    """How many passes in a row the turns before event ``index`` end with."""
    count = 0
    for _, _, kind in reversed([turn for turn in _turns(record.events) if turn[0] < index]):
        if kind != PASS:
            break
        count += 1
    return count


def ended_by_passes(record: GameRecord) -> bool:
    """Whether the game ended by passes (G3): every player passed three times in a row (3 × N
    passes for N players; exchanges are not passes) and no turn was played after."""
    end = passes_end_at(record)
    return end is not None and all(index <= end for index, _, _ in _turns(record.events))
