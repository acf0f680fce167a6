"""A match's deadline: when it falls, and how it reads.

A round's deadline is midnight at the end of its play-by day in the institution's zone, plus the
league's report window (``match_deadline``). "Due Sat Nov 28, 12:00 AM" read as a day later than
the league page's "play by Fri Nov 27", so midnight is said as the end of the day before."""

from datetime import date, datetime, time, timedelta, tzinfo


def match_deadline(*, play_by: date, report_window_days: int, tz: tzinfo) -> datetime:
    """The end of the play-by date in the institution's time zone, plus the report window."""
    return datetime.combine(play_by + timedelta(days=1 + report_window_days), time.min, tzinfo=tz)


def deadline_text(moment: datetime, tz: tzinfo) -> str:
    local = moment.astimezone(tz)
    if (local.hour, local.minute) == (0, 0):
        return f"end of {(local - timedelta(days=1)).strftime('%a %b %-d')}"
    return local.strftime("%a %b %-d, %-I:%M %p")
