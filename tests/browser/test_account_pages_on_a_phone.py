"""The account pages (django-allauth: log in, sign up, password reset and change, e-mail change
and verification, log out) on a 390 px phone: every field labelled, every button and field at
least 44 px tall, fields' text at least 16 px (smaller makes iOS zoom in), nothing wider than
the screen. Issue "what newcomers hit": these are the first pages a student sees."""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from tests.browser import log_in, shoot
from tests.support import PASSWORD

pytestmark = pytest.mark.browser
PHONE_390 = {"width": 390, "height": 844}

AUDIT = """
() => {
  const problems = [];
  const shown = el => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden";
  };
  const name = el => el.name || el.id || el.textContent.trim().slice(0, 30) || el.tagName;
  for (const el of document.querySelectorAll("input:not([type=hidden]), select, textarea")) {
    if (!shown(el)) continue;
    const labelled = (el.labels && el.labels.length) || el.getAttribute("aria-label")
      || el.getAttribute("aria-labelledby");
    if (!labelled) problems.push(`${name(el)}: no label`);
    const box = ["checkbox", "radio"].includes(el.type);
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (!box && size < 16) problems.push(`${name(el)}: text ${size}px`);
    // A checkbox is tapped with its label: the two together must be tall enough.
    const target = box && el.labels && el.labels.length ? el.labels[0] : el;
    const height = Math.max(target.getBoundingClientRect().height, el.getBoundingClientRect().height);
    if (height < 44) problems.push(`${name(el)}: ${height.toFixed(1)}px tall`);
  }
  for (const el of document.querySelectorAll("button, a.button, input[type=submit]")) {
    if (!shown(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.height < 44) problems.push(`button ${name(el)}: ${box.height.toFixed(1)}px tall`);
  }
  // Links standing alone in a form ("Forgot your password?") and the menu.
  for (const el of document.querySelectorAll("header a, header nav .link, main form a")) {
    if (!shown(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.height < 44) problems.push(`menu ${name(el)}: ${box.height.toFixed(1)}px tall`);
  }
  const width = document.documentElement.scrollWidth;
  if (width > window.innerWidth) problems.push(`the page is ${width}px wide`);
  return problems;
}
"""


def audit(page, url, label):
    page.goto(url)
    shoot(page, f"account-390-{label}")
    return [f"{label}: {problem}" for problem in page.evaluate(AUDIT)]


def test_the_account_pages_fit_a_390_px_phone(
    browser, live_server, transactional_db, player, django_capture_on_commit_callbacks
):
    base = live_server.url
    page = browser.new_context(viewport=PHONE_390).new_page()
    problems = []
    for path, label in [
        ("/accounts/login/", "login"),
        ("/accounts/signup/", "signup"),
        ("/accounts/password/reset/", "password-reset"),
        ("/accounts/password/reset/done/", "password-reset-done"),
        ("/accounts/password/reset/key/1-bad-key/", "password-reset-bad-key"),
        ("/accounts/confirm-email/", "verification-sent"),
    ]:
        problems += audit(page, base + path, label)

    # The signup refused, its errors on the page.
    page.goto(base + "/accounts/signup/")
    page.get_by_label("First name").fill("Marlow")
    page.get_by_label("Last name").fill("Thistlewood")
    page.get_by_label("Email").fill("marlow@gmail.com")
    page.get_by_label("Campus ID").fill("12")
    page.locator("[name=password1]").fill("a-long-passphrase-1")
    page.locator("[name=password2]").fill("a-long-passphrase-1")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_text("no institution here accepts addresses at gmail.com")).to_be_visible()
    page.wait_for_load_state("load")  # the audit reads the stylesheet's sizes
    problems += [f"signup-errors: {p}" for p in page.evaluate(AUDIT)]
    shoot(page, "account-390-signup-errors")

    # A reset link, as the mail gives it.
    page.goto(base + "/accounts/password/reset/")
    page.get_by_label("Email").fill(player.user.email)
    page.get_by_role("button", name=re.compile("reset", re.I)).click()
    link = re.search(r"http\S+/accounts/password/reset/key/\S+/", mail.outbox[-1].body).group(0)
    problems += audit(page, link, "password-reset-from-key")

    log_in(page, base, player.user.email, PASSWORD)
    for path, label in [
        ("/accounts/password/change/", "password-change"),
        ("/accounts/email/", "email-change"),
        ("/accounts/logout/", "logout"),
        ("/profile/", "profile"),
    ]:
        problems += audit(page, base + path, label)
    page.goto(base + "/accounts/email/")
    page.get_by_label("New e-mail address").fill("rowan.p@example.edu")
    page.get_by_role("button", name="Send the link").click()
    page.wait_for_load_state("load")
    problems += [f"email-change-pending: {p}" for p in page.evaluate(AUDIT)]
    shoot(page, "account-390-email-change-pending")
    link = re.search(r"http\S+/accounts/confirm-email/\S+/", mail.outbox[-1].body).group(0)
    problems += audit(page, link, "confirm-email")

    assert not problems, "\n".join(problems)
