"""The re-pairing race of the scoring table, through a live web server (E3): a scorer's card for
table 1 arrives 0 to 0.6 s after the director sends a re-pairing of the round. Whatever the
order, a stored card names exactly the players it was checked against; otherwise it is refused
with a message. Twenty races a test, on real HTTP with sessions and CSRF tokens, as a phone and
a laptop in the hall would send them."""

import json
import random
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import timedelta
from http.cookies import SimpleCookie

import pytest
from django.conf import settings
from django.test import Client

from league.models import Entry, League, Round
from matches.models import Match, MatchStatus, Seat
from tests.support import rounds_started, run, write

RACES = 20


class Session:
    """One signed-in person talking HTTP to the live server, with their own cookies."""

    def __init__(self, base: str, user):
        self.base = base
        client = Client()
        client.force_login(user)
        self.cookies = {
            settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value
        }
        self.opener = urllib.request.build_opener(NoRedirect())
        self.lock = threading.Lock()

    def _open(self, request: urllib.request.Request) -> tuple[int, str]:
        with self.lock:
            cookie = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        request.add_header("Cookie", cookie)
        try:
            response = self.opener.open(request, timeout=20)
        except urllib.error.HTTPError as error:  # the 302 after a card or a pairing
            response = error
        with response:
            for header in response.headers.get_all("Set-Cookie") or []:
                morsel = SimpleCookie(header)
                with self.lock:
                    self.cookies.update({name: m.value for name, m in morsel.items()})
            return response.status, response.read().decode(errors="replace")

    def get(self, path: str) -> str:
        status, page = self._open(urllib.request.Request(self.base + path))
        assert status == 200, (path, status)
        return page

    def post(self, path: str, data: dict, token: str) -> tuple[int, str]:
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token}).encode()
        return self._open(
            urllib.request.Request(
                self.base + path, data=body, headers={"Referer": self.base + path}
            )
        )


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def csrf_token(page: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)


def seating_shown(page: str, table: int) -> list[int]:
    data = re.search(r'<script id="seating" type="application/json">(.*?)</script>', page, re.S)
    return [seat["id"] for seat in json.loads(data.group(1))[str(table)]["seats"]]


@pytest.fixture
def fest(transactional_db, season, tmp_path):
    data = {
        "name": "Race Fest",
        "slug": "race-fest",
        "format": "event",
        "date": (season.starts_on + timedelta(days=10)).isoformat(),
        "rounds": [{"number": 1, "periods": [{"starts": "18:00", "minutes": 45}]}],
        "categories": [{"name": "Open", "pairing_group": "Open", "turn_seconds": 150}],
    }
    slug = season.institution.slug
    run(
        "create_event",
        write(tmp_path, "f.json", json.dumps(data)),
        "--institution",
        slug,
        "--season",
        season.slug,
    )
    names = "".join(f"Racer {number}\n" for number in range(1, 9))
    run("import_entrants", write(tmp_path, "e.csv", "name\n" + names), "--league", "race-fest")
    run("pair_round", "--league", "race-fest", "--all-entrants")
    return rounds_started(League.objects.get(slug="race-fest"))


def clear_round(round_: Round) -> None:
    """Between races: the round back to paired and unscored, so it may be paired again."""
    Seat.objects.filter(match__round=round_).update(
        score=None, pre_adjustment_score=None, place=None, outcome=""
    )
    Match.objects.filter(round=round_).exclude(status=MatchStatus.BYE).update(
        status=MatchStatus.SCHEDULED, ended_by=""
    )


