"""R4 and R5 end to end in a real browser: the director imports four players' known ratings on
the web, sets the tournament to seed by rating in the admin, the night after registration closes
draws the bracket in rating order (1 v 4, 2 v 3), and on her phone the lowest seed sees her first
opponent's rating and her chances on My matches."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from league.models import Bracket, Entry, LeagueFormat, SeedBy
from tests.browser import DESKTOP, PHONE, shoot, signed_in
from tests.support import LeagueFactory, SeasonFactory, eligible_student

pytestmark = pytest.mark.browser

# Joined in this order, which is the director's entry order; their known ratings are not.
PLAYERS = {"Priya": 1480, "Felix": 1910, "Hana": 1320, "Diego": 1705}


def test_r4_r5_a_tournament_seeded_by_imported_ratings(
    browser, live_server, transactional_db, institution, director, tmp_path
):
    today = institution.today()
    season = SeasonFactory(
        institution=institution,
        name="Fall 2026",
        slug="fall-2026",
        starts_on=today - timedelta(days=10),
        ends_on=today + timedelta(days=80),
        registration_deadline=today,
    )
    league = LeagueFactory(
        season=season,
        name="Ratings Cup",
        slug="ratings-cup",
        format=LeagueFormat.SINGLE_ELIMINATION,
    )
    players = {
        first: eligible_student(season, first_name=first, last_name="Example") for first in PLAYERS
    }
    for seed, player in enumerate(players.values(), start=1):
        Entry.objects.create(league=league, player=player, seed=seed)
    base = live_server.url

    # The director imports the club members' known ratings (R5), one line refused by number.
    desk = signed_in(browser, base, director.user.email, viewport=DESKTOP)
    desk.goto(f"{base}/director/")
    desk.get_by_role("link", name="Import known ratings (CSV)").click()
    known = tmp_path / "known.csv"
    known.write_text(
        "campus_id,rating\n"
        + "".join(f"{players[first].campus_id},{rating}\n" for first, rating in PLAYERS.items())
        + "7654321,1500\n"
    )
    desk.get_by_label("Ratings (CSV)").set_input_files(str(known))
    desk.get_by_role("button", name="Import").click()
    expect(desk.get_by_test_id("refused-lines")).to_contain_text("Line 6: no player at")
    desk.goto(f"{base}/ratings/")
    rows = desk.locator("table tbody tr")
    expect(rows.first).to_contain_text("Felix Example")
    expect(rows.first).to_contain_text("1910")

    # In the admin the director seeds the bracket by rating instead of the order of entry.
    desk.goto(f"{base}/admin/league/league/{league.pk}/change/")
    desk.get_by_label("Seed the bracket by").select_option(SeedBy.RATING)
    desk.get_by_role("button", name="Save", exact=True).click()
    expect(desk.locator(".messagelist")).to_contain_text("was changed successfully")

    # The night after registration closes draws it: by rating, highest first (L11, R4).
    said = StringIO()
    call_command("run_nightly", "--today", f"{today + timedelta(days=1)}", stdout=said)
    assert "brackets_built=1 " in said.getvalue()
    by_rating = sorted(PLAYERS, key=PLAYERS.get, reverse=True)
    assert Bracket.objects.get(league=league).seeds == [players[f].pk for f in by_rating]

    visitor = browser.new_context(viewport=PHONE).new_page()
    visitor.goto(f"{base}/example-state/leagues/ratings-cup/bracket/")
    first_round = visitor.get_by_role("region", name="Round 1")
    for seed, first in enumerate(by_rating, start=1):
        expect(first_round).to_contain_text(f"{seed} {first} Example")
    shoot(visitor, "r4-bracket-by-rating-phone")

    # Hana, the lowest seed, meets Felix: My matches gives his rating and her chances.
    hana = signed_in(browser, base, players["Hana"].user.email)
    hana.goto(f"{base}/")
    odds = hana.get_by_test_id("my-odds")
    expect(odds).to_contain_text(
        f"{players['Felix'].name} rated 1910: your chance of winning about"
    )
    chance = int(odds.inner_text().rsplit("about", 1)[1].strip(" %"))
    assert 10 <= chance <= 16  # 590 points apart: NASPA expects about 13 wins in 100
    assert hana.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(hana, "r1-my-matches-odds-phone")
