"""A club night on phones (E4, G9): the front desk checks four students in, the director seats
them, the scorekeeper reports every seat's score, two confirm, one disputes, the director rules
in the admin, and the club's standings count the table as three games for each player."""

import pytest
from playwright.sync_api import expect

from league.models import Entry, LeagueFormat, Round
from matches.models import Match, MatchStatus
from tests.browser import DESKTOP, PHONE, log_in, shoot
from tests.support import LeagueFactory, eligible_student

NAMES = ["Juniper", "Kestrel", "Linden", "Marigold"]


@pytest.fixture
def club_night(transactional_db, institution, season, director):
    club = LeagueFactory(
        season=season, format=LeagueFormat.CLUB, name="Thursday Club", slug="thursday-club"
    )
    players = [eligible_student(season, first_name=name, last_name="Example") for name in NAMES]
    for number, player in enumerate(players, start=1):
        Entry.objects.create(league=club, player=player, player_number=number)
    night = Round.objects.create(league=club, number=1, play_by=institution.today())
    return club, night, players


def test_e4_g9_a_club_night_from_check_in_to_standings(browser, live_server, club_night, director):
    club, night, players = club_night
    base = live_server.url
    desk = browser.new_context(viewport=DESKTOP).new_page()
    log_in(desk, base, director.user.email)

    # Check-in: a campus-ID scan is the ID typed into the focused box, then Enter.
    desk.goto(f"{base}/example-state/leagues/{club.slug}/nights/1/")
    for player in players:
        scan = desk.get_by_label("Scan a campus ID or type a player number")
        expect(scan).to_be_focused()
        scan.fill(player.campus_id)
        scan.press("Enter")
        expect(desk.get_by_role("status")).to_contain_text("is checked in")
    expect(desk.get_by_role("heading", name="Check in (4 here)")).to_be_visible()
    desk.get_by_role("button", name="Seat 4 players").click()
    expect(desk.get_by_role("status")).to_contain_text("1 table seated")
    shoot(desk, "club-1-night-seated")

    table = Match.objects.get(league=club)
    seats = list(table.seats.order_by("order").select_related("player__user"))
    keeper, others = seats[0].player, [seat.player for seat in seats[1:]]
    scores = [412, 377, 390, 301]

    # The scorekeeper (seat 1, the drawn first player) reports every seat's score on a phone.
    phone = browser.new_context(viewport=PHONE).new_page()
    log_in(phone, base, keeper.user.email)
    phone.goto(f"{base}{table.get_absolute_url()}")
    expect(phone.get_by_text("Club rules at this table")).to_be_visible()
    phone.get_by_label("Your final score").fill(str(scores[0]))
    for player, score in zip(others, scores[1:], strict=True):
        phone.get_by_label(f"{player.user.get_full_name()}'s final score").fill(str(score))
    phone.get_by_role("button", name="Report result").click()
    expect(phone.get_by_role("status")).to_contain_text("Result reported")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(phone, "club-2-reported-phone")

    # Two confirm, the third disputes with their version of every seat.
    for player in others[:2]:
        page = browser.new_context(viewport=PHONE).new_page()
        log_in(page, base, player.user.email)
        page.goto(f"{base}{table.get_absolute_url()}")
        page.get_by_role("button", name="Confirm this result").click()
        expect(page.get_by_role("status")).to_contain_text("Confirmed")
    disputer = others[2]
    page = browser.new_context(viewport=PHONE).new_page()
    log_in(page, base, disputer.user.email)
    page.goto(f"{base}{table.get_absolute_url()}")
    page.get_by_text("Dispute it").click()
    theirs = [412, 377, 390, 331]
    for seat, score in zip(seats, theirs, strict=True):
        whose = "Your" if seat.player == disputer else f"{seat.player.user.get_full_name()}'s"
        page.get_by_label(f"{whose} final score, as you recorded it").fill(str(score))
    page.get_by_label("What you disagree with").fill("My last play was 30 more.")
    page.get_by_role("button", name="Send dispute to the director").click()
    expect(page.get_by_test_id("match-status")).to_have_text("Disputed")

    # The director rules in the admin: the disputer was right.
    desk.goto(f"{base}/admin/matches/dispute/?state=open")
    desk.get_by_role("link", name="Resolve", exact=True).click()
    desk.get_by_label("Amend the scores").check()
    for seat, score in zip(seats, theirs, strict=True):
        desk.get_by_label(f"Amended score, {seat.player.user}").fill(str(score))
    desk.get_by_label("Reason (required; every player sees it)").fill("Sheet checked: +30.")
    desk.get_by_role("button", name="Record decision").click()
    expect(desk.locator(".messagelist")).to_contain_text("Decision recorded")

    # The club's standings: the winner has three wins from one table (G9).
    phone.goto(f"{base}/example-state/leagues/{club.slug}/standings/")
    first_row = phone.locator("table.standings tbody tr").first
    expect(first_row).to_contain_text(seats[0].player.user.get_full_name())
    cells = first_row.locator("td")
    expect(cells.nth(1)).to_have_text("3")  # W: beat all three others
    expect(phone.locator("table.standings thead")).to_contain_text("Win %")
    shoot(phone, "club-3-standings-phone")


