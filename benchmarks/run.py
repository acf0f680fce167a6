"""`make bench`: how fast, how big, how it grows. Prints one table.

1. Builds the large institution once with `seed_demo`'s size options in a throwaway PostgreSQL
   database and keeps it as a template, so every timed run starts from the same data.
2. Times the nightly pipeline at the full size and a tenth of it, several runs each from a fresh
   copy of the template: median, ratio, peak memory, SQL queries.
3. Serves the app with gunicorn (production settings, 2 workers, persistent connections) and
   drives it with wrk for a fixed time per URL, alternating the floor (one trivial query) and a
   page; prints requests per second, p50/p99, and each page's throughput as a share of the floor.
4. Submits results from several processes while the nightly pipeline runs, then checks each
   accepted report is there exactly once and no reported match was forfeited.

Only loopback addresses; every loop bounded; everything started is stopped.
"""

import argparse
import http.client
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
SERVER = "postgres://postgres@127.0.0.1:5432/"
RUN_DB = "bench_run"
BASE_ENV = {
    "SECRET_KEY": "benchmark-only-secret-key-0000000000000000000000000000",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "DEBUG": "false",
    "SECURE_SSL_REDIRECT": "false",
    "REDIS_URL": "redis://127.0.0.1:6379/11",
    "CELERY_QUEUE": f"bench-{os.getpid()}",  # e-mail is queued, never delivered, during the run
    "EMAIL_URL": "console://",
    "CONN_MAX_AGE": "60",
}


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def admin(sql: str, database: str = "postgres") -> None:
    with psycopg.connect(SERVER + database, autocommit=True) as connection:
        connection.execute(sql)


def exists(name: str) -> bool:
    with psycopg.connect(SERVER + "postgres", autocommit=True) as connection:
        return (
            connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
            is not None
        )


def env(database: str, settings: str = "config.settings") -> dict:
    return {
        **os.environ,
        **BASE_ENV,
        "DATABASE_URL": SERVER + database,
        "DJANGO_SETTINGS_MODULE": settings,
    }


def manage(
    database: str, *args: str, capture: bool = False, settings: str = "config.settings"
) -> str:
    result = subprocess.run(
        [PY, "manage.py", *args],
        cwd=ROOT,
        env=env(database, settings),
        check=True,
        text=True,
        stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
        timeout=1800,
    )
    return result.stdout if capture else ""


def drop(name: str) -> None:
    admin(
        f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}' AND pid <> pg_backend_pid()"
    )
    admin(f'DROP DATABASE IF EXISTS "{name}"')


# Bumped when seed_demo makes different data at the same sizes (v2: the club, issue 14; v3: the
# Scrabble Fest, issue 15), so an old template is rebuilt rather than migrated.
DATA_VERSION = "v3"


def template(players: int, leagues: int, matches: int, rebuild: bool) -> str:
    name = f"bench_tpl_{DATA_VERSION}_{players}_{leagues}_{matches}"
    if exists(name) and not rebuild:
        say(f"reusing template {name} (migrating it to this checkout's schema)")
        manage(name, "migrate", "--noinput")
        return name
    drop(name)
    admin(f'CREATE DATABASE "{name}"')
    say(f"building {name}: migrate, then seed_demo (progress below)")
    manage(name, "migrate", "--noinput")
    start = time.perf_counter()
    subprocess.run(
        [
            PY,
            "manage.py",
            "seed_demo",
            "--players",
            str(players),
            "--leagues",
            str(leagues),
            "--matches",
            str(matches),
        ],
        cwd=ROOT,
        env=env(name),
        check=True,
        stdout=subprocess.DEVNULL,
        timeout=1800,
    )
    say(f"built {name} in {time.perf_counter() - start:.0f} s")
    return name


def fresh_copy(template_name: str) -> str:
    drop(RUN_DB)
    admin(f'CREATE DATABASE "{RUN_DB}" TEMPLATE "{template_name}"')
    return RUN_DB


def time_nightly(template_name: str, runs: int) -> dict:
    results = []
    for run in range(runs):
        database = fresh_copy(template_name)
        out = subprocess.run(
            [PY, "benchmarks/nightly_once.py"],
            cwd=ROOT,
            env=env(database),
            check=True,
            text=True,
            capture_output=True,
            timeout=600,
        ).stdout
        results.append(json.loads(out.strip().splitlines()[-1]))
        say(
            f"  nightly run {run + 1}/{runs}: {results[-1]['seconds']} s, {results[-1]['queries']} queries"
        )
    return {
        "median": statistics.median(r["seconds"] for r in results),
        "peak_mb": max(r["peak_mb"] for r in results),
        "queries": results[0]["queries"],
        "summary": results[0]["summary"],
    }


# --- Load -------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


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


# The signed-in pages' people: a student with a typical season (the number of matches nearest
# 12) and the busiest, the director and the front desk; a match of theirs to schedule and one
# reported with a game record.
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
from tests.scrabble_simulate import random_game
from django.db.models import Q
still_open = Q(seats__match__status="unscheduled", seats__match__deadline__gt=timezone.now())
counts = list(
    PlayerProfile.objects.filter(user__email__startswith="student")
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


def load(template_name: str, seconds: int) -> tuple[list[dict], list[float]]:
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
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.3)
        pages = [
            ("standings page", "/leagues/league-2/standings/", None),
            ("bracket page", "/leagues/bench-cup/bracket/", None),
            ("standings.json", "/leagues/league-2/standings.json", None),
            ("club standings (G9)", "/leagues/thursday-club/standings/", None),
            ("event leaderboard (E3)", "/leagues/scrabble-fest/leaderboard/", None),
            ("event.json (E3)", "/leagues/scrabble-fest/event.json", None),
        ] + [
            (name, path, f"sessionid={sessions[who]}", setup["queries"].get(name))
            for name, path, who in setup["pages"]
        ]
        pages = [page if len(page) == 4 else (*page, None) for page in pages]
        for name, path, cookie, _ in pages:
            if cookie:
                require_signed_in(port, path, cookie, name)
            wrk(base + path, 1, cookie)  # warm each worker's connection and caches
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
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


