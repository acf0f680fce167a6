"""An entrant's slip (S4), the plain parts: its private link's token and its short code, how a
typed code is read, the limits on wrong codes, and the phone's memory of the slips opened on it.

A slip proves one entrant for the whole event. Its link (``/slip/<token>/``) names no league;
its code is 8 characters of an alphabet read off paper without doubt, for a phone that cannot
scan. Both are random and kept on the slip's row, so the door can print a slip again (a new one:
the old link and code stop working). A phone that opened the link or took the code remembers
the entrant in a signed cookie until the day after the event; it may remember several entrants
(players sharing one phone), and acts only for those."""

import secrets
from datetime import date, datetime, time, timedelta

from django.utils import timezone

# No 0/O, 1/I/L: a code is read off paper and typed on a phone.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
TOKEN_BYTES = 24  # 32 characters in a URL

# Wrong codes allowed in any CODE_WINDOW: per table, however many phones try, and per device
# cookie, whatever table or page it tries. A whole hall shares one network address, so the
# address is never counted. Eight characters of 31 give about 850 billion codes: at 8 wrong
# tries a table every 10 minutes, guessing a live one in an evening is out of reach.
WRONG_CODES_PER_TABLE = 8
WRONG_CODES_PER_DEVICE = 5
CODE_WINDOW = timedelta(minutes=10)

# The phone's memory of the slips opened on it: a signed cookie of their tokens.
SLIPS_COOKIE = "slips"
SLIPS_SALT = "events.slips"
MOST_SLIPS_ON_A_PHONE = 8


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normalised(typed: str) -> str:
    """What a person typed, as the codes are written: capitals, no spaces or dashes."""
    return "".join((typed or "").split()).replace("-", "").upper()


def shown_code(code: str) -> str:
    """A code as a slip prints it: two groups of four, easier to read off and type."""
    return f"{code[:4]}-{code[4:]}" if len(code) == CODE_LENGTH else code


def remembered_until(event_day: date | None, tz) -> datetime:
    """A phone remembers a slip until the end of the day after the event (its day in the
    campus's clock); an event without a day, two days from now."""
    if event_day is None:
        return timezone.now() + timedelta(days=2)
    return datetime.combine(event_day + timedelta(days=2), time.min, tzinfo=tz)
