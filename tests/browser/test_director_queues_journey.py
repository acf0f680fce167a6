"""In a real browser, at 1280 px and at 390 px: the director goes from the dashboard to a league's
queues, picks a round, extends its deadlines and rules its unplayed matches, confirming each
after seeing how many matches it changes (L5, L8). Every page fits the phone, every form control
has a label and a font of at least 16 px, and nothing breaks the Content Security Policy."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from matches.models import Match, MatchStatus
from tests.browser import DESKTOP, log_in, shoot
from tests.support import round_of

pytestmark = pytest.mark.browser
PHONE_390 = {"width": 390, "height": 844}

# Every visible form control without a label, or with a font under 16 px (phones zoom on those).
UNLABELLED_OR_SMALL = """() => [...document.querySelectorAll('main input, main select, main textarea')]
  .filter(el => el.type !== 'hidden')
  .filter(el => el.labels.length === 0 || parseFloat(getComputedStyle(el).fontSize) < 16)
  .map(el => el.name)"""


def check_page(page, viewport):
    # The sizes are the stylesheet's: read them once it has loaded, not the browser's defaults
    # (a select is 13.3 px before site.css applies, which failed this on a fast run).
    page.wait_for_load_state("load")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"{page.url} is {width} px wide"
    assert page.evaluate(UNLABELLED_OR_SMALL) == [], page.url


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE_390], ids=["1280", "390"])
def test_l5_l8_the_director_works_a_rounds_queues_from_the_dashboard(
    browser, live_server, transactional_db, league, director, viewport
):
    round_, matches = round_of(league, 3)
    Match.objects.filter(pk=matches[0].pk).update(deadline=timezone.now() - timedelta(hours=2))
    page = browser.new_context(viewport=viewport).new_page()
    log_in(page, live_server.url, director.user.email)
    size = viewport["width"]

    page.goto(f"{live_server.url}/director/")
    check_page(page, viewport)
    if size == DESKTOP["width"]:
        # Each export link stands under its own column's heading.
        heading = page.get_by_role("columnheader", name="Export (CSV)").bounding_box()
        for name in ("Standings", "Results"):
            link = page.get_by_role("link", name=name, exact=True).bounding_box()
            assert heading["x"] <= link["x"] < heading["x"] + heading["width"], name
    shoot(page, f"director-dashboard-{size}")
    page.get_by_role("link", name="Tuesday League", exact=True).click()
    expect(page).to_have_url(re.compile("/director/leagues/tuesday/$"))

    expect(page.get_by_role("heading", name=re.compile(r"^Overdue"))).to_contain_text("(1)")
    expect(page.get_by_role("heading", name=re.compile(r"^Unscheduled"))).to_contain_text("(2)")
    page.get_by_label("Round", exact=True).select_option("1")
    page.get_by_role("button", name="Show").click()
    expect(page.get_by_role("heading", name="Extend round 1's deadlines")).to_be_visible()
    check_page(page, viewport)
    shoot(page, f"director-league-{size}")

    page.get_by_label("Extend by this many days").fill("3")
    page.locator("#extend-heading ~ form").get_by_label(re.compile("^Reason")).fill(
        "The Games Room was closed for a week."
    )
    page.get_by_role("button", name="Show the matches to extend").click()
    expect(page.get_by_test_id("will-change")).to_contain_text("3 matches")
    check_page(page, viewport)
    shoot(page, f"director-extend-confirm-{size}")
    page.get_by_role("button", name="Extend 3 deadlines").click()
    expect(page.get_by_role("status")).to_contain_text("3 matches: deadline extended")
    expect(page.get_by_role("heading", name=re.compile(r"^Overdue"))).to_contain_text("(0)")

    page.locator("#rule-heading ~ form").get_by_label(re.compile("^Reason")).fill(
        "Round 1 is over."
    )
    page.get_by_role("button", name="Show the matches to rule").click()
    expect(page.get_by_test_id("will-change")).to_contain_text("3 matches")
    check_page(page, viewport)
    rulings = page.get_by_label("Ruling")
    expect(rulings).to_have_count(3)
    second_player = matches[1].seats.get(order=2).player.name
    rulings.nth(1).select_option(label=f"{second_player} forfeits")
    rulings.nth(2).select_option(label="Leave it as it is for now")
    shoot(page, f"director-rule-confirm-{size}")
    page.get_by_role("button", name="Rule 3 matches").click()
    expect(page.get_by_role("status")).to_contain_text(
        "2 matches: ruled, players e-mailed. 1 left for now as you chose."
    )
    check_page(page, viewport)
    statuses = [Match.objects.get(pk=m.pk).status for m in matches]
    assert statuses == [MatchStatus.DOUBLE_FORFEIT, MatchStatus.FORFEIT, MatchStatus.UNSCHEDULED]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE_390], ids=["1280", "390"])
def test_l9_the_director_opens_the_dispute_queue_from_the_dashboard_and_resolves(
    browser, live_server, transactional_db, league, director, viewport
):
    """Both versions side by side on a phone too, and Resolve leads to the ruling."""
    from tests.support import new_match, open_dispute

    dispute = open_dispute(new_match(league), turn=12, scores_at_turn=[200, 210])
    page = browser.new_context(viewport=viewport).new_page()
    log_in(page, live_server.url, director.user.email)
    page.goto(f"{live_server.url}/director/")
    page.get_by_role("link", name=re.compile("Open disputes")).click()
    expect(page).to_have_url(re.compile("/director/disputes/$"))
    row = page.get_by_test_id(f"dispute-{dispute.pk}")
    expect(row).to_contain_text("420")
    expect(row).to_contain_text("410")
    expect(row).to_contain_text("Turn 12 at 200–210")
    check_page(page, viewport)
    shoot(page, f"director-disputes-{viewport['width']}")
    row.get_by_role("link", name="Resolve").click()
    expect(page).to_have_url(
        re.compile(f"/admin/matches/dispute/{dispute.pk}/resolve/\\?next=/director/disputes/$")
    )
    page.get_by_label("Uphold the report").check()
    page.get_by_label("Reason (required; every player sees it)").fill(
        "The card agrees with the report."
    )
    page.get_by_role("button", name="Record decision").click()
    # Issue 30: after the ruling, back at the queue the director came from.
    expect(page).to_have_url(re.compile("/director/disputes/$"))
    expect(page.get_by_test_id(f"dispute-{dispute.pk}")).to_have_count(0)
