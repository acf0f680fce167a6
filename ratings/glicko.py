"""Glicko-2, the method the site rates with (docs/rules.md, R1), pure: no database, no Django.

Mark Glickman's *Example of the Glicko-2 system* (glicko.net/glicko/glicko2.pdf) is the source,
step by step. Chosen over NASPA's method and openskill's Plackett–Luce by measurement on
simulated campus seasons (`benchmarks/ratings_compare.py`, README *Ratings*): with 10–30 games
a player, its ratings ordered the players best and predicted the next games best.

Ours, on top of the paper:
- A newcomer starts at 1500 with a deviation of 350 NASPA points (the paper's 350 is on its own
  scale: 632 of NASPA's). Measured on the simulated seasons at three strengths of play (25, 40
  and 60 points of score a standard deviation of strength), 350 ordered the players better and
  predicted better than 632, 450 or 250 at all three but the strongest (where 250 was as good):
  campus players are closer together, and their few games must not swing them as far.
- Ratings are shown on NASPA's scale: one rating point here is one of NASPA's, so NASPA's
  expected wins, 1 − 1/(1 + e^(0.0031879·Δ)), read from two settled ratings (R1). The paper's
  scale is 173.7178 points to its unit; NASPA's is 1/0.0031879 = 313.69.
- A game at a table of three or four is rated as its G9 pairings (``naspa.table_pairings``).
- A pairing may weigh less than 1 (a club's games, R3): its terms in the period's variance and
  improvement are multiplied by the weight.
"""

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .naspa import SPREAD, Pairing

NASPA_SCALE = 1 / SPREAD  # rating points to one unit of the paper's internal scale
GLICKO_SCALE = 173.7178  # the paper's own

START = 1500.0
START_DEVIATION = 350.0  # ours, measured: see the module docstring
START_VOLATILITY = 0.06
TAU = 0.5  # how fast the volatility may change: the paper suggests 0.3 to 1.2
EPSILON = 0.000001


@dataclass(frozen=True)
class Rated:
    """What a player carries from one period to the next."""

    rating: float = START
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY
    games: float = 0.0  # rated games so far (pairings, weighted)


def g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def expected(mine: Rated, theirs: Rated, scale: float = NASPA_SCALE) -> float:
    """The chance that `mine` wins a game against `theirs`, both deviations counted."""
    mu = (mine.rating - theirs.rating) / scale
    phi = math.hypot(mine.deviation, theirs.deviation) / scale
    return 1 / (1 + math.exp(-g(phi) * mu))


def rate_period(
    pairings: Iterable[Pairing],
    before: Mapping[int, Rated],
    *,
    scale: float = NASPA_SCALE,
    tau: float = TAU,
    newcomer: Rated | None = None,
) -> dict[int, Rated]:
    """The ratings after one period, for every player who played in it; a player missing from
    `before` starts as `newcomer` (``Rated()``). Every game is read against the ratings before the period,
    so the order of the pairings does not matter. A player who did not play keeps their rating
    and their deviation grows (``idle``)."""
    games = defaultdict(list)
    for p in pairings:
        games[p.first].append((p.second, p.result, p.weight))
        games[p.second].append((p.first, 1.0 - p.result, p.weight))
    newcomer = newcomer or Rated()
    start = {player: before.get(player, newcomer) for player in games}
    return {
        player: _one(start[player], [(start[o], s, w) for o, s, w in sorted(played)], scale, tau)
        for player, played in games.items()
    }


def idle(rated: Rated, scale: float = NASPA_SCALE) -> Rated:
    """A period without games: the rating stays, the deviation grows with the volatility."""
    phi = math.hypot(rated.deviation / scale, rated.volatility)
    return Rated(rated.rating, min(phi * scale, START_DEVIATION), rated.volatility, rated.games)


def _one(me: Rated, played: list[tuple[Rated, float, float]], scale: float, tau: float) -> Rated:
    """Steps 2 to 8 of the paper for one player and their period's games."""
    mu, phi, sigma = (me.rating - START) / scale, me.deviation / scale, me.volatility
    information, improvement = 0.0, 0.0
    for them, result, weight in played:
        mu_j, g_j = (them.rating - START) / scale, g(them.deviation / scale)
        chance = 1 / (1 + math.exp(-g_j * (mu - mu_j)))
        information += weight * g_j * g_j * chance * (1 - chance)
        improvement += weight * g_j * (result - chance)
    v = 1 / information
    delta = v * improvement
    sigma = _volatility(delta, phi, v, sigma, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu = mu + phi * phi * improvement
    counted = me.games + sum(weight for _, _, weight in played)
    return Rated(START + mu * scale, phi * scale, sigma, counted)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5: the new volatility, by the paper's Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x):
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = middle, f_middle
    return math.exp(low / 2)
