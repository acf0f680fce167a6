"""Standings at 360 px (issue 17): rank, name, wins, losses and spread on screen without scrolling
sideways, the caption readable, and the reader's own row marked."""

import pytest
from playwright.sync_api import expect

from league.refresh import refresh_leagues
from tests.browser import log_in
from tests.support import confirmed_game, entrant, match_between

pytestmark = pytest.mark.browser
PHONE_360 = {"width": 360, "height": 740}


def test_standings_fit_a_360_px_phone_and_mark_the_readers_row(
    browser, live_server, transactional_db, league
):
    players = [
        entrant(league, first_name=first, last_name=last)
        for first, last in [
            ("Maximiliana", "Featherstonehaugh"),
            ("Bo", "Li"),
            ("Oakley", "Pemberton-Thistlewood"),
            ("Di", "Ng"),
        ]
    ]
    first, second, third, fourth = players
    confirmed_game(match_between(league, first, second), winner=first, loser=second)
    confirmed_game(match_between(league, third, fourth), winner=fourth, loser=third)
    refresh_leagues([league.pk])

    page = browser.new_context(viewport=PHONE_360).new_page()
    log_in(page, live_server.url, third.user.email)
    page.goto(f"{live_server.url}/example-state/leagues/{league.slug}/standings/")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_360["width"]
    table = page.locator("table.standings")
    box = table.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE_360["width"]
    for key in ("rank", "player", "wins", "losses", "spread"):
        cell = table.locator(f"thead th.col-{key}")
        expect(cell).to_be_visible()
        right = cell.bounding_box()["x"] + cell.bounding_box()["width"]
        assert right <= PHONE_360["width"], f"{key} is cut off at {right} px"
    # The caption is on screen, not behind a sideways scroll.
    caption = table.locator("caption").bounding_box()
    assert caption["x"] + caption["width"] <= PHONE_360["width"]
    # The reader's own row, and only theirs.
    mine = table.locator("tr.mine")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text("Oakley Pemberton-Thistlewood")
    badge = mine.locator("th").evaluate("th => getComputedStyle(th, '::after').content")
    assert badge == '"you"'
    # On a desktop the other columns are there.
    wide = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    wide.goto(f"{live_server.url}/example-state/leagues/{league.slug}/standings/")
    expect(wide.locator("thead th.col-points_against")).to_be_visible()
