"""The pages under load: gunicorn serving the app with the benchmark's settings, wrk driving
each page for a fixed time beside the floor (one trivial query), and the people and pages the
signed-in rows are measured as (SETUP_LOAD, which `profile_pages.py` runs too)."""

import http.client
import json
import re
import socket
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

from harness import PY, ROOT, admin, env, fresh_copy, manage, say


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(port: int, seconds: float = 60) -> None:
    """Until a server listens on the port (or the time is up)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.3)


UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def wrk(url: str, seconds: int, cookie: str | None) -> dict:
    command = [
        "wrk",
        "-t2",
        "-c8",
        f"-d{seconds}s",
        "--timeout",
        "5s",
        "--latency",
        "-H",
        "X-Forwarded-Proto: https",
    ]
    if cookie:
        command += ["-H", f"Cookie: {cookie}"]
    out = subprocess.run(
        command + [url], check=True, text=True, capture_output=True, timeout=seconds + 30
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))

    def percentile(p):
        value, unit = re.search(rf"^\s+{p}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M).groups()
        return float(value) * UNITS[unit]

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {
        "rps": rps,
        "p50": percentile(50),
        "p99": percentile(99),
        "non_2xx": int(errors.group(1)) if errors else 0,
    }


SETUP_LOAD = """
from datetime import timedelta
from django.conf import settings
from importlib import import_module
from accounts.models import PlayerProfile, User
from league.models import Entry, League
from league.refresh import refresh_leagues
league = League.objects.get(slug="league-2")
players = list(Entry.objects.filter(league=league).values_list("player_id", flat=True)[:64])
cup, made = League.objects.get_or_create(slug="bench-cup", defaults=dict(season=league.season, name="Bench Cup", format="single_elimination", venue="Games Room", capacity=64))
if made:
    Entry.objects.bulk_create([Entry(league=cup, player_id=p, seed=i + 1) for i, p in enumerate(players)])
    refresh_leagues([cup.pk], today=league.season.registration_deadline + timedelta(days=1), build_brackets=True)

def session_of(user):
    # The app's own session engine: a session written elsewhere would not sign anyone in.
    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = settings.AUTHENTICATION_BACKENDS[0]
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    return session.session_key


# The signed-in pages' people: students of the demo institution (at ten times the data, the
# 60,000-student campus), one with a typical season (the number of matches nearest 12) and the
# busiest, the director and the front desk; a match of theirs to schedule and one reported with
# a game record.
import json, random
from django.db.models import Count
from django.utils import timezone
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.db import connection
from matches.models import Match, MatchStatus
from matches.services import report_submit
from matches.game_records import SeatName, compare_with_report, read_record
from matches.scrabble.gcg_writer import write_gcg
from tests.matches.scrabble_simulate import random_game
from django.db.models import Q
still_open = Q(seats__match__status="unscheduled", seats__match__deadline__gt=timezone.now())
counts = list(
    PlayerProfile.objects.filter(user__email__startswith="student")
    .filter(user__email__endswith="@example.edu")
    .annotate(n=Count("seats"), still_open=Count("seats", filter=still_open))
    .filter(n__gt=0).order_by("n", "pk").values_list("pk", "n", "still_open")
)
# Two matches still to schedule: one stays so, the other is reported with a record.
typical = min((row for row in counts if row[2] >= 2), key=lambda row: (abs(row[1] - 12), row[0]))
busiest = counts[-1]
student = PlayerProfile.objects.select_related("user").get(pk=typical[0])
busy = PlayerProfile.objects.select_related("user").get(pk=busiest[0])
director = User.objects.get(email="director@example.edu")
desk = User.objects.get(email="frontdesk@example.edu")
open_matches = Match.objects.filter(
    seats__player=student, status=MatchStatus.UNSCHEDULED, deadline__gt=timezone.now()
).order_by("pk")
to_schedule = open_matches.first()
recorded = Match.objects.filter(reports__game_record__gt="", seats__player=student).first()
if recorded is None:
    recorded = open_matches.exclude(pk=to_schedule.pk).first()
    seats = list(recorded.seats.order_by("order").select_related("player__user"))
    names = [SeatName(s.player.name, s.player.first_name, s.player.user.email) for s in seats]
    for seed in range(200):
        text = write_gcg(random_game(random.Random(seed)))
        if "#incomplete" in text:
            continue
        parsed = read_record(text)
        found = compare_with_report(*parsed, league_rule=recorded.league.end_of_game_rule, seats=names, reported=[0, 0], reporter=0, challenge_rule=recorded.league.challenge_rule)
        if not found.problems and found.totals[0] > found.totals[1]:
            break
    report_submit(actor=seats[0].player.user, match=recorded, scores=found.totals, game_record=text)
