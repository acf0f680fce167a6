"""How a reported result is judged: plain functions, no database, for any number of seats.

G2: a tie on final score goes to the higher score before the unplayed-tile adjustment; only an
exact tie on both is a tie. G9: at a table of three or four, placement is by final score with the
same tie-break, and only an exact tie on both shares a place.

Score checks follow G1 and what Scrabble directors do: a score outside -100…1500 is impossible;
a negative score (a scoreless ending with tiles held), a score below 100 or a spread above 400
happens, but rarely enough to ask "yes, really?".
"""

from collections.abc import Sequence
from dataclasses import dataclass

# The range of a seat's final score (G1): the models' constraints, the forms and the admin read it.
MIN_SCORE = -100
MAX_SCORE = 1500
LOW_SCORE = 100
BIG_SPREAD = 400

# What a played game was for a seat (the values of ``models.Outcome``).
WIN, LOSS, TIE = "win", "loss", "tie"


def placements(scores: Sequence[int], pre_adjustment: Sequence[int | None] = ()) -> list[int]:
    """Each seat's place, 1 = first (G2, G9). Seats tied on final score are split by their
    pre-adjustment scores when both have one; an exact tie on both shares the better place."""
    pre = list(pre_adjustment) or [None] * len(scores)
    if len(pre) != len(scores):
        raise ValueError("give one pre-adjustment score (or None) per seat")
    places = []
    for index, score in enumerate(scores):
        better = 0
        for other, other_score in enumerate(scores):
            if other == index:
                continue
            if other_score != score:
                better += other_score > score
            elif pre[index] is not None and pre[other] is not None:
                better += pre[other] > pre[index]
        places.append(better + 1)
    return places


def outcomes(places: Sequence[int]) -> list[str]:
    """A win for a sole first place, a tie for a shared one, a loss for every other place."""
    firsts = sum(1 for place in places if place == 1)
    return [(WIN if firsts == 1 else TIE) if place == 1 else LOSS for place in places]


def winner_seat(scores: Sequence[int], pre_adjustment: Sequence[int | None] = ()) -> int | None:
    """The seat order (1-based) of the sole first place, or None for a tie on first (G2)."""
    places = placements(scores, pre_adjustment)
    firsts = [order for order, place in enumerate(places, start=1) if place == 1]
    return firsts[0] if len(firsts) == 1 else None


@dataclass(frozen=True)
class ScoreCheck:
    errors: list[str]
    warnings: list[str]  # accepted only after an explicit "yes, really"


def check_scores(scores: Sequence[int | None]) -> ScoreCheck:
    """Every seat's final score present and in range; unusual ones asked about (G1)."""
    errors, warnings = [], []
    if any(score is None for score in scores):
        missing = [str(order) for order, score in enumerate(scores, start=1) if score is None]
        return ScoreCheck(
            [f"Enter a score for every seat (missing: seat {', '.join(missing)})."], []
        )
    for score in scores:
        if score < MIN_SCORE:
            errors.append(f"{score} is below {MIN_SCORE}: no game ends that low.")
        elif score > MAX_SCORE:
            errors.append(f"{score} is above {MAX_SCORE}: no game scores that much.")
    if not errors:
        negative = [score for score in scores if score < 0]
        if negative:
            warnings.append(
                f"A negative score ({', '.join(map(str, negative))}) happens only when a game "
                "ends with no tiles played and tiles held."
            )
        low = [score for score in scores if 0 <= score < LOW_SCORE]
        if low:
            warnings.append(f"A score below {LOW_SCORE} ({', '.join(map(str, low))}) is unusual.")
        spread = max(scores) - min(scores) if scores else 0
        if spread > BIG_SPREAD:
            warnings.append(f"A spread of {spread} (over {BIG_SPREAD}) is unusual.")
    return ScoreCheck(errors, warnings)
