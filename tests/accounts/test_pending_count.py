"""The director dashboard's count of students pending eligibility (L10) is kept by the
database in the transaction of each change that moves it (``accounts.pending``): every path
that moves it is walked here against the live count of ``pending_students``."""

import re
import threading

import pytest
from django.contrib.auth.models import Group
from django.db import connection, transaction
from django.urls import reverse

from accounts import roles
from accounts.models import Eligibility, PendingStudentsChange, Season, User
from accounts.pending import pending_fold, pending_recount
from accounts.selectors import pending_students
from accounts.services import (
    eligibility_rule,
    id_check_record,
    profile_forget,
    roster_import,
    student_register,
)
from tests.support import ProfileFactory, SeasonFactory, UserFactory


def kept(season: Season) -> int:
    rows = PendingStudentsChange.objects.filter(season=season).values_list("change", flat=True)
    return sum(rows)


def live(season: Season) -> int:
    return pending_students(season.institution_id, season.pk).count()


def agree(*seasons: Season) -> list[int]:
    """Each season's kept count, checked against the live one."""
    for season in seasons:
        assert kept(season) == live(season), season
    return [kept(season) for season in seasons]


def test_l10_a_new_season_starts_with_every_student_of_its_institution_pending(
    institution, player, opponent, outsider, director
):
    season = SeasonFactory(institution=institution)
    assert agree(season) == [2]  # the director has no campus ID; the outsider is elsewhere


def test_l10_registering_and_deciding_move_the_kept_count(
    institution, season, player, staff, director
):
    assert agree(season) == [1]
    newcomer = UserFactory(email="newcomer@example.edu")
    profile = student_register(user=newcomer, institution=institution, campus_id="7654321")
    assert agree(season) == [2]

    id_check_record(actor=staff.user, profile=profile, season=season)
    assert agree(season) == [1]
    eligibility_rule(
        actor=director.user, profile=player, season=season, status="ineligible", reason="No"
    )
    assert agree(season) == [0]
    eligibility_rule(
        actor=director.user, profile=player, season=season, status="pending", reason="Reopened"
    )
    assert agree(season) == [1]


def test_l10_leaving_the_pool_in_any_way_takes_a_student_off_the_count(
    institution, season, player, opponent, director
):
    third, fourth, fifth = (ProfileFactory(institution=institution) for _ in range(3))
    assert agree(season) == [5]

    player.user.is_active = False
    player.user.save()
    assert agree(season) == [4]
    User.objects.filter(pk=player.user_id).update(is_active=True)  # a bulk update counts too
    assert agree(season) == [5]

    opponent.campus_id = ""
    opponent.save()
    assert agree(season) == [4]

    third.user.groups.remove(Group.objects.get(name=roles.STUDENTS))
    assert agree(season) == [3]
    third.user.groups.add(Group.objects.get(name=roles.STUDENTS))
    assert agree(season) == [4]

    fourth.user.delete()  # the account, its groups, its profile and its decisions
    assert agree(season) == [3]

    profile_forget(actor=director.user, profile=fifth, reason="Asked to be forgotten")
    assert agree(season) == [live(season)]


def test_l10_a_decision_on_a_student_not_in_the_pool_moves_nothing(institution, season, player):
    player.user.groups.clear()
    assert agree(season) == [0]
    Eligibility.objects.create(profile=player, season=season, status="eligible")
    assert agree(season) == [0]
    player.user.groups.add(Group.objects.get(name=roles.STUDENTS))  # decided: still not pending
    assert agree(season) == [0]


def test_l10_a_roster_import_counts_once_per_student_in_each_season(institution, director):
    fall = SeasonFactory(institution=institution, slug="fall")
    spring = SeasonFactory(institution=institution, slug="spring")
    students = [ProfileFactory(institution=institution) for _ in range(6)]
    assert agree(fall, spring) == [6, 6]

    csv = "campus_id\n" + "".join(f"{p.campus_id}\n" for p in students[:4])
    roster_import(actor=director.user, season=fall, data=csv.encode())
    assert agree(fall, spring) == [2, 6]
    roster_import(actor=director.user, season=fall, data=csv.encode())  # again: nothing moves
    assert agree(fall, spring) == [2, 6]

    fall.delete()
    assert not PendingStudentsChange.objects.filter(season_id=fall.pk).exists()
    assert agree(spring) == [6]


def test_l10_renaming_the_students_group_recounts_every_season(institution, season, player):
    Group.objects.filter(name=roles.STUDENTS).update(name="Former students")
    assert agree(season) == [0]
    Group.objects.filter(name="Former students").update(name=roles.STUDENTS)
    assert agree(season) == [1]


def test_the_nightly_fold_leaves_one_row_per_season_and_the_same_count(
    institution, other_institution, season, player, opponent, outsider, staff
):
    elsewhere = SeasonFactory(institution=other_institution)
    id_check_record(actor=staff.user, profile=player, season=season)
    ProfileFactory(institution=institution)
    before = agree(season, elsewhere)

    removed = pending_fold(institution.pk)

    assert removed >= 2
    assert PendingStudentsChange.objects.filter(season=season).count() == 1
    assert PendingStudentsChange.objects.filter(season=elsewhere).count() > 0  # not its night
    assert agree(season, elsewhere) == before
    assert pending_fold(institution.pk) == 0


def test_a_recount_replaces_rows_with_the_whole_count(institution, season, player):
    PendingStudentsChange.objects.create(season=season, change=40)  # behind the triggers' back
    assert kept(season) == 41
    pending_recount([season.pk])
    assert agree(season) == [1]


def test_l10_the_dashboard_shows_the_kept_count(client, institution, season, player, director):
    ProfileFactory(institution=institution)
    client.force_login(director.user)
    page = client.get(reverse("director_dashboard")).content.decode()
    shown = re.search(r'count">(\d+)</span><span>Students pending eligibility', page)
    assert shown and shown.group(1) == "2"


@pytest.mark.django_db(transaction=True)
def test_l10_a_registration_does_not_wait_for_a_roster_import_on_the_count(institution):
    """Contention: the count's rows are only ever added, so a student registering while a
    director's import holds its transaction open commits at once."""
    season = SeasonFactory(institution=institution)
    students = [ProfileFactory(institution=institution) for _ in range(3)]
    importing, registered = threading.Event(), threading.Event()

    def import_held_open():
        try:
            with transaction.atomic():
                for profile in students:
                    Eligibility.objects.create(profile=profile, season=season, status="eligible")
                importing.set()
                assert registered.wait(timeout=10), "the registration waited for the import"
        finally:
            connection.close()

    holder = threading.Thread(target=import_held_open)
    holder.start()
    assert importing.wait(timeout=10)
    newcomer = UserFactory(email="late@example.edu")
    student_register(user=newcomer, institution=institution, campus_id="7000001")
    registered.set()
    holder.join(timeout=10)

    assert agree(season) == [1]
