"""A simulated evening of players entering their own cards (S1–S5; issue 32's target: one
operator is enough for 1,000 players).

1. Builds the event with the project's own commands in a throwaway PostgreSQL database (a
   new database, migrated): `create_event` ("self_entry": true, two-seat tables, three
   rounds whose periods were yesterday, so each round's time is up when its cards come in, as
   at the end of a round), `import_entrants` (1,000 guests), `pair_round`.
2. Serves it with gunicorn (production settings, 2 workers, persistent connections) and plays
   each round's end as a hall does: every table's card entered and confirmed within the same
   60 seconds, through the public table page (GET it for the CSRF token and the card to
   confirm, POST, follow the redirect), each phone its own cookie jar, at most `--clients`
   requests in flight. Guests prove their seats with their seat codes, computed here with
   `events.seat_codes.code_of` (the server's secret key): in a hall they read them off the
   printed card. Each table's entry comes at a random moment of the window and the other
   seat's confirmation a few seconds later; at 5% of tables the other seat enters a
   different version instead (a conflict); at 3% nobody enters.
3. The operator (the director, signed in) reads the scoring table's page, must find exactly
   the conflicts and the missing tables there, counts one version of each conflict, closes the
   round (the missing tables become double forfeits) and pairs the next round (`pair_round`).
4. Checks that no acknowledged card was lost and none counted twice, and times the entry and
   confirmation requests, and how long after the last card (and after the operator's close)
   the stored event.json shows the round's scores.

Run: `python benchmarks/self_entry_evening.py` (at the default size about 16 minutes here, most of
it the backlog the README's Performance section explains); `--help` for the sizes.
One table on standard output, progress on standard error. Only loopback addresses; every wait
bounded; everything started is stopped, and the database dropped unless `--keep`.
"""

import argparse
import heapq
import http.client
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from harness import PY, ROOT, admin, drop, env, manage, say
from pages import free_port

sys.path.insert(0, str(ROOT))

# Its own database, named after the process: two evenings run at once never meet.
DATABASE = f"bench_self_entry_{os.getpid()}"
SLUG = "evening"

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


# --- A phone: its own cookies, HTTPS as the proxy says -------------------------------------------


class Phone:
    """One browser: its cookie jar, and requests as they reach the app behind its proxy."""

    def __init__(self, port: int, cookies: dict | None = None):
        self.port = port
        self.cookies = dict(cookies or {})

    def request(self, method: str, path: str, data: dict | None = None):
        headers = {
            "Host": f"127.0.0.1:{self.port}",
            "X-Forwarded-Proto": "https",
            "User-Agent": "self-entry-evening",
        }
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = f"https://127.0.0.1:{self.port}"
            headers["Referer"] = f"https://127.0.0.1:{self.port}{path}"
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
        finally:
            connection.close()
        for header in response.msg.get_all("Set-Cookie") or []:
            jar = SimpleCookie()
            jar.load(header)
            for name, morsel in jar.items():
                self.cookies[name] = morsel.value
        return response.status, response.getheader("Location", ""), text

    def form_post(self, page: str, action: str, data: dict):
        """GET the page (its CSRF token), POST the form; the POST alone is timed. A redirect
        is followed, as the phone's browser does."""
        status, _, html = self.request("GET", page)
        if status != 200:
            return status, 0.0, html
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
        fill = data(html) if callable(data) else data
        if fill is None:
            return None, 0.0, html
        started = time.perf_counter()
        status, location, answer = self.request(
            "POST", action, {"csrfmiddlewaretoken": token, **fill}
        )
        took = time.perf_counter() - started
        if status == 302 and location:
            self.request("GET", urlsplit(location).path)
        return status, took, answer


# --- The round's plan and the burst -------------------------------------------------------------


@dataclass
class Table:
    number: int
    keeper: int  # the scorekeeper's seat
    other: int
    codes: dict[int, str]
    scores: list[int]
    fate: str  # "agree", "conflict" or "missing"
    entered_at: float | None = None  # when the entry was acknowledged (302), run clock
    confirm_started: float | None = None
    confirmed: bool = False
    disagreed: bool = False


