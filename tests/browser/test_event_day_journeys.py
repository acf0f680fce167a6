"""The evening as staff meet it (issues 30, 48), in a browser: the demo's volunteer from the
printed login to the first card in (three taps: the address, the password, Log in; the scoring
table is their home, the table box already focused; a typo is said in the card's words with the
focus on it), the door reached from the desk's home, a leaver found by name who comes back, a
walk-in with an entrant's name asked about and a latecomer, and a club night whose latecomers
sit down after a table has reported."""

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from league.models import Entry, LeagueFormat, Round
from matches.models import Match, MatchStatus
from matches.services import card_enter
from tests.browser import DESKTOP, PHONE, log_in, shoot
from tests.support import LeagueFactory, eligible_student

pytestmark = pytest.mark.browser
PASSWORD = "scrabble-demo"


@pytest.fixture
def demo(transactional_db):
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115


def test_e3_the_volunteer_goes_from_the_printed_login_to_the_first_card_and_the_door_works(
    browser, live_server, demo
):
    base = live_server.url
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{base}/accounts/login/")
    taps = 0
    page.get_by_label("Email").fill("volunteer@example.edu")  # the printed login
    taps += 1
    page.get_by_label("Password").fill(PASSWORD)
    taps += 1
    page.get_by_role("button", name="Log in").click()
    taps += 1

    expect(page).to_have_url(f"{base}/example-state/leagues/scrabble-fest/rounds/2/scores/")
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="Leagues")).to_have_count(0)
    table = page.get_by_label("Table")
    expect(table).to_be_focused()
    match = Match.objects.filter(round__league__slug="scrabble-fest", round__number=2).exclude(
        status=MatchStatus.BYE
    )[0]
    seats = list(match.seats.order_by("order").select_related("player__user"))
    page.keyboard.type(str(match.table))
    expect(page.get_by_test_id("seated")).to_have_text(f"{len(seats)} seats.")
    for index in range(len(seats)):
        page.keyboard.press("Tab")
        page.keyboard.type(str(4020 if index == 0 else 400 - 10 * index))  # a typo: 4020
    page.keyboard.press("Enter")
    # The typo is said in the card's words, naming the seat, and the focus is on it.
    expect(
        page.get_by_text(re.compile(r"4020 for Seat 1: .* is not a Scrabble score"))
    ).to_be_visible()
    first_score = page.locator('input[name="score_1"]')
    expect(first_score).to_be_focused()
    first_score.fill("400")
    page.keyboard.press("Enter")
    # The demo's round 2 starts a few minutes after it was made: a card for a round that has
    # not begun is asked about once (E3), then taken.
    page.wait_for_selector("[role=status], #id_before_start")
    if page.locator("#id_before_start").count():
        expect(page.get_by_text("Round 2 starts at")).to_be_visible()
        page.get_by_label("Yes, enter it anyway").check()
        page.get_by_role("button", name="Enter card").click()

    expect(page.get_by_role("status")).to_contain_text(f"Table {match.table}:")
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED and taps == 3
    shoot(page, "volunteer-first-card-phone")
    door_brings_back_a_leaver_and_adds_a_latecomer(browser, base)


