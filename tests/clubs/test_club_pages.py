"""The club night's page (E4): check-in by scan or number, seating, score cards, closing the night;
for the club's director and the front desk only."""

import pytest
from django.urls import reverse

from accounts import roles
from league.models import CheckIn, LeagueFormat, Round
from matches.models import Match, MatchStatus
from tests.support import LeagueFactory, eligible_student, members, staff_member, url


@pytest.fixture
def club(season):
    return LeagueFactory(season=season, format=LeagueFormat.CLUB, name="Thursday Club")


@pytest.fixture
def night(club):
    return Round.objects.create(league=club, number=1, play_by=club.season.starts_on)


@pytest.mark.parametrize("persona", ["anonymous", "student", "other_director"])
def test_e4_the_night_page_is_the_staffs_alone(client, night, persona, other_institution):
    if persona == "student":
        client.force_login(eligible_student(night.league.season).user)
    if persona == "other_director":
        client.force_login(staff_member(other_institution, roles.DIRECTORS).user)
    response = client.get(url(night))
    assert response.status_code in (302, 404)
    assert client.post(url(night, "club_seat")).status_code in (302, 404)
    assert not Match.objects.exists()


def test_e4_the_front_desk_checks_in_by_campus_id_scan_and_by_number(client, night, institution):
    ana, ben = members(night.league, 2)
    client.force_login(staff_member(institution, roles.FRONT_DESK).user)
    client.post(url(night, "club_check_in"), {"player": ana.campus_id})
    client.post(url(night, "club_check_in"), {"player": "2"})
    assert set(CheckIn.objects.values_list("entry__player", flat=True)) == {ana.pk, ben.pk}
    page = client.get(url(night)).content.decode()
    assert "(2 here)" in page
    assert "Seat the tables" not in page  # the director seats


def test_e4_checking_in_someone_not_in_the_club_says_so_and_changes_nothing(
    client, night, director
):
    outsider = eligible_student(night.league.season)
    client.force_login(director.user)
    response = client.post(url(night, "club_check_in"), {"player": outsider.campus_id}, follow=True)
    assert "is not in this league" in response.content.decode()
    assert not CheckIn.objects.exists()


def test_e4_the_director_seats_enters_a_card_and_closes_the_night(client, night, director):
    players = members(night.league, 7)
    client.force_login(director.user)
    for player in players:
        client.post(url(night, "club_check_in"), {"player": player.campus_id})
    response = client.post(url(night, "club_seat"), follow=True)
    assert "2 tables seated" in response.content.decode()
    tables = list(Match.objects.order_by("id"))
    assert sorted(table.seats.count() for table in tables) == [3, 4]
    first = tables[0]
    orders = list(first.seats.order_by("order").values_list("order", flat=True))
    data = {f"table-{first.pk}-score_{order}": 400 - 10 * order for order in orders}
    data[f"table-{first.pk}-ended_by"] = "went_out"
    data[f"table-{first.pk}-seen"] = ",".join(
        str(player) for player in first.seats.order_by("order").values_list("player_id", flat=True)
    )
    client.post(url(night, "club_card", first.pk), data)
    first.refresh_from_db()
    assert first.status == MatchStatus.CONFIRMED
    bad = client.post(url(night, "club_card", first.pk), {**data, f"table-{first.pk}-score_1": 1})
    assert "give a reason to override" in bad.content.decode()
    client.post(url(night, "club_close"), {"reason": "Night over"})
    statuses = {table.pk: table.status for table in Match.objects.all()}
    assert statuses == {first.pk: MatchStatus.CONFIRMED, tables[1].pk: MatchStatus.DOUBLE_FORFEIT}


def test_e4_the_night_page_links_a_table_to_its_match_page_only_for_those_who_may_open_it(
    client, night, director, institution
):
    from clubs import services as club

    for player in members(night.league, 7):
        club.check_in(actor=director.user, round=night, player=player)
    club.seat_night(actor=director.user, round=night)
    table = Match.objects.order_by("id").first()
    match_page = reverse("match_detail", args=[table.pk])
    desk = staff_member(institution, roles.FRONT_DESK).user

    client.force_login(director.user)
    assert f'href="{match_page}"' in client.get(url(night)).content.decode()
    client.force_login(desk)
    seen_by_the_desk = client.get(url(night)).content.decode()

    assert f'href="{match_page}"' not in seen_by_the_desk  # the match page is 404 to them
    assert client.get(match_page).status_code == 404
    assert "Table 1" in seen_by_the_desk


@pytest.mark.parametrize("size", [8, 24])
def test_e4_the_night_page_runs_a_constant_number_of_queries(
    client, night, director, size, django_assert_max_num_queries
):
    from clubs import services as club

    players = members(night.league, size)
    for player in players:
        club.check_in(actor=director.user, round=night, player=player)
    club.seat_night(actor=director.user, round=night)
    client.force_login(director.user)
    with django_assert_max_num_queries(14):
        assert client.get(url(night)).status_code == 200


def test_e4_the_director_schedules_the_next_night_from_the_league_page(client, club, director):
    from datetime import timedelta

    first = club.season.starts_on + timedelta(days=7)
    client.force_login(director.user)
    page = client.get(reverse("league_detail", args=[club])).content.decode()
    assert "Schedule a night" in page
    client.post(reverse("club_night_add", args=[club]), {"on": first.isoformat()})
    response = client.post(
        reverse("club_night_add", args=[club]), {"on": first.isoformat()}, follow=True
    )
    assert "must come after night 1" in response.content.decode()
    assert list(club.rounds.values_list("number", "play_by")) == [(1, first)]


def test_e4_only_the_director_schedules_a_night(client, club, institution):
    client.force_login(staff_member(institution, roles.FRONT_DESK).user)
    response = client.post(reverse("club_night_add", args=[club]), {"on": "2030-01-01"})
    assert response.status_code == 404
    assert not club.rounds.exists()
