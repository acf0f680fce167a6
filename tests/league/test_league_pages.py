"""The public league pages are served from their stored rendering (league.pages, LeaguePage),
which every change they show rewrites in its own transaction: never stale, one query to serve."""

import json
from datetime import timedelta

import pytest
from django.urls import reverse

from league.models import Entry, LeagueFormat, LeaguePage
from league.refresh import refresh_leagues
from tests.support import at, confirmed_game, eligible_student, entrant, match_between

PAGES = ["league_standings", "league_standings_json", "league_bracket", "league_bracket_json"]


@pytest.fixture
def pair(league):
    """Two eligible entrants: Ada and Bo Quill."""
    return [entrant(league, first_name=name, last_name="Quill") for name in ("Ada", "Bo")]


@pytest.mark.parametrize("name", PAGES)
def test_a_public_league_page_is_one_query_for_a_visitor(
    client, league, pair, name, django_assert_num_queries
):
    refresh_leagues([league.pk])
    with django_assert_num_queries(1):
        response = client.get(reverse(name, args=[league]))
    assert response.status_code == 200


@pytest.mark.parametrize("name", PAGES)
def test_a_private_leagues_pages_are_for_its_institution_only(
    client, league, pair, outsider, player, name
):
    league.public = False
    league.save()
    assert client.get(reverse(name, args=[league])).status_code == 404
    client.force_login(outsider.user)
    assert client.get(reverse(name, args=[league])).status_code == 404
    client.force_login(player.user)
    assert client.get(reverse(name, args=[league])).status_code == 200


def test_a_confirmed_result_is_on_the_pages_at_once(
    client, league, pair, django_capture_on_commit_callbacks
):
    """The live path: confirming announces the result on commit, which rebuilds and renders."""
    ada, bo = pair
    with django_capture_on_commit_callbacks(execute=True):
        confirmed_game(match_between(league, ada, bo), winner=ada, loser=bo, scores=(420, 380))
    data = client.get(reverse("league_standings_json", args=[league])).json()
    assert [(row["player"], row["wins"], row["spread"]) for row in data["standings"]] == [
        ("Ada Quill", 1, 40),
        ("Bo Quill", 0, -40),
    ]
    page = client.get(reverse("league_standings", args=[league])).content.decode()
    assert '<th scope="row" class="col-player">Ada Quill</th>' in page and "+40" in page


def test_renaming_a_league_or_its_season_renders_its_pages_again(
    client, league, pair, season, django_capture_on_commit_callbacks
):
    refresh_leagues([league.pk])
    with django_capture_on_commit_callbacks(execute=True):
        league.name = "Thursday Ladder"
        league.save()
        season.name = "Spring 2027"
        season.save()
    page = client.get(reverse("league_standings", args=[league])).content.decode()
    assert "<title>Thursday Ladder standings" in page
    assert "Thursday Ladder</a> · Spring 2027" in page


def test_a_tournaments_bracket_page_says_it_is_drawn_once_registration_closes(
    client, league, season, django_capture_on_commit_callbacks
):
    """A tournament has no regular season (E2): its bracket is drawn the night after its
    registration closes, and a new deadline shows at once."""
    league.format = LeagueFormat.SINGLE_ELIMINATION
    league.save()
    url = reverse("league_bracket", args=[league])
    page = client.get(url).content.decode()
    deadline = season.registration_deadline
    assert f"drawn once registration closes: the night after {deadline:%b %-d}." in page
    assert "regular season" not in page

    with django_capture_on_commit_callbacks(execute=True):
        season.registration_deadline = deadline + timedelta(days=3)
        season.save()
    later = season.registration_deadline
    assert f"the night after {later:%b %-d}." in client.get(url).content.decode()


def test_a_page_missing_or_rendered_by_older_templates_is_rendered_when_served(
    client, league, pair
):
    refresh_leagues([league.pk])
    LeaguePage.objects.filter(league=league).update(layout="old", standings_json="{}")
    data = client.get(reverse("league_standings_json", args=[league])).json()
    assert len(data["standings"]) == 2
    LeaguePage.objects.filter(league=league).delete()
    assert client.get(reverse("league_bracket", args=[league])).status_code == 200
    stored = LeaguePage.objects.get(league=league)
    assert json.loads(stored.bracket_json) == {
        "institution": "example-state",
        "league": league.slug,
        "size": 0,
        "champion": None,
        "rounds": [],
    }


def test_an_unknown_league_is_404(client, db):
    for name in PAGES:
        assert client.get(reverse(name, args=[at("no-such-league")])).status_code == 404