def door_brings_back_a_leaver_and_adds_a_latecomer(browser, base):
    """E3: the door, on the same demo (one demo per test file keeps the suite quick)."""
    page = browser.new_context(viewport=PHONE).new_page()
    log_in(page, base, "frontdesk@example.edu", PASSWORD)
    # On the event's day the desk's home leads to its door, first (the demo's two events, each
    # its own).
    page.goto(f"{base}/")
    doors = page.get_by_test_id("doors-today")
    expect(doors.get_by_role("link")).to_have_count(2)
    doors.get_by_role("link", name="Check in at the door: Scrabble Fest").click()
    expect(page).to_have_url(f"{base}/example-state/leagues/scrabble-fest/desk/")
    leaver = Entry.objects.filter(league__slug="scrabble-fest").order_by("player_number")[3]
    name = leaver.player.name
    # A name typed into the scan box is looked up as a name.
    scan = page.get_by_label("Scan a campus ID or type a player number")
    scan.fill(name)
    scan.press("Enter")
    expect(page.get_by_role("status")).to_contain_text("looked up as a name")
    row = page.get_by_test_id("check-in-list").locator("li").filter(has_text=name)
    row.locator("details.more > summary", has_text="More").click()
    page.get_by_role("button", name=f"{name} leaves the event").click()
    expect(page.get_by_role("status")).to_contain_text("has left")
    expect(page.get_by_test_id("here-count")).to_contain_text("39 of 39 here, 1 left")

    scan = page.get_by_label("Scan a campus ID or type a player number")
    scan.fill(str(leaver.player_number))
    scan.press("Enter")
    expect(page.get_by_role("status")).to_contain_text("had left and is back")
    expect(page.get_by_test_id("here-count")).to_contain_text("40 of 40 here")

    # A walk-in with an entrant's name: the desk is asked, and the same person is checked in.
    page.get_by_text("Add a walk-in").click()
    page.get_by_label("Name").fill(name)
    page.get_by_label("Category").select_option("Just for Fun")
    page.get_by_role("button", name="Add and check in").click()
    question = page.get_by_test_id("same-name")
    expect(question).to_contain_text("the same person, or a namesake?")
    question.get_by_role("button", name=re.compile(f"The same person: check in {name}")).click()
    expect(page.get_by_role("status")).to_contain_text(f"{name} was already checked in")
    expect(page.get_by_test_id("here-count")).to_contain_text("40 of 40 here")

    page.get_by_text("Add a walk-in").click()
    page.get_by_label("Name").fill("Lana Latecomer")
    page.get_by_label("Category").select_option("Just for Fun")
    page.get_by_role("button", name="Add and check in").click()
    expect(page.get_by_role("status")).to_contain_text("Lana Latecomer is number")
    expect(page.get_by_test_id("here-count")).to_contain_text("41 of 41 here")
    shoot(page, "door-back-and-latecomer-phone")


@pytest.fixture
def club_night(transactional_db, institution, season):
    club = LeagueFactory(
        season=season, format=LeagueFormat.CLUB, name="Late Club", slug="late-club"
    )
    players = [eligible_student(season, first_name=f"Late{index}") for index in range(9)]
    for number, player in enumerate(players, start=1):
        Entry.objects.create(league=club, player=player, player_number=number)
    Round.objects.create(league=club, number=1, play_by=institution.today())
    return club, players


def test_e4_latecomers_at_a_club_night_sit_down_after_a_table_has_reported(
    browser, live_server, club_night, director
):
    club, players = club_night
    base = live_server.url
    page = browser.new_context(viewport=DESKTOP).new_page()
    log_in(page, base, director.user.email)
    page.goto(f"{base}/example-state/leagues/{club.slug}/nights/1/")
    scan = page.get_by_label("Scan a campus ID or type a player number")
    for player in players[:7]:
        scan = page.get_by_label("Scan a campus ID or type a player number")
        scan.fill(player.campus_id)
        scan.press("Enter")
    page.get_by_role("button", name="Seat 7 players").click()
    expect(page.get_by_role("status")).to_contain_text("2 tables seated")
    first = Match.objects.filter(round__league=club).order_by("table")[0]
    card_enter(actor=director.user, match=first, scores=[300, 310, 320, 330])

    for player in players[7:]:
        scan = page.get_by_label("Scan a campus ID or type a player number")
        scan.fill(player.campus_id)
        scan.press("Enter")
    expect(page.get_by_role("button", name="Re-seat")).to_have_count(0)
    latecomers = page.get_by_test_id("latecomers")
    expect(latecomers).to_contain_text("2 without a table")
    latecomers.get_by_role("button", name="Seat the 2 latecomers").click()

    expect(page.get_by_role("status")).to_contain_text("Latecomers seated at table 3")
    expect(page.get_by_test_id("table-3")).to_contain_text(players[7].name)
    assert Match.objects.filter(round__league=club).count() == 3
    shoot(page, "club-latecomers-desktop")
