"""A match's deadline: when it falls, and how it reads.

A round's deadline is midnight at the end of its play-by day in the institution's zone, plus the
league's report window (``match_deadline``). Every page, e-mail, the admin and the exports say it
one way (``deadline_text``): the last day, in the institution's zone, and what is due that day:
"play by Thu Dec 3", or "report by Sat Dec 5" where the league gives days to report after play.
("Fri Dec 4, 12:00 AM" and "Dec. 4, 2026, midnight" read as a day later than the league's
"play by Thu Dec 3".) A deadline a director set to a time of day says the time too. Where the
zone is said (the match page, the ruling), ``deadline_in_zone`` says the last minute and the
zone's plain name: "play by Thu Dec 3, 11:59 PM Central"."""

from datetime import date, datetime, time, timedelta, tzinfo

from core.zones import zone_short


def match_deadline(*, play_by: date, report_window_days: int, tz: tzinfo) -> datetime:
    """The end of the play-by date in the institution's time zone, plus the report window."""
    return datetime.combine(play_by + timedelta(days=1 + report_window_days), time.min, tzinfo=tz)


def deadline_text(moment: datetime, tz: tzinfo, report_window_days: int = 0) -> str:
    """ "play by Thu Dec 3" (or "report by …" with a report window); a deadline that is not
    midnight keeps its time: "play by Thu Dec 3, 5:00 PM"."""
    local = moment.astimezone(tz)
    due = "report by" if report_window_days else "play by"
    if (local.hour, local.minute) == (0, 0):
        return f"{due} {(local - timedelta(days=1)).strftime('%a %b %-d')}"
    return f"{due} {local.strftime('%a %b %-d, %-I:%M %p')}"


def deadline_in_zone(moment: datetime, tz: tzinfo, report_window_days: int = 0) -> str:
    """ "play by Thu Dec 3, 11:59 PM Central": the deadline's last minute and its zone, for a
    reader who may sit in another zone."""
    local = moment.astimezone(tz)
    due = "report by" if report_window_days else "play by"
    if (local.hour, local.minute) == (0, 0):
        local -= timedelta(minutes=1)
    return f"{due} {local.strftime('%a %b %-d, %-I:%M %p')} {zone_short(tz)}"


def match_due_in_zone(match) -> str:
    """A match's deadline with its last minute and zone (``deadline_in_zone``)."""
    league = match.league
    return deadline_in_zone(match.deadline, league.season.institution.tz, league.report_window_days)


def match_due(match) -> str:
    """A match's deadline in words, from its league's zone and report window."""
    league = match.league
    return deadline_text(match.deadline, league.season.institution.tz, league.report_window_days)
