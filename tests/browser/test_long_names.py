"""A name is whatever a person typed (issue 17): a 150-character unbroken one made student pages
1,700 to 3,000 px wide on a 390 px phone. Every page that shows it must still fit."""

import pytest

from league.models import Entry
from league.refresh import refresh_leagues
from matches.services import report_submit
from tests.browser import log_in
from tests.support import LeagueFactory, eligible_student, match_between

pytestmark = pytest.mark.browser
PHONE_390 = {"width": 390, "height": 844}


def test_a_150_character_name_fits_every_student_page_at_390_px(
    browser, live_server, transactional_db, season
):
    long_one = eligible_student(season, first_name="W" * 150, last_name="X" * 150)
    other = eligible_student(season, first_name="Sam", last_name="Short")
    league = LeagueFactory(season=season, slug="long-names")
    for person in (long_one, other):
        Entry.objects.create(league=league, player=person)
    match = match_between(league, long_one, other)
    report_submit(actor=other.user, match=match, scores=[300, 420])
    refresh_leagues([league.pk])
    page = browser.new_context(viewport=PHONE_390).new_page()
    log_in(page, live_server.url, other.user.email)
    for path in (
        "/",
        "/leagues/",
        f"/example-state/leagues/{league.slug}/",
        f"/example-state/leagues/{league.slug}/standings/",
        match.get_absolute_url(),
        "/profile/",
    ):
        page.goto(live_server.url + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE_390["width"], f"{path} is {width} px wide"
