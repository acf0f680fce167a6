"""A student's own entry on a 390 px phone (E1): joining a full league's waitlist, getting the
place when someone withdraws before the draw, and withdrawing after it through the confirm step
that names the forfeits. Under the Content Security Policy, like every journey."""

from datetime import timedelta

import pytest
from django.utils import timezone

from league.models import Entry
from league.services import rounds_generate
from tests.browser import log_in
from tests.support import LeagueFactory, eligible_student

pytestmark = pytest.mark.browser
PHONE_390 = {"width": 390, "height": 844}


def fits(page, what):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE_390["width"], f"{what} is {width} px wide"


def test_e1_a_waitlisted_student_gets_a_freed_place_then_withdraws_after_the_draw(
    browser, live_server, transactional_db, season, director
):
    league = LeagueFactory(season=season, name="Tuesday League", slug="tuesday", capacity=3)
    ada, bo, cy = (eligible_student(season, first_name=name) for name in ("Ada", "Bo", "Cy"))
    for person in (ada, bo, cy):
        Entry.objects.create(league=league, player=person)
    fay = eligible_student(season, first_name="Fay")

    phone = browser.new_context(viewport=PHONE_390).new_page()
    log_in(phone, live_server.url, fay.user.email)
    phone.goto(f"{live_server.url}/leagues/?open=1")
    fits(phone, "the leagues list")
    phone.get_by_role("button", name="Join the waitlist for Tuesday League").click()
    assert phone.get_by_text("You are number 1 on the waitlist for Tuesday League").is_visible()
    fits(phone, "the league page of a student waiting")

    other = browser.new_context(viewport=PHONE_390).new_page()
    log_in(other, live_server.url, ada.user.email)
    other.goto(f"{live_server.url}/example-state/leagues/tuesday/")
    other.get_by_role("button", name="Withdraw from Tuesday League").click()
    assert other.get_by_text("You withdrew from Tuesday League.").is_visible()

    phone.reload()
    assert phone.get_by_text("You are in Tuesday League.").is_visible()
    rounds_generate(
        actor=director.user,
        league=league,
        first_play_by=timezone.localdate() + timedelta(days=7),
    )

    phone.reload()
    assert phone.get_by_text(
        "Withdrawing now turns your remaining 2 games into forfeits"
    ).is_visible()
    phone.get_by_role("link", name="Withdraw from Tuesday League…").click()
    # Measured once the confirm step has arrived, not while the click still navigates.
    phone.wait_for_url("**/leagues/tuesday/withdraw/")
    fits(phone, "the withdraw confirm step")
    assert (
        phone.get_by_role("alert")
        .inner_text()
        .endswith("your remaining 2 games become forfeits to your opponents.")
    )
    phone.get_by_role("button", name="Withdraw and forfeit 2 games").click()
    assert phone.get_by_text(
        "You withdrew from Tuesday League. 2 games went to your opponents."
    ).is_visible()
    assert not Entry.objects.get(player=fay).active
