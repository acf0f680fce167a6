"""The director sets up an event or a club by form (issue 30), not only by uploading a
hand-written JSON file: every key of the settings file with its default, saved through the same
check and saver as the upload; a list line that cannot be read is named by its field and line."""

import html
from datetime import timedelta

import pytest
from django.urls import reverse

from events.models import AssistItem, EventCategory
from league.models import League, Round


def event_form(season, **more):
    day = season.institution.today() + timedelta(days=14)
    return {
        "season": season.pk,
        "name": "Winter Fest",
        "slug": "winter-fest",
        "date": day.isoformat(),
        "venue": "Student Union",
        "public": "on",
        "lexicon": "NWL2023",
        "end_of_game_rule": "standard",
        "challenge_rule": "lose_turn",
        "challenge_points": "10",
        "rounds": "6:00 PM 45\n7:00 PM 45\n11:30 PM 30\n12:15 AM 30",
        "categories": "Competitive | Competitive | 150\nJust for Fun | Fun |",
        "champion_category": "Competitive",
        "seats_per_table": "2",
        "team_size": "",
        "short_team": "sum",
        "assists": "Ringer | 10 | 20\nWord list | 5",
        **more,
    }


def test_e3_the_form_shows_every_setting_with_its_default(client, director):
    client.force_login(director.user)

    page = client.get(reverse("league_setup_form", args=["event"])).content.decode()

    for label in (
        "Rounds",
        "Categories",
        "Seats a table",
        "Players a team",
        "Assists",
        "Word list",
    ):
        assert label in page, label
    assert "6:00 PM 45" in page and "Open | Open |" in page


def test_e3_e5_the_director_sets_up_an_event_by_form(client, director, season):
    client.force_login(director.user)

    response = client.post(reverse("league_setup_form", args=["event"]), event_form(season))

    assert response.status_code == 302
    league = League.objects.get(slug="winter-fest")
    assert league.format == "event" and league.venue == "Student Union"
    rounds = list(Round.objects.filter(league=league).order_by("number"))
    assert len(rounds) == 4
    assert rounds[3].play_by == rounds[2].play_by + timedelta(days=1)  # after midnight
    categories = {
        c.name: (c.pairing_group, c.turn_seconds)
        for c in EventCategory.objects.filter(league=league)
    }
    assert categories == {"Competitive": ("Competitive", 150), "Just for Fun": ("Fun", None)}
    assists = {
        a.name: (a.first_cents, a.later_cents) for a in AssistItem.objects.filter(league=league)
    }
    assert assists == {"Ringer": (1000, 2000), "Word list": (500, 500)}


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("rounds", "6:00 PM 45\nseven 45", "Line 2: 'seven' is not a time"),
        ("categories", "Open | Open | fast", "Line 1: Seconds a turn 'fast' is not a whole number"),
        ("assists", "Ringer | ten", "Line 1: The first price 'ten' is not an amount in dollars"),
    ],
)
def test_e3_a_line_that_cannot_be_read_is_named_and_nothing_is_saved(
    client, director, season, field, value, said
):
    client.force_login(director.user)

    response = client.post(
        reverse("league_setup_form", args=["event"]), event_form(season, **{field: value})
    )

    assert response.status_code == 200 and said in html.unescape(response.content.decode())
    assert not League.objects.filter(slug="winter-fest").exists()


def test_e4_the_director_sets_up_a_club_by_form(client, director, season):
    client.force_login(director.user)
    first = season.institution.today() + timedelta(days=3)

    response = client.post(
        reverse("league_setup_form", args=["club"]),
        {
            "season": season.pk,
            "name": "Thursday Club",
            "slug": "new-club",
            "first_night": first.isoformat(),
            "nights": "4",
            "days_apart": "7",
            "lexicon": "NWL2023",
            "end_of_game_rule": "standard",
            "challenge_rule": "club_bonus_to_challenger",
            "challenge_points": "10",
        },
    )

    assert response.status_code == 302
    club = League.objects.get(slug="new-club")
    assert club.format == "club"
    nights = list(
        Round.objects.filter(league=club).order_by("number").values_list("play_by", flat=True)
    )
    assert nights == [first + timedelta(days=7 * n) for n in range(4)]


def test_only_a_director_sets_up_by_form(client, staff, player):
    for someone in (staff, player):
        client.force_login(someone.user)
        assert client.get(reverse("league_setup_form", args=["event"])).status_code == 404
    client.force_login(staff.user)
    assert client.get(reverse("league_setup_form", args=["league"])).status_code == 404
