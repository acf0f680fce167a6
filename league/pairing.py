"""Round-robin pairing by the circle method: plain data in, plain data out, no database.

With an odd number of players a phantom `None` joins the circle; whoever meets it that round has
the bye. Each player meets every other exactly once over n-1 rounds (n rounded up to even), and
the first seat alternates so nobody always goes first.
"""

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def round_robin(players: Sequence[T]) -> list[list[tuple[T | None, T | None]]]:
    """Rounds of pairings. A pair with None is a bye for the other player, always listed first."""
    if len(set(players)) != len(players):
        raise ValueError("A player appears twice.")
    if len(players) < 2:
        return []
    circle: list[T | None] = list(players)
    if len(circle) % 2:
        circle.append(None)
    n = len(circle)
    rounds = []
    for round_index in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            # Alternate who sits first; the fixed player swaps every round.
            if (i == 0 and round_index % 2) or (i > 0 and i % 2):
                a, b = b, a
            if a is None:
                a, b = b, None
            pairs.append((a, b))
        rounds.append(pairs)
        # Keep the first player fixed, rotate the rest one place clockwise.
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds
