"""A closed club night's page says one thing (E4, G9): who came and where they played, not who
is "here"; and a table whose scorekeeper reported from a phone, waiting for the other seats,
offers the director to confirm the card as reported or to view the report, not a new card over
it, before the night is closed and after."""

import pytest
from django.urls import reverse

from clubs.cards import reported_card_confirm
from clubs.services import check_in, close_night, seat_night
from core.errors import DomainError
from league.models import LeagueFormat, Round
from matches.models import AuditEvent, Match, MatchStatus, ReportStatus
from matches.services import report_submit
from tests.support import LeagueFactory, at, entrant


@pytest.fixture
def club(season):
    return LeagueFactory(season=season, format=LeagueFormat.CLUB, name="Closing Club", slug="cc")


@pytest.fixture
def tonight(club):
    return Round.objects.create(league=club, number=1, play_by=club.season.institution.today())


def seven_seated(club, tonight, staff, director) -> list[Match]:
    """Seven members checked in and seated at a four (table 1) and a three (table 2)."""
    for index in range(1, 8):
        check_in(actor=staff.user, round=tonight, player=entrant(club, first_name=f"M{index}"))
    return seat_night(actor=director.user, round=tonight, seed=3)


def reported(table: Match, scores=(400, 350, 300, 280)):
    seats = list(table.seats.order_by("order").select_related("player__user"))
    # The scorekeeper reports a close game: the scores before the unplayed tiles break a tie.
    return report_submit(
        actor=seats[table.scorekeeper - 1].player.user,
        match=table,
        scores=list(scores)[: len(seats)],
        pre_adjustment=[score + 4 for score in list(scores)[: len(seats)]],
    )


def section(page: str, testid: str) -> str:
    start = page.index(f'data-testid="{testid}"')
    return page[start : page.index("</article>", start)]


def test_e4_a_closed_night_says_who_came_and_where_they_played_not_who_is_here(
    club, tonight, staff, director, client
):
    four, three = seven_seated(club, tonight, staff, director)
    reported(four)
    close_night(actor=director.user, round=tonight, reason="Night over")
    client.force_login(director.user)

    page = client.get(reverse("club_night", args=[at("cc"), 1]) + "?q=").content.decode()

    assert "Who came <span" in page and "(7 came)" in page
    assert "here)" not in page and "Here, seated" not in page
    assert page.count("Came, played at table 1") == 4 and page.count("Came, played at table 2") == 3
    assert "nobody is checked in or seated any more" not in page
    assert "Nobody more can be checked in or seated" in page


def test_e4_g9_a_closed_nights_reported_table_offers_confirm_or_view_not_a_new_card(
    club, tonight, staff, director, client
):
    four, three = seven_seated(club, tonight, staff, director)
    reported(four)
    close_night(actor=director.user, round=tonight, reason="Night over")
    client.force_login(director.user)

    page = client.get(reverse("club_night", args=[at("cc"), 1])).content.decode()
    waiting = section(page, "table-1")
    forfeited = section(page, "table-2")

    assert "Confirm the card as reported" in waiting
    assert reverse("club_confirm", args=[at("cc"), 1, four.pk]) in waiting
    assert f'href="{reverse("match_detail", args=[four.pk])}"' in waiting
    assert "View the report" in waiting and "400–350–300–280" in waiting
    assert "Enter the score card" not in waiting and "Correct the card" not in waiting
    assert "Confirm the card" not in forfeited  # a double forfeit: nothing waits

    response = client.post(reverse("club_confirm", args=[at("cc"), 1, four.pk]), follow=True)

    four.refresh_from_db()
    assert "card confirmed: the result is final" in response.content.decode()
    assert four.status == MatchStatus.CONFIRMED
    assert [(s.score, s.pre_adjustment_score, s.place) for s in four.seats.order_by("order")] == [
        (400, 404, 1),
        (350, 354, 2),
        (300, 304, 3),
        (280, 284, 4),
    ]
    assert four.reports.get().status == ReportStatus.SUPERSEDED
    assert AuditEvent.objects.filter(match=four, action="card_entered").exists()
    after = section(
        client.get(reverse("club_night", args=[at("cc"), 1])).content.decode(), "table-1"
    )
    assert "Correct the card" in after and "Confirm the card as reported" not in after


def test_e4_an_open_nights_reported_table_offers_confirm_too(
    club, tonight, staff, director, client
):
    four, _ = seven_seated(club, tonight, staff, director)
    reported(four)
    client.force_login(director.user)

    waiting = section(
        client.get(reverse("club_night", args=[at("cc"), 1])).content.decode(), "table-1"
    )

    assert "Confirm the card as reported" in waiting and "Enter the score card" not in waiting


def test_e4_only_the_director_confirms_a_reported_card_and_only_one_waiting(
    club, tonight, staff, director, client
):
    four, three = seven_seated(club, tonight, staff, director)
    reported(four)
    client.force_login(staff.user)

    desk_page = client.get(reverse("club_night", args=[at("cc"), 1])).content.decode()
    client.post(reverse("club_confirm", args=[at("cc"), 1, four.pk]))

    four.refresh_from_db()
    assert "waiting for the other players" in section(desk_page, "table-1")
    assert "Confirm the card as reported" not in desk_page
    assert four.status == MatchStatus.REPORTED
    with pytest.raises(DomainError, match="no report waiting"):
        reported_card_confirm(actor=director.user, round=tonight, match=three)
    three.refresh_from_db()
    assert three.status == MatchStatus.SCHEDULED
    other = Round.objects.create(league=club, number=2, play_by=tonight.play_by)
    with pytest.raises(DomainError, match="not one of night 2"):
        reported_card_confirm(actor=director.user, round=other, match=four)


def test_e4_confirming_by_get_leads_to_the_nights_page(club, tonight, staff, director, client):
    four, _ = seven_seated(club, tonight, staff, director)
    reported(four)
    client.force_login(director.user)

    response = client.get(reverse("club_confirm", args=[at("cc"), 1, four.pk]))

    assert response.status_code == 302
    assert response["Location"] == reverse("club_night", args=[at("cc"), 1])
    four.refresh_from_db()
    assert four.status == MatchStatus.REPORTED


@pytest.mark.parametrize("size", [8, 24])
def test_e4_the_night_page_with_reports_and_printed_cards_runs_a_constant_number_of_queries(
    club, tonight, staff, director, client, size, django_assert_max_num_queries
):
    for index in range(size):
        check_in(actor=staff.user, round=tonight, player=entrant(club, first_name=f"P{index}"))
    tables = seat_night(actor=director.user, round=tonight, seed=2)
    for table in tables[::2]:
        reported(table)
    client.force_login(director.user)
    client.get(reverse("club_cards", args=[at("cc"), 1]))

    with django_assert_max_num_queries(15):
        page = client.get(reverse("club_night", args=[at("cc"), 1]) + "?q=")

    assert page.content.decode().count("Confirm the card as reported") == len(tables[::2])
