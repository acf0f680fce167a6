"""The whole season of one student in a real browser (Debian's Chromium through Playwright):
sign up, verify the e-mail from the test mailbox, pending (L10), eligible after the front desk's
ID check, join a league, propose a time (L1), the opponent accepts, the winner reports (L7), the
opponent disputes (L9), the director resolves it in the admin, the standings show it. The
student's pages run at phone size. Screenshots land in tests/browser/screenshots/."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from league.models import Entry
from tests.browser import (
    DESKTOP,
    PHONE,
    SHOTS,
    accept_the_time,
    draw_the_rounds,
    join,
    log_in,
    propose_a_time,
    report_the_result,
    reveal,
    shoot,
    signed_in,
)
from tests.support import LeagueFactory, eligible

pytestmark = pytest.mark.browser


@pytest.fixture
def campus(transactional_db, institution, season, opponent, staff, director):
    """A league Sage (the `opponent` persona) has joined, waiting for a second player; the front
    desk and the director."""
    league = LeagueFactory(
        season=season, name="Tuesday Night League", slug="tuesday-night", turn_time_seconds=150
    )
    Entry.objects.create(league=league, player=eligible(opponent, season))
    return {
        "institution": institution,
        "league": league,
        "opponent": opponent,
        "desk": staff,
        "director": director,
    }


def test_a_students_season_from_signup_to_standings(browser, live_server, campus):
    base = live_server.url
    tz = campus["institution"].tz
    student = browser.new_context(viewport=PHONE).new_page()

    # Sign up on a phone, then verify the address from the e-mail.
    student.goto(f"{base}/accounts/signup/")
    student.get_by_label("First name").fill("Marlow")
    student.get_by_label("Last name").fill("Thistlewood")
    student.get_by_label("Email").fill("marlow@example.edu")
    student.get_by_label("Campus ID").fill("2468024")
    student.get_by_label("Password", exact=False).first.fill("a-long-passphrase-1")
    student.get_by_label("Password (again)").fill("a-long-passphrase-1")
    student.get_by_role("button", name="Sign up").click()
    expect(student.get_by_role("heading", name="Verify Your Email Address")).to_be_visible()
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", mail.outbox[-1].body).group(0)
    student.goto(
        link.replace("http://testserver", base).replace(
            re.match(r"https?://[^/]+", link).group(0), base
        )
    )
    student.get_by_role("button", name="Confirm").click()
    log_in(student, base, "marlow@example.edu", password="a-long-passphrase-1")
    expect(student.get_by_test_id("eligibility-status")).to_have_text("Pending")
    shoot(student, "journey-1-pending-phone")

    # The front desk scans the campus ID and records the picture-ID check (L10).
    desk = signed_in(browser, base, campus["desk"].user.email, viewport=DESKTOP)
    desk.goto(f"{base}/desk/")
    expect(desk.get_by_label("Campus ID")).to_be_focused()
    desk.keyboard.type("2468024")
    desk.keyboard.press("Enter")
    desk.get_by_role("button", name="I saw a current campus picture ID").click()
    expect(desk.get_by_role("status")).to_contain_text("is eligible for Fall 2026")

    # Now eligible, the student joins the league.
    join(student, base, "Tuesday Night League")

    # The director draws the round robin in the admin.
    director = signed_in(browser, base, campus["director"].user.email, viewport=DESKTOP)
    play_by = (timezone.localtime(timezone.now(), tz) + timedelta(days=7)).date()
    said = draw_the_rounds(director, base, campus["league"], play_by)
    expect(said).to_contain_text("1 rounds drawn")

    # The student proposes a time at the league's venue (L1, L2).
    student.goto(f"{base}/")
    student.get_by_role("link", name=re.compile("Propose times")).click()
    when = (timezone.localtime(timezone.now(), tz) + timedelta(days=2)).replace(hour=18, minute=0)
    propose_a_time(student, when)
    match_url = student.url

    # The opponent accepts it.
    opponent = signed_in(browser, base, campus["opponent"].user.email)
    opponent.goto(match_url)
    accept_the_time(opponent, when)

    # The winner reports (L7). They played before the agreed time, so the report waits behind
    # "Already played?" and asks them to say so (issue 17).
    student.goto(match_url)
    report_the_result(student, 420, 380, "Sage Okafor")
    shoot(student, "journey-2-match-reported-phone")

    # The opponent disputes, marking the point of the discrepancy (L9).
    opponent.goto(match_url)
    reveal(opponent.get_by_label("Your final score, as you recorded it")).fill("380")
    opponent.get_by_label("Marlow Thistlewood's final score, as you recorded it").fill("400")
    opponent.get_by_label("Turn where the discrepancy happened (optional)").fill("12")
    opponent.get_by_label("What you disagree with").fill("Turn 12 was 22 points, not 42.")
    opponent.get_by_role("button", name="Send dispute to the director").click()
    expect(opponent.get_by_test_id("match-status")).to_have_text("Disputed")

    # The director resolves it in the admin, amending the scores with a reason.
    director.goto(f"{base}/admin/matches/dispute/?state=open")
    shoot(director, "journey-3-dispute-queue")
    director.get_by_role("link", name="Resolve", exact=True).click()
    director.get_by_label("Amend the scores").check()
    director.get_by_label("Amended score, Marlow Thistlewood").fill("400")
    director.get_by_label("Amended score, Sage Okafor").fill("380")
    director.get_by_label("Reason (required; every player sees it)").fill(
        "Score sheets compared: turn 12 was 22."
    )
    director.get_by_role("button", name="Record decision").click()
    expect(director.locator(".messagelist")).to_contain_text("Decision recorded")

    # The standings show it.
    student.goto(f"{base}/example-state/leagues/tuesday-night/standings/")
    first_row = student.locator("table.standings tbody tr").first
    expect(first_row).to_contain_text("Marlow Thistlewood")
    expect(first_row).to_contain_text("+20")
    # Sorting: a first click on a number column puts the biggest first, a second reverses.
    spread = student.locator("button.sort", has_text=re.compile(r"^Spread$"))
    spread.click()
    expect(first_row).to_contain_text("+20")
    spread.click()
    expect(first_row).to_contain_text("-20")
    student.locator("button.sort", has_text=re.compile(r"^#$")).click()
    expect(first_row).to_contain_text("Marlow Thistlewood")
    shoot(student, "journey-4-standings-phone")
    assert student.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert (SHOTS / "journey-4-standings-phone.png").exists()