def test_a_players_name_is_escaped_in_the_stored_pages(client, league):
    """The stored pages are rendered once and served as they are: what a player typed as their
    name must reach them escaped."""
    entrant(league, first_name='<b>Ann & "Co"</b>', last_name="O'Hara")
    refresh_leagues([league.pk])
    page = client.get(reverse("league_standings", args=[league])).content.decode()
    assert "<b>Ann" not in page
    # The table is Jinja2's (core/jinja.py), which writes quotes as numbered references.
    assert "&lt;b&gt;Ann &amp; &#34;Co&#34;&lt;/b&gt; O&#39;Hara" in page
    data = client.get(reverse("league_standings_json", args=[league])).json()
    assert data["standings"][0]["player"] == '<b>Ann & "Co"</b> O\'Hara'


def test_the_standings_columns_come_from_one_list(client, league, pair):
    """``pages.COLUMNS`` makes the table's headings, its cells and standings.json's keys; each of
    its columns but the name, the notes and the rating (R1: the player's, not the league's) is
    a stored column of ``Standing``."""
    import re

    from league.models import STANDING_COLUMNS
    from league.pages import COLUMNS, table_columns

    assert {column.key for column in COLUMNS} - set(STANDING_COLUMNS) == {
        "player",
        "notes",
        "rating",
        "rating_provisional",
    }
    refresh_leagues([league.pk])
    page = client.get(reverse("league_standings", args=[league])).content.decode()
    headings = re.findall(r'<th scope="col" class="col-\w+">([^<]*)</th>', page)
    assert headings == [column.heading for column in table_columns(league)]
    assert "Sat" not in headings  # a club's columns (G9), not a league's
    body = page[page.index("<tbody>") : page.index("</tbody>")]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body)
    assert len(rows) == 2
    assert all(len(re.findall(r"<t[dh][ >]", row)) == len(headings) for row in rows)
    data = client.get(reverse("league_standings_json", args=[league])).json()
    assert list(data["standings"][0]) == [column.key for column in COLUMNS if column.public]


def test_a_renamed_player_is_renamed_on_the_pages(
    client, league, pair, django_capture_on_commit_callbacks
):
    ada, _ = pair
    refresh_leagues([league.pk])
    with django_capture_on_commit_callbacks(execute=True):
        ada.user.first_name = "Adaeze"
        ada.user.save()
    page = client.get(reverse("league_standings", args=[league])).content.decode()
    assert "Adaeze Quill" in page and "Ada Quill" not in page


def test_a_login_does_not_render_the_pages_again(
    client, league, pair, django_capture_on_commit_callbacks
):
    ada, _ = pair
    refresh_leagues([league.pk])
    before = LeaguePage.objects.get(league=league).rendered_at
    with django_capture_on_commit_callbacks(execute=True):
        client.force_login(ada.user)
    assert LeaguePage.objects.get(league=league).rendered_at == before


def test_the_update_time_is_shown_in_the_institutions_time_zone(client, league, pair):
    """The nightly job renders in UTC; the page speaks the campus's clock, the JSON stays UTC."""
    from django.utils import timezone

    refresh_leagues([league.pk])
    updated = LeaguePage.objects.get(league=league).rendered_at
    local = timezone.localtime(updated, league.season.institution.tz)
    page = client.get(reverse("league_standings", args=[league])).content.decode()
    assert f"Updated {local.strftime('%b %-d, %-I:%M')}" in page
    data = client.get(reverse("league_standings_json", args=[league])).json()
    assert data["updated"].endswith("+00:00")


def test_a_result_that_moves_standings_and_bracket_renders_the_pages_once(
    client, league, season, institution, django_capture_on_commit_callbacks
):
    """The receiver rebuilds the standings, advances the bracket, then renders, in one
    transaction: one write of the stored pages, showing both (L11)."""
    from datetime import timedelta

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from league.models import Bracket, LeagueFormat

    league.format = LeagueFormat.SINGLE_ELIMINATION
    league.save()
    players = []
    for seed, first in enumerate(["Ada", "Bo", "Cy", "Di"], start=1):
        players.append(entrant(league, first_name=first, last_name="Quill"))
        Entry.objects.filter(league=league, player=players[-1]).update(seed=seed)
    refresh_leagues(
        [league.pk], today=season.registration_deadline + timedelta(days=1), build_brackets=True
    )
    game = Bracket.objects.get(league=league).slots.get(round_index=0, position=0).match
    ada, di = players[0], players[3]

    with CaptureQueriesContext(connection) as queries:
        with django_capture_on_commit_callbacks(execute=True):
            confirmed_game(game, winner=ada, loser=di)

    writes = [q["sql"] for q in queries if "INSERT INTO league_leaguepage" in q["sql"]]
    assert len(writes) == 1
    bracket = client.get(reverse("league_bracket_json", args=[league])).json()
    assert bracket["rounds"][1][0]["player_a"] == "Ada Quill"  # through to the final


