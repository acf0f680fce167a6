"""The director without the admin (issue 30), in a browser: setting up an event by form from
the dashboard, then drawing a league's rounds from its director page after seeing them."""

from datetime import timedelta

import pytest
from playwright.sync_api import expect

from league.models import League, Round
from tests.browser import DESKTOP, log_in, shoot
from tests.support import LeagueFactory, entrant

pytestmark = pytest.mark.browser


def test_e3_e1_the_director_sets_up_an_event_by_form_and_draws_a_league(
    browser, live_server, transactional_db, director, season
):
    league = LeagueFactory(season=season, slug="spring-league", name="Spring League")
    for index in range(4):
        entrant(league, first_name=f"Spring{index}")
    base = live_server.url
    page = browser.new_context(viewport=DESKTOP).new_page()
    log_in(page, base, director.user.email)

    page.goto(f"{base}/director/")
    page.get_by_role("link", name="Set up an event", exact=True).click()
    expect(page).to_have_url(f"{base}/director/events/new/event/")
    page.locator("#id_name").fill("Spring Fest")
    page.get_by_label("Address on the site").fill("spring-fest")
    day = season.institution.today() + timedelta(days=10)
    page.get_by_label("The event's day").fill(day.isoformat())
    page.get_by_label("Categories").fill("Competitive | Competitive | 150\nJust for Fun | Fun |")
    page.get_by_label("Assists sold at the tables").fill("Ringer | 10 | 20")
    shoot(page, "director-event-form")
    page.get_by_role("button", name="Save an event").click()
    expect(page.get_by_role("status")).to_contain_text("Spring Fest is set up")
    assert League.objects.get(slug="spring-fest").rounds.count() == 3  # the default rounds

    page.goto(f"{base}/director/leagues/spring-league/")
    draw = page.get_by_test_id("draw")
    expect(draw).to_contain_text("4 players are in")
    draw.get_by_role("button", name="Show the rounds to draw").click()
    expect(page.get_by_test_id("draw-rounds").locator("li")).to_have_count(3)
    assert not Round.objects.filter(league=league).exists()
    page.get_by_role("button", name="Draw 3 rounds").click()
    expect(page.get_by_role("status")).to_contain_text("3 rounds drawn")
    assert Round.objects.filter(league=league).count() == 3
