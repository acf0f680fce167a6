"""A visitor's home page (issue 48): it linked to no league, event, leaderboard or projector.
Today's public events come with their leaderboard and projector, coming ones after them, and
the public leagues of the running season, in a constant number of queries."""

from datetime import timedelta

import pytest
from django.urls import reverse

from events.models import Event
from tests.support import LeagueFactory, SeasonFactory

pytestmark = pytest.mark.django_db


def an_event(season, slug, day, *, public=True):
    league = LeagueFactory(
        season=season, slug=slug, name=slug.title(), format="event", public=public
    )
    Event.objects.create(league=league, date=day)
    return league


def test_e3_a_visitor_finds_todays_events_their_leaderboard_and_projector_and_the_leagues(
    client, season, league
):
    today = season.institution.today()
    fest = an_event(season, "fest", today)
    an_event(season, "hidden-fest", today, public=False)
    an_event(season, "spring-fest", today + timedelta(days=9))
    an_event(season, "last-fest", today - timedelta(days=3))
    LeagueFactory(season=season, slug="private", name="Private League", public=False)
    past = SeasonFactory(
        institution=season.institution,
        starts_on=today - timedelta(days=300),
        ends_on=today - timedelta(days=200),
        registration_deadline=today - timedelta(days=290),
    )
    LeagueFactory(season=past, slug="old", name="Old League")

    page = client.get(reverse("home")).content.decode()

    events = page[page.index('data-testid="visitor-events"') :]
    assert "Events today" in events
    assert f'href="{reverse("event_leaderboard", args=[fest])}"' in events
    assert f'href="{reverse("event_projector", args=[fest])}"' in events
    assert f'href="{fest.get_absolute_url()}"' in events
    assert "Spring-Fest" in events and "Last-Fest" not in page and "Hidden-Fest" not in page
    leagues = page[page.index('data-testid="public-leagues"') :]
    assert f'href="{league.get_absolute_url()}"' in leagues
    assert f'href="{reverse("league_standings", args=[league])}"' in leagues
    assert "Private League" not in page and "Old League" not in page
    assert "Fest" not in leagues  # events are in their own part
    for url in (fest.get_absolute_url(), reverse("event_leaderboard", args=[fest])):
        assert client.get(url).status_code == 200


def test_a_visitors_home_says_nothing_of_events_where_there_are_none(client, season):
    page = client.get(reverse("home")).content.decode()
    assert 'data-testid="visitor-events"' not in page
    assert 'data-testid="public-leagues"' not in page
    assert "Sign up with your campus e-mail" in page


@pytest.mark.parametrize("count", [1, 12])
def test_a_visitors_home_runs_a_constant_number_of_queries(
    client, season, count, django_assert_num_queries
):
    today = season.institution.today()
    for n in range(count):
        an_event(season, f"fest-{n}", today + timedelta(days=n % 3))
        LeagueFactory(season=season)
    # The public leagues, the events.
    with django_assert_num_queries(2):
        assert client.get(reverse("home")).status_code == 200
