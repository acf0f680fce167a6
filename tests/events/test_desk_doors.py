"""On an event's day (E3) the front desk's home and the front desk's page lead to the event's
door first, through the formats' registry (league and accounts ask no events code)."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from tests.support import FEST, at, create_event


def make_fest(season, tmp_path, day, **extra):
    data = {**FEST, "date": day.isoformat(), "venue": "Student Union Ballroom", **extra}
    create_event(season, tmp_path, data, f"{data['slug']}.json")


@pytest.fixture
def today(institution):
    return institution.today()


def door_links(page: str) -> list[str]:
    (part,) = re.findall(r'data-testid="doors-today">.*?</section>', page, re.S) or [""]
    return re.findall(r'href="([^"]+)"', part)


@pytest.mark.parametrize("address", ["/", "/desk/"])
def test_e3_on_an_events_day_the_desks_home_and_page_lead_to_its_door_first(
    season, tmp_path, client, staff, today, address
):
    make_fest(season, tmp_path, today)
    client.force_login(staff.user)

    page = client.get(address).content.decode()

    assert door_links(page) == [reverse("event_desk", args=[at("fest")])]
    assert "Today: Scrabble Fest" in page and "Check in at the door" in page
    assert page.index('data-testid="doors-today"') < page.index("</h1>") + 400


def test_e3_two_events_on_one_day_each_have_their_door(season, tmp_path, client, director, today):
    make_fest(season, tmp_path, today)
    make_fest(season, tmp_path, today, slug="fest-two", name="Second Fest")
    client.force_login(director.user)

    page = client.get("/").content.decode()

    assert door_links(page) == [
        reverse("event_desk", args=[at("fest")]),
        reverse("event_desk", args=[at("fest-two")]),
    ]


def test_e3_on_other_days_the_desk_has_no_door(season, tmp_path, client, staff, today):
    make_fest(season, tmp_path, today + timedelta(days=1))
    client.force_login(staff.user)

    for address in ("/", "/desk/"):
        page = client.get(address).content.decode()
        assert (
            'data-testid="doors-today"' not in page
            and "/example-state/leagues/fest/desk/" not in page
        )


def test_e3_a_students_home_shows_no_door(season, tmp_path, client, player, today):
    make_fest(season, tmp_path, today)
    client.force_login(player.user)

    page = client.get("/").content.decode()

    assert (
        'data-testid="doors-today"' not in page and "/example-state/leagues/fest/desk/" not in page
    )


def test_e3_an_evening_past_midnight_keeps_its_door_and_yesterdays_finished_one_does_not(
    season, tmp_path, client, staff, today
):
    """Yesterday's Fest whose round 3 starts at 00:15 today is still on at the door; an event
    whose rounds all fell yesterday is over."""
    yesterday = today - timedelta(days=1)
    rounds = [
        {"number": 1, "periods": [{"starts": "22:00", "minutes": 45}]},
        {"number": 2, "periods": [{"starts": "23:00", "minutes": 45}]},
        {"number": 3, "periods": [{"starts": "00:15", "minutes": 45}]},
    ]
    make_fest(season, tmp_path, yesterday, rounds=rounds)
    make_fest(season, tmp_path, yesterday, slug="over", name="Afternoon Fest")
    client.force_login(staff.user)

    assert door_links(client.get("/").content.decode()) == [
        reverse("event_desk", args=[at("fest")])
    ]
