"""Campus addresses (issue 50) reach a running site: league's migration 0029 carries its leagues,
their stored pages and feeds across; each league's old address is pinned to it; an institution
whose slug is a word the site's addresses use gets a new one, printed."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.project.test_migrations import latest, migrate

BEFORE = [("accounts", "0010_help_in_plain_words"), ("league", "0028_pages_wanted")]


@pytest.mark.django_db(transaction=True)
def test_leagues_pages_and_feeds_cross_and_old_addresses_are_pinned(client, capsys):
    apps = migrate(BEFORE)
    Institution = apps.get_model("accounts", "Institution")
    Season = apps.get_model("accounts", "Season")
    League = apps.get_model("league", "League")
    LeaguePage = apps.get_model("league", "LeaguePage")
    today = timezone.now().date()
    old = {}
    for name, slug, league_slug in (
        ("Old U", "old-u", "fall-league"),
        ("Admin College", "admin", "cup"),
    ):
        campus = Institution.objects.create(
            name=name, slug=slug, email_domains=f"{slug}.example.edu"
        )
        season = Season.objects.create(
            institution=campus,
            name="Fall",
            slug="fall",
            starts_on=today,
            ends_on=today + timedelta(days=90),
            registration_deadline=today,
        )
        league = League.objects.create(
            season=season, name=name + " League", slug=league_slug, venue="Union"
        )
        # A stored page as the old code rendered it: no "institution" in its feed.
        LeaguePage.objects.create(
            league=league,
            standings_html="<p>old</p>",
            standings_json=json.dumps({"league": league_slug, "updated": None, "standings": []}),
            bracket_html="",
            bracket_json="{}",
            rendered_at=timezone.now(),
            layout="old-layout",
        )
        old[league_slug] = league.pk

    migrate(latest())
    printed = capsys.readouterr().out
    assert "'admin' is now 'admin-campus'" in printed

    from accounts.models import Institution as NowInstitution
    from league.models import League as NowLeague
    from league.models import OldLeagueAddress

    assert NowInstitution.objects.get(name="Admin College").slug == "admin-campus"
    for league in NowLeague.objects.select_related("season__institution"):
        assert league.campus_id == league.season.institution_id
        assert OldLeagueAddress.objects.get(slug=league.slug).league_id == league.pk
    answer = client.get("/leagues/fall-league/standings.json")
    assert (
        answer.status_code == 308
        and answer["Location"] == "/old-u/leagues/fall-league/standings.json"
    )
    # The stored feed is rendered again by the new code the first time it is served.
    feed = client.get(answer["Location"]).json()
    assert feed["institution"] == "old-u" and feed["league"] == "fall-league"
    assert client.get("/leagues/cup/").headers["Location"] == "/admin-campus/leagues/cup/"
