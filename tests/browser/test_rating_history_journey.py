"""R1 on a phone: a student with several rated periods opens their profile at 360 px and finds
their rating plotted (an image with a name that says it in words) and tabled, the page never
scrolling sideways, the last rating the one the rating list shows them, and axe finding nothing
serious on the page."""

import re
from datetime import date, timedelta

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from league.rating_runs import rate
from matches.services import card_enter
from tests.browser import log_in, shoot
from tests.support import table_of

pytestmark = pytest.mark.browser
PHONE_360 = {"width": 360, "height": 740}


def test_r1_a_student_reads_their_rating_history_on_a_phone(
    browser, live_server, transactional_db, league, table, director
):
    ada, bo, cy, di = table
    start = date(2025, 9, 9)
    for week, (opponent, scores) in enumerate(
        [(bo, [420, 380]), (cy, [300, 410]), (di, [390, 350]), (bo, [402, 377]), (cy, [366, 344])]
    ):
        match = table_of(league, [ada, opponent], play_by=start + timedelta(weeks=week))
        card_enter(actor=director.user, match=match, scores=scores)
    rate(league.season.institution)

    page = browser.new_context(viewport=PHONE_360).new_page()
    log_in(page, live_server.url, ada.user.email)
    page.goto(f"{live_server.url}/ratings/")
    listed = page.locator("tr.mine td").nth(1).inner_text()  # "1523*": rank, name, rating
    assert re.fullmatch(r"\d+\*?", listed)

    page.goto(f"{live_server.url}/profile/")
    plot = page.get_by_role(
        "img", name=re.compile(rf"Rating from 1500 to {listed.rstrip('*')} over 5 periods")
    )
    expect(plot).to_be_visible()
    box = plot.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE_360["width"]
    assert box["height"] > 100  # drawn to its width, not squashed
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_360["width"]

    shoot(page, "rating-history-360")
    history = page.get_by_role("region", name="Rating history table")
    rows = history.locator("tbody tr")
    expect(rows).to_have_count(5)
    expect(rows.first).to_contain_text("Sep 9, 2025")
    expect(rows.first).to_contain_text("Tuesday League, round 1")
    expect(rows.last).to_contain_text("Oct 7, 2025")
    rating = rows.last.locator("td:nth-last-child(2)")  # before → after, then the change
    expect(rating).to_have_text(re.compile(rf"→ {re.escape(listed)}$"))
    # The rating and the change are on the phone's screen, not behind the table's sideways scroll.
    change = rows.last.locator("td:last-child").bounding_box()
    assert change["x"] + change["width"] <= PHONE_360["width"]

    results = Axe().run(page)
    serious = [
        f"{v['impact']}: {v['id']} — {v['help']}"
        for v in results.response["violations"]
        if v["impact"] in {"serious", "critical"}
    ]
    assert not serious, "\n".join(serious)
