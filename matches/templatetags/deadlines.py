from zoneinfo import ZoneInfo

from django import template

from matches.deadlines import deadline_text

register = template.Library()


@register.filter
def deadline(moment, tz):
    """``{{ match.deadline|deadline:tz }}``: "end of Fri Nov 27", or a day and time. ``tz`` is a
    zone or its name."""
    if not moment:
        return ""
    return deadline_text(moment, ZoneInfo(tz) if isinstance(tz, str) else tz)
