"""R3: a league's games counted at its weight; R4: a tournament's bracket and an event's first
round seeded by rating."""

import json
from datetime import timedelta

import pytest
from django.urls import reverse

from events.files import export_file
from events.pairing import Group, PairingEntrant, pair_round
from events.services import close_round
from league.models import Bracket, Entry, League, LeagueFormat, SeedBy
from league.playoffs import build_ready_brackets
from league.rating_runs import rate
from matches.services import card_enter
from ratings.imports import ratings_import
from ratings.models import PlayerRating, RatingChange
from tests.support import FEST, at, entrant, known_ratings, refused, run, table_of, write

pytestmark = pytest.mark.django_db


def test_r3_a_club_weighing_a_third_moves_ratings_a_third_as_far_and_a_change_of_weight_rerates(
    league, table, director
):
    ada, bo, cy, di = table
    institution = league.season.institution
    card_enter(actor=director.user, match=table_of(league, [ada, bo]), scores=[420, 380])
    rate(institution)
    full = PlayerRating.objects.get(player=ada).rating - 1500

    league.rating_weight = 1 / 3
    league.save(update_fields=["rating_weight"])
    run_ = rate(institution)

    assert run_.periods == 1  # the weight is part of the period's fingerprint: rated again
    third = PlayerRating.objects.get(player=ada).rating - 1500
    assert 0 < third < full * 0.45
    assert RatingChange.objects.get(player=ada).period_games == pytest.approx(1 / 3)
    assert rate(institution).periods == 0  # and then it stands


def test_r3_a_club_file_carries_its_weight_and_refuses_one_out_of_range(tmp_path, season):
    club = {"name": "Thursday Club", "slug": "thursday", "format": "club", "rating_weight": 0.33}
    club["rounds"] = [{"number": 1, "date": (season.starts_on + timedelta(days=3)).isoformat()}]
    path = write(tmp_path, "club.json", json.dumps(club))
    where = ["--institution", season.institution.slug, "--season", season.slug]
    run("create_event", path, *where)
    assert League.objects.get(slug="thursday").rating_weight == 0.33

    club["rating_weight"] = 2
    path = write(tmp_path, "club.json", json.dumps(club))
    error = refused("create_event", path, *where, "--update")
    assert "rating_weight: a number from 0.1 to 1; 2 is outside that" in str(error)
    assert League.objects.get(slug="thursday").rating_weight == 0.33


def test_r4_a_tournament_seeded_by_rating_puts_the_highest_first_and_the_unrated_last(
    league, director
):
    institution = league.season.institution
    league.format = LeagueFormat.SINGLE_ELIMINATION
    league.seed_by = SeedBy.RATING
    league.save()
    ada, bo, cy, di, ed = (entrant(league) for _ in range(5))
    for seed, profile in enumerate([ada, bo, cy, di, ed], start=1):
        Entry.objects.filter(league=league, player=profile).update(seed=seed)
    known_ratings(institution, {cy: 1900, ed: 1200, bo: 1650})

    build_ready_brackets(
        league_ids=[league.pk], today=league.season.registration_deadline + timedelta(days=1)
    )

    # Rated highest first; ada and di, unrated, after them in the director's order.
    assert Bracket.objects.get(league=league).seeds == [cy.pk, bo.pk, ed.pk, ada.pk, di.pk]


def test_r4_l11_seed_by_entry_keeps_the_directors_order(league):
    institution = league.season.institution
    league.format = LeagueFormat.SINGLE_ELIMINATION
    league.save()
    ada, bo = entrant(league), entrant(league)
    Entry.objects.filter(player=ada).update(seed=1)
    Entry.objects.filter(player=bo).update(seed=2)
    known_ratings(institution, {bo: 2000})
    build_ready_brackets(
        league_ids=[league.pk], today=league.season.registration_deadline + timedelta(days=1)
    )
    assert Bracket.objects.get(league=league).seeds == [ada.pk, bo.pk]


def test_r4_a_first_round_by_rating_meets_nearest_ratings_within_each_group():
    groups = [Group("Competitive", timed=True), Group("Fun", timed=False)]
    ratings = {1: 1500, 2: 1900, 3: 1200, 4: 1850, 5: 1000, 6: 1300, 7: 1700, 8: 1650}
    entrants = [
        PairingEntrant(id=i, group="Competitive" if i <= 4 else "Fun", rating=rating)
        for i, rating in ratings.items()
    ]
    for seed in range(20):  # whatever the draw, the tables are the same; only seats move
        pairing = pair_round(entrants, groups, by_score=False, seed=seed, by_rating=True)
        assert [sorted(table) for table in pairing.tables] == [[2, 4], [1, 3], [7, 8], [5, 6]]
    random_tables = {
        tuple(sorted(table))
        for seed in range(20)
        for table in pair_round(entrants, groups, by_score=False, seed=seed).tables
    }
    assert len(random_tables) > 4  # the default stays a draw (E3)


