"""Which rating method suits campus play (issue 33): NASPA's (ratings/naspa.py), openskill's
Plackett–Luce and Glicko-2, rated on the same simulated campus seasons.

The seasons favour no method: each player has a true strength (standard normal); at a game
each seat's score is drawn from a normal law around 380 points plus `--points` times the
strength, spread 60, and the highest score wins (Scrabble's scores, G9's pairings at tables of
three and four). A season has `--periods` rating periods: a league's round (two-seat tables,
one game each), a club's night (tables of three and four, two games), or an event (two-seat
tables, five rounds, rated together, as NASPA rates a tournament). Each player plays 10–30
games; a fifth join after the season has begun.

The metrics: after each season, Spearman's rank correlation between true strength and rating
(what players see: is the list in the right order?), and over every game, the log-loss of the
winner predicted from the ratings before its period (tables of three and four: each pairing).
Pure Python, no database: `python benchmarks/ratings_compare.py` (about a minute); `--help`.
"""

import argparse
import math
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from openskill.models import PlackettLuce  # noqa: E402

from ratings import glicko, naspa  # noqa: E402

KINDS = [("league", 0.6), ("club", 0.25), ("event", 0.15)]


def seasons(args):
    rng = random.Random(args.seed)
    for _ in range(args.seasons):
        yield season(rng, args)


