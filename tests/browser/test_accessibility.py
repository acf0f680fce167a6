"""Accessibility (issue 17): axe-core checks every page of the demo, as each persona sees it, on
a phone (390 px) and a desktop (1280 px): no serious or critical violation. And one journey by
keyboard alone: report a result, confirm it."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser import DESKTOP, log_in

pytestmark = pytest.mark.browser

WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": DESKTOP}
PASSWORD = "scrabble-demo"
SERIOUS = {"serious", "critical"}

PUBLIC = [
    "/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/example-state/leagues/tuesday-night/",
    "/example-state/leagues/tuesday-night/standings/",
    "/example-state/leagues/tuesday-night/bracket/",
    "/example-state/leagues/tuesday-night/two-letter-words/",
    "/example-state/leagues/scrabble-fest/",
    "/example-state/leagues/scrabble-fest/leaderboard/",
    "/example-state/leagues/scrabble-fest/projector/",
    "/example-state/leagues/scrabble-fest/rounds/1/",
    "/example-state/leagues/scrabble-fest/rounds/1/tables/1/",
    "/example-state/leagues/scrabble-fest/timer/",
    "/example-state/leagues/corporate-challenge/leaderboard/",
    "/example-state/leagues/corporate-challenge/rounds/1/tables/1/",  # issue 32: the players' card, in
]


def _student_pages():
    """The student's own pages, and a match of theirs in each state the demo has."""
    from matches.models import Match

    pages = [
        "/",
        "/leagues/",
        "/example-state/leagues/wednesday-open/",
        "/profile/",
        "/ratings/",
    ]  # R1
    mine = Match.objects.filter(seats__player__user__email="student00001@example.edu")
    for status in ("unscheduled", "reported", "confirmed", "forfeit", "double_forfeit"):
        match = mine.filter(status=status).order_by("pk").first()
        if match is not None:
            pages.append(match.get_absolute_url())
    return pages


STAFF = {
    "frontdesk@example.edu": [
        "/",
        "/desk/",
        "/example-state/leagues/scrabble-club/nights/4/",
        "/example-state/leagues/scrabble-fest/desk/",
        "/example-state/leagues/scrabble-fest/rounds/2/scores/",
        "/example-state/leagues/corporate-challenge/assists/",
        "/example-state/leagues/scrabble-fest/rounds/1/scores/",
        "/example-state/leagues/corporate-challenge/rounds/1/scores/",  # issue 32: what needs a person
    ],
    # Issue 30: the volunteer's home (their scoring table), a site admin's institution picker.
    "volunteer@example.edu": ["/", "/example-state/leagues/scrabble-fest/assists/"],
    "admin@example.edu": ["/director/"],
    "director@example.edu": [
        "/director/",
        "/director/events/new/",
        "/director/disputes/",
        "/director/exports/",  # issue 31: who took which personal data
        "/ratings/import/",  # R5: known ratings from a file
        "/director/events/new/event/",  # R4: categories suggested by rating bands
        "/director/leagues/wednesday-open/",
        "/example-state/leagues/tuesday-night/",
        "/example-state/leagues/scrabble-fest/rounds/2/",
        "/example-state/leagues/scrabble-fest/volunteers/",
        "/admin/",
        "/admin/matches/match/",
        "/admin/matches/dispute/",
    ],
}


@pytest.fixture
def demo(transactional_db):
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115


def _violations(axe, page, url, csp):
    # axe-core itself, injected by the test, may set a style attribute while it measures; the
    # page's own violations were logged while it loaded, before this point.
    page.wait_for_load_state("load")
    logged = len(csp)
    results = axe.run(page)
    del csp[logged:]
    return [
        f"{url} [{page.viewport_size['width']} px] {v['impact']}: {v['id']} — {v['help']} "
        f"({', '.join(node['target'][0] for node in v['nodes'][:3])})"
        for v in results.response["violations"]
        if v["impact"] in SERIOUS
    ]


def _check(browser, base, email, urls, csp):
    axe = Axe()
    found = []
    for size in WIDTHS.values():
        page = browser.new_context(viewport=size).new_page()
        if email:
            log_in(page, base, email, PASSWORD)
        for url in urls:
            response = page.goto(base + url)
            assert response.status == 200, f"{url}: {response.status}"
            found += _violations(axe, page, url, csp)
        page.context.close()
    return found


def test_no_serious_accessibility_violation_on_any_page_of_the_demo(
    browser, live_server, demo, no_content_security_policy_violations
):
    csp = no_content_security_policy_violations
    found = _check(browser, live_server.url, None, PUBLIC, csp)
    found += _check(browser, live_server.url, "student00001@example.edu", _student_pages(), csp)
    from matches.models import Match

    disputed = Match.objects.filter(status="disputed").order_by("pk").first()
    staff = {email: list(urls) for email, urls in STAFF.items()}
    staff["director@example.edu"].append(f"/admin/matches/match/{disputed.pk}/change/")
    for email, urls in staff.items():
        found += _check(browser, live_server.url, email, urls, csp)
    assert not found, "\n".join(found)


def test_report_and_confirm_a_result_by_keyboard_alone(
    browser, live_server, match, opponent, player
):
    """Tab, Space and Enter only: the winner opens the report, types both scores and sends it;
    the opponent confirms it."""
    base = live_server.url
    winner = browser.new_context(viewport=WIDTHS["phone"]).new_page()
    log_in(winner, base, player.user.email)
    winner.goto(base + match.get_absolute_url())
    keyboard = winner.keyboard

    def tab_to(page, predicate, limit=60):
        for _ in range(limit):
            page.keyboard.press("Tab")
            if page.evaluate(predicate):
                return
        raise AssertionError(f"Tab never reached {predicate}")

    tab_to(winner, "document.activeElement.textContent.includes('Already played?')")
    keyboard.press("Enter")  # opens the <details>
    tab_to(winner, "document.activeElement.name === 'score_1'")
    keyboard.type("402")
    keyboard.press("Tab")
    keyboard.type("377")
    tab_to(winner, "document.activeElement.textContent === 'Report result'")
    keyboard.press("Enter")
    expect(winner.get_by_test_id("match-status")).to_contain_text("Reported")

    loser = browser.new_context(viewport=WIDTHS["phone"]).new_page()
    log_in(loser, base, opponent.user.email)
    loser.goto(base + match.get_absolute_url())
    tab_to(loser, "document.activeElement.textContent === 'Confirm this result'")
    loser.keyboard.press("Enter")
    expect(loser.get_by_test_id("match-status")).to_have_text("Confirmed")
