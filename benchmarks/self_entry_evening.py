"""A simulated evening of players entering their own cards (S1–S5; issue 32's target: one
operator is enough for 1,000 players).

1. Builds the event with the project's own commands in a throwaway PostgreSQL database (a
   new database, migrated): `create_event` ("self_entry": true, two-seat tables, three
   rounds whose periods were yesterday, so each round's time is up when its cards come in, as
   at the end of a round), `import_entrants` (1,000 guests), `pair_round`.
2. Serves it with gunicorn (production settings, 2 workers, persistent connections) and a
   Celery worker running beat (the card count every 30 s, the refresh sweep every 2 s), and plays
   each round's end as a hall does: every table's card entered and confirmed within the same
   60 seconds, through the public table page (GET it for the CSRF token and the card to
   confirm, POST, follow the redirect), each phone its own cookie jar, at most `--clients`
   requests in flight. Each guest proves their seat with their own slip (S4): their phone opened
   the slip's link once, before the first round's end (as at the door), and keeps it all
   evening. Each table's entry comes at a random moment of the window and the other
   seat's confirmation a few seconds later; at 5% of tables the other seat enters a
   different version instead (a conflict); at 3% nobody enters.
3. The operator (the director, signed in) reads the scoring table's page, must find exactly
   the conflicts and the missing tables there, counts one version of each conflict, closes the
   round (the missing tables become double forfeits) and pairs the next round (`pair_round`).
4. Checks that no acknowledged card was lost and none counted twice, and times the entry and
   confirmation requests, and how long after the last card (and after the operator's close)
   the stored event.json shows the round's scores.

Run: `python benchmarks/self_entry_evening.py` (at the default size about 6 minutes here);
`--help` for the sizes.
One table on standard output, progress on standard error. Only loopback addresses; every wait
bounded; everything started is stopped, and the database dropped unless `--keep`.
"""

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from evening_checks import check_cards, operate, percentile
from evening_hall import (
    SLUG,
    Phone,
    plan_round,
    play_burst,
    until_shown,
)
from harness import PY, ROOT, admin, drop, env, manage, say
from pages import free_port

sys.path.insert(0, str(ROOT))

# Its own database, named after the process: two evenings run at once never meet.
DATABASE = f"bench_self_entry_{os.getpid()}"

SETUP = """
import json
from datetime import date, timedelta
from importlib import import_module
from django.conf import settings
from django.contrib.auth.models import Group
from accounts import roles
from accounts.models import Institution, PlayerProfile, Season, User
roles.sync_groups()
school = Institution.objects.create(
    slug="example-state", name="Example State University", email_domains="example.edu",
    campus_id_pattern=r"\\d{7}", campus_id_hint="seven digits", timezone="America/Chicago",
    default_venue="Student Union, Games Room", front_desk_location="the front desk",
)
today = school.today()
Season.objects.create(
    institution=school, name="Fall term", slug="fall", starts_on=today - timedelta(days=30),
    ends_on=today + timedelta(days=60), registration_deadline=today + timedelta(days=5),
)
director = User.objects.create_user(
    email="director@example.edu", password=None, first_name="Dana", last_name="Director",
    is_staff=True,
)
PlayerProfile.objects.create(user=director, institution=school, campus_id="")
director.groups.add(Group.objects.get(name=roles.DIRECTORS))
session = import_module(settings.SESSION_ENGINE).SessionStore()
session["_auth_user_id"] = str(director.pk)
session["_auth_user_backend"] = settings.AUTHENTICATION_BACKENDS[0]
session["_auth_user_hash"] = director.get_session_auth_hash()
session.create()
print(json.dumps({"yesterday": (today - timedelta(days=1)).isoformat(),
                  "session": session.session_key}))
"""

# --- The database and the server -------------------------------------------------------------------


def fresh_database() -> None:
    drop(DATABASE)
    admin(f'CREATE DATABASE "{DATABASE}"')
    manage(DATABASE, "migrate", "--noinput")


def build_event(entrants: int, rounds: int, seed: int) -> dict:
    """The institution, its director (a session to sign in with) and the event, through the
    project's commands; round 1 paired."""
    setup = json.loads(
        manage(DATABASE, "shell", "-c", SETUP, capture=True).strip().splitlines()[-1]
    )
    event = {
        "name": "Self-entry Evening",
        "slug": SLUG,
        "format": "event",
        "date": setup["yesterday"],
        "seats_per_table": 2,
        "self_entry": True,
        "rounds": [
            {"number": n, "periods": [{"starts": f"{17 + n}:00", "minutes": 50}]}
            for n in range(1, rounds + 1)
        ],
    }
    with tempfile.TemporaryDirectory() as folder:
        settings_file = Path(folder, "evening.json")
        settings_file.write_text(json.dumps(event))
        guests = Path(folder, "guests.csv")
        guests.write_text(
            "name,campus_id\n" + "".join(f"Guest {n},\n" for n in range(1, entrants + 1))
        )
        manage(DATABASE, "create_event", str(settings_file), "--institution", "example-state",
               "--season", "fall")  # fmt: skip
        manage(DATABASE, "import_entrants", str(guests), "--league", SLUG)
    manage(DATABASE, "pair_round", "--league", SLUG, "--all-entrants", "--seed", str(seed))
    return setup


