"""G1 allows a final score from -100 to 1500, so a total of a player's games may be negative: a
first round of -5 at an event, a club night or a league is stored and shown like any other
total (issue 45: the standings' columns once refused it, and the refusal stopped the night)."""

import json

import pytest
from django.urls import reverse

from clubs.services import check_in, seat_night
from league.models import Entry, LeagueFormat, Round, Standing
from matches.models import Match
from matches.services import card_enter, report_confirm, report_submit
from tests.support import LeagueFactory, at, create_event, members, rounds_started, run, write

EVENT = {
    "name": "Cold Start Fest",
    "slug": "cold-start",
    "format": "event",
    "rounds": [
        {"number": 1, "periods": [{"starts": "18:00", "minutes": 45}]},
        {"number": 2, "periods": [{"starts": "19:00", "minutes": 45}]},
    ],
    "categories": [{"name": "Open", "pairing_group": "Open", "turn_seconds": 150}],
}


@pytest.fixture
def fest(season, tmp_path):
    data = {**EVENT, "date": season.institution.today().isoformat()}
    create_event(season, tmp_path, data, "fest.json")
    names = "".join(f"Entrant {letter}\n" for letter in "ABCD")
    run("import_entrants", write(tmp_path, "in.csv", "name\n" + names), "--league", "cold-start")
    run("pair_round", "--league", "cold-start", "--all-entrants", "--seed", "3")
    return rounds_started(Entry.objects.get(league__slug="cold-start", player_number=1).league)


def table(number):
    match = Match.objects.get(round__league__slug="cold-start", round__number=1, table=number)
    return match, list(match.seats.order_by("order"))


def numbers(match):
    return [
        Entry.objects.get(league=match.league, player_id=seat.player_id).player_number
        for seat in match.seats.order_by("order")
    ]


def event_totals(client) -> dict:
    feed = json.loads(client.get(reverse("event_json", args=[at("cold-start")])).content)
    return {row["player_number"]: row["total"] for row in feed["standings"]}


def post_card(client, number, scores):
    _, seats = table(number)
    return client.post(
        reverse("event_scores", args=[at("cold-start"), 1]),
        {
            "table": number,
            "seen": ",".join(str(seat.player_id) for seat in seats),
            "score_1": scores[0],
            "score_2": scores[1],
            "ended_by": "went_out",
        },
    )


def test_g1_a_negative_first_round_at_the_scoring_table_is_saved_and_shown(
    fest, director, client, django_capture_on_commit_callbacks
):
    client.force_login(director.user)

    with django_capture_on_commit_callbacks(execute=True):
        first = post_card(client, 2, (-5, -7))
    with django_capture_on_commit_callbacks(execute=True):
        second = post_card(client, 1, (400, 300))

    assert first.status_code == 302 and second.status_code == 302
    match, _ = table(2)
    low, lower = numbers(match)
    totals = event_totals(client)
    assert totals[low] == -5 and totals[lower] == -7
    stored = Standing.objects.get(league=fest, player=match.seats.get(order=2).player)
    assert (stored.points_for, stored.points_against) == (-7, -5)
    leaderboard = client.get(reverse("event_leaderboard", args=[at("cold-start")])).content.decode()
    assert "<strong>-5</strong>" in leaderboard and "<strong>-7</strong>" in leaderboard


def test_g1_enter_scores_takes_a_negative_card_and_runs_again_cleanly(
    fest, tmp_path, client, django_capture_on_commit_callbacks
):
    match, _ = table(1)
    first, second = numbers(match)
    card = f"table,player_number,score\n1,{first},-5\n1,{second},-7\n"
    path = write(tmp_path, "scores.csv", card)

    with django_capture_on_commit_callbacks(execute=True):
        out, _ = run("enter_scores", "--league", "cold-start", "--round", "1", path)
    with django_capture_on_commit_callbacks(execute=True):
        again, _ = run("enter_scores", "--league", "cold-start", "--round", "1", path)

    assert out.strip() == "tables=1 scores=2 skipped=0 conflicts=0"
    assert again.strip() == "tables=0 scores=0 skipped=1 conflicts=0"
    assert event_totals(client)[first] == -5


def test_g1_g9_a_negative_card_at_a_club_night_shows_in_its_standings(
    season, director, client, django_capture_on_commit_callbacks
):
    club = LeagueFactory(season=season, format=LeagueFormat.CLUB, name="Thursday Club")
    night = Round.objects.create(league=club, number=1, play_by=season.starts_on)
    for member in members(club, 3):
        check_in(actor=director.user, round=night, player=member)
    (tonight,) = seat_night(actor=director.user, round=night)

    with django_capture_on_commit_callbacks(execute=True):
        card_enter(actor=director.user, match=tonight, scores=[-5, -7, -12], unusual_confirmed=True)

    feed = json.loads(client.get(reverse("league_standings_json", args=[club])).content)
    # G9: each seat meets the other two, so its own score counts twice.
    by_points = sorted((row["points_for"], row["points_against"]) for row in feed["standings"])
    assert by_points == [(-24, -12), (-14, -17), (-10, -19)]


def test_g1_l7_a_negative_league_result_shows_in_the_standings_page_and_feed(
    match, player, opponent, client, django_capture_on_commit_callbacks
):
    report = report_submit(actor=player.user, match=match, scores=[-5, -7], unusual_confirmed=True)
    with django_capture_on_commit_callbacks(execute=True):
        report_confirm(actor=opponent.user, report=report)

    feed = json.loads(client.get(reverse("league_standings_json", args=[match.league])).content)
    rows = {row["points_for"]: row for row in feed["standings"]}
    assert rows[-5]["points_against"] == -7 and rows[-5]["wins"] == 1
    assert rows[-7]["points_against"] == -5 and rows[-7]["spread"] == -2
    page = client.get(reverse("league_standings", args=[match.league])).content.decode()
    assert ">-5<" in page and ">-7<" in page
