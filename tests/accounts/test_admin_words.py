"""The admin's and the set-up forms' words (issue 48): a slug refused in words, not "Enter a
valid “slug”"; the campus-ID pattern explained in words as well as a regular expression (L10);
the time zone picked from the zones there are, not typed."""

import html
import zoneinfo

import pytest
from django.urls import reverse

from accounts.campus_ids import pattern_in_words
from core.forms import SLUG_INVALID
from tests.accounts.test_admin_scoping import _institution_form

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("pattern", "words"),
    [
        (r"\d{7}", "seven digits, for example 1234567"),
        (r"^\d{7}$", "seven digits, for example 1234567"),
        (r"[A-Z]\d{6}", "a capital letter and six digits, for example A123456"),
        (r"\d{8,9}", "eight or nine digits, for example 12345678"),
        (r"\d{4,6}", "four to six digits, for example 1234"),
        (r"[A-Z]{2}-\d{4}", "two capital letters, a hyphen and four digits, for example AB-1234"),
        (r"S\d{7}", '"S" and seven digits, for example S1234567'),
        (r"\d{12}", "12 digits, for example 123456789012"),
        (r"\w+", None),  # not simple: the director's hint says it
        (r"(\d{7}|\d{9})", None),
    ],
)
def test_l10_a_simple_campus_id_pattern_is_said_in_words_with_an_example(pattern, words):
    assert pattern_in_words(pattern) == words


def test_l10_the_admin_explains_the_campus_id_pattern_in_words(client, site_admin, institution):
    client.force_login(site_admin)
    url = reverse("admin:accounts_institution_change", args=[institution.pk])

    page = html.unescape(client.get(url).content.decode())

    assert "Campus ID pattern" in page and "Campus id pattern" not in page
    assert "seven digits, [A-Z]" in page  # what a pattern is, in words
    assert "The pattern now: seven digits, for example 1234567." in page
    assert "Campus ID in words" in page


def test_the_admin_picks_the_time_zone_from_every_zone_and_keeps_the_stored_one(
    client, site_admin, institution
):
    client.force_login(site_admin)
    url = reverse("admin:accounts_institution_change", args=[institution.pk])
    form = client.get(url).context["adminform"].form
    choices = dict(form.fields["timezone"].choices)
    assert set(choices) >= zoneinfo.available_timezones()
    assert choices["America/Chicago"] == "America/Chicago: Central Time (Chicago)"
    assert form.initial["timezone"] == institution.timezone
    assert '<select name="timezone"' in client.get(url).content.decode()

    refused = client.post(url, _institution_form(institution, timezone="Central"))
    assert refused.status_code == 200
    institution.refresh_from_db()
    assert institution.timezone == "America/Chicago"

    assert (
        client.post(url, _institution_form(institution, timezone="America/New_York")).status_code
        == 302
    )
    institution.refresh_from_db()
    assert institution.timezone == "America/New_York"


def test_a_slug_the_admin_refuses_is_said_in_words(client, site_admin, institution):
    client.force_login(site_admin)
    url = reverse("admin:accounts_institution_change", args=[institution.pk])

    response = client.post(url, _institution_form(institution, slug="Example State!"))

    page = html.unescape(response.content.decode())
    assert response.status_code == 200 and SLUG_INVALID in page
    assert "valid “slug”" not in page
    institution.refresh_from_db()
    assert institution.slug == "example-state"


def test_e3_a_slug_the_set_up_form_refuses_is_said_in_words(client, director, season):
    from tests.events.test_setup_forms import event_form

    client.force_login(director.user)
    url = reverse("league_setup_form", args=["event"])

    response = client.post(url, event_form(season, slug="winter fest"))

    page = html.unescape(response.content.decode())
    assert response.status_code == 200 and SLUG_INVALID in page
    assert "valid “slug”" not in page
    assert "lower-case letters, digits and hyphens" in page
