"""Latecomers at a club night (E4, G9, issue 30): once a table has reported the night can no
longer be re-seated, so those who check in later sit down by "Seat the latecomers", which
leaves every seated table alone: two or more at tables of their own by E4's sizes (a table of
two only when forced), one joining the smallest table that has not started (the desk confirms
it) or waiting for the next. A table seated or joined since the cards were printed says
"reprint". A closed night shows as closed and is not closed twice."""

import pytest
from django.urls import reverse

from clubs.cards import cards_printed
from clubs.models import CardsPrinted
from clubs.services import (
    Latecomers,
    check_in,
    close_night,
    seat_latecomers,
    seat_night,
    tables_a_latecomer_may_join,
)
from core.errors import DomainError
from league.models import LeagueFormat, Round
from league.selectors import round_tables
from matches.models import AuditEvent, MatchStatus
from matches.services import card_enter, report_submit
from tests.support import LeagueFactory, at, entrant


@pytest.fixture
def club(season):
    return LeagueFactory(season=season, format=LeagueFormat.CLUB, name="Late Club", slug="late")


@pytest.fixture
def tonight(club):
    return Round.objects.create(league=club, number=1, play_by=club.season.institution.today())


def members(club, count, start=1):
    return [entrant(club, first_name=f"M{index}") for index in range(start, start + count)]


def seated_and_played(club, tonight, director, count=7):
    """`count` players seated (a four and a three for seven), and the first table's card in."""
    for each in members(club, count):
        check_in(actor=director.user, round=tonight, player=each)
    tables = seat_night(actor=director.user, round=tonight, seed=5)
    first = tables[0]
    card_enter(
        actor=director.user, match=first, scores=[300 + i for i in range(first.seats.count())]
    )
    return tables


def snapshot(tonight):
    return {
        table.table: [seat.player_id for seat in table.seats.all()]
        for table in round_tables(tonight)
    }


@pytest.mark.parametrize(("late", "sizes"), [(2, [2]), (5, [3, 2]), (6, [3, 3]), (7, [4, 3])])
def test_e4_latecomers_sit_by_e4s_sizes_and_the_seated_tables_stay(
    club, tonight, director, late, sizes
):
    seated_and_played(club, tonight, director)
    before = snapshot(tonight)
    for each in members(club, late, start=100):
        check_in(actor=director.user, round=tonight, player=each)

    result = seat_latecomers(actor=director.user, round=tonight, seed=9)

    assert [table.seats.count() for table in result.tables] == sizes
    assert [table.table for table in result.tables] == list(
        range(max(before) + 1, max(before) + 1 + len(sizes))
    )
    after = snapshot(tonight)
    assert {number: after[number] for number in before} == before


def test_e4_a_re_seat_after_a_report_points_to_the_latecomers(club, tonight, director):
    seated_and_played(club, tonight, director)

    with pytest.raises(DomainError, match="Seat those who came late instead"):
        seat_night(actor=director.user, round=tonight, seed=2, repair=True)


def test_e4_g9_a_single_latecomer_joins_a_table_of_three_that_has_not_started(
    club, tonight, director, staff
):
    tables = seated_and_played(club, tonight, director)  # table 1 of four played; 2 of three
    three = next(table for table in tables if table.seats.count() == 3)
    (late,) = members(club, 1, start=100)
    check_in(actor=staff.user, round=tonight, player=late)

    with pytest.raises(DomainError, match="One latecomer cannot make a table"):
        seat_latecomers(actor=staff.user, round=tonight)
    result = seat_latecomers(actor=staff.user, round=tonight, join=three)

    assert isinstance(result, Latecomers) and result.joined.pk == three.pk
    assert [seat.player_id for seat in three.seats.order_by("order")][-1] == late.pk
    assert three.seats.count() == 4
    assert AuditEvent.objects.filter(match=three, action="seat_added").exists()


def test_e4_a_single_latecomer_cannot_join_a_table_that_reported_or_is_full(
    club, tonight, director
):
    tables = seated_and_played(club, tonight, director)
    four, three = tables[0], tables[1]
    scorekeeper = three.seats.order_by("order").first().player
    report_submit(actor=scorekeeper.user, match=three, scores=[300, 310, 320])
    (late,) = members(club, 1, start=100)
    check_in(actor=director.user, round=tonight, player=late)

    for table in (four, three):
        with pytest.raises(DomainError, match="cannot take a latecomer"):
            seat_latecomers(actor=director.user, round=tonight, join=table)
    assert four.seats.count() == 4 and three.seats.count() == 3


def test_e4_the_night_page_offers_the_latecomers_and_no_re_seat_once_played(
    club, tonight, director, client
):
    seated_and_played(club, tonight, director)
    for each in members(club, 2, start=100):
        check_in(actor=director.user, round=tonight, player=each)
    client.force_login(director.user)
    url = reverse("club_night", args=[at("late"), 1])

    page = client.get(url).content.decode()

    assert "Seat the 2 latecomers" in page and "Re-seat" not in page
    assert "no table yet" in page
    response = client.post(reverse("club_latecomers", args=[at("late"), 1]))
    after = client.get(response["Location"]).content.decode()
    assert "Latecomers seated at table 3" in after and "no table yet" not in after


