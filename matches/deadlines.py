"""How a deadline reads. A round's deadline is midnight at the end of a day in the institution's
zone (``services.match_deadline``); "due Sat Nov 28, 12:00 AM" read as a day later than the
league page's "play by Fri Nov 27", so midnight is said as the end of the day before."""

from datetime import datetime, timedelta, tzinfo


def deadline_text(moment: datetime, tz: tzinfo) -> str:
    local = moment.astimezone(tz)
    if (local.hour, local.minute) == (0, 0):
        return f"end of {(local - timedelta(days=1)).strftime('%a %b %-d')}"
    return local.strftime("%a %b %-d, %-I:%M %p")
