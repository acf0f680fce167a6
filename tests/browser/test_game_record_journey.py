"""Issue 6 in a real browser, on a phone: the winner attaches a GCG record to the report, and
the match page replays the game move by move (G1, G4)."""

import pytest
from playwright.sync_api import expect

from tests.browser import PHONE, log_in, shoot
from tests.support import STANDARD_RECORD

pytestmark = pytest.mark.browser


@pytest.fixture
def record(tmp_path):
    """The game Rowan and Sage played (Sage won 45-36), as the file Sage attaches."""
    path = tmp_path / "rowan-v-sage.gcg"
    path.write_text(STANDARD_RECORD)
    return path


def test_the_winner_attaches_the_game_record_and_steps_through_the_game(
    browser, live_server, match, opponent, record
):
    page = browser.new_context(viewport=PHONE).new_page()
    log_in(page, live_server.url, opponent.user.email)
    page.goto(f"{live_server.url}{match.get_absolute_url()}")
    # The match was never scheduled: the report waits behind "Already played?", and the
    # optional fields behind "More details" (issue 17).
    page.get_by_text("Already played? Report the result").click()
    page.get_by_label("Your final score").fill("45")
    page.get_by_label("Rowan Pemberton's final score").fill("36")
    page.get_by_text("More details (optional)").click()
    page.get_by_label("Yes, really").check()
    page.get_by_label("Game record, a GCG file (optional)").set_input_files(record)
    page.get_by_role("button", name="Report result").click()
    expect(page.get_by_role("status")).to_contain_text("Result reported")
    # The game sits behind its own heading; the report's link opens it at the last move.
    page.get_by_role("link", name="The game record").click()

    position = page.get_by_test_id("game-position")
    expect(position).to_contain_text("After move 9")
    expect(position).to_contain_text("sage 45, rowan 36")
    page.get_by_role("link", name="sage: 8D WINDY +32").click()
    expect(position).to_contain_text("After move 1")
    expect(page.locator("table.board td.new")).to_have_count(5)
    page.get_by_role("link", name="Next →").click()
    expect(position).to_contain_text("After move 2")
    expect(position).to_contain_text("7C GALE")
    shoot(page, "game-record-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
