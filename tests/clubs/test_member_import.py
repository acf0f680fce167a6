"""A club imports its member list the way an event imports its entrants (E4, the Public
contract's import_entrants, issue 30): students by campus ID, guests by name where the club is
open to visitors; the same list twice changes nothing; bad rows are refused by line."""

import pytest
from django.core.management.base import CommandError

from accounts.models import PlayerProfile
from league.models import Entry, LeagueFormat
from tests.support import LeagueFactory, eligible_student, refused_saying, run, write


@pytest.fixture
def club(season):
    return LeagueFactory(
        season=season,
        format=LeagueFormat.CLUB,
        name="Import Club",
        slug="import-club",
        campus_only=False,  # open to visitors: guests come in by name
    )


def test_e4_a_club_imports_its_members_students_by_campus_id_and_guests_by_name(
    club, season, tmp_path
):
    student = eligible_student(season, first_name="Sol", last_name="Student")
    members = (
        "name,player_number,email,campus_id\n"
        f",,,{student.campus_id}\n"
        "Gil Guest,,gil@example.org,\n"
        "Nell Visitor,12,,\n"
    )
    path = write(tmp_path, "members.csv", members)

    out, err = run("import_entrants", path, "--league", "import-club")

    assert out.strip() == "entrants=3 created=3 updated=0 refused=0" and not err
    entries = Entry.objects.filter(league=club).select_related("player")
    assert {entry.player.name for entry in entries} == {"Sol Student", "Gil Guest", "Nell Visitor"}
    assert entries.get(player=student).player_number is not None
    assert entries.get(player__display_name="Nell Visitor").player_number == 12
    again, _ = run("import_entrants", path, "--league", "import-club")
    assert again.strip() == "entrants=3 created=0 updated=0 refused=0"
    assert Entry.objects.filter(league=club).count() == 3


def test_e4_a_campus_only_club_refuses_guests_by_line_and_keeps_the_students(
    club, season, tmp_path
):
    club.campus_only = True
    club.save(update_fields=["campus_only"])
    student = eligible_student(season, first_name="Sol", last_name="Student")
    path = write(
        tmp_path,
        "members.csv",
        f"name,campus_id\nSol Student,{student.campus_id}\nGil Guest,\nNo One,0000000\n",
    )

    out, err = run("import_entrants", path, "--league", "import-club")

    assert out.strip() == "entrants=1 created=1 updated=0 refused=2"
    assert f"{path}:3: refused: Import Club is for students only" in err
    assert f"{path}:4: refused: No student has the campus ID 0000000" in err


def test_e4_a_member_list_with_an_event_column_is_refused_and_changes_nothing(club, tmp_path):
    path = write(tmp_path, "members.csv", "name,category\nGil Guest,Open\n")

    with pytest.raises(CommandError, match="unknown columns category"):
        run("import_entrants", path, "--league", "import-club")
    assert not Entry.objects.filter(league=club).exists()


def test_e3_e4_a_plain_league_still_takes_no_entrants_file(league, tmp_path):
    path = write(tmp_path, "members.csv", "name\nGil Guest\n")

    with pytest.raises(CommandError, match="entrants are imported into events and clubs"):
        run("import_entrants", path, "--league", league.slug)


def named_twice(student) -> str:
    return (
        "name,player_number,email,campus_id\n"
        f",,,{student.campus_id}\n"
        f"Sol Student,7,{student.user.email},\n"  # 3: the student again, by e-mail, with another number
        "Gil Guest,,gil@example.org,\n"
        "gil guest,,,\n"  # 5: the club's only Gil Guest, by name
        f"Nell Visitor,,,{student.campus_id}\n"  # 6: the student's campus ID again
    )


def test_e4_one_member_named_twice_is_refused_on_the_later_line_by_the_same_key_or_another(
    club, season, tmp_path
):
    student = eligible_student(season, first_name="Sol", last_name="Student")
    path = write(tmp_path, "members.csv", named_twice(student))

    out, err = run("import_entrants", path, "--league", "import-club")

    assert out.strip() == "entrants=2 created=2 updated=0 refused=3"
    assert err.splitlines() == [
        f"{path}:3: refused: Sol Student is already on line 2",
        f"{path}:5: refused: Gil Guest is already on line 4",
        f"{path}:6: refused: campus ID {student.campus_id} is already on line 2",
    ]
    members = Entry.objects.filter(league=club).select_related("player__user")
    assert {entry.player.name for entry in members} == {"Sol Student", "Gil Guest"}
    assert members.get(player=student).player_number != 7


def test_e4_strict_prints_each_refused_line_as_without_it_and_imports_nothing(
    club, season, tmp_path
):
    student = eligible_student(season, first_name="Sol", last_name="Student")
    path = write(tmp_path, "members.csv", named_twice(student))

    error, err = refused_saying("import_entrants", path, "--league", "import-club", "--strict")

    assert error.returncode == 1
    assert err.splitlines() == [
        f"{path}:3: refused: Sol Student is already on line 2",
        f"{path}:5: refused: Gil Guest is already on line 4",
        f"{path}:6: refused: campus ID {student.campus_id} is already on line 2",
    ]
    assert not Entry.objects.filter(league=club).exists()
    assert not PlayerProfile.objects.filter(user__isnull=True).exists()
