"""The table timer on a phone (G8, G3): a turn counts down, the next player's clock starts on a
tap, a timed-out turn is signalled as lost, turns are counted per player, and it keeps working
with the network gone. Playwright's clock stands in for the two and a half minutes."""

from playwright.sync_api import expect

from tests.browser import PHONE, shoot
from tests.support import LeagueFactory


def test_g8_the_timer_counts_a_turn_down_signals_a_lost_turn_and_works_offline(
    browser, live_server, season
):
    league = LeagueFactory(season=season, slug="fest-timer", turn_time_seconds=150)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.clock.install()
    page.goto(
        f"{live_server.url}/example-state/leagues/{league.slug}/timer/?seconds=150&players=2&names=Ann,Ben&table=7"
    )
    clock = page.locator("#timer-clock")
    expect(clock).to_have_text("2:30")
    expect(page.get_by_text("Table 7")).to_be_visible()
    page.get_by_role("button", name="Resume").click()
    page.clock.run_for(10_000)
    expect(clock).to_have_text("2:20")
    expect(page.locator("#timer-who")).to_have_text("Ann")

    page.get_by_role("button", name="Done — next player").click()
    expect(page.locator("#timer-who")).to_have_text("Ben")
    expect(clock).to_have_text("2:30")
    page.clock.run_for(151_000)
    expect(page.get_by_role("alert")).to_contain_text("Time! Turn lost")
    expect(clock).to_have_text("0:00")
    shoot(page, "timer-timed-out-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    context.set_offline(True)  # the venue's Wi-Fi drops: nothing the timer needs is fetched
    page.get_by_role("button", name="Done — next player").click()
    expect(page.locator("#timer-who")).to_have_text("Ann")
    expect(page.get_by_role("alert")).to_be_hidden()
    page.clock.run_for(5_000)
    expect(clock).to_have_text("2:25")
    turns = page.locator("#timer-turns .count")
    expect(turns).to_have_text(["1", "1"])  # G3: the table sees the turns played


def test_g8_an_untimed_table_only_counts_turns(browser, live_server, season):
    league = LeagueFactory(season=season, slug="fun-timer")
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{live_server.url}/example-state/leagues/{league.slug}/timer/?seconds=0&players=3")
    expect(page.get_by_text("Untimed: no turn limit")).to_be_visible()
    page.get_by_role("button", name="Done — next player").click()
    expect(page.locator("#timer-who")).to_have_text("Player 2")
