"""Players enter their own table's card (S1–S4), in a browser on phones: a signed-in scorekeeper
enters and the other seat confirms on a second phone; guests prove their seats with their own
slips, so the scorekeeper who keeps the card cannot confirm for the others; a disagreement
reaches the scoring table and is settled there."""

from datetime import timedelta

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from events.models import TableCard
from league.models import Entry
from matches.models import MatchStatus
from tests.browser import DESKTOP, PHONE, shoot, signed_in
from tests.events.self_entry_support import seats_of, self_entry_event, slip_of_seat, tables

pytestmark = pytest.mark.browser


def serious_violations(page) -> list[str]:
    """axe-core's serious and critical findings on the page as it stands (issue 17's bar)."""
    page.wait_for_load_state("load")
    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']}: {v['help']} ({v['nodes'][0]['target']})"
        for v in found
        if v["impact"] in {"serious", "critical"}
    ]


def table_url(base, match):
    return f"{base}/example-state/leagues/{match.league.slug}/rounds/1/tables/{match.table}/"


def label(seat) -> str:
    """The seat as the table's page names it to its players: seat, number and name apart."""
    number = Entry.objects.get(league_id=seat.match.league_id, player=seat.player).player_number
    return f"Seat {seat.order} · No. {number} · {seat.player.name}"


def phone_with_slip(browser, base, match, order):
    """A guest's phone that opened the link on their own slip (its QR code)."""
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(f"{base}/slip/{slip_of_seat(match, order).token}/")
    expect(phone.get_by_test_id("slip-entrant")).to_be_visible()
    return phone


def enter_card(page, scores):
    form = page.locator("details.enter-card form")
    for order, score in enumerate(scores, start=1):
        form.locator(f'input[name="score_{order}"]').fill(str(score))
    form.get_by_role("button").click()


def test_s1_s2_a_signed_in_scorekeeper_enters_and_the_other_seat_confirms_on_a_second_phone(
    browser, live_server, transactional_db, season, tmp_path
):
    league = self_entry_event(season, tmp_path, seats=2, entrants=2, students=2)
    match = tables(league)[0]
    keeper, other = seats_of(match)
    base = live_server.url

    first = signed_in(browser, base, keeper.player.user.email)
    first.goto(table_url(base, match))
    expect(first.locator(".acting-as").first).to_contain_text(f"As {label(keeper)}")
    first.get_by_label(label(keeper)).fill("412")
    first.get_by_label(label(other)).fill("377")
    first.get_by_role("button", name="Enter our card").click()
    expect(first.get_by_role("status")).to_contain_text("Waiting for seat 2 to confirm it.")
    shoot(first, "self-entry-entered-phone")
    assert serious_violations(first) == []

    second = signed_in(browser, base, other.player.user.email)
    second.goto(table_url(base, match))
    version = second.get_by_test_id("pending-card")
    expect(version).to_contain_text("412")
    expect(version).to_contain_text("377")
    version.get_by_role("button", name="Yes, this is our card").click()
    expect(second.get_by_role("status")).to_contain_text("The card counts")
    expect(second.get_by_test_id("card-counted")).to_contain_text("412–377")
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED
    assert [seat.score for seat in seats_of(match)] == [412, 377]


def test_s4_each_guest_confirms_from_their_own_slip_and_the_scorekeeper_cannot_for_them(
    browser, live_server, transactional_db, season, tmp_path
):
    """Three phones, a slip each: the scorekeeper enters, the second confirms from their own
    slip, the third disagrees; then the scorekeeper, holding the table's card (every seat's
    player number) and their own slip, tries to confirm for the others and is refused."""
    league = self_entry_event(season, tmp_path, seats=3, entrants=6, student=False)
    match = tables(league)[0]
    base = live_server.url

    keeper = phone_with_slip(browser, base, match, 1)
    keeper.goto(table_url(base, match))
    expect(keeper.locator(".acting-as").first).to_contain_text("As Seat 1")
    enter_card(keeper, [390, 350, 310])
    expect(keeper.get_by_role("status")).to_contain_text("Waiting for seats 2, 3")

    second = phone_with_slip(browser, base, match, 2)
    second.goto(table_url(base, match))
    version = second.get_by_test_id("pending-card")
    expect(version).to_contain_text("390")
    version.get_by_role("button", name="Yes, this is our card").click()
    expect(second.get_by_role("status")).to_contain_text("Waiting for seat 3")
    assert serious_violations(second) == []

    third = phone_with_slip(browser, base, match, 3)
    third.goto(table_url(base, match))
    third.get_by_text("Not what we played? Enter your version").click()
    enter_card(third, [390, 350, 330])
    expect(third.get_by_role("status")).to_contain_text("Saved")
    # The third entered their own version: they are not offered to confirm the first.
    expect(third.get_by_test_id("pending-card").first.locator("form.confirm-form")).to_have_count(0)

    keeper.goto(table_url(base, match))
    # Nothing offers the scorekeeper's phone to confirm for another seat: they try anyway,
    # entering the third's version as seat 2 (the same scores confirm it).
    expect(keeper.get_by_role("button", name="Yes, this is our card")).to_have_count(0)
    keeper.get_by_text("Not what we played? Enter your version").click()
    form = keeper.locator("details.enter-card form")
    form.get_by_text("Another player's slip on this phone?").click()
    form.get_by_label("Your seat", exact=True).select_option("2")
    enter_card(keeper, [390, 350, 330])
    refusal = keeper.get_by_test_id("refusal")
    expect(refusal).to_contain_text("Only seat 2")
    expect(refusal).to_contain_text("acts for their seat")
    shoot(keeper, "self-entry-refused-for-another-seat-phone")
    assert serious_violations(keeper) == []
    match.refresh_from_db()
    assert match.status != MatchStatus.CONFIRMED
    assert TableCard.objects.filter(match=match, state=TableCard.State.PENDING).count() == 2


