"""The main menu (issue 48): on a 390 px phone it wrapped to three rows, about 250 px, on every
page. There the brand and a "Menu" button share one row and the entries open below it, with no
script (a <details>); at 1280 px the entries stand beside the brand, in one row. axe finds
nothing serious or critical on the pages changed (the home pages, a match page), open or shut,
at either width."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.browser import DESKTOP, log_in, shoot

pytestmark = pytest.mark.browser
PHONE_390 = {"width": 390, "height": 844}
ONE_ROW = 70  # px: one row of 44 px targets and the header's margins, not two


def header_height(page) -> float:
    return page.locator(".site-header").evaluate("e => e.getBoundingClientRect().height")


def serious(page) -> list[str]:
    results = Axe().run(page)
    return [
        f"{page.url} [{page.viewport_size['width']} px] {v['impact']}: {v['id']} — {v['help']}"
        for v in results.response["violations"]
        if v["impact"] in {"serious", "critical"}
    ]


def test_the_menu_is_one_row_on_a_phone_and_opens_without_a_script(
    browser, live_server, match, player, director
):
    base = live_server.url
    visitor = browser.new_context(viewport=PHONE_390, java_script_enabled=False).new_page()
    visitor.goto(base + "/")
    assert header_height(visitor) < ONE_ROW
    expect(visitor.locator(".site-header").get_by_role("link", name="Log in")).to_be_visible()

    for who in (player, director):
        page = browser.new_context(viewport=PHONE_390, java_script_enabled=False).new_page()
        log_in(page, base, who.user.email)
        for url in ("/", match.get_absolute_url()):
            page.goto(base + url)
            assert header_height(page) < ONE_ROW, f"{who}: {url}"
            menu = page.locator(".menu-narrow > summary")
            expect(menu).to_be_visible()
            expect(page.get_by_role("link", name="Profile")).to_be_hidden()
            menu.click()  # no script on this page: the <details> opens itself
            expect(page.get_by_role("link", name="Profile")).to_be_visible()
            expect(page.get_by_role("button", name="Log out")).to_be_visible()
        shoot(page, f"menu-open-390-{'director' if who == director else 'student'}")
        if who == director:
            expect(
                page.locator(".site-header").get_by_role("link", name="Director", exact=True)
            ).to_be_visible()
        page.get_by_role("link", name="Profile").click()
        expect(page).to_have_url(base + "/profile/")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_390["width"]
        # Log out is the one log-out form's button, in the menu too.
        page.locator(".menu-narrow > summary").click()
        page.locator(".menu-narrow").get_by_role("button", name="Log out").click()
        expect(page.locator(".site-header").get_by_role("link", name="Log in")).to_be_visible()
        page.context.close()

    wide = browser.new_context(viewport=DESKTOP).new_page()
    log_in(wide, base, director.user.email)
    for url in ("/", match.get_absolute_url()):
        wide.goto(base + url)
        assert header_height(wide) < ONE_ROW
        expect(wide.locator(".menu-narrow > summary")).to_be_hidden()
        expect(wide.get_by_role("link", name="Profile")).to_be_visible()
        expect(
            wide.locator(".site-header").get_by_role("link", name="Director", exact=True)
        ).to_be_visible()
    wide.context.close()


def test_axe_finds_nothing_serious_in_the_menu_shut_or_open_at_390_and_1280_px(
    browser, live_server, match, player
):
    """axe runs a script, so these pages keep theirs."""
    base = live_server.url
    found = []
    for size in (PHONE_390, DESKTOP):
        visitor = browser.new_context(viewport=size).new_page()
        visitor.goto(base + "/")
        found += serious(visitor)
        visitor.context.close()
        page = browser.new_context(viewport=size).new_page()
        log_in(page, base, player.user.email)
        for url in ("/", match.get_absolute_url()):
            page.goto(base + url)
            found += serious(page)
            if size == PHONE_390:
                page.locator(".menu-narrow > summary").click()
                expect(page.get_by_role("link", name="Profile")).to_be_visible()
                found += serious(page)
        page.context.close()
    assert not found, "\n".join(found)
