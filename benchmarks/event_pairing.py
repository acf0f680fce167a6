"""How long pairing an event's round takes (E3; issue 15's target: 500 entrants under a second).

For 100, 250, 500 and 501 entrants in one pairing group, a fifth of them in teams of four, the
script pairs rounds 1 and 2 with made-up scores and times round 3, when everyone has met two
others and the pairing goes by cumulative score; untimed (an odd group gets a table of three)
and timed (a bye). Run: `python benchmarks/event_pairing.py`."""

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from events.pairing import Group, PairingEntrant, pair_round  # noqa: E402


def third_round(count: int, timed: bool, seed: int = 1) -> tuple[float, int]:
    rng = random.Random(seed)
    players = list(range(1, count + 1))
    team = {player: f"Team {i // 4}" for i, player in enumerate(players[: count // 5])}
    totals = dict.fromkeys(players, 0)
    met = {player: set() for player in players}
    had_bye: set[int] = set()
    for number in (1, 2, 3):
        entrants = [
            PairingEntrant(
                p, "G", team.get(p), totals[p], opponents=frozenset(met[p]), had_bye=p in had_bye
            )
            for p in players
        ]
        started = time.perf_counter()
        pairing = pair_round(entrants, [Group("G", timed)], by_score=number > 1, seed=number)
        took = time.perf_counter() - started
        for table in pairing.tables:
            for player in table:
                totals[player] += rng.randint(250, 500)
                met[player].update(other for other in table if other != player)
        had_bye.update(pairing.byes)
    return took, pairing.repeats


if __name__ == "__main__":
    print("entrants  timed  round 3 ms  repeats")
    for count in (100, 250, 500, 501):
        for timed in (False, True):
            took, repeats = third_round(count, timed)
            print(f"{count:8}  {'yes' if timed else 'no':>5}  {took * 1000:10.1f}  {repeats:7}")