def test_e4_a_closed_night_shows_as_closed_and_closing_again_says_so(
    club, tonight, director, client
):
    seated_and_played(club, tonight, director)
    client.force_login(director.user)
    close = reverse("club_close", args=[at("late"), 1])

    first = client.post(close, {"reason": "Night over"})
    again = client.post(close, {"reason": "Night over"}, follow=True)

    assert first.status_code == 302
    page = again.content.decode()
    assert 'data-testid="closed"' in page and "Night 1 is closed" in page
    assert "Close night 1" not in page and "Scan a campus ID" not in page
    assert round_tables(tonight)[1].status == MatchStatus.DOUBLE_FORFEIT
    with pytest.raises(DomainError, match="Night 1 is closed"):
        close_night(actor=director.user, round=tonight, reason="again")
    (late,) = members(club, 1, start=100)
    with pytest.raises(DomainError, match="Night 1 is closed"):
        check_in(actor=director.user, round=tonight, player=late)


def test_e4_g9_a_single_latecomer_joins_the_smallest_table_that_has_not_started(
    club, tonight, director, staff, client
):
    """Two latecomers sat at a table of two; the third is offered that table first and makes it
    three, so the night is four, three and three, not four, four and two."""
    seated_and_played(club, tonight, director)  # table 1 of four played; table 2 of three
    for each in members(club, 2, start=100):
        check_in(actor=staff.user, round=tonight, player=each)
    (two,) = seat_latecomers(actor=staff.user, round=tonight, seed=3).tables
    (third,) = members(club, 1, start=200)
    check_in(actor=staff.user, round=tonight, player=third)
    client.force_login(staff.user)

    page = client.get(reverse("club_night", args=[at("late"), 1])).content.decode()
    offered = [table.table for table in tables_a_latecomer_may_join(tonight)]
    result = seat_latecomers(actor=staff.user, round=tonight, join=two)

    assert offered == [3, 2]  # the table of two first, then the table of three
    assert page.index("Table 3 (2 players) has not started") < page.index(
        "Table 2 (3 players) has not started"
    )
    assert result.joined.pk == two.pk
    assert sorted(len(seats) for seats in snapshot(tonight).values()) == [3, 3, 4]
    assert [seat.player_id for seat in two.seats.order_by("order")][-1] == third.pk


def test_e4_a_table_seated_or_joined_since_the_cards_were_printed_says_reprint(
    club, tonight, director, staff, client
):
    tables = seated_and_played(club, tonight, director)
    client.force_login(staff.user)
    page_url = reverse("club_night", args=[at("late"), 1])
    cards_url = reverse("club_cards", args=[at("late"), 1])
    assert 'data-testid="reprint"' not in client.get(page_url).content.decode()  # not printed

    assert client.get(cards_url).status_code == 200
    printed = CardsPrinted.objects.get(night=tonight)
    assert printed.printed_by == staff.user
    fresh = client.get(page_url).content.decode()
    (late,) = members(club, 1, start=100)
    check_in(actor=staff.user, round=tonight, player=late)
    seat_latecomers(actor=staff.user, round=tonight, join=tables[1])
    changed = client.get(page_url).content.decode()
    client.get(cards_url)
    reprinted = client.get(page_url).content.decode()

    assert 'data-testid="reprint"' not in fresh and "last printed at" in fresh
    assert changed.count('data-testid="reprint"') == 1
    table_two = changed[changed.index('data-testid="table-2"') :]
    assert 'data-testid="reprint"' in table_two[: table_two.index("</article>")]
    assert "Table 2 changed since the cards were printed: reprint its card." in changed
    assert "Print the table cards again" in changed
    assert 'data-testid="reprint"' not in reprinted and "changed since" not in reprinted


def test_e4_latecomers_tables_seated_after_the_cards_were_printed_say_reprint(
    club, tonight, director, client
):
    seated_and_played(club, tonight, director)
    client.force_login(director.user)
    client.get(reverse("club_cards", args=[at("late"), 1]))
    for each in members(club, 3, start=100):
        check_in(actor=director.user, round=tonight, player=each)
    seat_latecomers(actor=director.user, round=tonight, seed=4)

    page = client.get(reverse("club_night", args=[at("late"), 1])).content.decode()

    assert page.count('data-testid="reprint"') == 1
    assert "Table 3 changed since the cards were printed" in page


def test_e4_only_the_staff_record_a_printing_of_the_cards(club, tonight, director, player):
    seated_and_played(club, tonight, director)
    with pytest.raises(DomainError):
        cards_printed(actor=player.user, round=tonight)
    assert not CardsPrinted.objects.exists()
