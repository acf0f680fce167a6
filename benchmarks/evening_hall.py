"""The hall of a self-entry evening (`self_entry_evening.py`): phones with their own cookies,
each round's plan (who enters, who disagrees, who never enters) and its burst through the table
pages, and reading what the stored pages show."""

import heapq
import http.client
import json
import random
import re
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit

from harness import ROOT

sys.path.insert(0, str(ROOT))

# Its own database, named after the process: two evenings run at once never meet.
SLUG = "evening"


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
    slips: dict[int, str]  # each seat's player's slip token (S4)
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
    from events.services import slips_of
    from league.models import Entry
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
    entries = Entry.objects.filter(league__slug=SLUG)
    slips = {entry_id: slip.token for entry_id, slip in slips_of(entries).items()}
    token_of = {entry.player_id: slips[entry.pk] for entry in entries}
    tables = []
    for match, fate in zip(matches, fates, strict=True):
        seats = sorted(match.seats.all(), key=lambda seat: seat.order)
        keeper = match.scorekeeper or seats[0].order
        other = next(seat.order for seat in seats if seat.order != keeper)
        scores = [rng.randint(280, 520) for _ in seats]
        seat_slips = {seat.order: token_of[seat.player_id] for seat in seats}
        tables.append(Table(match.table, keeper, other, seat_slips, scores, fate))
    return tables


# Each entrant's phone, across the evening: it opened their slip once (S4) and keeps it.
PHONES: dict[str, Phone] = {}


def phone_of(port: int, token: str) -> Phone:
    phone = PHONES.get(token)
    if phone is None:
        phone = PHONES[token] = Phone(port)
        status, _, _ = phone.request("GET", f"/slip/{token}/")
        if status != 200:
            raise RuntimeError(f"the slip /slip/{token}/ answered {status}")
    return phone


def open_slips(port: int, tables: list[Table], clients: int) -> None:
    """The hall opens its slips before the round's end (at the door, as each player arrives):
    every phone knows its player before the burst, and the burst times the cards alone."""
    tokens = [token for table in tables for token in table.slips.values() if token not in PHONES]
    with ThreadPoolExecutor(max_workers=clients) as pool:
        list(pool.map(lambda token: phone_of(port, token), tokens))


def play_burst(port: int, number: int, tables: list[Table], args, rng: random.Random) -> Burst:
    """Every table's card within the window: `args.clients` threads take the phones' actions
    off one queue, each when it is due (or as soon as a thread is free). Each seat acts from
    its own player's phone, which opened their slip (S4)."""
    open_slips(port, tables, args.clients)
    burst = Burst()
    queue: list = []
    lock = threading.Condition()
    outstanding = [0]
    base = f"/example-state/leagues/{SLUG}/rounds/{number}/tables"
    start = burst.start = time.perf_counter()
    order = iter(range(1 << 30))

    def schedule(due: float, action, *more) -> None:
        with lock:
            heapq.heappush(queue, (due, next(order), action, more))
            outstanding[0] += 1
            lock.notify()

    def card_data(table: Table, order: int, scores: list[int]) -> dict:
        data = {"seat": order, "code": "", "ended_by": "went_out"}
        data.update({f"score_{i}": s for i, s in enumerate(scores, start=1)})
        return data

    def enter(table: Table, due: float) -> None:
        page = f"{base}/{table.number}/"
        status, took, _ = phone_of(port, table.slips[table.keeper]).form_post(
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
        phone = phone_of(port, table.slips[table.other])
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
                return {"seat": table.other, "code": "", "card": card[1]}

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
    status, _, text = Phone(port).request("GET", f"/example-state/leagues/{SLUG}/event.json")
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
            status, _, _ = Phone(port).request("GET", f"/example-state/leagues/{SLUG}/leaderboard/")
            return took if status == 200 else None
        time.sleep(0.02)
    return None
