"""What the browser journeys share: screen sizes, logging in through the form, screenshots."""

from pathlib import Path

from tests.factories import PASSWORD

SHOTS = Path(__file__).parent / "screenshots"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def log_in(page, base_url, email, password=PASSWORD):
    page.goto(f"{base_url}/accounts/login/")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def shoot(page, name):
    """A full-page screenshot in tests/browser/screenshots/ (git-ignored) for a human to look at."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}.png", full_page=True)
