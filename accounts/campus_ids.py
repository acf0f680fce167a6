"""Campus IDs (L3, L10) as a student types them, a card scanner sends them and the registrar's
file holds them: one way to tidy one and one way to check it against the institution's pattern.
Signup, registration, the roster import, the front desk and the admin all call these. Plain
Python: the roster parser uses them without a database.
"""

import functools
import re
import unicodedata

# The longest campus ID stored (PlayerProfile.campus_id, RosterEntry.campus_id): a pattern such
# as \w+ would otherwise let a longer one through to a database error.
MAX_LENGTH = 40


def normalize_campus_id(raw: str | None) -> str:
    """The form a campus ID is stored, compared and looked up in: NFKC-normalised, so that the
    full-width digits of a phone's Asian keyboard (３４５６７８９) become the ASCII ones
    (3456789) the card and the roster hold, and without the spaces and line ends around it (a
    scanner ends with Enter, spreadsheets pad cells). Letters keep their case and nothing inside
    is removed: the institution's pattern says what an ID may hold."""
    return unicodedata.normalize("NFKC", raw or "").strip()


@functools.lru_cache(maxsize=64)
def _compiled(pattern: str) -> re.Pattern:
    # ASCII: \d is 0-9 and \w is [A-Za-z0-9_], never the digits and letters of other scripts.
    return re.compile(pattern, re.ASCII)


def campus_id_fits(campus_id: str, pattern: str) -> bool:
    """Whether the whole (tidied) campus ID matches the institution's pattern. Only ASCII fits,
    whatever the pattern: Arabic-Indic digits (٣٤٥٦٧٨٩) pass a Unicode \\d{7} but are a second
    spelling of an ID that would never match the roster or the card."""
    if not campus_id.isascii() or len(campus_id) > MAX_LENGTH:
        return False
    return _compiled(pattern).fullmatch(campus_id) is not None