def serve() -> tuple[subprocess.Popen, int]:
    port = free_port()
    server = subprocess.Popen(
        [PY, "-m", "gunicorn", "config.wsgi:application", "--workers", "2", "--bind",
         f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT,
        env=env(DATABASE, "benchmarks.settings"),
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server, port
        except OSError:
            time.sleep(0.3)
    server.kill()
    raise SystemExit("gunicorn did not start within 60 s")


def celery_worker(log: Path) -> subprocess.Popen:
    """The deployment's worker with beat inside it (one process, so the run costs what a small
    deployment's does): it counts confirmed cards every 30 s and sweeps the refreshes a burst
    left wanted and the pages of counted cards every 2 s. Its output goes to `log`."""
    with log.open("w") as out:
        return subprocess.Popen(
            [PY, "-m", "celery", "-A", "config", "worker", "--beat", "--pool", "solo",
             "--loglevel", "warning"],
            cwd=ROOT,
            env=env(DATABASE),
            stdout=out,
            stderr=subprocess.STDOUT,
        )  # fmt: skip


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


# --- The evening ------------------------------------------------------------------------------------


def evening(args) -> list[dict]:
    """The evening in its own database, dropped afterwards unless `--keep`."""
    fresh_database()
    try:
        return rounds(args)
    finally:
        if not args.keep:
            if "django" in sys.modules:
                from django.db import connections

                connections.close_all()
            drop(DATABASE)


def rounds(args) -> list[dict]:
    say(f"building the event: {args.entrants} guests, {args.rounds} rounds")
    setup = build_event(args.entrants, args.rounds, args.seed)
    manage(DATABASE, "collectstatic", "--noinput")  # production settings serve a manifest
    admin("VACUUM (ANALYZE)", DATABASE)
    os.environ.update(env(DATABASE))
    import django

    django.setup()
    from matches.models import Match, MatchStatus

    rng = random.Random(args.seed)
    server, port = serve()
    worker = celery_worker(Path(tempfile.gettempdir(), f"{DATABASE}-worker.log"))
    rows = []
    try:
        Phone(port).request("GET", f"/example-state/leagues/{SLUG}/event.json")  # both workers up
        Phone(port).request("GET", f"/example-state/leagues/{SLUG}/rounds/1/tables/1/")
        for number in range(1, args.rounds + 1):
            tables = plan_round(number, rng, args.conflicts, args.missing)
            say(f"round {number}: {len(tables)} tables, the burst ({args.window:.0f} s)")
            burst = play_burst(port, number, tables, args, rng)
            # The last card counted: the latest confirmation acknowledged.
            confirmed = [t for t in tables if t.confirmed]
            expected = {t.number for t in confirmed}
            last_tap = max((t.confirm_started for t in confirmed), default=0.0)
            fresh = until_shown(port, number, expected, burst.start + last_tap)
            checks = check_cards(number, tables)
            say(f"round {number}: the operator")
            operator = operate(port, setup["session"], number, tables)
            played = {t.number for t in tables if t.entered_at is not None}
            after_close = until_shown(port, number, played, operator["closing"])
            forfeits = Match.objects.filter(
                round__league__slug=SLUG, round__number=number, status=MatchStatus.DOUBLE_FORFEIT
            ).count()
            # Once settled and closed, every acknowledged card must have counted as entered.
            closed = check_cards(number, tables)
            lost = set(checks["lost"]) | set(closed["lost"])
            pairing = None
            if number < args.rounds:
                begun = time.perf_counter()
                manage(DATABASE, "pair_round", "--league", SLUG, "--seed", str(args.seed + number))
                pairing = time.perf_counter() - begun
            rows.append(
                {
                    "round": number,
                    "tables": len(tables),
                    "entered": sum(t.entered_at is not None for t in tables),
                    "conflicts": sum(t.disagreed for t in tables),
                    "missing": sum(t.entered_at is None for t in tables),
                    "lost": len(lost),
                    "twice": max(checks["twice"], closed["twice"]),
                    "refused": burst.refusals,
                    "exact": operator["exact"],
                    "seen": operator["seen"],
                    "forfeits": forfeits,
                    "entry": (percentile(burst.entry, 50), percentile(burst.entry, 99)),
                    "confirm": (percentile(burst.confirm, 50), percentile(burst.confirm, 99)),
                    "requests": len(burst.entry) + len(burst.confirm),
                    "tap_entry": (percentile(burst.tap_entry, 50), percentile(burst.tap_entry, 99)),
                    "tap_confirm": (
                        percentile(burst.tap_confirm, 50),
                        percentile(burst.tap_confirm, 99),
                    ),
                    "burst_s": burst.last,
                    "lateness": percentile(burst.lateness, 99) / 1000,
                    "fresh": fresh,
                    "after_close": after_close,
                    "actions": operator["actions"] + (1 if pairing is not None else 0),
                    "read_ms": operator["read_ms"],
                    "count_ms": operator["count_ms"],
                    "pairing_s": pairing,
                }
            )
            say(f"round {number}: {json.dumps(rows[-1], default=str)}")
    finally:
        stop(worker)
        stop(server)
    return rows


def seconds(value: float | None) -> str:
    return "never" if value is None else f"{value:.2f}"


def report(rows: list[dict], args) -> None:
    print(
        f"Self-entry evening: {args.entrants} entrants at two-seat tables, {args.rounds} rounds; "
        f"each round's cards within {args.window:.0f} s, {args.clients} clients "
        f"(gunicorn, 2 workers; a Celery worker with beat); {args.conflicts:.0%} of tables disagree, {args.missing:.0%} "
        "never enter"
    )
    print(
        "  round  tables  entered  conflicts  missing  lost  counted twice  operator sees  "
        "operator actions"
    )
    for row in rows:
        seen = row["seen"]
        sees = f"{len(seen['conflicts'])} + {len(seen['missing'])}"
        sees += ", exact" if row["exact"] else ", NOT the expected tables"
        print(
            f"  {row['round']:5}  {row['tables']:6}  {row['entered']:7}  {row['conflicts']:9}  "
            f"{row['missing']:7}  {row['lost']:4}  {row['twice']:13}  {sees:13}  "
            f"{row['actions']:16}"
        )
    print(
        "  round  entry POST ms  confirm POST ms  tap→answer s: entry  confirm  burst s  "
        "last card → event.json s  close → event.json s"
    )
    for row in rows:
        print(
            f"  {row['round']:5}  {row['entry'][0]:5.0f} / {row['entry'][1]:5.0f}  "
            f"{row['confirm'][0]:6.0f} / {row['confirm'][1]:5.0f}  "
            f"{row['tap_entry'][0] / 1000:11.1f} / {row['tap_entry'][1] / 1000:4.1f}  "
            f"{row['tap_confirm'][0] / 1000:3.1f} / {row['tap_confirm'][1] / 1000:4.1f}  "
            f"{row['burst_s']:7.1f}  {seconds(row['fresh']):>24}  "
            f"{seconds(row['after_close']):>20}"
        )
    print("  (POST: p50 / p99 of the request alone; tap→answer: from the moment it was due)")
    refused = [r for row in rows for r in row["refused"]]
    reads = ", ".join(f"{row['read_ms']:.0f}" for row in rows)
    counts = ", ".join(f"{row['count_ms']:.0f}" for row in rows)
    pairings = ", ".join(f"{row['pairing_s']:.1f}" for row in rows if row["pairing_s"])
    print(
        f"  refused or failed requests: {len(refused)}"
        + (f" (first: {refused[:5]})" if refused else "")
        + f"; double forfeits: {', '.join(str(row['forfeits']) for row in rows)}"
        + f"\n  the scoring page read in {reads} ms; a conflict counted in {counts} ms (median);"
        + f" the next round paired by pair_round in {pairings or '-'} s (with process start-up);"
        + f" actions started up to {max(row['lateness'] for row in rows):.1f} s late (p99)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=1000, help="guests (default 1000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    parser.add_argument(
        "--window", type=float, default=60.0, help="seconds every card comes in (default 60)"
    )
    parser.add_argument(
        "--clients", type=int, default=24, help="requests in flight at most (default 24)"
    )
    parser.add_argument(
        "--conflicts", type=float, default=0.05, help="share of tables disagreeing (0.05)"
    )
    parser.add_argument(
        "--missing", type=float, default=0.03, help="share of tables never entering (0.03)"
    )
    parser.add_argument("--seed", type=int, default=1, help="the evening's draw (default 1)")
    parser.add_argument("--keep", action="store_true", help=f"keep the database {DATABASE}")
    args = parser.parse_args()
    args.confirm_after = (3.0, 8.0)
    if args.entrants < 4 or args.rounds < 1 or args.window <= args.confirm_after[1]:
        parser.error("at least 4 entrants, 1 round and a window longer than 8 s")
    report(evening(args), args)


if __name__ == "__main__":
    main()
