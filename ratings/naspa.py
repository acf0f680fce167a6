"""NASPA's rating method (docs/rules.md, R1–R4), pure: no database, no Django.

NASPA rates a tournament at its end from its games together: each player's expected wins
against each opponent, from the two ratings before the tournament, are added up; the rating
moves by the excess (wins minus expected wins) times a multiplier that falls as the rating and
the number of rated games rise. A newcomer's first rating is their performance rating: the rating
that their first tournament would have left unchanged. The published description is
scrabble-assoc.com/ratings/how.html and NASPA's wiki pages *Rating system overview* and
*Initial rating*; the reference implementation is tsh's Perl module ``Ratings::Elo``.

Here a rating period is a league's round, a club's night or a whole event (R2), and a game at
a table of three or four counts as its G9 pairings, each seat against each other seat, as
NASPA rates two players. A pairing may carry a weight below 1 (a club's games, R3): it scales
that pairing's part of the excess, of the expected wins, and of the games counted.
"""

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

# NASPA's logistic constant since 2009: 0.6 expected wins at 127 points' difference, 0.7 at 266,
# 0.8 at 435, 0.9 at 689.
SPREAD = 0.0031879

# The multiplier by pre-period rating (below 1800, below 2000, from 2000) and rated games so far.
MULTIPLIERS = {"few": (30, 24, 15), "many": (20, 16, 10)}
FEW_GAMES = 50  # "fewer than 50 rated games": the higher multiplier

# A newcomer's performance rating: never below this; a perfect or a zero record counts as 95%
# or 5% of the games, so that it has a finite rating.
NEWCOMER_FLOOR = 500
NEWCOMER_START = 1500  # where a newcomer with no rated opponent starts
NEWCOMER_CLAMP = 0.05
ROUNDS = 50  # replacements of the newcomers' ratings before they are averaged instead


@dataclass(frozen=True)
class Rated:
    """What a player carries from one period to the next."""

    rating: float
    games: float  # rated games so far (pairings, weighted)


@dataclass(frozen=True)
class Pairing:
    """One player against another in a period: `result` is `first`'s (1 a win, 0.5 a tie, 0 a
    loss); `weight` 1 but for a club's games (R3)."""

    first: int
    second: int
    result: float
    weight: float = 1.0


def expected(rating: float, opponent: float) -> float:
    """Expected wins in one game against `opponent`: NASPA's 1 − 1/(1 + e^(0.0031879·Δ))."""
    return 1 - 1 / (1 + math.exp(SPREAD * (rating - opponent)))


def multiplier(rating: float, games: float) -> int:
    """NASPA's table: 30/24/15 before 50 rated games, 20/16/10 from then on, by rating band."""
    band = 0 if rating < 1800 else 1 if rating < 2000 else 2
    return MULTIPLIERS["few" if games < FEW_GAMES else "many"][band]


def table_pairings(scores: Mapping[int, int], weight: float = 1.0) -> list[Pairing]:
    """A table's game as its G9 pairings: each seat against each other seat, the higher score
    winning, equal scores a tie."""
    seats = sorted(scores)
    return [
        Pairing(
            a, b, 1.0 if scores[a] > scores[b] else 0.5 if scores[a] == scores[b] else 0.0, weight
        )
        for i, a in enumerate(seats)
        for b in seats[i + 1 :]
    ]


def rate_period(pairings: Iterable[Pairing], before: Mapping[int, Rated]) -> dict[int, Rated]:
    """The ratings after one period of these pairings, for every player who played in it.
    Players in `before` are rated; the others are newcomers. The order of the pairings does not
    matter: everything is computed from the ratings before the period."""
    opponents = defaultdict(list)  # player -> [(opponent, result, weight)]
    for p in pairings:
        opponents[p.first].append((p.second, p.result, p.weight))
        opponents[p.second].append((p.first, 1.0 - p.result, p.weight))
    for games in opponents.values():
        games.sort()  # one order whatever the pairings' order, down to a float sum's last bit
    start = {player: before[player].rating if player in before else None for player in opponents}
    if any(rating is None for rating in start.values()):
        start.update(_newcomers(opponents, start))
    after = {}
    for player, games in opponents.items():
        played = sum(weight for _, _, weight in games)
        if player not in before:
            after[player] = Rated(start[player], played)
            continue
        rating = before[player].rating
        excess = sum(
            weight * (result - expected(rating, start[opponent]))
            for opponent, result, weight in games
        )
        change = multiplier(rating, before[player].games) * excess
        after[player] = Rated(rating + change, before[player].games + played)
    return after


def performance(games: list[tuple[float, float, float]]) -> int:
    """The whole rating in [0, 3000] for which these games (opponent's rating, result, weight)
    hold no excess: the rating they would have left unchanged. A perfect or a zero record
    counts as 95% or 5% of the games, so that one exists. Expected wins rise with the rating:
    halve the range until it is one point wide, as NASPA's *Initial rating* does."""
    played = sum(weight for _, _, weight in games)
    earned = sum(result * weight for _, result, weight in games)
    earned = min(max(earned, NEWCOMER_CLAMP * played), (1 - NEWCOMER_CLAMP) * played)
    low, high = 0, 3000
    while high - low > 1:
        middle = (low + high) // 2
        if sum(weight * expected(middle, rating) for rating, _, weight in games) < earned:
            low = middle
        else:
            high = middle
    return low


def _newcomers(opponents, start) -> dict[int, float]:
    """NASPA's *Initial rating*: each newcomer starts at their rated opponents' mean (or 1500),
    then every newcomer's rating is replaced by their performance rating against the others'
    current ratings, at most 50 times, until none changes. Never below 500; never above the
    strongest rated opponent's rating plus 400 times the newcomer's winning share. If 50 rounds
    do not settle it (newcomers who played only each other swing back and forth), 50 more are
    run and each newcomer gets the mean of them."""
    new = [player for player, rating in start.items() if rating is None]
    current = dict(start)
    ceiling = {}
    for player in new:
        rated = [start[o] for o, _, _ in opponents[player] if start[o] is not None]
        current[player] = sum(rated) / len(rated) if rated else NEWCOMER_START
        if rated:
            games = opponents[player]
            share = sum(r * w for _, r, w in games) / sum(w for _, _, w in games)
            ceiling[player] = max(rated) + 400 * share
    history = []
    for _ in range(2 * ROUNDS):
        following = {}
        for player in new:
            games = [(current[o], result, weight) for o, result, weight in opponents[player]]
            rating = max(NEWCOMER_FLOOR, performance(games))
            following[player] = min(rating, ceiling.get(player, rating))
        settled = all(following[p] == current[p] for p in new)
        current.update(following)
        history.append(following)
        if settled and len(history) <= ROUNDS:
            return following
    last = history[ROUNDS:]
    return {player: sum(h[player] for h in last) / len(last) for player in new}
