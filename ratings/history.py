"""A player's rating history on their profile (R1): a plot of their rating after each rated
period and a table of the periods, for the player themself.

Their changes are read in one query, joined to the periods, however many there are. The plot is
an inline SVG drawn by its template (``ratings/_history.html``), no script: this module computes
only numbers, the points' coordinates and the axes' ticks in the SVG's own units (its viewBox,
which scales to the width it is given), in pure functions tested without a database."""

import math
from dataclasses import dataclass
from datetime import date
from itertools import pairwise

from accounts.models import PlayerProfile

from .models import RatingChange, is_provisional

TEMPLATE = "ratings/_history.html"

# The SVG's units: the drawing area inside margins for the ratings' labels (left) and the
# periods' dates (below), its points kept INSET from the sides so that a dot is never cut.
WIDTH, HEIGHT = 320, 180
LEFT, RIGHT, TOP, BOTTOM = 40, 8, 10, 24
INSET = 8
# The rating axis: a few round numbers, at least LEAST_SPAN apart top to bottom (a flat history
# is not stretched into a steep one).
STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
MOST_RATING_TICKS = 5
LEAST_SPAN = 40
# The periods' dates: at most four labelled, DATE_GAP apart at least ("Sep 30" is about 40 wide).
MOST_DATE_TICKS = 4
DATE_GAP = 72


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    provisional: bool  # drawn hollow


@dataclass(frozen=True)
class Tick:
    at: float  # x for a date, y for a rating
    label: int | date
    anchor: str = "middle"  # where a date's label sits on its x: start, middle or end


@dataclass(frozen=True)
class Plot:
    points: list[Point]
    rating_ticks: list[Tick]
    date_ticks: list[Tick]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM


def rating_scale(low: float, high: float) -> tuple[int, int, int]:
    """The rating axis for ratings from `low` to `high`: (its bottom, its top, the step between
    its ticks), round numbers around them, at most MOST_RATING_TICKS ticks."""
    if high - low < LEAST_SPAN:
        middle = (low + high) / 2
        low, high = middle - LEAST_SPAN / 2, middle + LEAST_SPAN / 2
    for step in STEPS:
        bottom, top = math.floor(low / step) * step, math.ceil(high / step) * step
        if (top - bottom) // step + 1 <= MOST_RATING_TICKS:
            return bottom, top, step
    step = STEPS[-1]
    return math.floor(low / step) * step, math.ceil(high / step) * step, step


def date_tick_indices(count: int, most: int = MOST_DATE_TICKS) -> list[int]:
    """Which of `count` periods have their date labelled: the first, the last and evenly
    spaced ones between, at most `most`, and none closer to the next than DATE_GAP."""
    if count <= 0:
        return []
    per_period = (WIDTH - RIGHT - LEFT - 2 * INSET) / max(count - 1, 1)
    for shown in range(min(count, most), 1, -1):
        indices = sorted({round(i * (count - 1) / (shown - 1)) for i in range(shown)})
        if min(b - a for a, b in pairwise(indices)) * per_period >= DATE_GAP:
            return indices
    return [0] if count == 1 else [0, count - 1]


def plot(ratings: list[float], days: list[date], provisional: list[bool]) -> Plot:
    """The plot of a rating after each period, oldest first, the periods evenly spaced (a week's
    gap and a summer's alike: the table gives the dates); a single period is one point in the
    middle."""
    count = len(ratings)
    if count == 0:
        return Plot(points=[], rating_ticks=[], date_ticks=[])
    bottom, top, step = rating_scale(min(ratings), max(ratings))
    first_x, last_x = LEFT + INSET, WIDTH - RIGHT - INSET
    plot_top, plot_bottom = TOP, HEIGHT - BOTTOM

    def x(index: int) -> float:
        if count == 1:
            return round((first_x + last_x) / 2, 1)
        return round(first_x + index * (last_x - first_x) / (count - 1), 1)

    def y(value: float) -> float:
        return round(plot_top + (top - value) / (top - bottom) * (plot_bottom - plot_top), 1)

    points = [Point(x(i), y(rating), provisional[i]) for i, rating in enumerate(ratings)]
    rating_ticks = [Tick(y(value), value) for value in range(bottom, top + 1, step)]
    indices = date_tick_indices(count)
    date_ticks = [
        Tick(
            x(i),
            days[i],
            "middle"
            if count == 1
            else "start"
            if i == 0
            else "end"
            if i == count - 1
            else "middle",
        )
        for i in indices
    ]
    return Plot(points=points, rating_ticks=rating_ticks, date_ticks=date_ticks)


def change_words(before: float, after: float) -> str:
    """A period's change as the table writes it, from the whole numbers it shows: +23, −12, 0."""
    change = round(after) - round(before)
    if change > 0:
        return f"+{change}"
    if change < 0:
        return f"\N{MINUS SIGN}{-change}"
    return "0"


def _changes(profile: PlayerProfile) -> list[dict]:
    """The player's changes, oldest period first, each with its period's day and what it was:
    one query."""
    return list(
        RatingChange.objects.filter(player=profile)
        .order_by("period__ends_on", "period__key")
        .values(
            "rating_before",
            "deviation_before",
            "rating",
            "deviation",
            "period_games",
            "period__ends_on",
            "period__league__name",
            "period__round__number",
            "period__league__format",
        )
    )


def round_word(format_value: str) -> str:
    """What a round of this format is called ("round"; a club's "night"): league, which knows
    the formats, puts its own answer here when it starts (league.apps)."""
    return "round"


def history(changes: list[dict]) -> dict:
    """What the template reads, from the changes as `_changes` reads them."""
    rows = [
        {
            "day": change["period__ends_on"],
            "league": change["period__league__name"],
            "round": change["period__round__number"],  # None: a whole event
            "round_word": round_word(change["period__league__format"]),
            "games": change["period_games"],
            "before": round(change["rating_before"]),
            "before_provisional": is_provisional(change["deviation_before"]),
            "after": round(change["rating"]),
            "provisional": is_provisional(change["deviation"]),
            "change": change_words(change["rating_before"], change["rating"]),
        }
        for change in changes
    ]
    return {
        "template": TEMPLATE,
        "rows": rows,
        "first": rows[0] if rows else None,
        "last": rows[-1] if rows else None,
        "any_provisional": any(row["provisional"] or row["before_provisional"] for row in rows),
        "plot": plot(
            [change["rating"] for change in changes],
            [row["day"] for row in rows],
            [row["provisional"] for row in rows],
        ),
    }


def history_section(profile: PlayerProfile) -> dict:
    """The profile's section (core.page_sections): shown to every player, with a
    sentence instead of a plot while they have no rated game."""
    return history(_changes(profile))
