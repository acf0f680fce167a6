"""P2 at an event or a club night (issue 46): someone shown by number is shown by their player
number there, the one on their card, on every surface (wall pairings, cards, sheets, the table
page, the round's page, the leaderboard, the projector, event.json), never by the institution's
anonymous number, which is for the institution-wide pages."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from accounts import privacy
from accounts.services import name_withhold
from league.models import Entry, League
from tests.support import at, eligible_student, poppler, rounds_started, run, write

EVENT = {
    "name": "Number Fest",
    "slug": "number-fest",
    "format": "event",
    "rounds": [{"number": 1, "periods": [{"starts": "18:00", "minutes": 45}]}],
    "categories": [{"name": "Open", "pairing_group": "Open", "turn_seconds": None}],
}


@pytest.fixture
def fest(season, tmp_path):
    data = {**EVENT, "date": season.institution.today().isoformat()}
    path = write(tmp_path, "fest.json", json.dumps(data))
    run("create_event", path, "--institution", season.institution.slug, "--season", season.slug)
    students = [eligible_student(season, first_name=n, last_name="Quill") for n in "ABCD"]
    lines = "".join(f"{p.name},{p.campus_id}\n" for p in students)
    run(
        "import_entrants",
        write(tmp_path, "in.csv", "name,campus_id\n" + lines),
        "--league",
        "number-fest",
    )
    run("pair_round", "--league", "number-fest", "--all-entrants", "--seed", "3")
    return rounds_started(League.objects.get(slug="number-fest")), students


def surfaces(league, director_client, tmp_path) -> dict[str, str]:
    slug = league.slug
    public = Client()
    pages = {
        name: public.get(reverse(name, args=args)).content.decode()
        for name, args in [
            ("event_json", [at(slug)]),
            ("event_leaderboard", [at(slug)]),
            ("event_projector_panel", [at(slug)]),
            ("event_round", [at(slug), 1]),
            ("event_table", [at(slug), 1, 1]),
            ("event_table", [at(slug), 1, 2]),
            ("league_detail", [at(slug)]),
        ]
    }
    for kind in ("pairings", "cards", "sheets"):
        pdf = director_client.get(reverse("event_print", args=[at(slug), 1, kind])).content
        pages[kind] = poppler("pdftotext", pdf, tmp_path)
    return pages


def test_p2_a_withheld_entrant_is_their_player_number_on_every_surface_of_the_event(
    fest, director, client, tmp_path, django_capture_on_commit_callbacks
):
    league, (ada, *_) = fest
    with django_capture_on_commit_callbacks(execute=True):
        name_withhold(actor=ada.user, profile=ada, withhold=True)
    number = Entry.objects.get(league=league, player=ada).player_number
    client.force_login(director.user)

    shown = surfaces(league, client, tmp_path)

    for surface, text in shown.items():
        assert "A Quill" not in text, surface
        assert privacy.anonymous_name(ada.pk) not in text, surface
    for surface in ("event_json", "event_leaderboard", "event_round", "pairings", "cards"):
        assert f"Player {number}" in shown[surface], surface
    feed = json.loads(shown["event_json"])
    row = next(row for row in feed["standings"] if row["player_number"] == number)
    assert row["name"] == f"Player {number}"


def test_p1_p2_in_the_number_style_every_entrant_is_their_player_number(
    fest, director, client, tmp_path, django_capture_on_commit_callbacks
):
    league, students = fest
    institution = league.season.institution
    with django_capture_on_commit_callbacks(execute=True):
        institution.public_names = privacy.NUMBER
        institution.save()
    client.force_login(director.user)

    feed = json.loads(Client().get(reverse("event_json", args=[league])).content)

    names = {row["player_number"]: row["name"] for row in feed["standings"]}
    assert names == {number: f"Player {number}" for number in names}
    wall = surfaces(league, client, tmp_path)["pairings"]
    for student in students:
        assert privacy.anonymous_name(student.pk) not in wall