def test_s3_a_disagreement_is_settled_at_the_scoring_table(
    browser, live_server, transactional_db, season, tmp_path, director
):
    league = self_entry_event(
        season,
        tmp_path,
        seats=2,
        entrants=4,
        student=False,
        day=season.institution.today() - timedelta(days=1),
    )
    match = tables(league)[0]
    base = live_server.url
    for order, scores in ((1, [400, 350]), (2, [400, 380])):
        phone = phone_with_slip(browser, base, match, order)
        phone.goto(table_url(base, match))
        form = phone.locator("details.enter-card form")
        if not form.is_visible():
            phone.get_by_text("Not what we played? Enter your version").click()
        enter_card(phone, scores)
        expect(phone.get_by_role("status")).to_contain_text("Saved")

    desk = signed_in(browser, base, director.user.email, viewport=DESKTOP)
    desk.goto(f"{base}/example-state/leagues/{league.slug}/rounds/1/scores/")
    conflict = desk.get_by_test_id("conflict")
    expect(conflict).to_contain_text(f"Table {match.table}: the players disagree")
    expect(conflict.get_by_test_id("card-version")).to_have_count(2)
    expect(desk.get_by_test_id("missing")).to_contain_text(str(tables(league)[1].table))
    shoot(desk, "self-entry-conflict-desktop")
    assert serious_violations(desk) == []
    conflict.get_by_role("button", name="Count this version").nth(1).click()
    expect(desk.get_by_role("status")).to_contain_text(f"Table {match.table}: 400–380 counted.")
    expect(desk.get_by_test_id("conflict")).to_have_count(0)
    match.refresh_from_db()
    assert [seat.score for seat in seats_of(match)] == [400, 380]
    assert TableCard.objects.filter(match=match, state=TableCard.State.OVERRULED).count() == 1


def test_s6_g9_a_club_table_reports_from_the_cards_qr_code_and_counts_when_the_night_closes(
    browser, live_server, transactional_db, institution, season, director, tmp_path
):
    """The club's flow (S6): the director prints the table cards, the scorekeeper follows the
    card's link to the match page and reports, one other seat confirms, and closing the night
    makes the table final."""
    from clubs import services as clubs
    from league.models import Entry, LeagueFormat, Round
    from tests.support import LeagueFactory, eligible_student, poppler

    club = LeagueFactory(season=season, format=LeagueFormat.CLUB, name="Club", slug="club")
    players = [eligible_student(season, first_name=f"Clubber{i}") for i in range(3)]
    for number, player in enumerate(players, start=1):
        Entry.objects.create(league=club, player=player, player_number=number)
    night = Round.objects.create(league=club, number=1, play_by=institution.today())
    for player in players:
        clubs.check_in(actor=director.user, round=night, player=player)
    (table,) = clubs.seat_night(actor=director.user, round=night)
    seats = seats_of(table)
    base = live_server.url

    desk = signed_in(browser, base, director.user.email, viewport=DESKTOP)
    desk.goto(f"{base}/example-state/leagues/club/nights/1/")
    href = desk.get_by_test_id("print-cards").get_attribute("href")
    pdf = desk.request.get(f"{base}{href}").body()
    match_page = f"{base}{table.get_absolute_url()}"
    assert match_page in poppler("pdftotext", pdf, tmp_path).replace("\n", "")

    keeper = signed_in(browser, base, seats[0].player.user.email)
    keeper.goto(match_page)  # what the card's QR code opens
    keeper.get_by_label("Your final score").fill("401")
    for seat, score in zip(seats[1:], [355, 320], strict=True):
        keeper.get_by_label(f"{seat.player.user.get_full_name()}'s final score").fill(str(score))
    keeper.get_by_role("button", name="Report result").click()
    expect(keeper.get_by_role("status")).to_contain_text("Result reported")

    other = signed_in(browser, base, seats[1].player.user.email)
    other.goto(match_page)
    other.get_by_role("button", name="Confirm this result").click()
    expect(other.get_by_role("status")).to_contain_text("Confirmed")
    table.refresh_from_db()
    assert table.status == MatchStatus.REPORTED  # the third seat has not confirmed

    desk.goto(f"{base}/example-state/leagues/club/nights/1/")
    desk.get_by_role("button", name="Close night 1").click()
    expect(desk.get_by_test_id("closed")).to_be_visible()
    table.refresh_from_db()
    assert table.status == MatchStatus.CONFIRMED
    assert [seat.score for seat in seats_of(table)] == [401, 355, 320]
