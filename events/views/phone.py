"""What a phone carries from page to page at an event (S4): its device cookie (a random id:
wrong codes are counted per device, never per network address, which a whole hall shares) and
the slips it remembers (a signed cookie of their tokens, kept until the day after the event)."""

import secrets

from django.http import HttpRequest, HttpResponse

from events.models import EntrantSlip, event_of_league
from events.slips import MOST_SLIPS_ON_A_PHONE, SLIPS_COOKIE, SLIPS_SALT, remembered_until

# Between the tokens in the cookie: never in a token (URL-safe base64), and plain in a cookie.
SEPARATOR = "."
DEVICE_COOKIE = "seat_device"
DEVICE_COOKIE_DAYS = 2


def device_of(request: HttpRequest) -> str:
    """The device cookie's id (S4: wrong codes are counted per device, never per address);
    a new one when the phone has none yet, set on the response by ``keep_device``."""
    device = getattr(request, "seat_device", None) or request.COOKIES.get(DEVICE_COOKIE, "")
    if not (device.isascii() and 16 <= len(device) <= 40):
        device = secrets.token_urlsafe(18)
    request.seat_device = device
    return device


def keep_device(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    device = getattr(request, "seat_device", None)
    if device and request.COOKIES.get(DEVICE_COOKIE) != device:
        response.set_cookie(
            DEVICE_COOKIE,
            device,
            max_age=DEVICE_COOKIE_DAYS * 86400,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure(),
        )
    return response


def remembered_tokens(request: HttpRequest) -> list[str]:
    """The slips this phone remembers (their tokens), newest last; none when the cookie is
    missing, tampered with or malformed."""
    raw = request.get_signed_cookie(SLIPS_COOKIE, default="", salt=SLIPS_SALT)
    return [token for token in raw.split(SEPARATOR) if token][-MOST_SLIPS_ON_A_PHONE:]


def remember(request: HttpRequest, response: HttpResponse, slip: EntrantSlip) -> HttpResponse:
    """This phone remembers the slip's entrant (beside the others it knows) until the day after
    the event."""
    tokens = [token for token in remembered_tokens(request) if token != slip.token]
    tokens = (tokens + [slip.token])[-MOST_SLIPS_ON_A_PHONE:]
    league = slip.entry.league
    response.set_signed_cookie(
        SLIPS_COOKIE,
        SEPARATOR.join(tokens),
        salt=SLIPS_SALT,
        expires=remembered_until(event_of_league(league).date, league.season.institution.tz),
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response
