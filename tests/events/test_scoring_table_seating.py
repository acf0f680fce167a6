"""A score card lands only on the players it names (E3, G9). The scoring table sends back the
seating it showed for the table, and a card checked against one seating is refused once the
round has been paired again or two players swapped; after such a change to a round whose cards
were printed, the scoring table asks for each seat's player number from the card, as tsh does
for every card, so a card printed before the change is refused even on a page loaded after it.
Club nights' cards carry the seating their form showed, and the card service checks the players
under the table's lock, whoever calls it."""

from datetime import timedelta

import pytest
from django.urls import reverse

from events import services as events
from events.models import RoundCards
from league.models import Entry, League, LeagueFormat, Round
from matches.models import Match, MatchStatus, Seat
from matches.services import SeatingChanged, card_enter
from tests.support import LeagueFactory, at, create_event, rounds_started, run, write


@pytest.fixture
def fest(season, tmp_path):
    data = {
        "name": "Seating Fest",
        "slug": "fest",
        "format": "event",
        "date": (season.starts_on + timedelta(days=10)).isoformat(),
        "rounds": [{"number": 1, "periods": [{"starts": "18:00", "minutes": 45}]}],
        "categories": [{"name": "Open", "pairing_group": "Open", "turn_seconds": 150}],
    }
    create_event(season, tmp_path, data, "fest.json")
    names = "".join(f"Entrant {letter}\n" for letter in "ABCDEFGH")
    run("import_entrants", write(tmp_path, "in.csv", "name\n" + names), "--league", "fest")
    run("pair_round", "--league", "fest", "--all-entrants", "--seed", "3")
    return rounds_started(League.objects.get(slug="fest"))


def seating(table_number: int) -> list[int]:
    match = Match.objects.get(round__league__slug="fest", round__number=1, table=table_number)
    return list(match.seats.order_by("order").values_list("player_id", flat=True))


def number_of(player_id: int) -> int:
    return Entry.objects.get(league__slug="fest", player_id=player_id).player_number


def scores_url() -> str:
    return reverse("event_scores", args=[at("fest"), 1])


def card(table: int, seen: list[int], scores=(400, 300), **more) -> dict:
    return {
        "table": table,
        "seen": ",".join(map(str, seen)),
        "score_1": scores[0],
        "score_2": scores[1],
        "ended_by": "went_out",
        **more,
    }


def stored_scores() -> dict[int, int]:
    return dict(
        Seat.objects.filter(match__round__league__slug="fest", score__isnull=False).values_list(
            "player_id", "score"
        )
    )


def repair(director, seed: int) -> None:
    round_ = Round.objects.get(league__slug="fest", number=1)
    events.pair_event_round(actor=director.user, round=round_, repair=True, seed=seed)


def re_pair_changing_table_one(director) -> list[int]:
    before = seating(1)
    for seed in range(100, 200):
        repair(director, seed)
        if set(seating(1)) != set(before):
            return before
    raise AssertionError("no seed changed table 1")


def test_e3_a_card_read_against_the_old_seating_is_refused_after_a_re_pairing(
    fest, client, staff, director
):
    client.force_login(staff.user)
    shown = seating(1)  # what the scorer's page showed before the director re-paired
    assert client.get(scores_url()).status_code == 200
    re_pair_changing_table_one(director)

    response = client.post(scores_url(), card(1, shown))

    page = response.content.decode()
    assert response.status_code == 200
    assert "players changed since this page was loaded" in page
    assert "Nothing was entered" in page
    assert stored_scores() == {}


def test_e3_a_card_read_against_the_seating_it_names_is_entered(fest, client, staff):
    client.force_login(staff.user)
    shown = seating(1)

    response = client.post(scores_url(), card(1, shown, scores=(412, 377)))

    assert response.status_code == 302
    assert stored_scores() == {shown[0]: 412, shown[1]: 377}


def test_e3_a_swap_after_the_page_was_loaded_refuses_the_card(fest, client, staff, director):
    client.force_login(staff.user)
    shown = seating(1)
    other = seating(2)
    round_ = Round.objects.get(league=fest, number=1)
    events.swap_players(
        actor=director.user,
        round=round_,
        first=Seat.objects.get(match__round=round_, player_id=shown[1]).player,
        second=Seat.objects.get(match__round=round_, player_id=other[0]).player,
        confirmed=True,
    )

    response = client.post(scores_url(), card(1, shown))

    assert "players changed since this page was loaded" in response.content.decode()
    assert stored_scores() == {}


