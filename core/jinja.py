"""The Jinja2 environment of the few templates rendered in bulk (``engines["jinja2"]``): a
league's standings table, rendered for every league each night, took most of the night's time
in Django's template language and a quarter of it here; the e-mails of `rendered_message`
(matches/notifications.py), thousands a night at a large campus, likewise
(docs/performance.md). Their files end in .jinja.

The templates are plain Jinja2 with what they need of Django: ``url()`` and a ``date`` filter
that speaks the active time zone, as Django's own does.
"""

from django.urls import reverse
from django.utils import dateformat, timezone
from jinja2 import Environment


def _date(value, format_string: str) -> str:
    if value is None or value == "":
        return ""
    if timezone.is_aware(value):
        value = timezone.localtime(value)
    return dateformat.format(value, format_string)


def environment(**options) -> Environment:
    # Kept: Django's own templates end with their last newline, and a page rendered either way
    # is byte for byte the same.
    env = Environment(keep_trailing_newline=True, **options)
    env.globals["url"] = lambda name, *args: reverse(name, args=args)
    env.filters["date"] = _date
    return env
