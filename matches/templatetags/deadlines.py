from zoneinfo import ZoneInfo

from django import template

from matches.deadlines import deadline_text, match_due

register = template.Library()


@register.filter
def deadline(moment, tz):
    """``{{ some_moment|deadline:tz }}``: "play by Fri Nov 27" (or a day and time), for a
    moment without its league at hand. ``tz`` is a zone or its name."""
    if not moment:
        return ""
    return deadline_text(moment, ZoneInfo(tz) if isinstance(tz, str) else tz)


@register.filter
def due(match):
    """``{{ match|due }}``: "play by Fri Nov 27", or "report by …" where the league gives days
    to report after play (matches.deadlines)."""
    return match_due(match)