def test_e3_a_card_without_the_seating_shown_asks_to_check_the_names_first(fest, client, staff):
    """Without the page's script nothing says which players the scorer checked: the card is
    refused once with the table's names, and the page sent back carries them."""
    client.force_login(staff.user)
    response = client.post(scores_url(), {**card(1, []), "seen": ""})

    page = response.content.decode()
    assert "Check the card&#x27;s names first" in page or "Check the card's names first" in page
    first = Entry.objects.get(league=fest, player_id=seating(1)[0])
    assert f"({first.player_number})" in page
    assert stored_scores() == {}


def test_e3_the_card_service_checks_the_players_under_the_lock(fest, director):
    table = Match.objects.get(round__league=fest, table=1)
    wrong = list(reversed(seating(1)))

    with pytest.raises(SeatingChanged):
        card_enter(actor=director.user, match=table, scores=[400, 300], players=wrong)

    table.refresh_from_db()
    assert table.status == MatchStatus.SCHEDULED and stored_scores() == {}


def print_cards(client) -> None:
    response = client.get(reverse("event_print", args=[at("fest"), 1, "cards"]))
    assert response.status_code == 200


def test_e3_after_a_re_pairing_of_printed_cards_every_card_needs_the_players_numbers(
    fest, client, staff, director
):
    client.force_login(staff.user)
    print_cards(client)
    printed = re_pair_changing_table_one(director)  # the card in the hall names these
    now_seated = seating(1)

    page = client.get(scores_url()).content.decode()
    assert 'data-testid="numbers-required"' in page and "Seat 1 player number" in page

    # The page was loaded after the re-pairing, so its seating is the new one: only the numbers
    # written on the old card tell it apart.
    old_card = card(
        1,
        now_seated,
        number_1=number_of(printed[0]),
        number_2=number_of(printed[1]),
    )
    refused = client.post(scores_url(), old_card).content.decode()
    assert "it was printed before round 1 was paired again" in refused
    assert stored_scores() == {}

    missing = client.post(scores_url(), card(1, now_seated)).content.decode()
    assert "type each seat&#x27;s player number" in missing or "type each seat's" in missing
    assert stored_scores() == {}

    # A card with the table's players, written in the other order, goes to the right players.
    new_card = card(
        1,
        now_seated,
        scores=(350, 420),
        number_1=number_of(now_seated[1]),
        number_2=number_of(now_seated[0]),
    )
    assert client.post(scores_url(), new_card).status_code == 302
    assert stored_scores() == {now_seated[1]: 350, now_seated[0]: 420}


def test_e3_a_directors_swap_after_printing_counts_as_a_change(fest, client, staff, director):
    client.force_login(staff.user)
    print_cards(client)
    round_ = Round.objects.get(league=fest, number=1)
    shown, other = seating(1), seating(2)
    events.swap_players(
        actor=director.user,
        round=round_,
        first=Seat.objects.get(match__round=round_, player_id=shown[0]).player,
        second=Seat.objects.get(match__round=round_, player_id=other[0]).player,
        confirmed=True,
    )
    assert RoundCards.objects.get(round=round_).seating_changed_after_print
    client.force_login(director.user)
    round_page = client.get(reverse("event_round", args=[at("fest"), 1])).content.decode()
    assert 'data-testid="printed-warning"' in round_page and "has changed since" in round_page
    client.force_login(staff.user)

    old_card = card(1, seating(1), number_1=number_of(shown[0]), number_2=number_of(shown[1]))
    assert "it was printed before" in client.post(scores_url(), old_card).content.decode()
    assert stored_scores() == {}


def test_e3_a_round_re_paired_before_its_cards_were_printed_needs_no_numbers(
    fest, client, staff, director
):
    re_pair_changing_table_one(director)
    client.force_login(staff.user)
    print_cards(client)

    page = client.get(scores_url()).content.decode()
    assert 'data-testid="numbers-required"' not in page
    assert client.post(scores_url(), card(1, seating(1))).status_code == 302


def test_e4_a_club_card_typed_against_other_players_is_refused(client, director, season):
    from clubs import services as club
    from tests.support import members, url

    league = LeagueFactory(season=season, format=LeagueFormat.CLUB, name="Thursday Club")
    night = Round.objects.create(league=league, number=1, play_by=season.starts_on)
    players = members(night.league, 4)
    for player in players:
        club.check_in(actor=director.user, round=night, player=player)
    (table,) = club.seat_night(actor=director.user, round=night)
    orders = list(table.seats.order_by("order").values_list("order", "player_id"))
    data = {f"table-{table.pk}-score_{order}": 400 - order for order, _ in orders}
    data[f"table-{table.pk}-ended_by"] = "went_out"
    data[f"table-{table.pk}-seen"] = ",".join(str(player) for _, player in reversed(orders))
    client.force_login(director.user)

    response = client.post(url(night, "club_card", table.pk), data)

    assert "the players changed since this card was read" in response.content.decode()
    table.refresh_from_db()
    assert table.status == MatchStatus.SCHEDULED
