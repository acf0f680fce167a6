"""The door (E3) and names: a walk-in with the name of an entrant already in is asked about ("the
same person, or a namesake?") before anything is added; a name typed into the scan box is
looked up as a name."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from accounts.models import PlayerProfile
from events import services as events
from league.models import CheckIn, Entry, League
from tests.support import FEST, at, create_event, eligible_student, run, write


@pytest.fixture
def fest(season, tmp_path):
    data = {**FEST, "date": (season.starts_on + timedelta(days=10)).isoformat()}
    create_event(season, tmp_path, data, "fest.json")
    names = "Ada Quill,Competitive\nBo Vance,Just for Fun\n"
    run("import_entrants", write(tmp_path, "in.csv", "name,category\n" + names), "--league", "fest")
    return League.objects.get(slug="fest")


def walk_in(client, name, **more):
    return client.post(
        reverse("event_walk_in", args=[at("fest")]),
        {
            "name": name,
            "category": "Just for Fun",
            "team": "",
            "email": "",
            "campus_id": "",
            **more,
        },
    )


def state(league):
    return (
        sorted(Entry.objects.filter(league=league).values_list("pk", "player_id")),
        PlayerProfile.objects.count(),
        CheckIn.objects.filter(entry__league=league).count(),
    )


def test_e3_a_walk_in_with_an_entrants_name_asks_the_same_person_or_a_namesake(fest, client, staff):
    """Issue 48: a second "Ada Quill" at the door silently became the first one."""
    client.force_login(staff.user)
    before = state(fest)

    answer = walk_in(client, "ada quill")

    page = answer.content.decode()
    assert answer.status_code == 200 and state(fest) == before
    assert "ada quill is already entered: the same person, or a namesake?" in page
    ada = Entry.objects.get(league=fest, player__display_name="Ada Quill")
    assert f"The same person: check in Ada Quill (number {ada.player_number}, Competitive" in page
    assert "A namesake: add another ada quill as a new entrant" in page
    (question,) = re.findall(r'data-testid="same-name">.*?</section>', page, re.S)
    assert 'name="namesake" value="1"' in question and 'name="name" value="ada quill"' in question


def test_e3_the_same_person_checks_in_the_entrant_already_there(fest, client, staff):
    client.force_login(staff.user)
    ada = Entry.objects.get(league=fest, player__display_name="Ada Quill")

    client.post(reverse("event_check_in", args=[at("fest")]), {"player": ada.player_number})

    assert Entry.objects.filter(league=fest).count() == 2
    assert CheckIn.objects.filter(entry=ada).exists()


def test_e3_a_namesake_becomes_a_new_entrant_checked_in(fest, client, staff):
    client.force_login(staff.user)
    ada = Entry.objects.get(league=fest, player__display_name="Ada Quill")

    answer = walk_in(client, "Ada Quill", namesake="1")

    assert answer.status_code == 302
    namesakes = Entry.objects.filter(league=fest, player__display_name="Ada Quill")
    assert namesakes.count() == 2
    other = namesakes.exclude(pk=ada.pk).get()
    assert other.player_number not in (None, ada.player_number)
    assert CheckIn.objects.filter(entry=other).exists()
    assert not CheckIn.objects.filter(entry=ada).exists()


def test_e3_a_new_name_at_the_door_is_added_without_a_question(fest, client, staff):
    client.force_login(staff.user)

    answer = walk_in(client, "Cy Marsh")

    assert answer.status_code == 302
    assert CheckIn.objects.filter(entry__player__display_name="Cy Marsh").exists()


def test_e3_a_name_typed_into_the_scan_box_is_looked_up_as_a_name(fest, client, staff):
    """Issue 48: "No entrant has the number or campus ID 'Bo'"; the desk wanted Bo Vance."""
    client.force_login(staff.user)
    bo = Entry.objects.get(league=fest, player__display_name="Bo Vance")

    answer = client.post(reverse("event_check_in", args=[at("fest")]), {"player": "bo v"})

    assert answer.status_code == 302 and answer["Location"].endswith("?q=bo+v")
    page = client.get(answer["Location"]).content.decode()
    assert "No entrant has the number" not in page
    assert "Nobody was checked in: “bo v” is not a player number or a campus ID, so it was" in page
    assert 'aria-label="Check in Bo Vance"' in page and "Ada Quill" not in page
    assert not CheckIn.objects.filter(entry=bo).exists()


def test_e3_a_number_nobody_has_is_still_said_as_such(fest, client, staff):
    client.force_login(staff.user)

    answer = client.post(
        reverse("event_check_in", args=[at("fest")]), {"player": "77"}, follow=True
    )

    assert "No entrant has the number or campus ID &#x27;77&#x27;" in answer.content.decode()


def test_e3_a_students_full_name_typed_at_the_door_finds_them(fest, client, staff, season):
    """A student's first and last names are kept apart: each word typed is looked for."""
    sol = eligible_student(season, first_name="Sol", last_name="Student")
    events.entrant_save(
        actor=staff.user,
        league=fest,
        details=events.EntrantDetails(campus_id=sol.campus_id, category="Competitive"),
    )
    client.force_login(staff.user)

    answer = client.post(reverse("event_check_in", args=[at("fest")]), {"player": "sol student"})

    page = client.get(answer["Location"]).content.decode()
    assert 'aria-label="Check in Sol Student"' in page and "Bo Vance" not in page