def test_entries_joining_and_withdrawing_show_on_the_standings_at_once(
    client, league, pair, season, institution, director, django_capture_on_commit_callbacks
):
    """Every entry has a row (DESIGN.md, standings); a withdrawn player's results stay, marked
    withdrawn. The director's enrolment and withdrawal rewrite the pages in their transaction,
    also when no match is left to forfeit."""
    from league.services import entry_enrol, entry_withdraw

    ada, bo = pair
    refresh_leagues([league.pk])
    cy = eligible_student(season, first_name="Cy", last_name="Quill")
    entry_enrol(actor=director.user, league=league, player=cy)
    data = client.get(reverse("league_standings_json", args=[league])).json()
    assert {row["player"] for row in data["standings"]} == {"Ada Quill", "Bo Quill", "Cy Quill"}

    with django_capture_on_commit_callbacks(execute=True):
        confirmed_game(match_between(league, ada, bo), winner=ada, loser=bo)
    entry_withdraw(
        actor=director.user, entry=Entry.objects.get(league=league, player=ada), reason="Moved"
    )
    page = client.get(reverse("league_standings", args=[league])).content.decode()
    assert '<th scope="row" class="col-player">Ada Quill</th>' in page
    assert '<td class="col-notes muted">withdrawn</td>' in page


# The fields of the league's change form in the admin (league.admin.LeagueAdmin.fieldsets).
LEAGUE_FORM = [
    "season", "name", "slug", "format", "venue", "public", "capacity", "playoff_size", "lexicon",
    "end_of_game_rule", "challenge_rule", "challenge_points", "turn_time_seconds",
    "forfeit_spread", "double_forfeit_spread", "round_length_days", "report_window_days",
    "confirmation_window_hours", "rating_weight", "seed_by",
]  # fmt: skip


def _edit_in_the_admin(client, director, league, **changes):
    from django.forms.models import model_to_dict

    data = {**model_to_dict(league, fields=LEAGUE_FORM), **changes}
    data["turn_time_seconds"] = data["turn_time_seconds"] or ""
    client.force_login(director.user)
    response = client.post(reverse("admin:league_league_change", args=[league.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]


def _spreads(client, league) -> list[int]:
    data = client.get(reverse("league_standings_json", args=[league])).json()
    return [row["spread"] for row in data["standings"]]


def test_l5_a_new_forfeit_spread_in_the_admin_rebuilds_the_standings_it_shows(
    client, league, pair, director, django_capture_on_commit_callbacks
):
    """The standings convention (DESIGN.md): a forfeit win the director awards (L5) is a win with
    +forfeit_spread and the loss -forfeit_spread. Editing the spread changes the table's rows,
    not only the caption that states it."""
    from matches.services import Ruling, rule

    ada, bo = pair
    with django_capture_on_commit_callbacks(execute=True):
        rule(
            actor=director.user,
            match=match_between(league, ada, bo),
            ruling=Ruling.FORFEIT,
            forfeiting=[2],
            reason="no show",
        )
    assert _spreads(client, league) == [50, -50]

    with django_capture_on_commit_callbacks(execute=True):
        _edit_in_the_admin(client, director, league, forfeit_spread=100)

    assert _spreads(client, league) == [100, -100]
    page = client.get(reverse("league_standings", args=[league])).content.decode()
    assert "Spread includes ±100 per forfeit" in page
    assert '<td class="col-spread" data-sort="100">+100</td>' in page


def test_l8_a_new_double_forfeit_spread_in_the_admin_rebuilds_the_standings_it_shows(
    client, league, pair, director, django_capture_on_commit_callbacks
):
    """The standings convention (DESIGN.md): a double forfeit (L8) is a loss for both, each with
    -double_forfeit_spread."""
    from matches.services import Ruling, rule

    ada, bo = pair
    with django_capture_on_commit_callbacks(execute=True):
        rule(
            actor=director.user,
            match=match_between(league, ada, bo),
            ruling=Ruling.DOUBLE_FORFEIT,
            reason="nobody reported",
        )
    assert _spreads(client, league) == [-50, -50]

    with django_capture_on_commit_callbacks(execute=True):
        _edit_in_the_admin(client, director, league, double_forfeit_spread=30)

    assert _spreads(client, league) == [-30, -30]
    page = client.get(reverse("league_standings", args=[league])).content.decode()
    assert "−30 per double forfeit" in page


def test_e3_e4_the_leagues_list_offers_join_for_a_club_or_event_whose_rounds_are_set(
    client, season, player
):
    """A club's nights and an event's rounds exist from the start; they never close entry."""
    from events.models import Event
    from tests.support import LeagueFactory, eligible

    eligible(player, season)
    for kind in ("club", "event"):
        league = LeagueFactory(season=season, format=kind, name=f"A {kind}", slug=f"a-{kind}")
        league.rounds.create(number=1, play_by=season.ends_on)
        if kind == "event":
            Event.objects.create(league=league, date=season.ends_on)
    client.force_login(player.user)
    page = client.get("/leagues/").content.decode()
    assert "has started" not in page
