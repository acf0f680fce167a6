"""Word lists the project may legally ship. Only ENABLE (public domain) is here; NWL and Collins
are proprietary, so a league on those lexicons is shown ENABLE's list with a note."""

from functools import cache
from pathlib import Path

HERE = Path(__file__).parent


@cache
def two_letter_words() -> tuple[str, ...]:
    lines = (HERE / "enable-two-letter.txt").read_text(encoding="utf-8").splitlines()
    return tuple(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def list_note(lexicon_label: str, ask: str = "the director") -> str:
    """What every surface showing ENABLE's list says under it: whose list it is, the lexicon
    the league or event really plays, and that the lexicon accepts words the list lacks (the
    tournament lexicons may not be republished)."""
    return (
        f"These are ENABLE's two-letter words, a public-domain list. This plays {lexicon_label}, "
        f"which also accepts words this list lacks (QI, ZA, OK and others): when in doubt, ask "
        f"{ask}."
    )
