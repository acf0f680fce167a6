"""Word lists the project may legally ship. Only ENABLE (public domain) is here; NWL and Collins
are proprietary, so a league on those lexicons is shown ENABLE's list with a note."""

from functools import cache
from pathlib import Path

HERE = Path(__file__).parent


@cache
def two_letter_words() -> tuple[str, ...]:
    lines = (HERE / "enable-two-letter.txt").read_text(encoding="utf-8").splitlines()
    return tuple(line.strip() for line in lines if line.strip() and not line.startswith("#"))
