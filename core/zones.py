"""Time zones in the words people use: "Central", "Central Time (Chicago)", never "America/Chicago".

A zone's short name comes from its abbreviations (zoneinfo's, winter and summer): the US and
Canadian zones' "CST"/"CDT" read "Central", and so on (``NAMED``); any other zone goes by its
city ("Europe/London" → "London"). ``zone_choices`` lists every zone zoneinfo knows, for the
admin's choice of an institution's zone."""

import zoneinfo
from datetime import datetime, tzinfo
from functools import cache

# A North American zone's standard-time abbreviation → the name people say it by.
NAMED = {
    "NST": "Newfoundland",
    "AST": "Atlantic",
    "EST": "Eastern",
    "CST": "Central",
    "MST": "Mountain",
    "PST": "Pacific",
    "AKST": "Alaska",
    "HST": "Hawaii",
}
# Only these zones read their abbreviations from the table: "CST" is China's too, "IST" India's
# and Ireland's.
NORTH_AMERICA = ("America/", "US/", "Canada/", "Pacific/Honolulu")


def _key(tz: tzinfo | str) -> str:
    return tz if isinstance(tz, str) else getattr(tz, "key", str(tz))


def _city(key: str) -> str:
    return key.rsplit("/", 1)[-1].replace("_", " ")


@cache
def _short(key: str) -> str:
    if key.startswith(NORTH_AMERICA):
        tz = zoneinfo.ZoneInfo(key)
        year = datetime.now().year
        # The standard time's abbreviation: January's north of the equator, where these are.
        abbreviation = datetime(year, 1, 15, 12, tzinfo=tz).tzname()
        if abbreviation in NAMED:
            return NAMED[abbreviation]
    return _city(key)


def zone_short(tz: tzinfo | str) -> str:
    """ "Central" for America/Chicago, "Eastern" for America/New_York, "London" for
    Europe/London, "UTC" for UTC: the word after a time ("11:59 PM Central")."""
    return _short(_key(tz))


def zone_long(tz: tzinfo | str) -> str:
    """ "Central Time (Chicago)"; "London time" where the zone goes by its city."""
    key = _key(tz)
    short, city = zone_short(key), _city(key)
    if short == city:
        return short if short == "UTC" else f"{city} time"
    return f"{short} Time ({city})"


@cache
def zone_choices() -> tuple[tuple[str, str], ...]:
    """Every zone zoneinfo knows, as (its name, "America/Chicago: Central Time (Chicago)"),
    sorted by name."""
    return tuple(
        (key, f"{key}: {zone_long(key)}" if zone_long(key) != f"{_city(key)} time" else key)
        for key in sorted(zoneinfo.available_timezones())
    )
