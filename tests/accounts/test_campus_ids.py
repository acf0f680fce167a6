"""One rule for a campus ID (L10): tidied the same way and checked against the institution's
pattern wherever one comes in: signup, registration, the roster import, the front desk and the
admin."""

import pytest
from django.urls import reverse

from accounts.campus_ids import campus_id_fits, normalize_campus_id
from accounts.models import PlayerProfile, RosterEntry
from accounts.roster import parse_roster
from accounts.services import student_register
from core.errors import DomainError
from tests.support import UserFactory


@pytest.mark.parametrize(
    "raw, tidied",
    [
        (" 1234567\n", "1234567"),  # a scanner ends with Enter
        ("\t1234567  ", "1234567"),  # a spreadsheet's padded cell
        ("a1234567", "a1234567"),  # case is kept: the pattern decides
        ("123 4567", "123 4567"),  # nothing inside is touched
        (None, ""),
    ],
)
def test_l10_a_campus_id_is_tidied_of_the_spaces_around_it_and_nothing_else(raw, tidied):
    assert normalize_campus_id(raw) == tidied


def test_l10_a_campus_id_in_full_width_digits_is_normalised_to_ascii():
    """NFKC: what a phone's Asian keyboard types is the ID on the card."""
    assert normalize_campus_id("３４５６７８９") == "3456789"
    assert normalize_campus_id("\u3000ＡＢ１２\u3000") == "AB12"


@pytest.mark.parametrize(
    "campus_id",
    ["٣٤٥٦٧٨٩", "۳۴۵۶۷۸۹", "१२३४५६७", "123456\u0667"],  # Arabic-Indic, Persian, Devanagari, mixed
)
def test_l10_only_ascii_fits_a_campus_id_pattern(campus_id):
    assert not campus_id_fits(normalize_campus_id(campus_id), r"\d{7}")
    assert not campus_id_fits(normalize_campus_id(campus_id), r"\w+")
    assert not campus_id_fits(normalize_campus_id(campus_id), r".{7}")


def test_l10_a_campus_id_longer_than_the_column_never_fits():
    assert campus_id_fits("A" * 40, r"\w+")
    assert not campus_id_fits("A" * 41, r"\w+")


def test_l10_the_roster_reads_full_width_digits_and_refuses_other_scripts():
    parsed = parse_roster("campus_id\n３４５６７８９\n٣٤٥٦٧٨٩\n", r"\d{7}", "seven digits")
    assert [row.campus_id for row in parsed.rows] == ["3456789"]
    assert parsed.rejected == [
        (3, "campus ID '٣٤٥٦٧٨٩' is not in the institution's format (seven digits)")
    ]


def test_l10_the_whole_campus_id_must_fit_the_pattern():
    assert campus_id_fits("1234567", r"\d{7}")
    assert not campus_id_fits("12345678", r"\d{7}")
    assert not campus_id_fits("123 4567", r"\d{7}")


def test_l10_registration_and_the_roster_store_a_padded_campus_id_alike(institution):
    profile = student_register(
        user=UserFactory(email="wren@example.edu"), institution=institution, campus_id=" 7654321\n"
    )
    parsed = parse_roster("campus_id\n 7654321 \n", institution.campus_id_pattern)
    assert profile.campus_id == parsed.rows[0].campus_id == "7654321"


def test_l10_registration_refuses_a_campus_id_not_in_the_institutions_format(institution):
    with pytest.raises(DomainError, match="Campus ID must be seven digits."):
        student_register(
            user=UserFactory(email="wren@example.edu"), institution=institution, campus_id="12AB"
        )
    assert not PlayerProfile.objects.exists()


def test_l10_the_front_desk_finds_a_student_typed_in_full_width_digits(
    client, staff, player, season
):
    client.force_login(staff.user)
    full_width = player.campus_id.translate({ord(d): 0xFF10 + int(d) for d in "0123456789"})
    page = client.get(reverse("front_desk"), {"campus_id": full_width})
    assert page.context["student"] == player


def test_l10_the_front_desk_finds_a_student_by_a_padded_scan(client, staff, player, season):
    client.force_login(staff.user)
    page = client.get(reverse("front_desk"), {"campus_id": f"\t{player.campus_id}\n"})
    assert page.context["student"] == player
    assert page.context["searched"] == player.campus_id


# The admin took any campus ID until now: signup, registration and the roster import held the
# institution's pattern, the director's forms did not. The pattern is the rule (L10).


def test_l10_a_roster_line_added_in_the_admin_must_fit_the_institutions_format(
    client, director, season
):
    client.force_login(director.user)
    add = reverse("admin:accounts_rosterentry_add")
    response = client.post(add, {"season": season.pk, "campus_id": "12AB"})
    assert "Campus ID must be seven digits." in response.content.decode()
    assert not RosterEntry.objects.exists()

    client.post(add, {"season": season.pk, "campus_id": " 7654321 "})
    assert RosterEntry.objects.get().campus_id == "7654321"


def test_l10_a_campus_id_changed_in_the_admin_must_fit_the_institutions_format(
    client, director, player, institution
):
    client.force_login(director.user)
    change = reverse("admin:accounts_playerprofile_change", args=[player.pk])
    form = {
        "user": player.user.pk,
        "institution": institution.pk,
        "campus_id": "12AB",
        "calendar_token": player.calendar_token,
    }
    response = client.post(change, form)
    assert "Campus ID must be seven digits." in response.content.decode()
    player.refresh_from_db()
    assert player.campus_id != "12AB"

    client.post(change, {**form, "campus_id": "7654321 "})
    player.refresh_from_db()
    assert player.campus_id == "7654321"


def test_staff_keep_a_blank_campus_id_in_the_admin(client, director, staff, institution):
    client.force_login(director.user)
    change = reverse("admin:accounts_playerprofile_change", args=[staff.pk])
    response = client.post(
        change,
        {
            "user": staff.user.pk,
            "institution": institution.pk,
            "campus_id": "",
            "calendar_token": staff.calendar_token,
        },
    )
    assert response.status_code == 302
    staff.refresh_from_db()
    assert staff.campus_id == ""
