from zoneinfo import ZoneInfo

from django import template

from core.zones import zone_long, zone_short
from matches.deadlines import deadline_text, match_due, match_due_in_zone

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


@register.filter
def due_in_zone(match):
    """``{{ match|due_in_zone }}``: "play by Thu Dec 3, 11:59 PM Central", where a reader may
    sit in another zone."""
    return match_due_in_zone(match)


@register.filter
def zone(tz):
    """``{{ tz|zone }}``: "Central", a zone's plain short name (core/zones.py)."""
    return zone_short(tz) if tz else ""


@register.filter
def zone_in_full(tz):
    """``{{ tz|zone_in_full }}``: "Central Time (Chicago)"."""
    return zone_long(tz) if tz else ""
