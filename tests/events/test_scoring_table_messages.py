"""The scoring table's messages (E3, issue 30): a card that comes back with an error keeps its
table, the players' names and the table's seats; a card for a table that already has a
different result gives one message, right for who is looking (a volunteer calls the director;
the director replaces it from the scoring table itself, with a reason)."""

import re

import pytest
from django.urls import reverse

from events import services as events
from league.models import Entry, League
from matches.models import Match
from tests.support import at, create_event, rounds_started, run, write


@pytest.fixture
def fest(season, tmp_path):
    data = {
        "name": "Message Fest",
        "slug": "fest",
        "format": "event",
        "date": season.institution.today().isoformat(),
        "rounds": [{"number": 1, "periods": [{"starts": "18:00", "minutes": 45}]}],
        "categories": [{"name": "Open", "pairing_group": "Open", "turn_seconds": 150}],
    }
    create_event(season, tmp_path, data, "fest.json")
    names = "".join(f"Entrant {letter}\n" for letter in "ABCD")
    run("import_entrants", write(tmp_path, "in.csv", "name\n" + names), "--league", "fest")
    run("pair_round", "--league", "fest", "--all-entrants", "--seed", "3")
    return rounds_started(League.objects.get(slug="fest"))


@pytest.fixture
def volunteer(fest, director):
    return events.scorer_invite(
        actor=director.user, league=fest, name="Val Unteer", email="val@example.edu"
    ).user


def table_one():
    match = Match.objects.get(round__league__slug="fest", round__number=1, table=1)
    return match, list(match.seats.order_by("order").select_related("player__user"))


def post_card(client, scores, **more):
    match, seats = table_one()
    return client.post(
        reverse("event_scores", args=[at("fest"), 1]),
        {
            "table": 1,
            "seen": ",".join(str(seat.player_id) for seat in seats),
            "score_1": scores[0],
            "score_2": scores[1],
            "ended_by": "went_out",
            **more,
        },
    )


def test_e3_g1_a_card_with_a_typo_comes_back_with_its_table_names_and_seats(
    fest, volunteer, client
):
    client.force_login(volunteer)
    _, seats = table_one()

    response = post_card(client, (4020, 300))

    page = response.content.decode()
    assert response.status_code == 200 and "is not a Scrabble score" in page
    for seat in seats:
        number = Entry.objects.get(league=fest, player=seat.player).player_number
        assert f"Seat {seat.order}: {seat.player.name} ({number})" in page
    assert re.search(r'<p class="score-row" data-seat="3" hidden>', page)
    assert re.search(r'<p class="score-row" data-seat="4" hidden>', page)
    assert 'name="table" id="id_table" value="1"' in page
    assert "2 seats." in page
    assert table_one()[0].status != "confirmed"


def test_e3_g1_a_score_out_of_range_is_said_in_the_cards_words_and_takes_the_focus(
    fest, volunteer, client
):
    """Issue 48: 4020 typed for 420 got Django's "Ensure this value is less than or equal to
    1500" and the focus went back to the table box, already filled in."""
    client.force_login(volunteer)
    _, seats = table_one()
    first = seats[0]
    number = Entry.objects.get(league=fest, player=first.player).player_number

    page = post_card(client, (4020, 300)).content.decode()

    said = f"4020 for Seat 1: {first.player.name} ({number}) is not a Scrabble score"
    assert f"{said}: a score is from \u2212100 to 1500." in page
    assert "Ensure this value" not in page
    (score_1,) = re.findall(r'<input[^>]*name="score_1"[^>]*>', page)
    assert "autofocus" in score_1 and 'aria-invalid="true"' in score_1
    (table_box,) = re.findall(r'<input[^>]*name="table"[^>]*>', page)
    assert "autofocus" not in table_box
    assert page.count("autofocus") == 1


def test_e3_a_new_card_puts_the_focus_on_the_table_number(fest, volunteer, client):
    client.force_login(volunteer)

    page = client.get(reverse("event_scores", args=[at("fest"), 1])).content.decode()

    (table_box,) = re.findall(r'<input[^>]*name="table"[^>]*>', page)
    assert "autofocus" in table_box and page.count("autofocus") == 1


def test_e3_a_card_for_a_table_already_in_tells_a_volunteer_to_call_the_director(
    fest, volunteer, client
):
    match, _ = table_one()
    events.card_enter(actor=volunteer, match=match, scores=[400, 350])
    client.force_login(volunteer)

    response = post_card(client, (333, 300))

    page = response.content.decode()
    assert "Table 1 already has 400–350, not 333–300." in page
    assert "only the director can replace a result, so call them over" in page
    assert "give a reason" not in page and 'name="override_reason"' not in page
    assert [seat.score for seat in table_one()[1]] == [400, 350]


def test_e3_the_director_replaces_a_tables_result_from_the_scoring_table(
    fest, volunteer, director, client
):
    match, _ = table_one()
    events.card_enter(actor=volunteer, match=match, scores=[400, 350])
    client.force_login(director.user)

    refused = post_card(client, (333, 300)).content.decode()
    assert "To replace it, give the reason" in refused and 'name="override_reason"' in refused
    assert refused.count("already has 400–350") == 1

    replaced = post_card(client, (333, 300), override_reason="Card misread")

    assert replaced.status_code == 302
    assert [seat.score for seat in table_one()[1]] == [333, 300]
