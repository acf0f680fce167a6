"""A card's tick box keeps to its label on a 390-pixel phone (issue 48): the table page's "Yes,
really" (S1, G1) and the scoring table's "enter it anyway" (E3) sat on one line and their label
on the next."""

from datetime import timedelta

import pytest

from tests.browser import log_in
from tests.events.self_entry_support import self_entry_event, slip_of_seat, tables

pytestmark = pytest.mark.browser

PHONE_390 = {"width": 390, "height": 844}


def beside(page, box_selector):
    """The tick box and its label share a line: the label starts right of the box, and its
    first line is level with it."""
    box = page.locator(box_selector).bounding_box()
    label = page.locator(f'label[for="{box_selector.removeprefix("#")}"]').bounding_box()
    assert label["x"] >= box["x"] + box["width"], (box, label)
    assert label["y"] < box["y"] + box["height"] and box["y"] < label["y"] + label["height"]
    assert label["x"] + label["width"] <= PHONE_390["width"]


def test_s1_g1_the_table_pages_yes_really_box_sits_beside_its_label(
    browser, live_server, transactional_db, season, tmp_path
):
    league = self_entry_event(
        season,
        tmp_path,
        seats=2,
        entrants=4,
        student=False,
        day=season.institution.today() - timedelta(days=1),  # its time is up: any seat enters
    )
    match = tables(league)[0]
    phone = browser.new_context(viewport=PHONE_390).new_page()
    phone.goto(f"{live_server.url}/slip/{slip_of_seat(match, 1).token}/")
    phone.goto(
        f"{live_server.url}/example-state/leagues/{league.slug}/rounds/1/tables/{match.table}/"
    )
    form = phone.locator("details.enter-card form")
    form.locator('input[name="score_1"]').fill("60")  # low: unusual, asked about
    form.locator('input[name="score_2"]').fill("40")
    form.get_by_role("button").click()

    beside(phone, "#id_card_unusual_confirmed")


def test_e3_the_scoring_tables_enter_it_anyway_box_sits_beside_its_label(
    browser, live_server, transactional_db, season, tmp_path, director
):
    league = self_entry_event(season, tmp_path, seats=2, entrants=4, started=False)
    phone = browser.new_context(viewport=PHONE_390).new_page()
    log_in(phone, live_server.url, director.user.email)
    phone.goto(f"{live_server.url}/example-state/leagues/{league.slug}/rounds/1/scores/")
    phone.get_by_label("Table", exact=True).fill("1")
    phone.locator('input[name="score_1"]').fill("400")
    phone.locator('input[name="score_2"]').fill("350")
    phone.get_by_role("button", name="Enter card").click()

    beside(phone, "#id_before_start")