def season(rng, args) -> tuple[list[float], list[list[dict[int, int]]]]:
    """The players' strengths and the periods' tables (each a {player: score})."""
    strength = [rng.gauss(0, 1) for _ in range(args.players)]
    joins = [0 if rng.random() > 0.2 else rng.randint(1, args.periods // 2) for _ in strength]
    wanted = [rng.randint(10, 30) for _ in strength]
    played = [0] * args.players
    periods = []
    for number in range(args.periods):
        kind = rng.choices([k for k, _ in KINDS], [w for _, w in KINDS])[0]
        rounds, seats = {"league": (1, (2,)), "club": (2, (3, 4)), "event": (5, (2,))}[kind]
        left = args.periods - number
        here = [
            p
            for p in range(args.players)
            if joins[p] <= number
            and played[p] < wanted[p]
            and rng.random() < min(1.0, 2 * (wanted[p] - played[p]) / (left * rounds))
        ]
        tables = []
        for _ in range(rounds):
            rng.shuffle(here)
            start = 0
            while len(here) - start >= 2:
                size = min(rng.choice(seats), len(here) - start)
                if size == 1:
                    break
                table = here[start : start + size]
                start += size
                tables.append(
                    {p: round(rng.gauss(380 + args.points * strength[p], 60)) for p in table}
                )
                for p in table:
                    played[p] += 1
        periods.append(tables)
    return strength, periods


# --- The methods: rate one period's tables, predict one pairing, rank the players -----------------


class Naspa:
    name = "NASPA (published)"

    def __init__(self):
        self.rated: dict[int, naspa.Rated] = {}

    def predict(self, a, b):
        ra = self.rated.get(a, naspa.Rated(naspa.NEWCOMER_START, 0)).rating
        rb = self.rated.get(b, naspa.Rated(naspa.NEWCOMER_START, 0)).rating
        return naspa.expected(ra, rb)

    def rate(self, tables):
        pairings = [p for table in tables for p in naspa.table_pairings(table)]
        self.rated.update(naspa.rate_period(pairings, self.rated))

    def rating(self, player):
        return self.rated[player].rating


class Glicko2:
    """Glicko-2 as the site rates (ratings/glicko.py): on NASPA's scale, G9 pairings, a newcomer
    at 1500 ± 350."""

    name = "Glicko-2, start ± 350 (ratings/glicko.py)"
    newcomer = glicko.Rated()

    def __init__(self):
        self.rated: dict[int, glicko.Rated] = {}

    def predict(self, a, b):
        return glicko.expected(self.rated.get(a, self.newcomer), self.rated.get(b, self.newcomer))

    def rate(self, tables):
        pairings = [p for table in tables for p in naspa.table_pairings(table)]
        after = glicko.rate_period(pairings, self.rated, newcomer=self.newcomer)
        for player, rated in self.rated.items():
            if player not in after:
                after[player] = glicko.idle(rated)
        self.rated = after

    def rating(self, player):
        return self.rated[player].rating


class Glicko2AsPublished(Glicko2):
    name = "Glicko-2, start ± 632 (the paper's 350)"
    newcomer = glicko.Rated(deviation=350 * glicko.NASPA_SCALE / glicko.GLICKO_SCALE)


class PlackettLuceByPeriod:
    """openskill's Plackett–Luce, each table rated from the period's opening ratings and the
    changes added up (means) and combined as information (deviations), so that the order of a
    period's games does not matter, as the issue asks of every method."""

    name = "openskill Plackett-Luce, by period"
    narrowing = 1.0  # the starting sigma, times openskill's 25/3

    def __init__(self):
        self.model = PlackettLuce(sigma=25 / 3 * self.narrowing)
        self.players = {}

    def _player(self, p):
        return self.players.setdefault(p, self.model.rating(name=str(p)))

    def predict(self, a, b):
        return self.model.predict_win([[self._player(a)], [self._player(b)]])[0]

    def rate(self, tables):
        mu_change = defaultdict(float)
        information = defaultdict(float)
        for table in tables:
            order = sorted(table)
            teams = [[self.model.rating(mu=self._player(p).mu, sigma=self._player(p).sigma)]
                     for p in order]  # fmt: skip
            rated = self.model.rate(teams, scores=[table[p] for p in order])
            for p, [after] in zip(order, rated, strict=True):
                before = self._player(p)
                mu_change[p] += after.mu - before.mu
                information[p] += 1 / after.sigma**2 - 1 / before.sigma**2
        for p, change in mu_change.items():
            before = self._player(p)
            sigma = 1 / math.sqrt(1 / before.sigma**2 + information[p])
            self.players[p] = self.model.rating(mu=before.mu + change, sigma=sigma)

    def rating(self, player):
        return self.players[player].mu


class PlackettLuceNarrowed(PlackettLuceByPeriod):
    """As above, its starting sigma narrowed as Glicko-2's start was (350 of 632), so that the
    comparison does not favour the method we tuned."""

    name = "openskill Plackett-Luce, by period, σ × 0.55"
    narrowing = 350 / 632


class PlackettLuceByGame(PlackettLuceByPeriod):
    """openskill as it is meant to run, one game after another (reference only: the order of a
    period's games changes the ratings)."""

    name = "openskill Plackett-Luce, game by game"

    def rate(self, tables):
        for table in tables:
            order = sorted(table)
            rated = self.model.rate([[self._player(p)] for p in order],
                                    scores=[table[p] for p in order])  # fmt: skip
            for p, [after] in zip(order, rated, strict=True):
                self.players[p] = after


class Truth:
    """Not a method: the chances from the true strengths, the best any rating could predict."""

    name = "(the truth: true strengths)"
    strength: list[float] = []
    points = 40.0

    def predict(self, a, b):
        difference = self.points * (self.strength[a] - self.strength[b])
        return 0.5 * (1 + math.erf(difference / (60 * math.sqrt(2)) / math.sqrt(2)))

    def rate(self, tables):
        pass

    def rating(self, player):
        return self.strength[player]


METHODS = [
    Naspa,
    Glicko2AsPublished,
    Glicko2,
    PlackettLuceByPeriod,
    PlackettLuceNarrowed,
    PlackettLuceByGame,
    Truth,
]


# --- The metrics -------------------------------------------------------------------------------------


def spearman(xs, ys) -> float:
    def ranks(values):
        order = sorted(range(len(values)), key=values.__getitem__)
        ranked = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                ranked[order[k]] = (i + j) / 2
            i = j + 1
        return ranked

    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    return cov / math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))


