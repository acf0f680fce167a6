"""A student's campus sign-in, once per protocol, in Chromium against identity providers the
test starts (L10): sign up with the campus account from the sign-up page, sign in again from the
log-in page, be eligible at once (the institution takes the campus's word), enter a league.
Under the Content Security Policy, like every journey: the button's post is sent on to the
campus."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from accounts.models import CampusSignIn, Protocol, User
from accounts.services.campus_sign_in import campus_sign_in_save
from league.models import Entry
from tests.browser import PHONE
from tests.campus_providers import OidcProvider, SamlIdp
from tests.support import LeagueFactory

pytestmark = pytest.mark.browser


def journey(browser, live_server, league, email, label):
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{live_server.url}{reverse('account_signup')}")
    page.get_by_role("button", name=f"Sign in with {label}").click()
    # SAML's answer is a form the browser posts back (a button, for no script runs there).
    if page.get_by_role("button", name="Continue").count():
        page.get_by_role("button", name="Continue").click()
    # Signed in, with the campus ID the campus sent, eligible at once.
    expect(page.get_by_text(f"Eligible for {league.season.name}")).to_be_visible()
    user = User.objects.get(email=email)
    assert user.emailaddress_set.get().verified
    expect(page.get_by_text(f"Campus ID {user.profile.campus_id}")).to_be_visible()

    page.context.clear_cookies()  # signed out
    page.goto(f"{live_server.url}{reverse('account_login')}")
    page.get_by_role("button", name=f"Sign in with {label}").click()
    if page.get_by_role("button", name="Continue").count():
        page.get_by_role("button", name="Continue").click()
    expect(page.get_by_text(f"Eligible for {league.season.name}")).to_be_visible()

    page.goto(f"{live_server.url}{reverse('league_list')}?open=1")
    page.get_by_role("button", name=f"Join {league.name}").click()
    expect(page.get_by_text(f"You joined {league.name}.")).to_be_visible()
    assert Entry.objects.filter(
        league=league, player__user=user, withdrawn_at__isnull=True
    ).exists()
    assert User.objects.filter(email=email).count() == 1


def test_l10_a_student_signs_up_signs_in_again_and_enters_a_league_with_openid_connect(
    browser, live_server, transactional_db, institution, season, site_admin
):
    provider = OidcProvider().start()
    try:
        campus_sign_in_save(
            actor=site_admin,
            sign_in=CampusSignIn(
                institution=institution,
                protocol=Protocol.OIDC,
                issuer=provider.url,
                client_id=provider.client_id,
                client_secret=provider.client_secret,
                button_name="Example State",
                campus_word_enough=True,
            ),
        )
        provider.person = {
            "sub": "u-0042",
            "email": "ines.oduya@example.edu",
            "email_verified": True,
            "given_name": "Ines",
            "family_name": "Oduya",
            "campus_id": "4567890",
            "affiliation": "student",
        }
        league = LeagueFactory(season=season, name="Tuesday League", slug="tuesday")
        journey(browser, live_server, league, "ines.oduya@example.edu", "Example State")
    finally:
        provider.stop()


def test_l10_a_student_signs_up_signs_in_again_and_enters_a_league_with_saml(
    browser, live_server, transactional_db, institution, season, site_admin, tmp_path, client
):
    idp = SamlIdp(tmp_path).start()
    try:
        campus_sign_in_save(
            actor=site_admin,
            sign_in=CampusSignIn(
                institution=institution,
                protocol=Protocol.SAML,
                idp_entity_id=idp.entity_id,
                idp_metadata_xml=idp.metadata_xml(),
                button_name="Example State",
                campus_word_enough=True,
            ),
        )
        client.defaults["HTTP_HOST"] = "localhost"
        idp.trust(client.get(reverse("saml_metadata", args=[institution.slug])).content.decode())
        idp.person = {
            "eduPersonPrincipalName": ["tomas@example.edu"],
            "mail": ["tomas.varga@example.edu"],
            "givenName": ["Tomas"],
            "sn": ["Varga"],
            "eduPersonScopedAffiliation": ["student@example.edu"],
            "employeeNumber": ["5678901"],
        }
        league = LeagueFactory(season=season, name="Wednesday League", slug="wednesday")
        journey(browser, live_server, league, "tomas.varga@example.edu", "Example State")
    finally:
        idp.stop()
