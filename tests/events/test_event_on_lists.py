"""How a one-day event is listed and linked (E3, issue 48): on the leagues list its day, its venue
and entry until the day (not a league's places and the season's deadline), read through the
formats registry; its leaderboard names the data feed for what it is."""

from datetime import timedelta

import pytest
from django.urls import reverse

from tests.support import FEST, at, create_event


@pytest.fixture
def fest(season, tmp_path):
    data = {**FEST, "date": (season.starts_on + timedelta(days=10)).isoformat()}
    create_event(season, tmp_path, data, "fest.json")
    return data


def test_e3_an_event_on_the_leagues_list_shows_its_day_venue_and_entry_until_the_day(
    client, fest, player, season
):
    day = season.starts_on + timedelta(days=10)
    client.force_login(player.user)

    page = client.get(reverse("league_list")).content.decode()

    card = page[page.index("Scrabble Fest") :]
    card = card[: card.index("</section>")]
    assert f"{day:%A}, {day:%b} {day.day} · Student Union Ballroom · enter until the day" in card
    assert "places left" not in card and "registration until" not in card


def test_e3_the_leaderboard_links_its_data_feed_in_words(client, fest):
    page = client.get(reverse("event_leaderboard", args=[at("fest")])).content.decode()
    assert ">Data feed (JSON)</a>" in page and ">event.json<" not in page
