"""Campus IDs (L3, L10) as a student types them, a card scanner sends them and the registrar's
file holds them: one way to tidy one and one way to check it against the institution's pattern.
Signup, registration, the roster import, the front desk and the admin all call these. Plain
Python: the roster parser uses them without a database.
"""

import re


def normalize_campus_id(raw: str | None) -> str:
    """The form a campus ID is stored, compared and looked up in: without the spaces and line
    ends around it (a scanner ends with Enter, spreadsheets pad cells). Letters keep their case
    and nothing inside is touched: the institution's pattern says what an ID may hold, and the
    same ID is written the same way by the registrar, the card and the student."""
    return (raw or "").strip()


def campus_id_fits(campus_id: str, pattern: str | re.Pattern) -> bool:
    """Whether the whole (tidied) campus ID matches the institution's pattern."""
    return re.fullmatch(pattern, campus_id) is not None