LATE_NAMES = ["Alder", "Birch", "Cedar", "Damson", "Elder", "Fennel", "Ginkgo"]
LATECOMERS = ["Hazel", "Iris", "Jasmine"]


def test_e4_g9_latecomers_join_the_smallest_table_and_a_closed_night_says_who_came(
    browser, live_server, transactional_db, institution, season, director
):
    """Seven sit at a four and a three; the cards are printed; two latecomers get a table of
    two, which says "Reprint"; the third is offered that table first and makes it a three
    (four, three and three); a table reported from a phone offers the director to confirm it;
    and once the night is closed its page says who came and where they played."""
    from matches.services import report_submit

    club = LeagueFactory(season=season, format=LeagueFormat.CLUB, name="Late Club", slug="late")
    everyone = [
        eligible_student(season, first_name=name, last_name="Example")
        for name in LATE_NAMES + LATECOMERS
    ]
    for number, player in enumerate(everyone, start=1):
        Entry.objects.create(league=club, player=player, player_number=number)
    Round.objects.create(league=club, number=1, play_by=institution.today())
    base = live_server.url
    desk = browser.new_context(viewport=DESKTOP).new_page()
    log_in(desk, base, director.user.email)
    night_page = f"{base}/example-state/leagues/late/nights/1/"

    def check_in(numbers):
        for number in numbers:
            scan = desk.get_by_label("Scan a campus ID or type a player number")
            scan.fill(str(number))
            scan.press("Enter")
            expect(desk.get_by_role("status")).to_contain_text("is checked in")

    desk.goto(night_page)
    check_in(range(1, 8))
    desk.get_by_role("button", name="Seat 7 players").click()
    expect(desk.get_by_role("status")).to_contain_text("2 tables seated")
    href = desk.get_by_test_id("print-cards").get_attribute("href")
    assert desk.request.get(f"{base}{href}").ok  # the cards printed
    desk.goto(night_page)
    expect(desk.get_by_test_id("reprint")).to_have_count(0)

    # The first table plays and its scorekeeper reports (as from a phone): no re-seat now.
    first, second = Match.objects.filter(league=club).order_by("table")
    keeper = first.seats.get(order=first.scorekeeper).player.user
    report_submit(actor=keeper, match=first, scores=[410, 380, 350, 300])

    # Two latecomers: a table of two, numbered 3, whose card is not printed yet.
    check_in([8, 9])
    desk.get_by_role("button", name="Seat the 2 latecomers").click()
    expect(desk.get_by_role("status")).to_contain_text("Latecomers seated at table 3")
    expect(desk.get_by_test_id("table-3").get_by_test_id("reprint")).to_be_visible()
    expect(desk.get_by_test_id("reprint-note")).to_contain_text("Table 3 changed")

    # The third latecomer: the table of two is offered first, then the table of three.
    check_in([10])
    offers = desk.get_by_test_id("joinable").get_by_role("button")
    expect(offers).to_have_count(2)
    expect(offers.first).to_have_text(
        "Table 3 (2 players) has not started: seat Jasmine Example there"
    )
    shoot(desk, "club-4-latecomer-offers")
    offers.first.click()
    expect(desk.get_by_role("status")).to_contain_text("joins table 3 in the last seat")
    sizes = sorted(match.seats.count() for match in Match.objects.filter(league=club))
    assert sizes == [3, 3, 4]
    assert desk.request.get(f"{base}{href}").ok  # reprinted: nothing to reprint any more
    desk.goto(night_page)
    expect(desk.get_by_test_id("reprint")).to_have_count(0)

    # Close the night: the reported table waits for its other seats; the page says who came.
    desk.get_by_role("button", name="Close night 1").click()
    expect(desk.get_by_test_id("closed")).to_be_visible()
    expect(desk.get_by_role("heading", name="Who came (10 came)")).to_be_visible()
    expect(desk.get_by_text("nobody is checked in or seated any more")).to_have_count(0)
    desk.get_by_role("button", name="Find").click()  # the whole list
    expect(desk.get_by_text("Came, played at table 3")).to_have_count(3)
    expect(desk.get_by_text("Here, seated")).to_have_count(0)
    waiting = desk.get_by_test_id("table-1")
    expect(waiting.get_by_text("Enter the score card")).to_have_count(0)
    expect(waiting.get_by_role("link", name="View the report")).to_be_visible()
    shoot(desk, "club-5-closed-night")
    waiting.get_by_role("button", name="Confirm the card as reported").click()
    said = desk.get_by_role("status").filter(has_text="card confirmed")
    expect(said).to_contain_text("Table 1's card confirmed: the result is final")
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == MatchStatus.CONFIRMED
    assert second.status == MatchStatus.DOUBLE_FORFEIT
