"""How many SQL queries each page runs, at two sizes of the demo, for one checkout.

    python benchmarks/page_queries.py [--checkout PATH] [--sizes 60,600]

Builds the demo (`seed_demo --players N`) once per size in a throwaway PostgreSQL database
with PATH's own code (default: this checkout) and prints, per page, the queries of its second
request (the first warms what the process keeps), one JSON object per size. Pages are named the
same whatever the checkout: a league's address is written by the checkout's own `reverse()`, so
a commit from before campus addresses can be counted beside one after (issue 50).
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

from harness import admin, drop, env, say

ROOT = Path(__file__).resolve().parent.parent

COUNT = r"""
import json
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch, reverse
from accounts.models import User
from league.models import League, Round

def address(name, league, *rest):
    try:
        return reverse(name, args=[league, *rest])
    except NoReverseMatch:  # a checkout from before campus addresses
        return reverse(name, args=[league.slug, *rest])

league = League.objects.select_related("season__institution").filter(format="league").order_by("pk").first()
fest = League.objects.select_related("season__institution").get(slug="scrabble-fest")
club = League.objects.select_related("season__institution").get(slug="scrabble-club")
night = Round.objects.filter(league=club).order_by("-number").first().number
pages = [
    ("home (visitor)", "/", None),
    ("league page", address("league_detail", league), None),
    ("standings", address("league_standings", league), None),
    ("standings.json", address("league_standings_json", league), None),
    ("bracket", address("league_bracket", league), None),
    ("calendar", address("league_calendar", league), None),
    ("event page", address("league_detail", fest), None),
    ("leaderboard", address("event_leaderboard", fest), None),
    ("event.json", address("event_json", fest), None),
    ("round pairings", address("event_round", fest, 2), None),
    ("table", address("event_table", fest, 1, 1), None),
    ("home (student)", "/", "student"),
    ("leagues list", "/leagues/", "student"),
    ("door", address("event_desk", fest), "frontdesk"),
    ("scoring table", address("event_scores", fest, 2), "frontdesk"),
    ("club night", address("club_night", club, night), "frontdesk"),
    ("director dashboard", "/director/", "director"),
    ("league queues", f"/director/leagues/{league.slug}/", "director"),
]
people = {
    "student": User.objects.filter(email__startswith="student").order_by("pk").first(),
    "frontdesk": User.objects.get(email="frontdesk@example.edu"),
    "director": User.objects.get(email="director@example.edu"),
}
counts = {}
for name, path, who in pages:
    client = Client(HTTP_HOST="127.0.0.1")
    if who:
        client.force_login(people[who])
    client.get(path)
    with CaptureQueriesContext(connection) as captured:
        status = client.get(path).status_code
    counts[name] = len(captured) if status == 200 else f"status {status}"
print(json.dumps(counts))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", type=Path, default=ROOT)
    parser.add_argument("--sizes", default="60,600")
    args = parser.parse_args()
    python = str(args.checkout / ".venv" / "bin" / "python")
    for size in args.sizes.split(","):
        database = f"page_queries_{size}"
        drop(database)
        admin(f"CREATE DATABASE {database}")
        try:
            # DEBUG: static files from the folders, no manifest to collect first.
            run = {"cwd": args.checkout, "env": {**env(database), "DEBUG": "true"}, "check": True}
            say(f"{args.checkout}: the demo with {size} players")
            subprocess.run([python, "manage.py", "migrate", "-v0"], **run)
            subprocess.run([python, "manage.py", "createcachetable"], **run)
            subprocess.run(
                [python, "manage.py", "seed_demo", "--players", size],
                **run,
                stdout=subprocess.DEVNULL,
            )
            found = subprocess.run(
                [python, "manage.py", "shell", "-c", COUNT],
                **{**run, "check": False},
                capture_output=True,
                text=True,
            )
            if found.returncode:
                sys.exit(found.stderr)
            # The last line: seeding or a warning may have printed before it.
            counts = json.loads(found.stdout.strip().splitlines()[-1])
            print(json.dumps({"players": int(size), "queries": counts}))
        finally:
            drop(database)


if __name__ == "__main__":
    sys.exit(main())
