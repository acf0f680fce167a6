"""How tall the evening's pages are on a phone (390 px wide) and a laptop (1280 px): the demo,
served by `runserver` from a throwaway SQLite file, read in Debian's chromium as the persona who
uses each page. One table on standard output (pixels of the whole page), progress on stderr.

Run: `python benchmarks/phone_heights.py` (about a minute). A page is measured as its
persona sees it: the door and a round's pairings as the front desk, the leaderboard and the
event's page as a visitor.
"""

import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
PASSWORD = "scrabble-demo"
WIDTHS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
PAGES = [
    ("the door", "/example-state/leagues/scrabble-fest/desk/", "frontdesk@example.edu"),
    (
        "a round's pairings",
        "/example-state/leagues/scrabble-fest/rounds/2/",
        "frontdesk@example.edu",
    ),
    ("the leaderboard", "/example-state/leagues/scrabble-fest/leaderboard/", None),
    ("the Fest's page", "/example-state/leagues/scrabble-fest/", None),
]


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main() -> None:
    folder = tempfile.mkdtemp(prefix="heights-")
    port = free_port()
    environment = {
        **os.environ,
        "DEBUG": "true",
        "DATABASE_URL": f"sqlite:///{folder}/demo.sqlite3",
        "SITE_URL": f"http://127.0.0.1:{port}",
        "REDIS_URL": "",
    }

    def manage(*args: str) -> None:
        subprocess.run(
            [PY, "manage.py", *args], cwd=ROOT, env=environment, check=True, capture_output=True
        )

    say("seeding the demo")
    manage("migrate", "--noinput")
    manage("createcachetable")
    manage("seed_demo")
    say(f"serving it on port {port}")
    server = subprocess.Popen(
        [PY, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        heights = measure(base)
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"{'page':<22}{'phone px':>10}{'laptop px':>11}")
    for label, _, _ in PAGES:
        print(f"{label:<22}{heights[label, 'phone']:>10}{heights[label, 'laptop']:>11}")


def measure(base: str) -> dict:
    heights = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        for width, viewport in WIDTHS.items():
            contexts = {}
            for label, path, persona in PAGES:
                if persona not in contexts:
                    contexts[persona] = browser.new_context(viewport=viewport)
                    if persona:
                        page = contexts[persona].new_page()
                        page.goto(f"{base}/accounts/login/")
                        page.get_by_label("Email").fill(persona)
                        page.get_by_label("Password").fill(PASSWORD)
                        page.get_by_role("button", name="Log in").click()
                        page.wait_for_load_state()
                page = contexts[persona].new_page()
                page.goto(base + path)
                heights[label, width] = page.evaluate("document.documentElement.scrollHeight")
                say(f"{width}: {label}: {heights[label, width]} px")
        browser.close()
    return heights


if __name__ == "__main__":
    main()
