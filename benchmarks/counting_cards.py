"""What counting one card costs at an event of 40 entrants and of 1,000 (issue 49): the server's
time from the card's transaction to its players' standings rows and ranks stored
(``events.services.card_enter`` and what follows its commit, ``league.refresh.count_cards``),
and, apart, the render of the stored pages that beat's sweep does for every card counted
meanwhile (``league.refresh.render_wanted_pages``).

Builds both events with the project's commands (`create_event`, `import_entrants`,
`pair_round`) in a throwaway PostgreSQL database, then counts `--cards` cards at each size,
alternately (so a busy machine slows both alike), as the web process does with a worker
running (production settings: the pages are left to the sweep). Prints one table: the median
and p90 of a card at each size, their ratio (the target: at most 1.5), and a render at each size.

Run: `python benchmarks/counting_cards.py` (about two minutes here); `--keep` keeps the database.
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from harness import ROOT, admin, drop, env, manage, say
from self_entry_evening import SETUP

sys.path.insert(0, str(ROOT))

DATABASE = f"bench_counting_{os.getpid()}"
SIZES = {"small": 40, "large": 1000}


def build() -> None:
    drop(DATABASE)
    admin(f'CREATE DATABASE "{DATABASE}"')
    manage(DATABASE, "migrate", "--noinput")
    setup = json.loads(
        manage(DATABASE, "shell", "-c", SETUP, capture=True).strip().splitlines()[-1]
    )
    categories = ["Competitive", "Just for Fun", "Corporate Team"]
    for slug, entrants in SIZES.items():
        event = {
            "name": f"Counting {slug}",
            "slug": slug,
            "format": "event",
            "date": setup["yesterday"],
            "seats_per_table": 2,
            "team_size": 4,
            "rounds": [{"number": 1, "periods": [{"starts": "18:00", "minutes": 50}]}],
            "categories": [
                {"name": name, "pairing_group": name, "turn_seconds": None} for name in categories
            ],
            "champion_category": "Competitive",
        }
        rows = ["name,category,team"]
        for n in range(entrants):
            category = categories[n % 3]
            team = f"Team {n // 9}" if category == "Corporate Team" else ""
            rows.append(f"Guest {n},{category},{team}")
        with tempfile.TemporaryDirectory() as folder:
            settings_file = Path(folder, "event.json")
            settings_file.write_text(json.dumps(event))
            guests = Path(folder, "guests.csv")
            guests.write_text("\n".join(rows) + "\n")
            manage(DATABASE, "create_event", str(settings_file), "--institution",
                   "example-state", "--season", "fall")  # fmt: skip
            manage(DATABASE, "import_entrants", str(guests), "--league", slug)
        manage(DATABASE, "pair_round", "--league", slug, "--all-entrants", "--seed", "7")
    admin("VACUUM (ANALYZE)", DATABASE)


def measure(cards: int) -> dict:
    os.environ.update(env(DATABASE))
    import django

    django.setup()
    from accounts.models import User
    from events.models import RoundStartedEarly
    from events.services import card_enter
    from league.models import League
    from league.refresh import render_wanted_pages
    from matches.models import Match, MatchStatus

    director = User.objects.get(email="director@example.edu")
    tables, leagues = {}, {}
    for slug in SIZES:
        league = leagues[slug] = League.objects.get(slug=slug)
        for round_ in league.rounds.all():
            RoundStartedEarly.objects.get_or_create(round=round_)
        tables[slug] = list(
            Match.objects.filter(league=league)
            .exclude(status=MatchStatus.BYE)
            .order_by("table")[: cards + 1]
        )
    times = {slug: [] for slug in SIZES}
    for index in range(cards + 1):
        for slug in SIZES:
            match = tables[slug][index]
            scores = [300 + index % 90, 350, 320][: match.seats.count()]  # a table of 3 too
            actor = User.objects.get(pk=director.pk)
            started = time.perf_counter()
            card_enter(actor=actor, match=match, scores=scores)
            if index:  # the first warms the process up
                times[slug].append(time.perf_counter() - started)
    renders = {}
    for slug in SIZES:
        started = time.perf_counter()
        render_wanted_pages([leagues[slug].pk])
        renders[slug] = time.perf_counter() - started
    return {"times": times, "renders": renders}


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cards", type=int, default=18, help="cards counted at each size (the 40 have 20 tables)"
    )
    parser.add_argument("--keep", action="store_true", help="keep the database")
    args = parser.parse_args()
    say(f"building two events ({SIZES['small']} and {SIZES['large']} entrants)")
    try:
        build()
        result = measure(args.cards)
    finally:
        if not args.keep:
            if "django" in sys.modules:
                from django.db import connections

                connections.close_all()
            drop(DATABASE)
    times, renders = result["times"], result["renders"]
    median = {slug: statistics.median(values) for slug, values in times.items()}
    print("entrants\tcard median ms\tcard p90 ms\tpages render ms")
    for slug, entrants in SIZES.items():
        print(
            f"{entrants}\t{median[slug] * 1000:.1f}\t{percentile(times[slug], 0.9) * 1000:.1f}"
            f"\t{renders[slug] * 1000:.0f}"
        )
    print(f"ratio 1000/40 (median)\t{median['large'] / median['small']:.2f}")


if __name__ == "__main__":
    main()
