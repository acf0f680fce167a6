"""Times and lengths of time as every page, e-mail, PDF and export writes them: a clock time
as the site shows it (8:00 PM, never 20:00), and a length over an hour in hours and minutes
(1 h 28 min, never 88 min)."""

from datetime import datetime, time


def clock_time(moment: time | datetime) -> str:
    """8:00 PM; a datetime is taken as it is (localise it first)."""
    return moment.strftime("%-I:%M %p")


def duration_words(minutes: int) -> str:
    """45 min, 1 h, 1 h 28 min, 26 h 5 min."""
    hours, rest = divmod(max(0, int(minutes)), 60)
    if not hours:
        return f"{rest} min"
    return f"{hours} h {rest} min" if rest else f"{hours} h"
