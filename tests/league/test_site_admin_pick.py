"""A site admin belongs to no institution: they pick one on the director's dashboard
(`?institution=SLUG`), and every staff page the dashboard links then works on that one, as the
dashboard does: the front desk, setting up an event or a club, the rating list and its import,
the admin's pending-eligibility queue. Before a pick those pages answer 404, as the dashboard's
other pages do."""

import pytest
from django.urls import reverse

from tests.support import ProfileFactory, SeasonFactory, known_ratings

STAFF_PAGES = [
    reverse("front_desk"),
    reverse("league_setup_form", args=["event"]),
    reverse("league_setup_form", args=["club"]),
    reverse("event_setup"),
    reverse("rating_list"),
    reverse("ratings_import"),
]


@pytest.fixture
def picked(client, site_admin, institution, season, other_institution):
    """The site admin, signed in, having picked `institution` on the dashboard."""
    SeasonFactory(institution=other_institution, name="Elsewhere Spring")
    client.force_login(site_admin)
    assert (
        client.get(reverse("director_dashboard"), {"institution": institution.slug}).status_code
        == 200
    )
    return client


@pytest.mark.parametrize("page", STAFF_PAGES)
def test_every_staff_page_the_dashboard_links_answers_a_site_admin_for_the_institution_picked(
    picked, page
):
    assert picked.get(page).status_code == 200


@pytest.mark.parametrize("page", STAFF_PAGES)
def test_a_site_admin_who_has_picked_no_institution_gets_404_on_a_staff_page(
    client, site_admin, institution, page
):
    client.force_login(site_admin)

    assert client.get(page).status_code == 404


def test_a_site_admin_works_the_front_desk_of_the_institution_picked(picked, institution):
    page = picked.get(reverse("front_desk")).content.decode()

    assert "Example State University · Fall 2026" in page


def test_a_site_admin_sets_up_events_in_the_seasons_of_the_institution_picked(picked):
    page = picked.get(reverse("league_setup_form", args=["event"])).content.decode()

    assert "Fall 2026" in page and "Elsewhere Spring" not in page


def test_a_site_admin_reads_the_rating_list_of_the_institution_picked(
    picked, institution, other_institution
):
    ours = ProfileFactory(institution=institution, user__first_name="Juniper")
    theirs = ProfileFactory(institution=other_institution, user__first_name="Marigold")
    known_ratings(institution, {ours: 1650})
    known_ratings(other_institution, {theirs: 1700})

    page = picked.get(reverse("rating_list")).content.decode()

    assert "Ratings at Example State University" in page
    assert "Juniper" in page and "Marigold" not in page


def test_a_site_admins_pending_queue_in_the_admin_is_the_institution_picked(
    picked, institution, other_institution
):
    ProfileFactory(institution=institution, user__first_name="Waiting")
    ProfileFactory(institution=other_institution, user__first_name="Elsewhere")

    page = picked.get(
        reverse("admin:accounts_playerprofile_changelist"), {"eligibility": "pending"}
    ).content.decode()

    assert "Waiting" in page and "Elsewhere" not in page
