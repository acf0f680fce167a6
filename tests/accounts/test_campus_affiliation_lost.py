"""A student the campus's sign-in stops calling a student goes back to pending for new entries
(L10); matches already drawn go on, and the director reads why."""

import pytest
from django.urls import reverse

from accounts.campus_identity import CampusIdentity
from accounts.errors import NotEligible
from accounts.models import CampusSignIn, Eligibility, EligibilityStatus, Protocol
from accounts.selectors import eligibility_of
from accounts.services.campus_sign_in import campus_sign_in_again
from league.services import league_join
from tests.support import LeagueFactory, submitted_report


def identity(*affiliations):
    return CampusIdentity(
        uid="u-1",
        email="",
        campus_id="",
        first_name="",
        last_name="",
        affiliations=affiliations,
        affiliation_sent=bool(affiliations),
    )


@pytest.fixture
def campus(institution):
    return CampusSignIn.objects.create(
        institution=institution,
        protocol=Protocol.OIDC,
        issuer="https://login.example.edu",
        client_id="x",
        client_secret="y",
        campus_word_enough=True,
    )


def test_l10_no_longer_a_student_new_entries_wait_drawn_matches_go_on_the_director_sees_why(
    client, campus, season, match, player, opponent, director
):
    Eligibility.objects.filter(profile=player).delete()  # the campus's word alone, this time
    campus_sign_in_again(user=player.user, sign_in=campus, identity=identity("student"))
    assert eligibility_of(player, season).source == "campus"
    campus_sign_in_again(user=player.user, sign_in=campus, identity=identity("alum"))
    eligibility = eligibility_of(player, season)
    assert eligibility.status == EligibilityStatus.PENDING
    # The drawn match goes on: the result is reported.
    submitted_report(match, by=player)
    # A new entry waits.
    with pytest.raises(NotEligible):
        league_join(actor=player.user, league=LeagueFactory(season=season))
    # The director reads why on the student's eligibility in the admin.
    client.force_login(director.user)
    page = client.get(reverse("admin:accounts_eligibility_change", args=[eligibility.pk]))
    assert "no longer says student (alum)" in page.content.decode()


def test_l10_roster_eligibility_stands_whatever_the_campus_sign_in_says(campus, season, player):
    from tests.support import eligible

    eligible(player, season)  # by the roster
    campus_sign_in_again(user=player.user, sign_in=campus, identity=identity("alum"))
    assert eligibility_of(player, season).status == EligibilityStatus.ELIGIBLE
