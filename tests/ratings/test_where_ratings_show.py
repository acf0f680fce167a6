"""R1: where a rating shows beside the standings: My matches (the opponent's rating and the
reader's chances), the match page (each seat's change once its period is rated) and an event's
leaderboard."""

import json
from datetime import timedelta

import pytest
from django.urls import reverse

from league.models import League
from league.rating_runs import rate
from league.refresh import refresh_leagues
from matches.services import card_enter
from ratings import glicko
from ratings.imports import ratings_import
from tests.support import (
    FEST,
    confirmed_game,
    entrant,
    known_ratings,
    match_between,
    open_dispute,
    run,
    submitted_report,
    table_of,
    write,
)

pytestmark = pytest.mark.django_db


def test_r1_my_matches_shows_the_opponents_rating_and_my_chances_before_the_game(
    client, league, table
):
    ada, bo, cy, di = table
    known_ratings(league.season.institution, {bo: 1800, ada: 1500})
    match_between(league, ada, bo)
    match_between(league, ada, cy)
    client.force_login(ada.user)

    page = client.get(reverse("home")).content.decode()

    chance = round(100 * glicko.expected(glicko.Rated(1500, 100), glicko.Rated(1800, 100)))
    assert 20 < chance < 30
    assert f"Bo Example rated 1800: your chance of winning about {chance}%" in page
    # Cy is unrated: a newcomer's 1500 and 350, so the reader's chance is about even.
    assert "Cy Example unrated: your chance of winning about 50%" in page


def test_r1_p1_my_matches_names_two_opponents_of_one_first_name_apart(client, league, table):
    """Issue 48: "Casey rated 1202*; Casey rated 1786*" were two people. Each opponent is
    named in full, as the match page names them to their opponent; a withheld opponent too
    (P2: her opponents read her name), a forgotten one as "Former player N" (P4)."""
    from accounts.services import name_withhold
    from accounts.services.forgetting import profile_forget

    ada = table[0]
    rowe = entrant(league, first_name="Casey", last_name="Rowe")
    pike = entrant(league, first_name="Casey", last_name="Pike")
    gone = entrant(league, first_name="Noor", last_name="Vale")
    known_ratings(league.season.institution, {rowe: 1202, pike: 1786, ada: 1500})
    name_withhold(actor=pike.user, profile=pike, withhold=True)
    for each in (rowe, pike, gone):
        match_between(league, ada, each)
    profile_forget(actor=gone.user, profile=gone)
    client.force_login(ada.user)

    page = client.get(reverse("home")).content.decode()

    assert "v Casey Rowe" in page and "Casey Rowe rated 1202" in page
    assert "v Casey Pike" in page and "Casey Pike rated 1786" in page
    assert "E-mail Casey Rowe</a>" in page and "E-mail Casey Pike</a>" in page
    assert "Casey rated" not in page
    assert f"v Former player {gone.anonymous_number}" in page
    assert "Vale" not in page and "erased.invalid" not in page


def test_r1_my_matches_shows_no_chance_once_the_game_is_reported(client, league, table):
    """A chance of winning is said before the game only: not beside a result reported and
    waiting for confirmation, disputed, or confirmed."""
    ada, bo, cy, di = table
    known_ratings(league.season.institution, {bo: 1800, cy: 1700, di: 1600, ada: 1500})
    submitted_report(match_between(league, ada, bo), by=bo, scores=(380, 420))
    open_dispute(match_between(league, cy, ada))
    confirmed_game(match_between(league, ada, di), winner=ada, loser=di)
    client.force_login(ada.user)

    page = client.get(reverse("home")).content.decode()

    assert page.count('class="match-row') == 3
    assert 'data-testid="my-odds"' not in page and "chance of winning" not in page
    match_between(league, ada, bo)  # a game still to play says it
    assert "Bo Example rated 1800: your chance" in client.get(reverse("home")).content.decode()


def test_r1_my_matches_says_nothing_of_ratings_where_nobody_is_rated(client, match, player):
    client.force_login(player.user)
    assert 'data-testid="my-odds"' not in client.get(reverse("home")).content.decode()


def test_r1_the_match_page_shows_each_seats_change_once_its_round_is_rated(
    client, league, table, director, django_assert_num_queries
):
    ada, bo, cy, di = table
    match = table_of(league, [ada, bo])
    card_enter(actor=director.user, match=match, scores=[420, 380])
    client.force_login(ada.user)
    url = reverse("match_detail", args=[match.pk])
    assert 'data-testid="rating-changes"' not in client.get(url).content.decode()

    rate(league.season.institution)
    page = client.get(url).content.decode()

    assert 'data-testid="rating-changes"' in page
    body = page[page.index('data-testid="rating-changes"') :]
    ada_row = body[body.index("Ada Example") : body.index("</tr>", body.index("Ada Example"))]
    assert "<td>1500</td>" in ada_row and "+" in ada_row and "*" in ada_row  # provisional
    bo_row = body[body.index("Bo Example") : body.index("</tr>", body.index("Bo Example"))]
    assert "−" in bo_row  # a loss: down, with a real minus sign


def test_r1_an_events_leaderboard_has_a_rating_column_once_anyone_is_rated(
    tmp_path, season, client
):
    data = {**FEST, "date": (season.starts_on + timedelta(days=10)).isoformat()}
    where = ["--institution", season.institution.slug, "--season", season.slug]
    run("create_event", write(tmp_path, "fest.json", json.dumps(data)), *where)
    lines = "".join(f"{name} Quill,Competitive,{name.lower()}@example.edu\n" for name in "AB")
    run(
        "import_entrants",
        write(tmp_path, "in.csv", f"name,category,email\n{lines}"),
        "--league",
        "fest",
    )
    fest = League.objects.get(slug="fest")
    url = reverse("event_leaderboard", args=[fest])
    assert ">Rating</th>" not in client.get(url).content.decode()

    ratings_import(
        actor=None, institution=season.institution, data=b"email,rating\na@example.edu,1700\n"
    )
    refresh_leagues([fest.pk])
    page = client.get(url).content.decode()
    assert ">Rating</th>" in page
    assert '<td class="wide-only">1700</td>' in page
    assert '<td class="wide-only">–</td>' in page  # B, unrated


def test_r1_a_club_nights_rating_change_says_night(client, season, director):
    from tests.support import LeagueFactory, entrant

    club = LeagueFactory(season=season, name="Thursday Club", slug="thursday", format="club")
    ada, bo = entrant(club), entrant(club)
    match = table_of(club, [ada, bo])
    card_enter(actor=director.user, match=match, scores=[420, 380])
    rate(season.institution)
    client.force_login(ada.user)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert "Rated with every game of its night" in page
    profile = client.get(reverse("profile")).content.decode()
    assert "Thursday Club, night 1" in profile
