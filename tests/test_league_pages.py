"""The public league pages are served from their stored rendering (league.pages, LeaguePage),
which every change they show rewrites in its own transaction: never stale, one query to serve."""

import json

import pytest
from django.urls import reverse

from league.models import LeaguePage
from league.standings import rebuild_standings
from tests.factories import confirmed_game, entrant, match_between

PAGES = ["league_standings", "league_standings_json", "league_bracket", "league_bracket_json"]


@pytest.fixture
def pair(league):
    """Two eligible entrants: Ada and Bo Quill."""
    return [entrant(league, first_name=name, last_name="Quill") for name in ("Ada", "Bo")]


@pytest.mark.parametrize("name", PAGES)
def test_a_public_league_page_is_one_query_for_a_visitor(
    client, league, pair, name, django_assert_num_queries
):
    rebuild_standings([league.pk])
    with django_assert_num_queries(1):
        response = client.get(reverse(name, args=[league.slug]))
    assert response.status_code == 200


@pytest.mark.parametrize("name", PAGES)
def test_a_private_leagues_pages_are_for_its_institution_only(
    client, league, pair, outsider, player, name
):
    league.public = False
    league.save()
    assert client.get(reverse(name, args=[league.slug])).status_code == 404
    client.force_login(outsider.user)
    assert client.get(reverse(name, args=[league.slug])).status_code == 404
    client.force_login(player.user)
    assert client.get(reverse(name, args=[league.slug])).status_code == 200


def test_a_confirmed_result_is_on_the_pages_at_once(
    client, league, pair, django_capture_on_commit_callbacks
):
    """The live path: confirming announces the result on commit, which rebuilds and renders."""
    ada, bo = pair
    with django_capture_on_commit_callbacks(execute=True):
        confirmed_game(match_between(league, ada, bo), winner=ada, loser=bo, scores=(420, 380))
    data = client.get(reverse("league_standings_json", args=[league.slug])).json()
    assert [(row["player"], row["wins"], row["spread"]) for row in data["standings"]] == [
        ("Ada Quill", 1, 40),
        ("Bo Quill", 0, -40),
    ]
    page = client.get(reverse("league_standings", args=[league.slug])).content.decode()
    assert '<th scope="row">Ada Quill</th>' in page and "+40" in page


def test_renaming_a_league_or_its_season_renders_its_pages_again(
    client, league, pair, season, django_capture_on_commit_callbacks
):
    rebuild_standings([league.pk])
    with django_capture_on_commit_callbacks(execute=True):
        league.name = "Thursday Ladder"
        league.save()
        season.name = "Spring 2027"
        season.save()
    page = client.get(reverse("league_standings", args=[league.slug])).content.decode()
    assert "<title>Thursday Ladder standings" in page
    assert "Thursday Ladder</a> · Spring 2027" in page


def test_a_page_missing_or_rendered_by_older_templates_is_rendered_when_served(
    client, league, pair
):
    rebuild_standings([league.pk])
    LeaguePage.objects.filter(league=league).update(layout="old", standings_json="{}")
    data = client.get(reverse("league_standings_json", args=[league.slug])).json()
    assert len(data["standings"]) == 2
    LeaguePage.objects.filter(league=league).delete()
    assert client.get(reverse("league_bracket", args=[league.slug])).status_code == 200
    stored = LeaguePage.objects.get(league=league)
    assert json.loads(stored.bracket_json) == {
        "league": league.slug,
        "size": 0,
        "champion": None,
        "rounds": [],
    }


def test_an_unknown_league_is_404(client, db):
    for name in PAGES:
        assert client.get(reverse(name, args=["no-such-league"])).status_code == 404


def test_a_players_name_is_escaped_in_the_stored_pages(client, league):
    """The standings rows are built without the template engine, so their escaping is tested."""
    entrant(league, first_name='<b>Ann & "Co"</b>', last_name="O'Hara")
    rebuild_standings([league.pk])
    page = client.get(reverse("league_standings", args=[league.slug])).content.decode()
    assert "<b>Ann" not in page
    assert "&lt;b&gt;Ann &amp; &quot;Co&quot;&lt;/b&gt; O&#x27;Hara" in page
    data = client.get(reverse("league_standings_json", args=[league.slug])).json()
    assert data["standings"][0]["player"] == '<b>Ann & "Co"</b> O\'Hara'


def test_a_renamed_player_is_renamed_on_the_pages(
    client, league, pair, django_capture_on_commit_callbacks
):
    ada, _ = pair
    rebuild_standings([league.pk])
    with django_capture_on_commit_callbacks(execute=True):
        ada.user.first_name = "Adaeze"
        ada.user.save()
    page = client.get(reverse("league_standings", args=[league.slug])).content.decode()
    assert "Adaeze Quill" in page and "Ada Quill" not in page


def test_a_login_does_not_render_the_pages_again(
    client, league, pair, django_capture_on_commit_callbacks
):
    ada, _ = pair
    rebuild_standings([league.pk])
    before = LeaguePage.objects.get(league=league).rendered_at
    with django_capture_on_commit_callbacks(execute=True):
        client.force_login(ada.user)
    assert LeaguePage.objects.get(league=league).rendered_at == before


def test_the_update_time_is_shown_in_the_institutions_time_zone(client, league, pair):
    """The nightly job renders in UTC; the page speaks the campus's clock, the JSON stays UTC."""
    from django.utils import timezone

    rebuild_standings([league.pk])
    updated = LeaguePage.objects.get(league=league).rendered_at
    local = timezone.localtime(updated, league.season.institution.tz)
    page = client.get(reverse("league_standings", args=[league.slug])).content.decode()
    assert f"Updated {local.strftime('%b %-d, %-I:%M')}" in page
    data = client.get(reverse("league_standings_json", args=[league.slug])).json()
    assert data["updated"].endswith("+00:00")
