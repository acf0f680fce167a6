"""A table's own page when the hall's Wi-Fi drops (E3, S1–S4, issue 52), on two phones with the
server really stopped: the scorekeeper enters the table's card offline, reloads the page (the
copy the phone kept), and once the server is back the card is saved once; the other seat
confirms offline on its own phone (known by its slip), and the confirmation lands once: the
card counts, once."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from events import services as events
from events.models import SentCard, TableCard
from matches.models import AuditEvent, MatchStatus
from tests.browser import PHONE, shoot, signed_in
from tests.browser.test_offline_scoring import KEPT, Server, unreachable, until
from tests.events.self_entry_support import seats_of, self_entry_event, slip_of_seat, tables
from tests.support import at

pytestmark = pytest.mark.browser


@pytest.fixture
def hall(transactional_db):
    running = Server()
    yield running
    running.stop()


def phone_of(browser, hall, seat):
    """The seat's own phone on its table's page, kept by the service worker: a signed-in
    student's login, or a guest's slip opened on it (S4)."""
    if seat.player.user_id:
        page = signed_in(browser, hall.url, seat.player.user.email, viewport=PHONE)
    else:
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(
            hall.url + reverse("slip_page", args=[slip_of_seat(seat.match, seat.order).token])
        )
        expect(page.get_by_test_id("slip-entrant")).to_be_visible()
    page.goto(hall.url + reverse("event_table", args=[at("fest"), 1, seat.match.table]))
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    until(page, KEPT, page.url)
    return page


def waiting(page):
    return page.get_by_test_id("table-waiting")


def test_e3_s2_a_card_entered_and_confirmed_offline_survives_a_reload_and_counts_once(
    browser, hall, season, tmp_path
):
    league = self_entry_event(season, tmp_path, seats=2, entrants=2, students=1)
    match = tables(league)[0]
    keeper, other = seats_of(match)
    first = phone_of(browser, hall, keeper)
    second = phone_of(browser, hall, other)

    unreachable(first, hall)
    form = first.locator("details.enter-card form")
    form.locator('input[name="score_1"]').fill("412")
    form.locator('input[name="score_2"]').fill("377")
    form.get_by_role("button", name="Enter our card").click()
    expect(waiting(first)).to_have_text("1 waiting to send")
    first.reload()  # served by the worker from the phone's copy
    expect(waiting(first)).to_have_text("1 waiting to send")
    expect(first.get_by_test_id("table-waiting-list")).to_contain_text("Your card 412–377")
    # With a card waiting, the page checks and keeps the next itself: a score out of range stays.
    form = first.locator("details.enter-card form")
    form.locator('input[name="score_1"]').fill("2000")
    form.locator('input[name="score_2"]').fill("377")
    form.get_by_role("button", name="Enter our card").click()
    expect(first.get_by_test_id("table-problem")).to_contain_text(
        "type a score between -100 and 1500"
    )
    expect(waiting(first)).to_have_text("1 waiting to send")
    shoot(first, "offline-table-card-waiting-phone")
    assert not TableCard.objects.filter(match=match).exists()

    hall.start()
    expect(first.get_by_test_id("table-waiting-list").locator("li")).to_have_count(
        0, timeout=60_000
    )
    expect(first.get_by_test_id("table-sent-list")).to_contain_text(
        "Your card 412–377: Saved. Waiting for seat 2 to confirm it."
    )
    assert [card.scores for card in TableCard.objects.filter(match=match)] == [[412, 377]]

    second.reload()  # online again: the version to confirm
    expect(second.get_by_test_id("pending-card")).to_contain_text("412")
    unreachable(second, hall)
    second.get_by_role("button", name="Yes, this is our card").click()
    expect(waiting(second)).to_have_text("1 waiting to send")
    second.reload()
    expect(second.get_by_test_id("table-waiting-list")).to_contain_text(
        "Your confirmation of 412–377"
    )
    match.refresh_from_db()
    assert match.status != MatchStatus.CONFIRMED

    hall.start()
    expect(second.get_by_test_id("table-waiting-list").locator("li")).to_have_count(
        0, timeout=60_000
    )
    expect(second.get_by_test_id("table-sent-list")).to_contain_text("The card counts")
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED
    assert [seat.score for seat in seats_of(match)] == [412, 377]
    assert AuditEvent.objects.filter(match=match, action="card_entered").count() == 1
    assert TableCard.objects.get(match=match).state == TableCard.State.COUNTED
    sent = SentCard.objects.filter(round__league=league)
    assert sorted(sent.values_list("kind", "outcome")) == [
        (SentCard.Kind.TABLE_CARD, SentCard.Outcome.SAVED),
        (SentCard.Kind.TABLE_CONFIRM, SentCard.Outcome.COUNTED),
    ]


def test_e3_a_guests_phone_keeps_its_tables_page_two_days_after_its_last_visit_only(
    browser, hall, season, tmp_path
):
    """A guest's phone never signs out: its copy of the table's page (the players' names) goes
    two days after its last online visit, as the phone's memory of the slip does."""
    league = self_entry_event(season, tmp_path, seats=2, entrants=2, students=0)
    match = tables(league)[0]
    phone = phone_of(browser, hall, seats_of(match)[1])
    table_url = phone.url
    phone.goto(hall.url + reverse("event_round", args=[at("fest"), 1]))
    phone.wait_for_load_state("load")
    assert phone.evaluate(KEPT, table_url) is True  # a fresh copy stays

    # Its last visit was three days ago.
    phone.evaluate(
        """url => caches.open('scoring-pages-v1').then(cache => cache.match(url).then(found =>
            found.text().then(body => cache.put(url, new Response(body, {headers: {
              'Content-Type': 'text/html; charset=utf-8',
              'Date': new Date(Date.now() - 3 * 24 * 3600 * 1000).toUTCString()
            }})))))""",
        table_url,
    )
    assert phone.evaluate(KEPT, table_url) is True
    phone.goto(hall.url + reverse("event_round", args=[at("fest"), 1]))
    until(phone, KEPT, table_url, wanted=False)


def test_e3_s5_a_card_entered_offline_after_self_entry_closed_comes_back_with_the_reason(
    browser, hall, season, director, tmp_path
):
    league = self_entry_event(season, tmp_path, seats=2, entrants=2, students=0)
    match = tables(league)[0]
    keeper = phone_of(browser, hall, seats_of(match)[0])
    unreachable(keeper, hall)
    form = keeper.locator("details.enter-card form")
    form.locator('input[name="score_1"]').fill("401")
    form.locator('input[name="score_2"]').fill("388")
    form.get_by_role("button", name="Enter our card").click()
    expect(waiting(keeper)).to_have_text("1 waiting to send")
    # Meanwhile the director closed self-entry for the round on the laptop.
    events.self_entry_close(actor=director.user, round=match.round, closed=True)
    hall.start()
    refused = keeper.get_by_test_id("table-refused-list").locator("li")
    expect(refused).to_have_count(1, timeout=60_000)
    expect(refused).to_contain_text("Your card 401–388 was not taken.")
    expect(refused).to_contain_text("are entered at the scoring table")
    expect(waiting(keeper)).to_have_text("1 not taken")
    shoot(keeper, "offline-table-card-refused-phone")
    assert not TableCard.objects.filter(match=match).exists()
    refused.get_by_role("button", name="Dismiss").click()
    expect(refused).to_have_count(0)
