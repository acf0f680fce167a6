"""The hall's Wi-Fi drops (E3, issue 52), in a browser with the server stopped, not only the
browser told it is offline (whose switch has not always reached a service worker's requests):
each test shows the server unreachable from the page before it types. Thirty cards typed
offline survive a reload and count once each when the server is back; a card for a table
paired again meanwhile comes back refused with its reason; two devices typing the same table
count one card, or show the director the conflict."""

import json
import re
import socket
from datetime import timedelta

import pytest
from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.core.management import call_command
from django.core.servers.basehttp import ThreadedWSGIServer
from django.test.testcases import LiveServerThread, QuietWSGIRequestHandler
from django.urls import reverse
from playwright.sync_api import Error, expect

from events import services as events
from events.models import SentCard
from league.models import League, Round
from matches.models import AuditEvent, Match, MatchStatus
from tests.browser import DESKTOP, PHONE, log_in, shoot
from tests.support import PASSWORD, at, rounds_started

pytestmark = pytest.mark.browser


class CuttingServer(ThreadedWSGIServer):
    """Django's threaded test server, which can also cut the connections it holds open: the
    browser keeps its connections alive, and a server that only stopped listening would go on
    answering on them."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.held = set()

    def process_request(self, request, client_address):
        self.held.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request):
        self.held.discard(request)
        super().shutdown_request(request)

    def cut(self):
        for connection in list(self.held):
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class CuttingThread(LiveServerThread):
    server_class = CuttingServer

    def _create_server(self, connections_override=None):
        # The same port again once stopped: the connections cut may linger in TIME_WAIT.
        return self.server_class(
            (self.host, self.port),
            QuietWSGIRequestHandler,
            allow_reuse_address=True,
            connections_override=connections_override,
        )


class Server:
    """A live server this test can stop and start again on the same address (the page's
    origin, so its service worker and its kept cards are the same)."""

    def __init__(self):
        self.port = 0
        self.start()
        self.url = f"http://localhost:{self.port}"

    def start(self):
        self.thread = CuttingThread("localhost", static_handler=StaticFilesHandler, port=self.port)
        self.thread.daemon = True
        self.thread.start()
        self.thread.is_ready.wait()
        if self.thread.error:
            raise self.thread.error
        self.port = self.thread.port

    def stop(self):
        """Stop listening, then cut what is still open (after the last accept)."""
        httpd = getattr(self.thread, "httpd", None)
        if httpd is not None:
            httpd.shutdown()
            httpd.cut()
            httpd.server_close()
        self.thread.join()


@pytest.fixture
def server(transactional_db):
    running = Server()
    yield running
    running.stop()


def fest(season, tmp_path, entrants: int) -> League:
    data = {
        "name": "Fest",
        "slug": "fest",
        "format": "event",
        "date": (season.starts_on + timedelta(days=10)).isoformat(),
    }
    path = tmp_path / "fest.json"
    path.write_text(json.dumps(data))
    call_command(
        "create_event", str(path), "--institution", season.institution.slug, "--season", season.slug
    )
    names = tmp_path / "e.csv"
    names.write_text("name\n" + "".join(f"Entrant {i}\n" for i in range(1, entrants + 1)))
    call_command("import_entrants", str(names), "--league", "fest")
    call_command("pair_round", "--league", "fest", "--all-entrants")
    return rounds_started(League.objects.get(slug="fest"))


def scoring_page(browser, server, user, viewport=DESKTOP):
    """The scoring table of round 1, loaded while online and kept by its service worker."""
    page = browser.new_context(viewport=viewport).new_page()
    log_in(page, server.url, user.email)
    url = server.url + reverse("event_scores", args=[at("fest"), 1])
    page.goto(url)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    # The device's copy of the page is in the worker's cache, whole.
    until(page, KEPT, page.url)
    return page


# Whether the worker's cache holds the page at `url` (a promise: evaluate awaits it, where
# wait_for_function would take the promise itself for a true value).
KEPT = (
    "url => caches.open('scoring-pages-v1').then(cache => cache.match(url))"
    ".then(found => found !== undefined)"
)


def until(page, script: str, arg, wanted=True):
    """Ask the page until `script` answers `wanted` (the worker works in its own time)."""
    for _ in range(100):
        if page.evaluate(script, arg) is wanted:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{script} never answered {wanted} at {page.url}")


def unreachable(page, server):
    """Stop the server and show that the page cannot reach it."""
    server.stop()
    with pytest.raises(Error):
        page.request.get(server.url + "/health/")
    failed = page.evaluate(
        "() => fetch('/health/').then(r => r.status + ' ' + r.headers.get('content-type'), () => 'failed')"
    )
    assert failed == "failed"


def type_card(page, table: int, scores):
    box = page.get_by_label("Table", exact=True)
    try:
        expect(box).to_be_visible()
    except AssertionError as missing:  # say what the browser shows instead
        raise AssertionError(f"No scoring table at {page.url}: {page.content()[:400]}") from missing
    box.fill(str(table))
    for order, score in enumerate(scores, start=1):
        page.locator(f'input[name="score_{order}"]').fill(str(score))
    page.locator('input[name="score_1"]').press("Enter")


def waiting(page):
    return page.get_by_test_id("cards-waiting")


def test_e3_thirty_cards_typed_offline_survive_a_reload_and_count_once_each(
    browser, server, season, director, tmp_path
):
    league = fest(season, tmp_path, entrants=60)
    tables = list(Match.objects.filter(round__league=league).order_by("table"))
    assert len(tables) == 30
    page = scoring_page(browser, server, director.user)
    unreachable(page, server)

    for table in tables:
        type_card(page, table.table, [300 + table.table, 200])
        expect(waiting(page)).to_have_text(re.compile(rf"^{table.table} cards? waiting to send$"))
    expect(page.get_by_test_id("cards-state")).to_contain_text("cannot be reached")
    page.reload()  # served by the worker from the device's copy
    expect(waiting(page)).to_have_text("30 cards waiting to send")
    expect(page.get_by_test_id("waiting-list").locator("li")).to_have_count(30)
    shoot(page, "offline-thirty-cards-waiting")
    assert not Match.objects.filter(round__league=league, status=MatchStatus.CONFIRMED).exists()

    server.start()
    expect(page.get_by_test_id("waiting-list").locator("li")).to_have_count(0, timeout=60_000)
    expect(page.locator("#offline-cards")).to_be_hidden()
    for table in Match.objects.filter(round__league=league):
        assert table.status == MatchStatus.CONFIRMED
        assert [seat.score for seat in table.seats.order_by("order")] == [300 + table.table, 200]
        assert AuditEvent.objects.filter(match=table, action="card_entered").count() == 1
    assert SentCard.objects.filter(outcome=SentCard.Outcome.COUNTED).count() == 30


def test_e3_a_card_typed_offline_for_a_table_paired_again_comes_back_refused_with_its_reason(
    browser, server, season, director, tmp_path
):
    league = fest(season, tmp_path, entrants=8)
    page = scoring_page(browser, server, director.user, viewport=PHONE)
    unreachable(page, server)
    type_card(page, 1, [410, 390])
    type_card(page, 2, [350, 360])
    expect(waiting(page)).to_have_text("2 cards waiting to send")
    # Meanwhile the director paired round 1 again on the laptop.
    round_ = Round.objects.get(league=league, number=1)
    before = {
        t.table: [s.player_id for s in t.seats.order_by("order")] for t in round_.matches.all()
    }
    seed = 1
    while True:
        events.pair_event_round(actor=director.user, round=round_, repair=True, seed=seed)
        after = {
            t.table: [s.player_id for s in t.seats.order_by("order")] for t in round_.matches.all()
        }
        if after[1] != before[1] and after[2] != before[2]:
            break
        seed += 1
    server.start()
    refused = page.get_by_test_id("refused-list").locator("li")
    expect(refused).to_have_count(2, timeout=60_000)
    expect(refused.first).to_contain_text("Table 1: 410–390 was not entered.")
    expect(refused.first).to_contain_text("players changed since this page was loaded")
    expect(waiting(page)).to_have_text("2 cards not entered")
    shoot(page, "offline-card-refused-phone")
    assert not Match.objects.filter(round__league=league, status=MatchStatus.CONFIRMED).exists()
    refused.first.get_by_role("button", name="Dismiss").click()
    expect(refused).to_have_count(1)


def test_e3_two_devices_offline_count_the_same_card_once_and_show_the_director_a_conflict(
    browser, server, season, director, staff, tmp_path
):
    league = fest(season, tmp_path, entrants=8)
    laptop = scoring_page(browser, server, director.user)
    phone = scoring_page(browser, server, staff.user, viewport=PHONE)
    unreachable(laptop, server)
    for device in (laptop, phone):
        type_card(device, 1, [400, 300])  # the same card, typed twice
    type_card(laptop, 2, [351, 360])
    type_card(phone, 2, [350, 360])  # one of the two misread it
    for device in (laptop, phone):
        expect(waiting(device)).to_have_text("2 cards waiting to send")

    server.start()
    for device in (laptop, phone):
        expect(device.get_by_test_id("waiting-list").locator("li")).to_have_count(0, timeout=60_000)
    one, two = (Match.objects.get(round__league=league, round__number=1, table=n) for n in (1, 2))
    assert AuditEvent.objects.filter(match=one, action="card_entered").count() == 1
    assert [seat.score for seat in one.seats.order_by("order")] == [400, 300]
    assert AuditEvent.objects.filter(match=two, action="card_entered").count() == 1
    conflict = SentCard.objects.get(table=2, outcome=SentCard.Outcome.REFUSED)
    counted = [seat.score for seat in two.seats.order_by("order")]
    assert counted != conflict.scores and counted in ([351, 360], [350, 360])
    # The device whose card lost hears why; the director sees the conflict at the table.
    loser = laptop if conflict.sent_by_id == director.user.pk else phone
    refused = loser.get_by_test_id("refused-list").locator("li")
    expect(refused).to_have_count(1)
    expect(refused).to_contain_text(f"already has {counted[0]}–360")
    laptop.reload()
    late = laptop.get_by_test_id("late-cards")
    expect(late).to_contain_text(
        f"Table 2 already has {counted[0]}–360, not {conflict.scores[0]}–360"
    )
    shoot(laptop, "offline-conflict-for-the-director")


def test_e3_the_projector_says_since_when_it_is_stale_keeps_its_standings_and_catches_up(
    browser, server, season, director, tmp_path
):
    league = fest(season, tmp_path, entrants=8)
    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    log_in(page, server.url, director.user.email)
    page.clock.install()
    page.goto(server.url + reverse("event_projector", args=[at("fest")]))
    leaders = page.get_by_test_id("leaders-slide")
    expect(leaders).to_be_visible()
    shown = " ".join(leaders.text_content().split())
    stale = page.get_by_test_id("stale")
    expect(stale).to_be_hidden()
    unreachable(page, server)

    page.clock.run_for(16_000)  # the next refresh fails
    expect(stale).to_have_text(
        re.compile(r"^Last updated \d{1,2}:\d\d [AP]M \(just now\): reconnecting$")
    )
    page.clock.run_for(120_000)
    expect(stale).to_have_text(re.compile(r"\(2 min ago\): reconnecting$"))
    # The last standings stay on the screen (whichever slide shows now).
    assert " ".join(leaders.text_content().split()) == shown
    shoot(page, "projector-stale")

    table = Match.objects.get(round__league=league, round__number=1, table=1)
    events.card_enter(actor=director.user, match=table, scores=[477, 300])
    server.start()
    page.clock.run_for(16_000)  # it catches up by itself
    expect(stale).to_be_hidden()
    expect(page.get_by_test_id("leaders-slide")).to_contain_text("477")
    page.wait_for_load_state("networkidle")


def test_e3_cards_typed_offline_wait_for_the_next_sign_in_on_the_device_and_are_sent_then(
    browser, server, season, director, tmp_path
):
    league = fest(season, tmp_path, entrants=8)
    page = scoring_page(browser, server, director.user, viewport=PHONE)
    unreachable(page, server)
    type_card(page, 3, [420, 380])
    expect(waiting(page)).to_have_text("1 card waiting to send")
    page.context.clear_cookies(name="sessionid")  # the sign-in ended meanwhile
    server.start()
    expect(page.get_by_test_id("cards-state")).to_contain_text(
        "Your sign-in has ended. The cards stay on this device", timeout=30_000
    )
    expect(waiting(page)).to_have_text("1 card waiting to send")
    shoot(page, "offline-signed-out-phone")
    page.get_by_role("link", name="Sign in again").click()
    page.get_by_label("Email").fill(director.user.email)
    page.get_by_label("Password").fill(PASSWORD)
    with page.expect_response(lambda response: response.url.endswith("/send/")) as sent:
        page.get_by_role("button", name="Log in").click()  # back to the scoring table
    assert sent.value.json()["outcome"] == "counted"
    expect(page.locator("#offline-cards")).to_be_hidden()
    table = Match.objects.get(round__league=league, round__number=1, table=3)
    assert table.status == MatchStatus.CONFIRMED
    assert [seat.score for seat in table.seats.order_by("order")] == [420, 380]
