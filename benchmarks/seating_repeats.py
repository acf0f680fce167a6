"""How well club-night seating avoids repeat tablemates: ``python benchmarks/seating_repeats.py [RUNS]``.

For rosters of 10 to 60 players it simulates ten club nights (each night a random 80-100% of the
roster shows up) and seats each night with ``clubs.seating.seat_tables``, the earlier nights as
its history. A *repeat* is a pair at one table tonight who already sat together on any earlier
night. Per roster size it prints, summed over the ten nights and averaged over RUNS seasons
(5 if left out):

- ``repeats``: repeats in our seating;
- ``bound``: a lower bound on the repeats of any seating of each night, given the nights before
  it as we seated them (a bound for that night, not for a whole season seated differently). Each
  night it is the larger of two counts:
    * pairs: the pairs seated tonight (fixed by the table sizes) minus the pairs among tonight's
      players who have never met; no seating can do better;
    * players: a player with only u unmet players present, seated at a table of at least s (the
      smallest table tonight), meets at least s - 1 - u old tablemates; each repeat involves two
      players, so the repeats are at least half the sum of that over tonight's players;
- ``random``: repeats when every night is seated at random (same attendance, its own history);
- time per draw: mean and slowest ``seat_tables`` call.
No database and no Django: the seating module alone.
"""

import random
import sys
import time
from itertools import combinations
from math import comb
from pathlib import Path

# Run as a script from the checkout: the project's packages sit one folder up.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from clubs.seating import count_repeats, seat_tables  # noqa: E402
from league.tables import table_sizes  # noqa: E402

ROSTER_SIZES = (10, 20, 30, 40, 50, 60)
NIGHTS = 10
USAGE = (
    "usage: python benchmarks/seating_repeats.py [RUNS]  (seasons per roster size, 5 if left out)"
)


def _met_pairs(history: list[list[list[int]]]) -> set[frozenset]:
    return {
        frozenset(pair) for night in history for table in night for pair in combinations(table, 2)
    }


def lower_bound(present: list[int], history: list[list[list[int]]]) -> int:
    """Repeats no seating of ``present`` can avoid tonight, given ``history`` (see the module
    docstring: the larger of the pair count and the player count)."""
    sizes = table_sizes(len(present))
    if not sizes:
        return 0
    met = _met_pairs(history)
    here = set(present)
    unmet_pairs = comb(len(present), 2) - sum(1 for pair in met if pair <= here)
    seated_pairs = sum(comb(size, 2) for size in sizes)
    by_pairs = max(0, seated_pairs - unmet_pairs)

    smallest = min(sizes)
    shortfall = 0
    for player in present:
        unmet = sum(
            1 for other in present if other != player and frozenset((player, other)) not in met
        )
        shortfall += max(0, smallest - 1 - unmet)
    by_players = (shortfall + 1) // 2
    return max(by_pairs, by_players)


def random_seating(present: list[int], rng: random.Random) -> list[list[int]]:
    order = list(present)
    rng.shuffle(order)
    tables, start = [], 0
    for size in table_sizes(len(order)):
        tables.append(order[start : start + size])
        start += size
    return tables


def one_season(roster_size: int, season: int) -> dict[str, float]:
    """Ten nights seated by ``seat_tables`` and ten seated at random, with the same attendance."""
    rng = random.Random(roster_size * 1000 + season)
    roster = list(range(1, roster_size + 1))
    ours: list[list[list[int]]] = []
    at_random: list[list[list[int]]] = []
    totals = {"repeats": 0, "bound": 0, "random": 0, "seconds": 0.0, "slowest": 0.0}
    for night in range(NIGHTS):
        present = rng.sample(roster, round(roster_size * rng.uniform(0.8, 1.0)))
        totals["bound"] += lower_bound(present, ours)
        started = time.perf_counter()
        tables = seat_tables(present, history=ours, seed=night).tables
        seconds = time.perf_counter() - started
        totals["seconds"] += seconds
        totals["slowest"] = max(totals["slowest"], seconds)
        totals["repeats"] += count_repeats(tables, ours)
        ours.insert(0, tables)  # history is most recent first

        tables = random_seating(present, rng)
        totals["random"] += count_repeats(tables, at_random)
        at_random.insert(0, tables)
    return totals


def main(argv: list[str]) -> int:
    if len(argv) > 1 or (argv and not argv[0].isdigit()):
        print(USAGE, file=sys.stderr)
        return 2
    runs = int(argv[0]) if argv else 5
    print(f"{NIGHTS} nights, 80-100% of the roster present each night, mean of {runs} seasons")
    print(
        f"{'players':>7}  {'repeats':>7}  {'bound':>7}  {'random':>7}  {'ms/draw':>7}  {'slowest':>7}"
    )
    for roster_size in ROSTER_SIZES:
        seasons = [one_season(roster_size, season) for season in range(runs)]
        mean = {key: sum(s[key] for s in seasons) / runs for key in seasons[0]}
        slowest = max(s["slowest"] for s in seasons)
        print(
            f"{roster_size:>7}  {mean['repeats']:>7.1f}  {mean['bound']:>7.1f}  "
            f"{mean['random']:>7.1f}  {mean['seconds'] / NIGHTS * 1000:>7.1f}  {slowest * 1000:>7.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