# --- Concurrency -------------------------------------------------------------------------------------

PICK = """
import json
from django.utils import timezone
from matches.models import Match
ids = list(Match.objects.filter(status__in=["unscheduled", "scheduled"], deadline__gt=timezone.now(), seats__order=2).order_by("id").values_list("id", flat=True)[:{count}])
print(json.dumps(ids))
"""

CHECK = """
import json
from django.db.models import Count, Q
from matches.models import Match
ids = json.loads('{ids}')
rows = Match.objects.filter(id__in=ids).annotate(live=Count("reports", filter=Q(reports__status__in=["pending", "confirmed", "disputed"])))
print(json.dumps([[m.id, m.status, m.live] for m in rows]))
"""


def concurrency(template_name: str, count: int, processes: int) -> dict:
    database = fresh_copy(template_name)
    ids = json.loads(
        manage(database, "shell", "-c", PICK.replace("{count}", str(count)), capture=True)
        .strip()
        .splitlines()[-1]
    )
    chunks = [ids[i::processes] for i in range(processes)]
    submitters = [
        subprocess.Popen(
            [PY, "benchmarks/submit_reports.py", *map(str, chunk)],
            cwd=ROOT,
            env=env(database),
            stdout=subprocess.PIPE,
            text=True,
        )
        for chunk in chunks
    ]
    nightly = subprocess.Popen(
        [PY, "manage.py", "run_nightly"],
        cwd=ROOT,
        env=env(database),
        stdout=subprocess.PIPE,
        text=True,
    )
    accepted = []
    for process in submitters:
        out, _ = process.communicate(timeout=600)
        accepted += json.loads(out.strip().splitlines()[-1])["accepted"]
    nightly.communicate(timeout=600)
    state = json.loads(
        manage(database, "shell", "-c", CHECK.replace("{ids}", json.dumps(accepted)), capture=True)
        .strip()
        .splitlines()[-1]
    )
    lost = sum(1 for _, status, live in state if live == 0 or status == "double_forfeit") + (
        len(accepted) - len(state)
    )
    duplicated = sum(1 for _, _, live in state if live > 1) + (len(accepted) - len(set(accepted)))
    return {
        "submitted": len(ids),
        "accepted": len(accepted),
        "lost": lost,
        "duplicated": duplicated,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20000)
    parser.add_argument("--leagues", type=int, default=200)
    parser.add_argument("--matches", type=int, default=200000)
    parser.add_argument("--runs", type=int, default=3, help="nightly runs per size (median)")
    parser.add_argument("--seconds", type=int, default=5, help="wrk duration per URL")
    parser.add_argument(
        "--reports", type=int, default=200, help="results submitted during the night"
    )
    parser.add_argument("--rebuild", action="store_true", help="rebuild the template databases")
    args = parser.parse_args()

    full = template(args.players, args.leagues, args.matches, args.rebuild)
    tenth = template(
        args.players // 10, max(args.leagues // 10, 2), args.matches // 10, args.rebuild
    )
    say("timing the nightly pipeline (full size)")
    big = time_nightly(full, args.runs)
    say("timing the nightly pipeline (a tenth)")
    small = time_nightly(tenth, args.runs)
    say("serving with gunicorn and loading with wrk")
    rows, workers = load(full, args.seconds)
    say("submitting results while the night runs")
    race = concurrency(full, args.reports, 4)
    drop(RUN_DB)

    print()
    print(f"Nightly pipeline ({args.runs} runs each, median; pipeline only, not process start-up)")
    print(
        f"  {'size':<10}{'players':>9}{'leagues':>9}{'matches':>10}{'median s':>10}{'peak MB':>9}{'queries':>9}"
    )
    for label, result, scale in (("full", big, 1), ("a tenth", small, 10)):
        print(
            f"  {label:<10}{args.players // scale:>9}{(args.leagues // scale) or 2:>9}{args.matches // scale:>10}"
            f"{result['median']:>10.2f}{result['peak_mb']:>9.0f}{result['queries']:>9}"
        )
    print(f"  ratio full / tenth: {big['median'] / small['median']:.1f}×   ({big['summary']})")
    print(f"Pages (gunicorn, 2 workers; wrk 2 threads, 8 connections, {args.seconds} s each)")
    print(
        f"  {'url':<24}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'× floor':>9}{'× signed':>9}"
        f"{'queries':>9}{'non-2xx':>9}"
    )
    for row in rows:
        ratio = f"{row['ratio']:.2f}" if "ratio" in row else ""
        signed = f"{row['signed_ratio']:.2f}" if "signed_ratio" in row else ""
        queries = row.get("queries")
        queries = "" if queries is None else str(queries)
        print(
            f"  {row['name']:<24}{row['rps']:>9.0f}{row['p50']:>9.1f}{row['p99']:>9.1f}{ratio:>9}"
            f"{signed:>9}{queries:>9}{row['non_2xx']:>9}"
        )
    print(f"  gunicorn workers after the load: {', '.join(f'{mb:.0f} MB' for mb in workers)}")
    print(
        f"Results submitted during the night: {race['submitted']} submitted, {race['accepted']} accepted"
    )
    print(f"lost={race['lost']} duplicated={race['duplicated']}")


if __name__ == "__main__":
    main()
