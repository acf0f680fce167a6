"""Rendered fragments kept in the process, keyed by every value they show.

A template fed only plain values is a pure function of them: the same values render the same
HTML. `rendered` keeps that HTML in the process under a key made of the template's name, the
time zone and language it was rendered in, and the values themselves, so a changed value is a
new key and nothing shown can be stale: no timeout, no invalidation, no Redis. Only plain values
are accepted (a model instance would compare by its primary key alone and hide a change).
The least recently used fragments are dropped past MAX_FRAGMENTS.

Used by: the leagues list's league cards (league/views/students.py · league_list), the rows of My
matches (league/views/students.py · home), the rows of both dispute queues
(matches/dispute_queue.py · dispute_row), a match page's game record, board and moves
(matches/views.py · _game, keyed by the record's text itself), and the match page's forms before
anything was typed in them (`form_html`, the `kept_form` filter: keyed by every field's name,
label, help, widget and its attributes, initial value and choices).
"""

from collections import OrderedDict
from collections.abc import Callable
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
    return kept(template_name, values, lambda: render_to_string(template_name, values))


def kept(name: str, key: dict, render: Callable[[], str]) -> str:
    """The fragment `render()` makes from exactly the plain values in `key`, made once per
    process for each key. `render` must read nothing but what `key` holds (or derives from it
    alone): that is what keeps the fragment true."""
    for field, value in key.items():
        if not _plain(value):
            raise TypeError(
                f"fragment value {field!r} is a {type(value).__name__}, not a plain value"
            )
    full_key = (
        name,
        timezone.get_current_timezone_name(),
        translation.get_language(),
        tuple(sorted(key.items())),
    )
    with _lock:
        html = _kept.get(full_key)
        if html is not None:
            _kept.move_to_end(full_key)
            return html
    html = render()
    with _lock:
        _kept[full_key] = html
        while len(_kept) > MAX_FRAGMENTS:
            _kept.popitem(last=False)
    return html


def form_html(form, template_name: str = "") -> str:
    """An unbound form rendered with `template_name` (given `form`) or as paragraphs, kept under
    all that its fields show; a bound form (what was typed, its errors) is rendered each time."""

    def render() -> str:
        return render_to_string(template_name, {"form": form}) if template_name else form.as_p()

    if form.is_bound:
        return render()
    fields = tuple(
        (
            name,
            str(field.label),
            str(field.help_text),
            field.required,
            field.disabled,
            type(field.widget).__name__,
            tuple(
                sorted(
                    (str(attr), str(value))
                    for attr, value in {
                        **field.widget.attrs,
                        **field.widget_attrs(field.widget),
                    }.items()
                )
            ),
            str(form.get_initial_for_field(field, name)),
            tuple((str(value), str(label)) for value, label in getattr(field, "choices", ())),
        )
        for name, field in form.fields.items()
    )
    key = {
        "form": type(form).__qualname__,
        "fields": fields,
        "auto_id": str(form.auto_id),
        "prefix": form.prefix or "",
        # A form that splits its fields in two (the report's "More details") says how.
        "details": tuple(sorted(getattr(form, "detail_names", ()))),
    }
    return kept(template_name or "as_p", key, render)


def _plain(value) -> bool:
    if isinstance(value, tuple):
        return all(_plain(each) for each in value)
    return isinstance(value, PLAIN)


def forget_all() -> None:
    """Empty the fragments (tests that count renders start from none)."""
    with _lock:
        _kept.clear()
