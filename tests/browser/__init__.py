"""What the browser journeys share: screen sizes, logging in through the form, screenshots, and the
steps a season is made of (joining, the director's draw, a match's proposal, report and
confirmation), each found by its label or button text, whatever the page's layout."""

import re
from pathlib import Path

from playwright.sync_api import expect

from tests.support import PASSWORD

SHOTS = Path(__file__).parent / "screenshots"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def log_in(page, base_url, email, password=PASSWORD):
    page.goto(f"{base_url}/accounts/login/")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def signed_in(browser, base_url, email, viewport=PHONE):
    """A page of its own browser context (its own cookies), logged in as `email`."""
    page = browser.new_context(viewport=viewport).new_page()
    log_in(page, base_url, email)
    return page


def shoot(page, name):
    """A full-page screenshot in tests/browser/screenshots/ (git-ignored) for a human to look at."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}.png", full_page=True)


def reveal(locator):
    """`locator` with every <details> around it open, outermost first: a page may keep a form or
    a field behind a disclosure ("More details", "Something wrong?"), open or not yet."""
    around = locator.locator("xpath=ancestor::details")
    for index in range(around.count()):
        details = around.nth(index)
        if not details.evaluate("element => element.open"):
            details.locator("xpath=./summary").click()
    return locator


# --- The steps of a season ----------------------------------------------------------------------


def join(page, base_url, league_name):
    """A student joins on the leagues page."""
    page.goto(f"{base_url}/leagues/")
    page.get_by_role("button", name=f"Join {league_name}").click()
    expect(page.get_by_role("status")).to_contain_text(f"You joined {league_name}")


def draw_the_rounds(page, base_url, league, first_play_by):
    """The director draws the round robin in the admin. Returns the admin's message, which says
    how many rounds were drawn."""
    page.goto(f"{base_url}/admin/league/league/{league.pk}/draw/")
    page.get_by_label("Play-by date of round 1").fill(first_play_by.isoformat())
    page.get_by_role("button", name="Go").click()
    said = page.locator(".messagelist")
    expect(said).to_contain_text("rounds drawn")
    return said


def propose_a_time(page, when):
    """On the match page, `when` (a wall-clock time on campus) as the first choice (L1)."""
    reveal(page.get_by_label("First choice")).fill(when.strftime("%Y-%m-%dT%H:%M"))
    page.get_by_role("button", name="Propose", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("Times proposed")


def accept_the_time(page, when):
    """On the match page, the opponent accepts the proposed time on `when`'s day."""
    reveal(page.get_by_label(re.compile(when.strftime("%a %b %-d")))).check()
    page.get_by_role("button", name="Accept this time").click()
    expect(page.get_by_test_id("match-status")).to_have_text("Scheduled")


def report_the_result(page, mine, theirs, opponent_name, ended_by=None):
    """On the match page, the winner reports both final scores (L7); `ended_by`, the label of how
    the game ended (G3), when not the form's default."""
    reveal(page.get_by_label("Your final score")).fill(str(mine))
    reveal(page.get_by_label(f"{opponent_name}'s final score")).fill(str(theirs))
    if ended_by:
        reveal(page.get_by_label("How the game ended")).select_option(label=ended_by)
    # A game reported before its agreed time: the form asks whether it was played earlier.
    earlier = page.get_by_label("We played earlier than agreed")
    if earlier.count():
        reveal(earlier).check()
    reveal(page.get_by_role("button", name="Report result")).click()
    expect(page.get_by_role("status")).to_contain_text("Result reported")


def confirm_the_result(page):
    """On the match page, the opponent confirms the reported result (L6)."""
    reveal(page.get_by_role("button", name="Confirm this result")).click()
    expect(page.get_by_role("status")).to_contain_text("Confirmed")
