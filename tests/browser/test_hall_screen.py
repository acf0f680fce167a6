"""The hall's screen (E3, issue 30): the projector page is one screen tall at 1280×720 and
1920×1080, with no site chrome; the leaders come ten at a time as slides that turn by
themselves, then each category's top three; the round and its time left are in large type."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser import shoot
from tests.support import FEST, create_event, run, write

pytestmark = pytest.mark.browser


@pytest.fixture
def fest(season, tmp_path):
    data = {**FEST, "date": season.institution.today().isoformat()}
    create_event(season, tmp_path, data, "fest.json")
    names = "".join(f"Hall Entrant {index:02},Just for Fun\n" for index in range(1, 26))
    run("import_entrants", write(tmp_path, "in.csv", "name,category\n" + names), "--league", "fest")
    run("pair_round", "--league", "fest", "--all-entrants", "--seed", "5")


@pytest.mark.parametrize("screen", [(1280, 720), (1920, 1080)])
def test_e3_the_projector_fits_one_screen_and_pages_through_the_leaders(
    browser, live_server, fest, screen
):
    width, height = screen
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.clock.install()
    page.goto(f"{live_server.url}/example-state/leagues/fest/projector/")

    assert page.evaluate("document.documentElement.scrollHeight") == height
    assert page.evaluate("document.documentElement.scrollWidth") == width
    expect(page.locator(".site-header")).to_have_count(0)  # no site chrome on the hall's screen
    expect(page.locator(".hall-round")).to_contain_text("Round 1 · 6:00 PM–6:45 PM")
    slides = page.locator(".hall-slide")
    expect(slides).to_have_count(4)  # 25 leaders ten at a time, then the top threes
    for index in range(4):
        overflow = page.evaluate(
            """(index) => { const slide = document.querySelectorAll('.hall-slide')[index];
            const was = slide.hidden; slide.hidden = false;
            const over = slide.scrollHeight > slide.parentElement.clientHeight + 1;
            slide.hidden = was; return over; }""",
            index,
        )
        assert not overflow, f"slide {index + 1} is taller than the screen"
    expect(slides.nth(0)).to_be_visible()
    expect(slides.nth(0)).to_contain_text("Leaders 1 of 3")
    shoot(page, f"projector-{width}x{height}")
    page.clock.run_for(10_500)
    expect(slides.nth(0)).to_be_hidden()
    expect(slides.nth(1)).to_contain_text("Leaders 2 of 3")
    page.clock.run_for(20_500)
    expect(slides.nth(3)).to_be_visible()
    expect(slides.nth(3)).to_contain_text("Each category's top three")
    assert page.evaluate("document.documentElement.scrollHeight") == height
    leave(page)


def leave(page):
    """Close the screen once its last refresh has been answered: a refresh still in flight
    when the test's database is emptied deadlocks the emptying (seen once in CI)."""
    page.wait_for_load_state("networkidle")
    page.context.close()


def test_e3_the_projectors_clock_reads_in_hours_and_minutes_and_a_paired_round_is_not_under_way(
    browser, live_server, fest
):
    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    page.goto(f"{live_server.url}/example-state/leagues/fest/projector/")

    clock = page.get_by_test_id("clock").inner_text()

    # Round 1 is paired and starts at 6:00 PM today: before then it "starts at", after it the
    # period's time left; never "under way" and "starts in" together, never 88 minutes.
    assert "under way" not in clock.lower()
    assert all(int(minutes) < 60 for minutes in re.findall(r"(\d+) min", clock)), clock
    assert clock.startswith(("Paired: starts at 6:00 PM", "Round 1: ", "Time is up")), clock
    assert "Period" not in clock  # round 1 has one period: it is the round's time left
    leave(page)
