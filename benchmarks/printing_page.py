"""A round's printouts through their page, at 1,000 entrants (500 tables): the event built by
the project's commands in a throwaway PostgreSQL database (as `self_entry_evening.py` builds
it, round 1 paired), then `/<campus>/leagues/<slug>/rounds/1/print/<kind>.pdf` asked for by the
director, pairings, cards and sheets in turn, each timed from the request to the PDF's bytes
(reading the round included, which `printing.py` leaves out).

Run: `python benchmarks/printing_page.py [CHECKOUT]` (another checkout's code with this
harness: the parent's, say). One line a printout on standard output."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else HERE.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import self_entry_evening as evening  # noqa: E402
from harness import drop, manage  # noqa: E402

TIMED = r"""
import time
from django.test import Client
from django.urls import reverse
from accounts.models import User
from league.models import League
league = League.objects.select_related("season__institution").get(slug="%s")
client = Client()
client.force_login(User.objects.get(email="director@example.edu"))
for kind in ("pairings", "cards", "sheets"):
    started = time.perf_counter()
    answer = client.get(reverse("event_print", args=[league, 1, kind]), HTTP_HOST="127.0.0.1")
    print(f"{kind}: {answer.status_code}, {time.perf_counter() - started:.2f} s, "
          f"{len(answer.content):,} bytes")
"""


def main() -> None:
    evening.fresh_database()
    try:
        evening.build_event(1000, 1, 1)
        print(manage(evening.DATABASE, "shell", "-c", TIMED % evening.SLUG, capture=True), end="")
    finally:
        drop(evening.DATABASE)


if __name__ == "__main__":
    main()
