"""Issue 6 in a real browser, on a phone: the winner attaches a GCG record to the report, and
the match page replays the game move by move (G1, G4)."""

import pytest
from playwright.sync_api import expect

from accounts import roles
from tests.browser.test_front_desk_journey import log_in, shoot
from tests.factories import (
    InstitutionFactory,
    LeagueFactory,
    ProfileFactory,
    SeasonFactory,
    eligible,
    match_between,
)
from tests.test_game_records import STANDARD_RECORD

pytestmark = pytest.mark.browser
PHONE = {"width": 360, "height": 740}


@pytest.fixture
def game(transactional_db, tmp_path):
    roles.sync_groups()
    institution = InstitutionFactory(slug="example-state", email_domains="example.edu")
    season = SeasonFactory(institution=institution)
    league = LeagueFactory(season=season, slug="tuesday-night")
    rowan = eligible(
        ProfileFactory(
            institution=institution, user__first_name="Rowan", user__last_name="Pemberton"
        ),
        season,
    )
    sage = eligible(
        ProfileFactory(institution=institution, user__first_name="Sage", user__last_name="Okafor"),
        season,
    )
    record = tmp_path / "rowan-v-sage.gcg"
    record.write_text(STANDARD_RECORD)
    return {"match": match_between(league, rowan, sage), "winner": sage, "record": record}


def test_the_winner_attaches_the_game_record_and_steps_through_the_game(browser, live_server, game):
    page = browser.new_context(viewport=PHONE).new_page()
    log_in(page, live_server.url, game["winner"].user.email)
    page.goto(f"{live_server.url}{game['match'].get_absolute_url()}")
    page.get_by_label("Your final score").fill("45")
    page.get_by_label("Your opponent's final score").fill("36")
    page.get_by_label("Yes, really").check()
    page.get_by_label("Game record, a GCG file (optional)").set_input_files(game["record"])
    page.get_by_role("button", name="Report result").click()
    expect(page.get_by_role("status")).to_contain_text("Result reported")

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
