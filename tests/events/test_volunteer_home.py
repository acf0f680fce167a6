"""A volunteer scorer's way to work (issue 30): their home is their event's scoring table at the
round whose cards are coming in (and its assists, where the event sells them); their navigation
offers only what they may use. A site admin, who belongs to no institution, picks one to see its
director's dashboard."""

from datetime import timedelta

import pytest
from django.urls import reverse

from events import services as events
from league.models import League
from tests.support import at, create_event, rounds_started, run, write


@pytest.fixture
def fest(season, tmp_path):
    data = {
        "name": "Home Fest",
        "slug": "fest",
        "format": "event",
        "date": season.institution.today().isoformat(),
        "rounds": [
            {"number": 1, "periods": [{"starts": "18:00", "minutes": 45}]},
            {"number": 2, "periods": [{"starts": "19:00", "minutes": 45}]},
        ],
        "categories": [{"name": "Open", "pairing_group": "Open", "turn_seconds": 150}],
    }
    create_event(season, tmp_path, data, "fest.json")
    names = "".join(f"Entrant {letter}\n" for letter in "ABCD")
    run("import_entrants", write(tmp_path, "in.csv", "name\n" + names), "--league", "fest")
    return rounds_started(League.objects.get(slug="fest"))


@pytest.fixture
def volunteer(fest, director):
    return events.scorer_invite(
        actor=director.user, league=fest, name="Val Unteer", email="val@example.edu"
    ).user


def test_e3_a_volunteers_home_is_the_scoring_table_of_the_round_whose_cards_are_coming_in(
    fest, volunteer, client
):
    run("pair_round", "--league", "fest", "--all-entrants", "--seed", "3")
    client.force_login(volunteer)

    home = client.get(reverse("home"), follow=True)

    assert home.redirect_chain[-1][0] == reverse("event_scores", args=[at("fest"), 1])
    assert "Score cards · round 1" in home.content.decode()
    for table in fest.matches.filter(round__number=1):
        events.card_enter(actor=volunteer, match=table, scores=[400, 350])
    run("pair_round", "--league", "fest", "--round", "2", "--all-entrants", "--seed", "4")
    after = client.get(reverse("home"), follow=True)
    assert after.redirect_chain[-1][0] == reverse("event_scores", args=[at("fest"), 2])


def test_e3_a_volunteers_navigation_offers_only_what_they_may_use(fest, volunteer, client):
    client.force_login(volunteer)

    page = client.get(reverse("home")).content.decode()  # no round paired: their events

    nav = page.split('<nav aria-label="Main">')[1].split("</nav>")[0]
    assert "Leagues" not in nav and "Front desk" not in nav and "Director" not in nav
    assert "Profile" in nav and "Log out" in nav
    assert "Home Fest" in page and "the scoring table opens when the director pairs round 1" in page
    assert "Your eligibility" not in page and "Join a league" not in page


def test_e3_a_volunteer_whose_event_is_over_is_told_so_at_home(fest, volunteer, client):
    fest.event.date = fest.season.institution.today() - timedelta(days=3)
    fest.event.save(update_fields=["date"])
    client.force_login(volunteer)

    page = client.get(reverse("home")).content.decode()

    assert "Your volunteering here has ended." in page
    assert reverse("event_scores", args=[at("fest"), 1]) not in page


def test_e5_a_volunteers_home_offers_the_assists_where_the_event_sells_them(
    season, director, client, tmp_path
):
    data = {
        "name": "Assist Fest",
        "slug": "assist-fest",
        "format": "event",
        "date": season.institution.today().isoformat(),
        "rounds": [{"number": 1, "periods": [{"starts": "18:00", "minutes": 45}]}],
        "categories": [{"name": "Open", "pairing_group": "Open", "turn_seconds": None}],
        "assists": [{"name": "Ringer", "first_cents": 500, "later_cents": 1000}],
    }
    create_event(season, tmp_path, data, "assist.json")
    league = League.objects.get(slug="assist-fest")
    volunteer = events.scorer_invite(
        actor=director.user, league=league, name="Ada Assist", email="ada@example.edu"
    ).user
    client.force_login(volunteer)

    page = client.get(reverse("home")).content.decode()

    assert reverse("event_assists", args=[at("assist-fest")]) in page


def test_a_site_admin_picks_an_institution_to_see_its_directors_dashboard(
    site_admin, institution, other_institution, client
):
    client.force_login(site_admin)

    picking = client.get(reverse("director_dashboard"))
    assert picking.status_code == 200
    page = picking.content.decode()
    assert institution.name in page and other_institution.name in page
    assert client.get(reverse("director_disputes")).status_code == 404  # none picked yet

    chosen = client.get(reverse("director_dashboard"), {"institution": institution.slug})

    assert chosen.status_code == 200 and "Open disputes" in chosen.content.decode()
    assert institution.name in chosen.content.decode()
    assert client.get(reverse("director_disputes")).status_code == 200
    again = client.get(reverse("director_dashboard")).content.decode()
    assert "Open disputes" in again and "Another institution" in again
    assert client.get(reverse("director_dashboard"), {"institution": "nowhere"}).status_code == 404


def test_a_site_admins_navigation_has_no_page_that_would_be_a_404(site_admin, client):
    client.force_login(site_admin)

    page = client.get(reverse("home")).content.decode()

    nav = page.split('<nav aria-label="Main">')[1].split("</nav>")[0]
    assert "Leagues" not in nav and "Profile" not in nav and "Front desk" not in nav
    assert "Director" in nav
    assert reverse("director_dashboard") in page  # the home page points there too


def test_a_director_still_goes_straight_to_their_own_dashboard(director, client):
    client.force_login(director.user)

    page = client.get(reverse("director_dashboard")).content.decode()

    assert "Open disputes" in page and "Another institution" not in page