def evaluate(method_class, all_seasons):
    correlations, losses, late, seconds = [], [], [], 0.0
    for strength, periods in all_seasons:
        method = method_class()
        Truth.strength = strength
        for number, tables in enumerate(periods):
            for table in tables:
                for p in naspa.table_pairings(table):
                    if p.result == 0.5:
                        continue
                    chance = min(max(method.predict(p.first, p.second), 1e-6), 1 - 1e-6)
                    losses.append(-math.log(chance if p.result == 1 else 1 - chance))
                    if number >= len(periods) // 2:
                        late.append(losses[-1])
            began = time.perf_counter()
            method.rate(tables)
            seconds += time.perf_counter() - began
        seen = sorted({p for tables in periods for table in tables for p in table})
        correlations.append(spearman([strength[p] for p in seen], [method.rating(p) for p in seen]))
    mean = sum(correlations) / len(correlations)
    sd = math.sqrt(sum((c - mean) ** 2 for c in correlations) / (len(correlations) - 1))
    return {
        "name": method_class.name,
        "rho": mean,
        "rhos": correlations,
        "rho_sd": sd,
        "log_loss": sum(losses) / len(losses),
        "late_log_loss": sum(late) / len(late),
        "pairings": len(losses),
        "ms_per_period": 1000 * seconds / sum(len(periods) for _, periods in all_seasons),
    }


def paired(row, chosen) -> str:
    """The method's rank correlation minus the chosen one's, season by season: the mean ± its
    standard error (the same seasons, so the spread between seasons cancels)."""
    if row is chosen:
        return "chosen"
    differences = [a - b for a, b in zip(row["rhos"], chosen["rhos"], strict=True)]
    mean = sum(differences) / len(differences)
    sd = math.sqrt(sum((d - mean) ** 2 for d in differences) / (len(differences) - 1))
    return f"{mean:+.3f} ± {sd / math.sqrt(len(differences)):.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seasons", type=int, default=40, help="simulated seasons (40)")
    parser.add_argument("--players", type=int, default=60, help="players a season (60)")
    parser.add_argument("--periods", type=int, default=12, help="rating periods a season (12)")
    parser.add_argument(
        "--points",
        type=float,
        nargs="+",
        default=[25, 40, 60],
        help="score points per unit of strength: a table for each (25 40 60)",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for points in args.points:
        table(argparse.Namespace(**{**vars(args), "points": points}))


def table(args) -> None:
    all_seasons = list(seasons(args))
    Truth.points = args.points
    games = sorted(
        sum(p in table for tables in periods for table in tables)
        for _, periods in all_seasons
        for p in range(args.players)
    )
    print(
        f"Rating methods on {args.seasons} simulated campus seasons of {args.players} players, "
        f"{args.periods} periods; games a player: {games[0]}–{games[-1]} "
        f"(median {games[len(games) // 2]}); {args.points:.0f} points of score a unit of strength"
    )
    print(
        f"  {'method':44} {'rank correlation':>16} {'− chosen':>15} {'log-loss':>9} "
        f"{'2nd half':>9} {'ms/period':>9}"
    )
    rows = []
    for method_class in METHODS:
        print(f"    {method_class.name} …", end="\r", file=sys.stderr, flush=True)
        rows.append(evaluate(method_class, all_seasons))
    chosen = rows[METHODS.index(Glicko2)]
    for row in rows:
        print(
            f"  {row['name']:44} {row['rho']:>8.3f} ± {row['rho_sd']:.3f} {paired(row, chosen):>15}"
            f" {row['log_loss']:>9.4f} {row['late_log_loss']:>9.4f} {row['ms_per_period']:>9.2f}"
        )
    print(f"  (log-loss over {rows[0]['pairings']} pairings; a coin scores {math.log(2):.4f})")


if __name__ == "__main__":
    main()
