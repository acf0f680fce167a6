"""How a reported result is judged: plain functions, no database.

G2: a tie on final score goes to the higher score before the unplayed-tile adjustment; only an
exact tie on both is a tie. Score checks follow what Scrabble directors do: a negative score or
one above 1500 is impossible; a score below 100 or a spread above 400 happens, but rarely enough
to ask "yes, really?".
"""

from dataclasses import dataclass

# The highest score a seat may have (G1): the models' constraints, the forms and the admin read it.
MAX_SCORE = 1500
LOW_SCORE = 100
BIG_SPREAD = 400


def winner_seat(
    first: int, second: int, first_pre: int | None = None, second_pre: int | None = None
) -> int | None:
    """1 or 2 for the winning seat, None for a tie (G2)."""
    if first != second:
        return 1 if first > second else 2
    if first_pre is not None and second_pre is not None and first_pre != second_pre:
        return 1 if first_pre > second_pre else 2
    return None


@dataclass(frozen=True)
class ScoreCheck:
    errors: list[str]
    warnings: list[str]  # accepted only after an explicit "yes, really"


def check_scores(first: int, second: int) -> ScoreCheck:
    errors, warnings = [], []
    for score in (first, second):
        if score < 0:
            errors.append(f"{score} is negative: a Scrabble score cannot be below zero.")
        elif score > MAX_SCORE:
            errors.append(f"{score} is above {MAX_SCORE}: no game scores that much.")
    if not errors:
        low = [score for score in (first, second) if score < LOW_SCORE]
        if low:
            warnings.append(f"A score below {LOW_SCORE} ({', '.join(map(str, low))}) is unusual.")
        if abs(first - second) > BIG_SPREAD:
            warnings.append(f"A spread of {abs(first - second)} (over {BIG_SPREAD}) is unusual.")
    return ScoreCheck(errors, warnings)