@dataclass
class Burst:
    entry: list[float] = field(default_factory=list)  # POST seconds
    confirm: list[float] = field(default_factory=list)
    refusals: list[tuple[int, str, object]] = field(default_factory=list)
    lateness: list[float] = field(default_factory=list)
    # From the tap (the moment the action was due) to the POST's answer: what a phone in the
    # hall waits, the backlog of the hall included.
    tap_entry: list[float] = field(default_factory=list)
    tap_confirm: list[float] = field(default_factory=list)
    start: float = 0.0  # perf_counter when the window opened
    last: float = 0.0  # seconds from then to the last answer


def plan_round(number: int, rng: random.Random, conflicts: float, missing: float) -> list[Table]:
    from events.seat_codes import code_of
    from matches.models import Match, MatchStatus

    matches = list(
        Match.objects.filter(round__league__slug=SLUG, round__number=number)
        .exclude(status=MatchStatus.BYE)
        .prefetch_related("seats")
        .order_by("table")
    )
    fates = ["conflict"] * round(len(matches) * conflicts)
    fates += ["missing"] * round(len(matches) * missing)
    fates += ["agree"] * (len(matches) - len(fates))
    rng.shuffle(fates)
    tables = []
    for match, fate in zip(matches, fates, strict=True):
        seats = sorted(match.seats.all(), key=lambda seat: seat.order)
        keeper = match.scorekeeper or seats[0].order
        other = next(seat.order for seat in seats if seat.order != keeper)
        scores = [rng.randint(280, 520) for _ in seats]
        codes = {seat.order: code_of(match, seat) for seat in seats}
        tables.append(Table(match.table, keeper, other, codes, scores, fate))
    return tables


