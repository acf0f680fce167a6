"""Rendered fragments kept in the process, keyed by every value they show (issue 18).

A template fed only plain values is a pure function of them: the same values render the same
HTML. `rendered` keeps that HTML in the process under a key made of the template's name, the
time zone and language it was rendered in, and the values themselves, so a changed value is a
new key and nothing shown can be stale: no timeout, no invalidation, no Redis. Only plain values
are accepted (a model instance would compare by its primary key alone and hide a change).
The least recently used fragments are dropped past MAX_FRAGMENTS.

Used by: the leagues list's league cards (league/views.py · league_list) and the rows of My
matches (league/views.py · home).
"""

from collections import OrderedDict
from datetime import date, datetime
from threading import Lock

from django.template.loader import render_to_string
from django.utils import timezone, translation

MAX_FRAGMENTS = 4096
PLAIN = (str, int, float, bool, date, datetime, type(None))

_kept: OrderedDict = OrderedDict()
_lock = Lock()


def rendered(template_name: str, values: dict) -> str:
    """`template_name` rendered with `values`, from the process's fragments when the same
    values were rendered before."""
    for name, value in values.items():
        if not _plain(value):
            raise TypeError(
                f"fragment value {name!r} is a {type(value).__name__}, not a plain value"
            )
    key = (
        template_name,
        timezone.get_current_timezone_name(),
        translation.get_language(),
        tuple(sorted(values.items())),
    )
    with _lock:
        html = _kept.get(key)
        if html is not None:
            _kept.move_to_end(key)
            return html
    html = render_to_string(template_name, values)
    with _lock:
        _kept[key] = html
        while len(_kept) > MAX_FRAGMENTS:
            _kept.popitem(last=False)
    return html


def _plain(value) -> bool:
    if isinstance(value, tuple):
        return all(_plain(each) for each in value)
    return isinstance(value, PLAIN)


def forget_all() -> None:
    """Empty the fragments (tests that count renders start from none)."""
    with _lock:
        _kept.clear()