league_slug = Match.objects.filter(seats__player=student).values_list("league__slug", flat=True).first()
sessions = {
    "student": session_of(student.user),
    "busy": session_of(busy.user),
    "director": session_of(director),
    "desk": session_of(desk),
}
pages = [
    ("signed-in floor", "/bench/floor-signed-in/", "student"),
    ("signed-in frame", "/bench/frame-signed-in/", "student"),
    (f"my matches ({typical[1]})", "/", "student"),
    (f"my matches ({busiest[1]})", "/", "busy"),
    ("leagues list", "/leagues/", "student"),
    ("profile", "/profile/", "student"),
    ("match to schedule", to_schedule.get_absolute_url(), "student"),
    ("match with record", recorded.get_absolute_url(), "student"),
    ("front desk lookup", f"/desk/?campus_id={student.campus_id}", "desk"),
    ("director dashboard", "/director/", "director"),
    ("league queues", f"/director/leagues/{league_slug}/", "director"),
    ("dispute queue", "/director/disputes/", "director"),
    ("dispute list (admin)", "/admin/matches/dispute/?state=open", "director"),
]
users = {"student": student.user, "busy": busy.user, "director": director, "desk": desk}
queries = {}
for name, path, who in pages:
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(users[who])
    client.get(path)  # the first request warms what the process keeps
    with CaptureQueriesContext(connection) as captured:
        status = client.get(path).status_code
    assert status == 200, (path, status)
    queries[name] = len(captured)
print(json.dumps({"sessions": sessions, "pages": pages, "queries": queries}))
"""


def worker_rss_mb(master_pid: int) -> list[float]:
    children = subprocess.run(
        ["pgrep", "-P", str(master_pid)], text=True, capture_output=True
    ).stdout.split()
    sizes = []
    for pid in children:
        status = Path(f"/proc/{pid}/status").read_text()
        sizes.append(int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) / 1024)
    return sizes


def require_signed_in(port: int, path: str, cookie: str, name: str) -> None:
    """A signed-in row must be measured signed in: wrk counts a redirect to the login page as a
    success, so one plain request checks the page answers 200 to its session first."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path, headers={"Cookie": cookie, "X-Forwarded-Proto": "https"})
        status = connection.getresponse().status
    finally:
        connection.close()
    if status != 200:
        raise SystemExit(f"{name} ({path}) answered {status} to its session, not 200")


@contextmanager
def served(template_name: str):
    """A fresh copy of the template served by gunicorn (production settings, 2 workers), its
    pages set up and warmed: yields (the base URL, the pages as (name, path, cookie, queries),
    the gunicorn master process, the database's name). Stopped on the way out."""
    database = fresh_copy(template_name)
    manage(database, "collectstatic", "--noinput")  # production settings serve a manifest
    manage(database, "run_nightly")  # standings as the pages will find them
    # A live database's autovacuum has marked the settled rows visible to every transaction,
    # which lets PostgreSQL count from an index alone; a bulk-loaded copy has not, and made
    # each count fetch every row it counted (the dashboard's open matches: 8,673 fetches).
    admin("VACUUM (ANALYZE)", database)
    setup = json.loads(
        manage(database, "shell", "-c", SETUP_LOAD, capture=True, settings="benchmarks.settings")
        .strip()
        .splitlines()[-1]
    )
    sessions = setup["sessions"]
    port = free_port()
    server = subprocess.Popen(
        [
            PY,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--workers",
            "2",
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env(database, "benchmarks.settings"),
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(port)
        pages = [
            ("standings page", "/example-state/leagues/league-2/standings/", None),
            ("bracket page", "/example-state/leagues/bench-cup/bracket/", None),
            ("standings.json", "/example-state/leagues/league-2/standings.json", None),
            ("club standings (G9)", "/example-state/leagues/scrabble-club/standings/", None),
            ("event leaderboard (E3)", "/example-state/leagues/scrabble-fest/leaderboard/", None),
            ("event.json (E3)", "/example-state/leagues/scrabble-fest/event.json", None),
        ] + [
            (name, path, f"sessionid={sessions[who]}", setup["queries"].get(name))
            for name, path, who in setup["pages"]
        ]
        pages = [page if len(page) == 4 else (*page, None) for page in pages]
        for name, path, cookie, _ in pages:
            if cookie:
                require_signed_in(port, path, cookie, name)
            wrk(base + path, 1, cookie)  # warm each worker's connection and caches
        yield base, pages, server, database
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


def load(template_name: str, seconds: int) -> tuple[list[dict], list[float]]:
    with served(template_name) as (base, pages, server, _):
        rows = []
        floor_before = wrk(base + "/bench/floor/", seconds, None)
        rows.append({"name": "floor", **floor_before})
        signed_in_floor = None
        for name, path, cookie, queries in pages:
            result = wrk(base + path, seconds, cookie)
            floor_after = wrk(base + "/bench/floor/", seconds, None)
            beside = (floor_before["rps"] + floor_after["rps"]) / 2
            row = {"name": name, **result, "ratio": result["rps"] / beside, "queries": queries}
            if name == "signed-in floor":
                signed_in_floor = row
            elif cookie and signed_in_floor:
                # Beside the signed-in floor as measured in this run, scaled by the floor now.
                row["signed_ratio"] = row["ratio"] / signed_in_floor["ratio"]
            rows.append(row)
            rows.append({"name": "floor", **floor_after})
            floor_before = floor_after
            say(f"  {name}: {result['rps']:.0f} req/s, {result['rps'] / beside:.2f}× the floor")
        return rows, worker_rss_mb(server.pid)