def race(scorer: Session, director: Session, card_after: float, card: dict) -> tuple:
    """The director's re-pairing sent now, the scorer's card `card_after` seconds later."""
    scores_page, round_page = (
        "/example-state/leagues/race-fest/rounds/1/scores/",
        "/example-state/leagues/race-fest/rounds/1/",
    )
    director_token = csrf_token(director.get(round_page))
    scorer_token = csrf_token(scorer.get(scores_page))
    results = {}

    def re_pair():
        results["pairing"] = director.post(
            "/example-state/leagues/race-fest/rounds/1/pair/", {"repair": "1"}, director_token
        )

    def enter_card():
        time.sleep(card_after)
        results["card"] = scorer.post(scores_page, card, scorer_token)

    threads = [threading.Thread(target=re_pair), threading.Thread(target=enter_card)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=25)
    return results["pairing"], results["card"]


def stored_card() -> dict[int, int]:
    return dict(
        Seat.objects.filter(
            match__round__league__slug="race-fest", score__isnull=False
        ).values_list("player_id", "score")
    )


def test_e3_a_card_racing_a_re_pairing_over_http_never_lands_on_other_players(
    fest, live_server, staff, director
):
    scorer, boss = Session(live_server.url, staff.user), Session(live_server.url, director.user)
    round_ = Round.objects.get(league=fest, number=1)
    rng = random.Random(28)
    outcomes = {"entered": 0, "refused": 0}
    for _ in range(RACES):
        clear_round(round_)
        shown = seating_shown(scorer.get("/example-state/leagues/race-fest/rounds/1/scores/"), 1)
        card = {
            "table": 1,
            "seen": ",".join(map(str, shown)),
            "score_1": 400,
            "score_2": 300,
            "ended_by": "went_out",
        }
        _, (status, page) = race(scorer, boss, rng.uniform(0, 0.6), card)
        stored = stored_card()
        if stored:
            assert status == 302
            assert stored == {shown[0]: 400, shown[1]: 300}, "the card landed on other players"
            outcomes["entered"] += 1
        else:
            assert status == 200 and (
                "players changed since this page was loaded" in page or "paired again" in page
            ), page
            outcomes["refused"] += 1
    assert sum(outcomes.values()) == RACES


def test_e3_a_card_printed_before_a_re_pairing_never_lands_even_on_a_page_loaded_after_it(
    fest, live_server, staff, director
):
    """The cards were printed, so after the re-pairing the scoring table asks for the numbers
    written on the card; the scorer's page is loaded as the re-pairing goes through."""
    scorer, boss = Session(live_server.url, staff.user), Session(live_server.url, director.user)
    round_ = Round.objects.get(league=fest, number=1)
    number_of = dict(Entry.objects.filter(league=fest).values_list("player_id", "player_number"))
    rng = random.Random(29)
    wrong = 0
    for _ in range(RACES):
        clear_round(round_)
        scorer.get("/example-state/leagues/race-fest/rounds/1/print/cards.pdf")
        printed = list(
            Match.objects.get(round=round_, table=1)
            .seats.order_by("order")
            .values_list("player_id", flat=True)
        )
        card_after = rng.uniform(0, 0.6)

        def load_then_enter(delay=card_after, printed=printed):
            time.sleep(delay)
            page = scorer.get("/example-state/leagues/race-fest/rounds/1/scores/")
            card = {
                "table": 1,
                "seen": ",".join(map(str, seating_shown(page, 1))),
                "number_1": number_of[printed[0]],
                "number_2": number_of[printed[1]],
                "score_1": 400,
                "score_2": 300,
                "ended_by": "went_out",
            }
            scorer.post("/example-state/leagues/race-fest/rounds/1/scores/", card, csrf_token(page))

        director_token = csrf_token(boss.get("/example-state/leagues/race-fest/rounds/1/"))
        pairing = threading.Thread(
            target=lambda token=director_token: boss.post(
                "/example-state/leagues/race-fest/rounds/1/pair/", {"repair": "1"}, token
            )
        )
        entering = threading.Thread(target=load_then_enter)
        pairing.start(), entering.start()
        pairing.join(timeout=25), entering.join(timeout=25)
        stored = stored_card()
        if stored and stored != {printed[0]: 400, printed[1]: 300}:
            wrong += 1
    assert wrong == 0
