"""The corporate challenge evening in a browser (E5, seed 004): twelve teams checked in at the
door, round 1 seated at four-seat tables with no two teammates together, the official score
sheets printed, assists sold at the first price and, after round 1, at the later one, every
table's totals typed at the scoring table, and the team leaderboard with the money raised."""

import subprocess

import pytest
from playwright.sync_api import expect

from events.assist_ledger import ledger
from events.demo import COMPANIES, challenge_settings
from events.entrants_file import entrants_import
from events.files import event_league_save, read_event_file
from events.models import AssistSale
from league.models import Entry
from matches.models import Match
from tests.browser import DESKTOP, PHONE, SHOTS, log_in, shoot


@pytest.fixture
def challenge(transactional_db, institution, season, director):
    settings = challenge_settings(institution.today())
    # Round 1 in one period, round 2 late tonight: whenever the test runs, round 1 sells at
    # the first price and round 2 at the later one.
    settings["rounds"] = [
        {"number": 1, "periods": [{"starts": "00:00", "minutes": 30}]},
        {"number": 2, "periods": [{"starts": "23:59", "minutes": 1}]},
    ]
    league, _ = event_league_save(
        actor=director.user, season=season, event=read_event_file(settings)
    )
    rows = ["name,team"] + [
        f"{company.split()[0]} Player {member},{company}"
        for index, company in enumerate(COMPANIES)
        for member in range(1, 4 if index == len(COMPANIES) - 1 else 5)
    ]
    result = entrants_import(actor=director.user, league=league, data="\n".join(rows).encode())
    assert result.entrants == 47
    return league


def _sell(page, name, item, quantity="1"):
    row = page.locator(".sell-seats li", has_text=name)
    row.get_by_label("Quantity").select_option(quantity)
    row.get_by_role("button", name=f"Sell {item} to {name}").click()
    expect(page.get_by_role("status")).to_contain_text(f"{quantity} × {item} to {name}")


def test_e5_the_corporate_challenge_from_the_door_to_the_team_leaderboard(
    browser, live_server, challenge, director, tmp_path
):
    base = live_server.url
    desk = browser.new_context(viewport=DESKTOP).new_page()
    log_in(desk, base, director.user.email)
    slug = challenge.slug

    desk.goto(f"{base}/example-state/leagues/{slug}/desk/")
    for number in range(1, 48):
        scan = desk.get_by_label("Scan a campus ID or type a player number")
        scan.fill(str(number))
        scan.press("Enter")
        expect(desk.get_by_role("status")).to_contain_text(f"(number {number}) is checked in")
    expect(desk.get_by_role("heading", name="Check-in (47 of 47 here)")).to_be_visible()

    desk.goto(f"{base}/example-state/leagues/{slug}/rounds/1/")
    desk.get_by_role("button", name="Pair round 1").click()
    expect(desk.get_by_role("status")).to_contain_text("Round 1 paired: 12 tables")
    tables = list(Match.objects.filter(round__league=challenge, round__number=1).order_by("table"))
    assert sorted(m.seats.count() for m in tables) == [3] + [4] * 11
    team_of = dict(
        Entry.objects.filter(league=challenge).values_list("player_id", "entrant__team_id")
    )
    for match in tables:
        teams = [team_of[s.player_id] for s in match.seats.all()]
        assert len(set(teams)) == len(teams)  # E5: every member of a team at another table
    shoot(desk, "challenge-1-round-1-seated")

    # The official score sheets, as the printer gets them; one page turned into a PNG.
    sheets = desk.request.get(
        f"{base}/example-state/leagues/{slug}/rounds/1/print/sheets.pdf?paper=letter"
    )
    assert sheets.ok and sheets.headers["content-type"] == "application/pdf"
    pdf = tmp_path / "sheets.pdf"
    pdf.write_bytes(sheets.body())
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    assert "Pages:           24" in info  # a sheet and its back for each of the 12 tables
    SHOTS.mkdir(exist_ok=True)
    subprocess.run(
        [
            "pdftoppm",
            "-r",
            "50",
            "-png",
            "-f",
            "1",
            "-l",
            "1",
            str(pdf),
            str(SHOTS / "challenge-2-sheet"),
        ],
        check=True,
    )

    # Assists during round 1: the first price.
    desk.goto(f"{base}/example-state/leagues/{slug}/assists/")
    desk.get_by_text("Table 1", exact=True).click()
    first = Match.objects.get(round__league=challenge, table=1).seats.order_by("order")
    first_name = first[0].player.name
    _sell(desk, first_name, "Ringer", "2")
    _sell(desk, first_name, "Q/Z/X word list")

    # The totals from the score sheets, typed at the scoring table.
    desk.goto(f"{base}/example-state/leagues/{slug}/rounds/1/scores/")
    for match in tables:
        expect(desk.get_by_label("Table", exact=True)).to_be_focused()
        desk.keyboard.type(str(match.table))
        expect(desk.get_by_test_id("seated")).to_have_text(f"{match.seats.count()} seats.")
        for seat in range(match.seats.count()):
            desk.keyboard.press("Tab")
            desk.keyboard.type(str(250 + 10 * seat + match.table))
        desk.keyboard.press("Enter")
        expect(desk.get_by_role("status")).to_contain_text(f"Table {match.table}:")

    # Round 2 paired: assists now cost the later price.
    desk.goto(f"{base}/example-state/leagues/{slug}/rounds/2/")
    desk.get_by_role("button", name="Pair round 2").click()
    expect(desk.get_by_role("status")).to_contain_text("Round 2 paired")
    desk.goto(f"{base}/example-state/leagues/{slug}/assists/")
    desk.get_by_text("Table 1", exact=True).click()
    second_name = (
        Match.objects.get(round__league=challenge, round__number=2, table=1)
        .seats.first()
        .player.name
    )
    _sell(desk, second_name, "Power Play")
    prices = sorted(AssistSale.objects.values_list("item__name", "unit_cents"))
    assert prices == [("Power Play", 4000), ("Q/Z/X word list", 500), ("Ringer", 1000)]
    raised = ledger(challenge).total_cents
    assert raised == 2 * 1000 + 500 + 4000

    # The team leaderboard first, then everyone; the money raised beside it, on a phone too.
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(f"{base}/example-state/leagues/{slug}/leaderboard/")
    expect(phone.get_by_test_id("raised")).to_contain_text("$65.00")
    teams = phone.locator("#teams-heading + ol > li")
    expect(teams).to_have_count(12)
    expect(phone.get_by_text("1 empty place at the members' average")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(phone, "challenge-3-team-leaderboard-phone")
