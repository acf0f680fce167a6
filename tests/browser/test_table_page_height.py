"""S1–S3 on a phone (issue 47): the table's page on a 390-pixel screen stays within two screens
(about 1,700 pixels) for a two-seat and a four-seat table, in every state: nothing entered yet,
a version to confirm, a refusal said, a conflict of two versions, and the card in."""

from datetime import timedelta

import pytest

from tests.events.self_entry_support import self_entry_event, slip_of_seat, tables

pytestmark = pytest.mark.browser

PHONE_390 = {"width": 390, "height": 844}
TWO_SCREENS = 1700


def height(page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def opened_slip(browser, base, match, order):
    phone = browser.new_context(viewport=PHONE_390).new_page()
    phone.goto(f"{base}/slip/{slip_of_seat(match, order).token}/")
    return phone


def enter(phone, scores):
    form = phone.locator("details.enter-card form")
    if not form.is_visible():
        phone.locator("details.enter-card > summary").click()
    for order, score in enumerate(scores, start=1):
        form.locator(f'input[name="score_{order}"]').fill(str(score))
    form.get_by_role("button").click()


@pytest.mark.parametrize("seats", [2, 4])
def test_s1_s3_the_table_page_fits_two_screens_of_a_phone_in_every_state(
    browser, live_server, transactional_db, season, tmp_path, seats
):
    league = self_entry_event(
        season,
        tmp_path,
        seats=seats,
        entrants=seats * 2,
        student=False,
        day=season.institution.today() - timedelta(days=1),  # its time is up: any seat enters
    )
    match = tables(league)[0]
    base = live_server.url
    table_url = f"{base}/example-state/leagues/{league.slug}/rounds/1/tables/{match.table}/"
    heights = {}

    keeper = opened_slip(browser, base, match, 1)
    keeper.goto(table_url)
    heights["nothing entered yet"] = height(keeper)
    enter(keeper, [4000] + [390 - 10 * order for order in range(1, seats)])  # one typo
    heights["a refusal said"] = height(keeper)
    enter(keeper, [400 - 10 * order for order in range(seats)])

    other = opened_slip(browser, base, match, 2)
    other.goto(table_url)
    heights["a version to confirm"] = height(other)
    enter(other, [401 - 10 * order for order in range(seats)])
    other.goto(table_url)
    heights["a conflict"] = height(other)

    over = {state: px for state, px in heights.items() if px > TWO_SCREENS}
    assert over == {}, f"{seats} seats: over {TWO_SCREENS} px: {over}"
