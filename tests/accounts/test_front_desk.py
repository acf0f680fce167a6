"""The front desk (L10, first version): look a student up by campus ID, typed or scanned, and
record a picture-ID check for the current season."""

import pytest
from django.urls import reverse

from accounts.models import EligibilityStatus
from accounts.selectors import eligibility_of
from tests.support import ProfileFactory, ruled_ineligible

DESK = reverse("front_desk")


def lookup(client, campus_id):
    return client.get(DESK, {"campus_id": campus_id})


@pytest.mark.parametrize(
    ("persona", "expected"),
    [
        ("anonymous", 302),
        ("player", 404),
        ("outsider", 404),
        ("staff", 200),
        ("director", 200),
        ("site_admin", 404),
    ],
)
def test_the_front_desk_is_for_its_staff_and_directors_only(
    client, request, season, player, persona, expected
):
    """A site admin belongs to no institution, so has no front desk: they work in the admin."""
    if persona != "anonymous":
        who = request.getfixturevalue(persona)
        client.force_login(getattr(who, "user", who))
    assert client.get(DESK).status_code == expected


def test_a_scanned_campus_id_shows_the_student_and_their_status(client, staff, player, season):
    client.force_login(staff.user)

    page = lookup(client, f"  {player.campus_id} ").content.decode()

    assert "Rowan Pemberton" in page
    assert 'data-testid="eligibility-status">Pending' in page
    assert "I saw a current campus picture ID" in page


def test_an_unknown_campus_id_says_so(client, staff, season):
    client.force_login(staff.user)
    page = lookup(client, "7777777").content.decode()
    assert "No student with campus ID 7777777 has signed up" in page


def test_staff_never_find_another_institutions_students(client, staff, outsider, season):
    client.force_login(staff.user)
    page = lookup(client, outsider.campus_id).content.decode()
    assert "has signed up" in page
    assert outsider.user.email not in page


def test_l10_recording_a_picture_id_check_makes_the_student_eligible(client, staff, player, season):
    client.force_login(staff.user)

    response = client.post(
        reverse("front_desk_id_check", args=[player.pk]),
        {"season": season.pk, "note": "card to 05/2027"},
        follow=True,
    )

    assert eligibility_of(player, season).status == EligibilityStatus.ELIGIBLE
    assert (
        "Picture ID recorded: Rowan Pemberton is eligible for Fall 2026."
        in response.content.decode()
    )


def test_the_check_still_records_when_the_director_ruled_otherwise_and_says_so(
    client, staff, director, player, season
):
    ruled_ineligible(player, season, director=director)
    client.force_login(staff.user)

    response = client.post(
        reverse("front_desk_id_check", args=[player.pk]), {"season": season.pk}, follow=True
    )

    assert player.id_checks.count() == 1
    assert "the director has ruled Rowan Pemberton ineligible" in response.content.decode()


def test_another_institutions_staff_cannot_record_a_check(client, other_staff, player, season):
    client.force_login(other_staff.user)
    response = client.post(reverse("front_desk_id_check", args=[player.pk]), {"season": season.pk})
    assert response.status_code == 404
    assert not player.id_checks.exists()


def test_a_check_for_another_institutions_season_is_refused(
    client, staff, player, other_institution
):
    from tests.support import SeasonFactory

    elsewhere = SeasonFactory(institution=other_institution)
    client.force_login(staff.user)
    response = client.post(
        reverse("front_desk_id_check", args=[player.pk]), {"season": elsewhere.pk}, follow=True
    )
    assert "not recorded" in response.content.decode()
    assert not player.id_checks.exists()


def test_a_get_on_the_check_url_is_refused(client, staff, player, season):
    client.force_login(staff.user)
    assert client.get(reverse("front_desk_id_check", args=[player.pk])).status_code == 405


@pytest.mark.parametrize("students,items", [(3, 0), (40, 12)])
def test_the_lookup_page_runs_a_constant_number_of_queries(
    client, staff, player, season, institution, students, items, django_assert_num_queries
):
    """L3: the items free to lend are offered in one read, whatever their number."""
    from accounts.models import EquipmentItem

    ProfileFactory.create_batch(students, institution=institution)
    for number in range(items):
        EquipmentItem.objects.create(institution=institution, kind="board", label=f"Board {number}")
    client.force_login(staff.user)
    lookup(client, player.campus_id)  # warm the session
    # The session, the user with their roles, the season, the equipment out, the doors open
    # today (an event's), the student, their eligibility, their last ID checks, the items free
    # to lend, whatever the sizes.
    with django_assert_num_queries(9):
        page = lookup(client, player.campus_id).content.decode()
    assert page.count('<option value="') == items + (1 if items else 0)
    assert ("Lend</button>" in page) == bool(items)


def test_home_shows_the_student_their_status(client, player, season):
    client.force_login(player.user)
    page = client.get(reverse("home")).content.decode()
    assert player.campus_id in page
    assert "Pending" in page


def test_home_invites_visitors_to_sign_up(client, db):
    page = client.get(reverse("home")).content.decode()
    assert reverse("account_signup") in page


def test_the_desk_and_the_admin_speak_the_institutions_time_zone(
    client, institution, staff, director, player
):
    """They showed UTC ("due back by 10:46 PM") where the students' pages say 4:46 PM."""
    from datetime import UTC, datetime

    from accounts.models import Checkout, EquipmentItem

    institution.timezone = "America/Chicago"
    institution.save()
    item = EquipmentItem.objects.create(institution=institution, kind="board", label="Board 7")
    Checkout.objects.create(
        item=item,
        profile=player,
        checked_out_by=staff.user,
        checked_out_at=datetime(2026, 11, 20, 20, 0, tzinfo=UTC),
        due_at=datetime(2026, 11, 20, 22, 46, tzinfo=UTC),  # 4:46 PM in Chicago
    )
    client.force_login(staff.user)
    desk = client.get("/desk/").content.decode()
    assert "4:46 PM" in desk and "10:46 PM" not in desk
    client.force_login(director.user)
    admin = client.get("/admin/accounts/checkout/").content.decode()
    assert "4:46 p.m." in admin and "10:46 p.m." not in admin
