"""Pages a phone can use (issue 30): at 390 px what the person came for comes first and the rest
is a tap away: the door's search and walk-in before the list, a signed-in entrant's own table
on a round's page, each category's top three before everyone, the sale buttons before the
ledger, the round in play on a league's page; names break between words, headers never, and a
club card's inputs line up."""

import pytest
from django.core.management import call_command

from tests.browser import log_in, shoot

pytestmark = pytest.mark.browser

PHONE_390 = {"width": 390, "height": 844}
PASSWORD = "scrabble-demo"


@pytest.fixture
def demo(transactional_db):
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115


def top_of(page, selector) -> float:
    return page.locator(selector).first.evaluate("e => e.getBoundingClientRect().top + scrollY")


def phone(browser, base, email):
    page = browser.new_context(viewport=PHONE_390).new_page()
    log_in(page, base, email, PASSWORD)
    return page


def test_what_each_person_came_for_comes_first_and_lines_up_on_a_phone(browser, live_server, demo):
    from league.models import Entry

    base = live_server.url
    desk = phone(browser, base, "frontdesk@example.edu")
    desk.goto(base + "/example-state/leagues/scrabble-fest/desk/")
    assert top_of(desk, "#scan") < top_of(desk, ".walk-in") < top_of(desk, ".check-in-list")
    desk.goto(base + "/example-state/leagues/scrabble-fest/leaderboard/")
    assert top_of(desk, ".prizes") < top_of(desk, "details.everyone")
    assert not desk.locator("details.everyone").evaluate("e => e.open")
    desk.goto(base + "/example-state/leagues/corporate-challenge/assists/")
    assert top_of(desk, ".sell-table") < top_of(desk, "#ledger-heading")
    shoot(desk, "assists-390")

    student = Entry.objects.filter(
        league__slug="scrabble-fest", player__user__isnull=False
    ).select_related("player__user")[0]
    entrant = browser.new_context(viewport=PHONE_390).new_page()
    log_in(entrant, base, student.player.user.email, PASSWORD)
    entrant.goto(base + "/example-state/leagues/scrabble-fest/rounds/2/")
    mine = entrant.get_by_test_id("my-table")
    assert top_of(entrant, "[data-testid=my-table]") < top_of(entrant, "[data-testid=by-table]")
    assert student.player.name in mine.inner_text()
    shoot(entrant, "round-my-table-390")

    league = phone(browser, base, "student00001@example.edu")
    league.goto(base + "/example-state/leagues/tuesday-night/")
    opened = league.locator("details.round[open]")
    assert opened.count() == 1  # the round in play; the others a tap away
    assert league.locator("details.round").count() > 1

    # Names break between words, headers never, and a club card's inputs line up.
    student = phone(browser, base, "student00001@example.edu")
    student.goto(base + "/example-state/leagues/scrabble-club/standings/")
    names = student.locator("table tbody .col-player").all()
    assert names, "the club's standings list its players"
    for cell in names[:12]:
        words = cell.inner_text().split()
        # A name's line count is at most its word count: never a word cut in two.
        lines = cell.evaluate(
            """e => { const r = document.createRange(); r.selectNodeContents(e);
            return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size; }"""
        )
        assert lines <= max(1, len(words)), cell.inner_text()

    director = phone(browser, base, "director@example.edu")
    director.goto(base + "/director/")
    for header in director.locator("table.leagues thead th").all():
        height = header.evaluate("e => e.getBoundingClientRect().height")
        line = header.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)")
        assert height < 2 * line, header.inner_text()  # "Pla/yer/s" no more
    director.goto(base + "/example-state/leagues/scrabble-club/nights/4/")
    card = director.locator(".table-card details").first
    card.evaluate("e => e.open = true")
    widths = {
        round(field.evaluate("e => e.getBoundingClientRect().width"))
        for field in card.locator("input[type=number], select, input[type=text]").all()
    }
    assert len(widths) == 1, widths
