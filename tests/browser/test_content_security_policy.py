"""The site and the director's admin in Chromium under the Content Security Policy (django-csp):
the sortable standings (static/js/sortable.js) still sort, the admin's autocomplete and forms
still work, and the browser reports no violation (tests/browser/conftest.py)."""

import pytest
from playwright.sync_api import expect

from league.refresh import refresh_leagues
from tests.browser import DESKTOP, log_in
from tests.support import entrant

pytestmark = pytest.mark.browser


def test_the_sortable_standings_sort_under_the_policy(
    browser, live_server, transactional_db, league
):
    for name in ("Ada", "Bo", "Cy"):
        entrant(league, first_name=name, last_name="Example")
    refresh_leagues([league.pk])
    page = browser.new_context(viewport=DESKTOP).new_page()

    response = page.goto(f"{live_server.url}/example-state/leagues/{league.slug}/standings/")

    assert "script-src 'self'" in response.headers["content-security-policy"]
    player_column = page.get_by_role("columnheader", name="Player")
    player_column.get_by_role("button").click()
    expect(player_column).to_have_attribute("aria-sort", "ascending")
    player_column.get_by_role("button").click()
    expect(player_column).to_have_attribute("aria-sort", "descending")
    expect(page.locator("tbody tr").first).to_contain_text("Cy Example")


def test_the_directors_admin_works_under_the_policy(
    browser, live_server, transactional_db, director, player, season
):
    page = browser.new_context(viewport=DESKTOP).new_page()
    log_in(page, live_server.url, director.user.email)

    page.goto(f"{live_server.url}/admin/")
    expect(page.get_by_role("heading", name="Your institution")).to_be_visible()
    page.goto(f"{live_server.url}/admin/accounts/eligibility/add/")
    # The profile field is an autocomplete (select2, the admin's own script).
    page.locator(".select2-selection").first.click()
    page.locator(".select2-search__field").fill(player.campus_id)
    page.get_by_role("option", name=str(player)).click()
    page.get_by_label("Season").select_option(label=str(season))
    page.get_by_label("Status").select_option("eligible")
    page.get_by_label("Reason").fill("Registrar's e-mail")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".messagelist")).to_contain_text("was added successfully")

    page.goto(f"{live_server.url}/admin/accounts/season/{season.pk}/import-roster/")
    expect(page.get_by_label("Roster CSV")).to_be_visible()
