"""A club night's printed table cards (E4, G9): one card per table, its seats with their player
numbers and the scorekeeper named, and a QR code to the table's match page (where the
scorekeeper reports and the others confirm), its address built on SITE_URL, never on the
request's host. For the club's director and front desk alone, each download recorded (P6)."""

import pytest
import segno

from accounts import roles
from accounts.models import DataExport
from clubs import printables
from clubs.services import check_in, seat_night
from league.models import LeagueFormat, Round
from tests.support import LeagueFactory, eligible_student, members, poppler, staff_member, url

SITE = "https://scrabble.example.edu"


@pytest.fixture
def seated(season, director, settings):
    """Night 1 of the Thursday Club, seven members seated at a four and a three."""
    settings.SITE_URL = SITE
    club = LeagueFactory(season=season, format=LeagueFormat.CLUB, name="Thursday Club")
    night = Round.objects.create(league=club, number=1, play_by=season.starts_on)
    for player in members(club, 7):
        check_in(actor=director.user, round=night, player=player)
    return night, seat_night(actor=director.user, round=night)


@pytest.fixture
def printed(monkeypatch):
    """The nights the view hands to the PDF, kept to read their HTML back."""
    nights = []
    real = printables.cards_pdf

    def keep(night, paper="letter"):
        nights.append(night)
        return real(night, paper)

    monkeypatch.setattr(printables, "cards_pdf", keep)
    return nights


def test_e4_g9_each_table_card_carries_a_qr_code_to_its_match_page(
    client, seated, director, printed, tmp_path
):
    night, tables = seated
    client.force_login(director.user)
    response = client.get(url(night, "club_cards"), HTTP_HOST="localhost")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pages = [SITE + f"/matches/{table.pk}/" for table in tables]
    (sheet,) = printed
    assert [card.url for card in sheet.tables] == pages  # SITE_URL, not the request's host
    html = printables.cards_html(sheet)
    for page in pages:
        # The QR image encodes exactly the match page (the same helper as an event's cards).
        assert segno.make(page, error="m").svg_data_uri(scale=3, border=1) in html
    text = poppler("pdftotext", response.content, tmp_path)
    assert "".join(text.split()).count(SITE + "/matches/") == 2 and "localhost" not in text
    assert "Table 1" in text and "Table 2" in text and text.count("Final score") == 2
    keeper = tables[0].seats.get(order=tables[0].scorekeeper).player
    assert "keeps score" in text and keeper.name in text
    assert "Pages:           1" in poppler("pdfinfo", response.content, tmp_path)  # two a page
    assert DataExport.objects.get().what == "cards.pdf"


def test_e4_the_table_cards_are_the_staffs_alone(client, seated, institution, other_institution):
    night, _ = seated
    client.force_login(eligible_student(night.league.season).user)
    assert client.get(url(night, "club_cards")).status_code == 404
    client.force_login(staff_member(other_institution, roles.DIRECTORS).user)
    assert client.get(url(night, "club_cards")).status_code == 404
    assert not DataExport.objects.exists()
    client.force_login(staff_member(institution, roles.FRONT_DESK).user)
    assert client.get(url(night, "club_cards")).status_code == 200


def test_e4_a_night_not_seated_has_no_cards_to_print(client, season, director):
    club = LeagueFactory(season=season, format=LeagueFormat.CLUB, name="Thursday Club")
    night = Round.objects.create(league=club, number=1, play_by=season.starts_on)
    client.force_login(director.user)
    assert client.get(url(night, "club_cards")).status_code == 404