def test_r4_an_events_first_round_by_rating_pairs_nearest_ratings_and_the_file_says_so(
    tmp_path, season
):
    data = {**FEST, "date": (season.starts_on + timedelta(days=10)).isoformat()}
    data["first_round"] = "rating"
    where = ["--institution", season.institution.slug, "--season", season.slug]
    run("create_event", write(tmp_path, "fest.json", json.dumps(data)), *where)
    names = ["Ada", "Bo", "Cy", "Di"]
    lines = "".join(f"{name} Quill,Competitive,,,{name.lower()}@example.edu\n" for name in names)
    entrants = write(tmp_path, "in.csv", f"name,category,team,player_number,email\n{lines}")
    run("import_entrants", entrants, "--league", "fest")
    known_by_mail = "".join(
        f"{name.lower()}@example.edu,{rating}\n"
        for name, rating in zip(names, [1400, 1800, 1450, 1750], strict=True)
    )
    ratings_import(
        actor=None, institution=season.institution, data=f"email,rating\n{known_by_mail}".encode()
    )

    run("pair_round", "--league", "fest", "--all-entrants", "--seed", "3")

    fest = League.objects.get(slug="fest")
    tables = [
        sorted(seat.player.display_name for seat in match.seats.all())
        for match in fest.matches.filter(round__number=1).order_by("table")
    ]
    assert tables == [["Bo Quill", "Di Quill"], ["Ada Quill", "Cy Quill"]]
    assert export_file(fest)["first_round"] == "rating"  # next year's file keeps it


def test_r2_an_event_is_rated_when_its_last_round_closes_not_at_night(
    tmp_path, season, director, client, django_capture_on_commit_callbacks
):
    data = {**FEST, "date": (season.starts_on + timedelta(days=10)).isoformat()}
    data["rounds"] = FEST["rounds"][:1]
    where = ["--institution", season.institution.slug, "--season", season.slug]
    run("create_event", write(tmp_path, "fest.json", json.dumps(data)), *where)
    lines = "".join(f"{name} Quill,Competitive\n" for name in ["Ada", "Bo", "Cy", "Di"])
    out = run(
        "import_entrants", write(tmp_path, "in.csv", f"name,category\n{lines}"), "--league", "fest"
    )
    assert "4" in out[0], out
    run("pair_round", "--league", "fest", "--all-entrants")
    fest = League.objects.get(slug="fest")
    first, second = fest.matches.order_by("table")

    with django_capture_on_commit_callbacks(execute=True):
        card_enter(actor=director.user, match=first, scores=[420, 380])
    assert not PlayerRating.objects.exists()  # a table still plays: not yet
    with django_capture_on_commit_callbacks(execute=True):
        close_round(actor=director.user, round=fest.rounds.get(number=1))

    # The closed table is a double forfeit, not rated; the played one is, as the event's period.
    rated = PlayerRating.objects.values_list("player_id", flat=True)
    assert sorted(rated) == sorted(first.seats.values_list("player_id", flat=True))
    assert RatingChange.objects.filter(period__key=f"l{fest.pk}").count() == 2
    document = client.get(reverse("event_json", args=[at("fest")])).json()
    rows = [row for row in document["standings"] if row.get("rating")]
    assert len(rows) == 2  # the event's page shows them


def test_r4_the_event_set_up_form_suggests_categories_by_rating_bands(client, league, director):
    institution = league.season.institution
    url = reverse("league_setup_form", args=["event"])
    client.force_login(director.user)
    assert "By rating at" not in client.get(url).content.decode()  # nobody rated yet
    for rating in range(1200, 2100, 100):  # nine rated players
        PlayerRating.objects.create(
            player=entrant(league), rating=rating, deviation=80, volatility=0.06, games=20
        )

    page = client.get(url).content.decode()

    assert f"By rating at {institution.name}, bands of about equal size:" in page
    assert "Division A | Division A |” for 1800 and up" in page
    assert "Division B | Division B |” for 1500–1799" in page
    assert "Division C | Division C |” for below 1500" in page


def test_r4_the_event_set_up_form_saves_a_first_round_by_rating(client, director, season):
    from events.models import Event
    from tests.events.test_setup_forms import event_form

    client.force_login(director.user)
    data = {**event_form(season), "first_round": "rating"}
    assert client.post(reverse("league_setup_form", args=["event"]), data).status_code == 302
    assert Event.objects.get(league__slug="winter-fest").first_round == "rating"
