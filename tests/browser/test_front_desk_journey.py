"""In a real browser (Debian's Chromium through Playwright): a pending student, a picture-ID check
at the front desk with a scanner, and the student now eligible (L10). Screenshots land in
tests/browser/screenshots/ (git-ignored) for a human to look at."""

import pytest
from playwright.sync_api import expect

from tests.browser import DESKTOP, PHONE, log_in, shoot

pytestmark = pytest.mark.browser


def test_l10_a_pending_student_becomes_eligible_after_the_front_desk_checks_their_id(
    browser, live_server, season, player, staff
):
    """Rowan (the `player` persona) is pending for Fall 2026; `staff` works the front desk."""
    student_page = browser.new_context(viewport=PHONE).new_page()
    log_in(student_page, live_server.url, player.user.email)
    expect(student_page.get_by_test_id("eligibility-status")).to_have_text("Pending")
    assert "Show your current campus picture ID" in student_page.content()
    shoot(student_page, "home-pending-phone")

    desk_page = browser.new_context(viewport=DESKTOP).new_page()
    log_in(desk_page, live_server.url, staff.user.email)
    desk_page.goto(f"{live_server.url}/desk/")
    # The box has focus on arrival; the scanner types the ID into it and presses Enter.
    expect(desk_page.get_by_label("Campus ID")).to_be_focused()
    desk_page.keyboard.type(player.campus_id)
    desk_page.keyboard.press("Enter")
    desk_page.get_by_role("heading", name="Rowan Pemberton").wait_for()
    shoot(desk_page, "front-desk-lookup")
    desk_page.get_by_label("Note (optional)").fill("card valid to 05/2027")
    desk_page.get_by_role("button", name="I saw a current campus picture ID").click()
    expect(desk_page.get_by_role("status")).to_contain_text("is eligible for Fall 2026")
    expect(desk_page.get_by_test_id("eligibility-status")).to_have_text("Eligible")
    # The box is empty and focused again for the next scan.
    expect(desk_page.get_by_label("Campus ID")).to_be_focused()
    expect(desk_page.get_by_label("Campus ID")).to_have_value("")

    student_page.reload()
    expect(student_page.get_by_test_id("eligibility-status")).to_have_text("Eligible")
    shoot(student_page, "home-eligible-phone")


def test_the_signup_page_is_labelled_and_fits_a_phone(browser, live_server, season):
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{live_server.url}/accounts/signup/")
    for label in ["First name", "Last name", "Email", "Campus ID"]:
        assert page.get_by_label(label).first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, "signup-phone")