def play_burst(port: int, number: int, tables: list[Table], args, rng: random.Random) -> Burst:
    """Every table's card within the window: `args.clients` threads take the phones' actions
    off one queue, each when it is due (or as soon as a thread is free)."""
    burst = Burst()
    queue: list = []
    lock = threading.Condition()
    outstanding = [0]
    base = f"/leagues/{SLUG}/rounds/{number}/tables"
    start = burst.start = time.perf_counter()
    order = iter(range(1 << 30))

    def schedule(due: float, action, *more) -> None:
        with lock:
            heapq.heappush(queue, (due, next(order), action, more))
            outstanding[0] += 1
            lock.notify()

    def card_data(table: Table, order: int, scores: list[int]) -> dict:
        data = {"seat": order, "code": table.codes[order], "ended_by": "went_out"}
        data.update({f"score_{i}": s for i, s in enumerate(scores, start=1)})
        return data

    def enter(table: Table, due: float) -> None:
        page = f"{base}/{table.number}/"
        status, took, _ = Phone(port).form_post(
            page, page + "card/", card_data(table, table.keeper, table.scores)
        )
        with lock:
            burst.entry.append(took)
            burst.tap_entry.append(time.perf_counter() - start - due)
        if status != 302:
            with lock:
                burst.refusals.append((table.number, "entry", status))
            return
        table.entered_at = time.perf_counter() - start
        # The other seat reads the card a few seconds after it was entered.
        later = due + rng.uniform(args.confirm_after[0], args.confirm_after[1])
        schedule(max(later, table.entered_at), second_seat, table)

    def second_seat(table: Table, due: float) -> None:
        page = f"{base}/{table.number}/"
        phone = Phone(port)
        if table.fate == "conflict":
            theirs = [table.scores[0], table.scores[1] + rng.choice((-10, 10))]
            status, took, _ = phone.form_post(
                page, page + "card/", card_data(table, table.other, theirs)
            )
            kind = "disagree"
        else:

            def confirm(html):
                card = re.search(r'name="card" value="(\d+)"', html)
                if card is None:
                    return None
                return {"seat": table.other, "code": table.codes[table.other], "card": card[1]}

            table.confirm_started = time.perf_counter() - start
            status, took, _ = phone.form_post(page, page + "confirm/", confirm)
            kind = "confirm"
        with lock:
            (burst.confirm if kind == "confirm" else burst.entry).append(took)
            tapped = time.perf_counter() - start - due
            (burst.tap_confirm if kind == "confirm" else burst.tap_entry).append(tapped)
            if status == 302:
                table.confirmed = kind == "confirm"
                table.disagreed = kind == "disagree"
            else:
                burst.refusals.append((table.number, kind, status))

    def worker() -> None:
        while True:
            with lock:
                while True:
                    if not queue and outstanding[0] == 0:
                        return
                    now = time.perf_counter() - start
                    if queue and queue[0][0] <= now:
                        due, _, action, more = heapq.heappop(queue)
                        break
                    lock.wait(timeout=(queue[0][0] - now) if queue else 0.5)
            burst.lateness.append(max(0.0, time.perf_counter() - start - due))
            try:
                action(*more, due)
            except Exception as error:  # a refused page: counted, and the evening goes on
                with lock:
                    burst.refusals.append((more[0].number, action.__name__, repr(error)))
            finally:
                with lock:
                    outstanding[0] -= 1
                    lock.notify_all()

    latest = args.window - args.confirm_after[1]
    for table in tables:
        if table.fate != "missing":
            schedule(rng.uniform(0, latest), enter, table)
    threads = [threading.Thread(target=worker, daemon=True) for _ in range(args.clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=args.window + 600)
    burst.last = time.perf_counter() - start
    return burst


# --- Reading what the pages store ----------------------------------------------------------------


def shown_scores(port: int, number: int) -> tuple[set[int], str]:
    """The tables of round `number` with scores in the stored event.json, and its time."""
    status, _, text = Phone(port).request("GET", f"/leagues/{SLUG}/event.json")
    if status != 200:
        return set(), ""
    document = json.loads(text)
    round_ = next((r for r in document["rounds"] if r["number"] == number), None)
    tables = round_["tables"] if round_ else []
    return {
        t["table"] for t in tables if all(s["score"] is not None for s in t["seats"])
    }, document["updated"]


def until_shown(port: int, number: int, expected: set[int], since: float) -> float | None:
    """Seconds from `since` (perf_counter) until event.json shows every expected table's
    scores and the leaderboard answers; None after 120 s."""
    deadline = time.perf_counter() + 120
    while time.perf_counter() < deadline:
        shown, _ = shown_scores(port, number)
        if expected <= shown:
            took = time.perf_counter() - since
            status, _, _ = Phone(port).request("GET", f"/leagues/{SLUG}/leaderboard/")
            return took if status == 200 else None
        time.sleep(0.02)
    return None


# --- The checks and the operator ------------------------------------------------------------------


def check_cards(number: int, tables: list[Table]) -> dict:
    """Lost: a card acknowledged (302) that neither counted with its scores nor waits in a
    conflict. Twice: more than one counted card or audited card entry for a table."""
    from django.db.models import Count

    from events.models import TableCard
    from matches.models import AuditEvent, Match

    matches = {
        m.table: m
        for m in Match.objects.filter(round__league__slug=SLUG, round__number=number)
        .prefetch_related("seats")
    }  # fmt: skip
    pending = dict(
        TableCard.objects.filter(match__round__number=number, state=TableCard.State.PENDING,
                                 match__league__slug=SLUG)
        .values_list("match__table").annotate(n=Count("id"))
    )  # fmt: skip
    lost = []
    for table in tables:
        if table.entered_at is None:
            continue
        match = matches[table.number]
        scores = [seat.score for seat in sorted(match.seats.all(), key=lambda s: s.order)]
        counted = match.is_final and scores == table.scores
        in_conflict = table.fate == "conflict" and pending.get(table.number, 0) == 2
        if not (counted or in_conflict):
            lost.append(table.number)
    in_round = {"match__round__number": number, "match__league__slug": SLUG}
    twice = (
        TableCard.objects.filter(state=TableCard.State.COUNTED, **in_round)
        .values("match")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .count()
        + AuditEvent.objects.filter(action="card_entered", **in_round)
        .values("match")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .count()
    )
    return {"lost": lost, "twice": twice}


def read_board(html: str) -> dict:
    """What the scoring table's page asks a person about: each conflict's versions (their card
    ids), the unconfirmed cards, the tables owing a card, the locked tables."""
    conflicts = {}
    for part in html.split("<article")[1:]:
        head = re.match(r'[^>]*data-testid="(conflict|unconfirmed)" id="table-(\d+)"', part)
        if head and head[1] == "conflict":
            conflicts[int(head[2])] = [
                int(c) for c in re.findall(r'name="card" value="(\d+)"', part)
            ]
    unconfirmed = {int(t) for t in re.findall(r'data-testid="unconfirmed" id="table-(\d+)"', html)}
    owing = re.search(r'<p data-testid="missing">(.*?)</p>', html, re.S)
    missing = {int(t) for t in re.findall(r">(\d+)</a>", owing[1])} if owing else set()
    return {
        "conflicts": conflicts,
        "unconfirmed": unconfirmed,
        "missing": missing,
        "locked": 'data-testid="locked"' in html,
    }


def operate(port: int, session: str, number: int, tables: list[Table]) -> dict:
    """The operator at the scoring table: read the board, count one version of each conflict
    (the scorekeeper's, as the table says once heard out), close the round."""
    from django.utils import timezone

    from events.card_board import card_board
    from events.selectors import scoring_tables
    from league.models import League, Round

    director = Phone(port, {"sessionid": session})
    scores_page = f"/leagues/{SLUG}/rounds/{number}/scores/"
    started = time.perf_counter()
    status, _, html = director.request("GET", scores_page)
    read_took = time.perf_counter() - started
    assert status == 200, f"the scoring page answered {status}"
    board = read_board(html)
    league = League.objects.get(slug=SLUG)
    round_ = Round.objects.get(league=league, number=number)
    in_process = card_board(league, round_, scoring_tables(round_), timezone.now())
    expected_conflicts = {t.number for t in tables if t.fate == "conflict" and t.disagreed}
    expected_missing = {t.number for t in tables if t.entered_at is None}
    seen = {
        "conflicts": set(board["conflicts"]),
        "missing": board["missing"],
        "other": board["unconfirmed"] | ({-1} if board["locked"] else set()),
    }
    exact = (
        seen["conflicts"] == expected_conflicts
        and seen["missing"] == expected_missing
        and not seen["other"]
        and {m.table for m, _ in in_process.conflicts} == expected_conflicts
        and {m.table for m in in_process.missing} == expected_missing
        and not in_process.unconfirmed
        and not in_process.locked
    )
    actions = 1  # reading the board
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)[1]
    count_took = []
    for table, versions in sorted(board["conflicts"].items()):
        begun = time.perf_counter()
        status, _, _ = director.request(
            "POST",
            f"/leagues/{SLUG}/rounds/{number}/tables/{table}/count/",
            {"csrfmiddlewaretoken": token, "card": versions[0]},
        )
        count_took.append(time.perf_counter() - begun)
        assert status == 302, f"counting table {table}'s card answered {status}"
        actions += 1
    closing = time.perf_counter()
    status, _, _ = director.request(
        "POST", f"/leagues/{SLUG}/rounds/{number}/close/", {"csrfmiddlewaretoken": token}
    )
    assert status == 302, f"closing round {number} answered {status}"
    actions += 1
    return {
        "exact": exact,
        "seen": seen,
        "actions": actions,
        "closing": closing,
        "read_ms": read_took * 1000,
        "count_ms": statistics.median(count_took) * 1000 if count_took else 0.0,
    }


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))] * 1000


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
    rows = []
    try:
        Phone(port).request("GET", f"/leagues/{SLUG}/event.json")  # both workers up
        Phone(port).request("GET", f"/leagues/{SLUG}/rounds/1/tables/1/")
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
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
    return rows


def seconds(value: float | None) -> str:
    return "never" if value is None else f"{value:.2f}"


def report(rows: list[dict], args) -> None:
    print(
        f"Self-entry evening: {args.entrants} entrants at two-seat tables, {args.rounds} rounds; "
        f"each round's cards within {args.window:.0f} s, {args.clients} clients "
        f"(gunicorn, 2 workers); {args.conflicts:.0%} of tables disagree, {args.missing:.0%} "
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
