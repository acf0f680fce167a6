"""An event open to guests takes a student as it takes anyone (L10, E3): from the event's page and
at the door, whatever their eligibility; a campus-only event still asks for it."""

from datetime import timedelta

import pytest
from django.urls import reverse

from league.models import CheckIn, Entry, League
from tests.support import FEST, at, create_event, ruled_ineligible


def make_fest(season, tmp_path, **extra) -> League:
    data = {**FEST, "date": (season.starts_on + timedelta(days=10)).isoformat(), **extra}
    create_event(season, tmp_path, data, "fest.json")
    return League.objects.get(slug=data["slug"])


@pytest.fixture
def fest(season, tmp_path):
    return make_fest(season, tmp_path)


def test_l10_e3_a_pending_student_enters_an_open_event_from_its_page(fest, client, player):
    client.force_login(player.user)  # a student whose eligibility is pending

    page = client.post(
        reverse("league_join", args=[at("fest")]), {"category": "Just for Fun"}, follow=True
    )

    said = page.content.decode()
    assert "not eligible" not in said and "You are number 1 in Scrabble Fest" in said
    assert Entry.objects.filter(league=fest, player=player, withdrawn_at=None).exists()


def test_l10_e3_a_student_ruled_ineligible_enters_an_open_event_as_anyone_may(
    fest, client, player, season, director
):
    ruled_ineligible(player, season, director=director)
    client.force_login(player.user)

    client.post(reverse("league_join", args=[at("fest")]), {"category": "Competitive"})

    assert Entry.objects.filter(league=fest, player=player).exists()


def test_l10_e3_the_door_adds_a_pending_student_by_campus_id_to_an_open_event(
    fest, client, staff, player
):
    client.force_login(staff.user)

    response = client.post(
        reverse("event_walk_in", args=[at("fest")]),
        {"name": "Rowan Pemberton", "category": "Competitive", "campus_id": player.campus_id},
    )

    assert response.status_code == 302
    entry = Entry.objects.get(league=fest, player=player)
    assert CheckIn.objects.filter(entry=entry).exists()


def test_l10_e3_a_campus_only_event_still_asks_for_a_students_eligibility(
    season, tmp_path, client, player
):
    make_fest(season, tmp_path, slug="campus-fest", campus_only=True)
    client.force_login(player.user)

    page = client.post(
        reverse("league_join", args=[at("campus-fest")]), {"category": "Competitive"}, follow=True
    )

    assert "not eligible yet for Fall 2026" in page.content.decode()
    assert not Entry.objects.filter(league__slug="campus-fest").exists()
