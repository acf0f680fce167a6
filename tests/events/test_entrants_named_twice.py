"""E3: one person named twice in an event's entrants file (`import_entrants`) is refused on the
later line, the first standing, whether the two lines share a key (player number, e-mail,
campus ID) or name one person by two (a campus ID, then the same student's e-mail). The later
line was saved over the first: a student moved to another category, a guest renamed."""

import json
from datetime import timedelta

import pytest

from accounts.models import PlayerProfile
from league.models import Entry, League
from tests.support import FEST, eligible_student, refused_saying, run, write

pytestmark = pytest.mark.django_db


@pytest.fixture
def fest(tmp_path, season):
    data = {**FEST, "date": (season.starts_on + timedelta(days=10)).isoformat()}
    path = write(tmp_path, "fest.json", json.dumps(data))
    run("create_event", path, "--institution", season.institution.slug, "--season", season.slug)
    return League.objects.get(slug="fest")


@pytest.fixture
def sol(season):
    return eligible_student(season, first_name="Sol", last_name="Student")


def named_twice(sol) -> str:
    return (
        "name,category,team,player_number,email,campus_id\n"
        f"Sol Student,Competitive,Acme,,,{sol.campus_id}\n"
        f"Sol Student,Just for Fun,Beta,,{sol.user.email.upper()},\n"  # 3: Sol by e-mail
        "Gil Guest,Competitive,,5,gil@example.org,\n"
        "Nell Visitor,Competitive,,5,,\n"  # 5: Gil's number
        "Gil Again,Just for Fun,,,GIL@example.org,\n"  # 6: Gil's address
        "Bo Vance,Just for Fun,,1,,\n"  # 7: the number line 2 was given
        f"Sol Student,Just for Fun,,,, {sol.campus_id} \n"  # 8: Sol's campus ID, padded
    )


def refusals(path, sol) -> list[str]:
    return [
        f"{path}:3: refused: Sol Student is already on line 2",
        f"{path}:5: refused: player number 5 is already on line 4",
        f"{path}:6: refused: e-mail GIL@example.org is already on line 4",
        f"{path}:7: refused: Sol Student is already on line 2",
        f"{path}:8: refused: campus ID {sol.campus_id} is already on line 2",
    ]


def entrants(fest) -> set:
    return {
        (
            entry.player.name,
            entry.player_number,
            entry.entrant.category.name,
            str(entry.entrant.team),
        )
        for entry in Entry.objects.filter(league=fest).select_related(
            "player__user", "entrant__category", "entrant__team"
        )
    }


def test_e3_one_person_named_twice_is_refused_on_the_later_line_by_the_same_key_or_another(
    fest, sol, tmp_path
):
    path = write(tmp_path, "twice.csv", named_twice(sol))

    out, err = run("import_entrants", path, "--league", "fest")

    assert out.strip() == "entrants=2 created=2 updated=0 refused=5"
    assert err.splitlines() == refusals(path, sol)
    assert entrants(fest) == {
        ("Sol Student", 1, "Competitive", "Acme"),
        ("Gil Guest", 5, "Competitive", "None"),
    }
    assert not PlayerProfile.objects.filter(display_name__in=["Nell Visitor", "Bo Vance"]).exists()
    again, err = run("import_entrants", path, "--league", "fest")
    assert again.strip() == "entrants=2 created=0 updated=0 refused=5"
    assert err.splitlines() == refusals(path, sol)
    assert entrants(fest) == {
        ("Sol Student", 1, "Competitive", "Acme"),
        ("Gil Guest", 5, "Competitive", "None"),
    }


def test_e3_strict_prints_each_refused_line_as_without_it_and_imports_nothing(fest, sol, tmp_path):
    path = write(tmp_path, "twice.csv", named_twice(sol))

    error, err = refused_saying("import_entrants", path, "--league", "fest", "--strict")

    assert error.returncode == 1
    assert "5 bad rows: nothing was imported (--strict)" in str(error)
    assert err.splitlines() == refusals(path, sol)
    assert not Entry.objects.filter(league=fest).exists()
    assert not PlayerProfile.objects.filter(user__isnull=True).exists()
