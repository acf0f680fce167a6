"""core.fragments (issue 18): fragments kept in the process under every value they show, so a
change shows at once; forms kept only while nothing was typed in them."""

import pytest
from django import forms

from core import fragments


class TimesForm(forms.Form):
    def __init__(self, *args, opponent: str, times=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["note"] = forms.CharField(label=f"A note for {opponent}", max_length=40)
        self.fields["time"] = forms.ChoiceField(label="Time", choices=list(times))


@pytest.fixture(autouse=True)
def no_fragments():
    fragments.forget_all()


def test_a_kept_form_shows_each_forms_own_labels_choices_and_initial_values():
    sage = fragments.form_html(TimesForm(opponent="Sage", times=[("1", "Mon 7 PM")]))
    assert "A note for Sage" in sage and "Mon 7 PM" in sage
    ana = fragments.form_html(TimesForm(opponent="Ana", times=[("1", "Mon 7 PM")]))
    assert "A note for Ana" in ana and "Sage" not in ana
    other_times = fragments.form_html(TimesForm(opponent="Sage", times=[("2", "Tue 8 PM")]))
    assert "Tue 8 PM" in other_times and "Mon 7 PM" not in other_times
    started = fragments.form_html(
        TimesForm(opponent="Sage", times=[("1", "Mon 7 PM")], initial={"note": "Library"})
    )
    assert 'value="Library"' in started
    assert fragments.form_html(TimesForm(opponent="Sage", times=[("1", "Mon 7 PM")])) == sage


def test_a_form_with_what_was_typed_is_rendered_each_time_with_its_errors():
    typed = TimesForm({"note": "x" * 50, "time": "9"}, opponent="Sage", times=[("1", "Mon")])
    assert not typed.is_valid()
    html = fragments.form_html(typed)
    assert "x" * 50 in html and "errorlist" in html
    again = TimesForm({"note": "fine", "time": "1"}, opponent="Sage", times=[("1", "Mon")])
    assert again.is_valid() and "fine" in fragments.form_html(again)


def test_the_oldest_fragments_go_past_the_limit(monkeypatch):
    monkeypatch.setattr(fragments, "MAX_FRAGMENTS", 3)
    made = []
    for number in range(5):
        fragments.kept("test", {"n": number}, lambda n=number: made.append(n) or f"<p>{n}</p>")
    assert len(fragments._kept) == 3
    fragments.kept("test", {"n": 0}, lambda: made.append("again") or "<p>0</p>")
    assert made == [0, 1, 2, 3, 4, "again"]  # the first was dropped, so made again
    fragments.kept("test", {"n": 4}, lambda: made.append("never") or "")
    assert "never" not in made
