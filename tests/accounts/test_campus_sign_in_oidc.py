"""Campus sign-in with OpenID Connect, against a real provider this test starts (L10): the
student signs up with the verified address and campus ID the campus sent, is eligible at once
where the campus's word is enough, goes back to pending when the campus stops calling them a
student; every refusal ends on a page and creates nothing."""

from urllib.parse import urlsplit

import pytest
import requests
from allauth.socialaccount.models import SocialAccount
from django.urls import reverse

from accounts.models import (
    CampusSignIn,
    EligibilityEvent,
    EligibilityStatus,
    NoAffiliation,
    PlayerProfile,
    Protocol,
    User,
)
from accounts.selectors import eligibility_of
from accounts.services.campus_sign_in import campus_sign_in_save
from tests.campus_providers import OidcProvider
from tests.support import PASSWORD, ProfileFactory, roster_entry


@pytest.fixture(scope="module")
def provider():
    started = OidcProvider().start()
    yield started
    started.stop()


@pytest.fixture
def sign_in(institution, provider, site_admin):
    return campus_sign_in_save(
        actor=site_admin,
        sign_in=CampusSignIn(
            institution=institution,
            protocol=Protocol.OIDC,
            issuer=provider.url,
            client_id=provider.client_id,
            client_secret=provider.client_secret,
            campus_word_enough=True,
        ),
    )


@pytest.fixture(autouse=True)
def nothing_bent(provider):
    provider.id_token_overrides = {}
    provider.person = {}


def student(**claims):
    return {
        "sub": "u-ada-0001",
        "email": "ada.lovelace@example.edu",
        "email_verified": True,
        "given_name": "Ada",
        "family_name": "Lovelace",
        "campus_id": "2345678",
        "affiliation": ["student", "member"],
        **claims,
    }


def start(client, institution):
    """Press the button: allauth sends the browser to the provider's authorization endpoint."""
    response = client.post(
        reverse("openid_connect_login", kwargs={"provider_id": institution.slug}),
        {"process": "login"},
    )
    assert response.status_code == 302, response.content[:500]
    return response["Location"]


def at_the_campus(authorize_url):
    """The provider signs the person in and sends them back: the callback path and query."""
    answer = requests.get(authorize_url, allow_redirects=False, timeout=10)
    assert answer.status_code == 302, answer.text
    back = urlsplit(answer.headers["Location"])
    return f"{back.path}?{back.query}"


def sign_in_with_campus(client, institution, provider, person):
    provider.person = person
    return client.get(at_the_campus(start(client, institution)))


def nothing_created(before_users):
    assert User.objects.count() == before_users
    assert not SocialAccount.objects.exists()


def test_l10_a_student_signs_up_with_the_campus_account_verified_and_eligible_at_once(
    client, institution, season, provider, sign_in
):
    response = sign_in_with_campus(client, institution, provider, student())
    assert response.status_code == 302, response.content[:800]
    user = User.objects.get(email="ada.lovelace@example.edu")
    assert (user.first_name, user.last_name) == ("Ada", "Lovelace")
    assert user.emailaddress_set.get().verified
    assert not user.has_usable_password()
    profile = user.profile
    assert (profile.institution, profile.campus_id) == (institution, "2345678")
    eligibility = eligibility_of(profile, season)
    assert (eligibility.status, eligibility.source) == (EligibilityStatus.ELIGIBLE, "campus")
    assert SocialAccount.objects.get(user=user).uid == "u-ada-0001"
    assert client.get(reverse("profile")).status_code == 200  # signed in


def test_l10_where_the_campus_word_is_not_enough_the_roster_still_decides(
    client, institution, season, provider, sign_in
):
    sign_in.campus_word_enough = False
    sign_in.save()
    roster_entry(season, "2345678")
    sign_in_with_campus(client, institution, provider, student())
    eligibility = eligibility_of(User.objects.get(email="ada.lovelace@example.edu").profile, season)
    assert (eligibility.status, eligibility.source) == (EligibilityStatus.ELIGIBLE, "roster")


def test_l10_without_affiliation_the_institution_decides_nobody_is_made_eligible(
    client, institution, season, provider, sign_in
):
    person = student()
    del person["affiliation"]
    sign_in_with_campus(client, institution, provider, person)
    profile = User.objects.get(email="ada.lovelace@example.edu").profile
    assert eligibility_of(profile, season).status == EligibilityStatus.PENDING


def test_l10_without_affiliation_every_account_of_the_domains_can_count_as_a_student(
    client, institution, season, provider, sign_in
):
    sign_in.no_affiliation = NoAffiliation.STUDENTS
    sign_in.save()
    person = student()
    del person["affiliation"]
    sign_in_with_campus(client, institution, provider, person)
    profile = User.objects.get(email="ada.lovelace@example.edu").profile
    assert eligibility_of(profile, season).status == EligibilityStatus.ELIGIBLE


def test_l10_signing_in_again_when_no_longer_a_student_goes_back_to_pending_saying_why(
    client, institution, season, provider, sign_in
):
    sign_in_with_campus(client, institution, provider, student())
    client.logout()
    response = sign_in_with_campus(
        client, institution, provider, student(affiliation=["alum", "member"])
    )
    assert response.status_code == 302
    profile = PlayerProfile.objects.get(user__email="ada.lovelace@example.edu")
    eligibility = eligibility_of(profile, season)
    assert eligibility.status == EligibilityStatus.PENDING
    assert "no longer says student (alum, member)" in eligibility.reason
    event = EligibilityEvent.objects.filter(profile=profile).first()
    assert (event.old_status, event.new_status) == ("eligible", "pending")
    assert User.objects.count() == 2  # the site admin and Ada: signing in again made no one


def test_l10_signing_in_again_leaves_a_director_ruling_standing(
    client, institution, season, provider, sign_in, director
):
    from accounts.services import eligibility_rule

    sign_in_with_campus(client, institution, provider, student())
    profile = PlayerProfile.objects.get(user__email="ada.lovelace@example.edu")
    eligibility_rule(
        actor=director.user, profile=profile, season=season, status="eligible", reason="Known"
    )
    client.logout()
    sign_in_with_campus(client, institution, provider, student(affiliation=["alum"]))
    assert eligibility_of(profile, season).status == EligibilityStatus.ELIGIBLE


@pytest.mark.parametrize(
    "bent, says",
    [
        ({"aud": "another-site"}, "could not be trusted"),
        ({"exp": 1_000_000_000, "iat": 999_999_000}, "could not be trusted"),
        ({"iss": "http://127.0.0.1:9/another-campus"}, "could not be trusted"),
    ],
    ids=["another-audience", "expired", "another-identity-provider"],
)
def test_l10_a_token_for_another_site_expired_or_from_another_provider_is_refused(
    client, institution, season, provider, sign_in, bent, says
):
    before = User.objects.count()
    provider.id_token_overrides = bent
    response = sign_in_with_campus(client, institution, provider, student())
    assert response.status_code == 403
    assert says in response.content.decode()
    nothing_created(before)


def test_l10_a_replayed_answer_is_refused(client, institution, season, provider, sign_in):
    provider.person = student()
    callback = at_the_campus(start(client, institution))
    assert client.get(callback).status_code == 302
    client.logout()
    before = User.objects.count()
    again = client.get(callback)
    assert again.status_code == 403
    assert "used before" in again.content.decode()
    assert User.objects.count() == before


@pytest.mark.parametrize(
    "person, says",
    [
        (student(email="ada@elsewhere.example.org"), "is not an address of Example State"),
        (student(campus_id=""), "sent no campus ID"),
        (student(email_verified=False), "not verified"),
    ],
    ids=["outside-the-domains", "no-campus-id", "unverified-address"],
)
def test_l10_a_sign_in_the_institution_does_not_accept_is_refused_with_nothing_created(
    client, institution, season, provider, sign_in, person, says
):
    before = User.objects.count()
    response = sign_in_with_campus(client, institution, provider, person)
    assert response.status_code == 403
    assert says in response.content.decode()
    nothing_created(before)


def test_l10_an_existing_password_account_joins_only_after_its_password_is_proven(
    client, institution, season, provider, sign_in
):
    existing = ProfileFactory(
        institution=institution, user__email="ada.lovelace@example.edu", campus_id="2345678"
    )
    response = sign_in_with_campus(client, institution, provider, student())
    # Not signed in, not joined: allauth mails the address instead of saying it is taken.
    assert not SocialAccount.objects.exists()
    assert "_auth_user_id" not in client.session
    assert response.status_code in (200, 302)
    # Proving the password, then joining the campus identity (allauth's connect).
    assert client.login(email=existing.user.email, password=PASSWORD)
    provider.person = student()
    connect = client.post(
        reverse("openid_connect_login", kwargs={"provider_id": institution.slug}),
        {"process": "connect"},
    )
    assert client.get(at_the_campus(connect["Location"])).status_code == 302
    assert SocialAccount.objects.get().user == existing.user
    assert eligibility_of(existing, season).status == EligibilityStatus.ELIGIBLE


def test_l10_an_institution_requiring_campus_sign_in_refuses_password_sign_up(
    client, institution, sign_in
):
    sign_in.require_for_students = True
    sign_in.save()
    response = client.post(
        reverse("account_signup"),
        {
            "first_name": "Marlow",
            "last_name": "Thistlewood",
            "email": "marlow@example.edu",
            "campus_id": "1234567",
            "password1": "a-long-passphrase-1",
            "password2": "a-long-passphrase-1",
        },
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "sign up with their campus account" in page
    assert reverse("campus_sign_in", args=[institution.slug]) in page
    assert not User.objects.filter(email="marlow@example.edu").exists()


def test_l10_the_buttons_on_the_log_in_and_sign_up_pages_post_to_the_campus(
    client, institution, sign_in, provider
):
    for name in ("account_login", "account_signup"):
        response = client.get(reverse(name))
        page = response.content.decode()
        assert "Sign in with Example State University" in page
        login_url = reverse("openid_connect_login", kwargs={"provider_id": institution.slug})
        assert f'action="{login_url}"' in page
        assert provider.url in response["Content-Security-Policy"]


def test_the_site_admin_connects_a_campus_and_the_secret_is_not_shown_again(
    client, institution, provider, site_admin
):
    client.force_login(site_admin)
    add = reverse("admin:accounts_campussignin_add")
    data = {
        "institution": institution.pk,
        "enabled": "on",
        "protocol": "oidc",
        "issuer": provider.url,
        "client_id": "scrabble-league",
        "client_secret": "very-secret-value",
        "no_affiliation": "nobody",
        "campus_id_required": "on",
    }
    response = client.post(add, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    saved = CampusSignIn.objects.get()
    assert saved.social_app.secret == "very-secret-value"
    change = client.get(reverse("admin:accounts_campussignin_change", args=[saved.pk]))
    page = change.content.decode()
    assert "very-secret-value" not in page
    assert reverse("openid_connect_callback", kwargs={"provider_id": institution.slug}) in page
    # Saved again with the secret left empty: the saved one stays.
    data["client_secret"] = ""
    data["button_name"] = "Example State"
    client.post(reverse("admin:accounts_campussignin_change", args=[saved.pk]), data)
    saved.refresh_from_db()
    assert saved.social_app.secret == "very-secret-value"
    assert saved.social_app.name == "Example State"


def test_a_director_cannot_see_campus_sign_in_in_the_admin(client, director):
    client.force_login(director.user)
    response = client.get(reverse("admin:accounts_campussignin_changelist"))
    assert response.status_code == 403


def test_l10_an_answer_from_a_provider_not_configured_for_the_institution_is_refused(
    client, institution, season, provider, sign_in
):
    """Another campus's provider (same client ID, its own key) signs the student in and sends
    them back here: its code means nothing to the institution's provider, nothing is made."""
    other = OidcProvider(client_id=provider.client_id).start()
    try:
        other.person = student()
        authorize = start(client, institution).replace(provider.url, other.url)
        before = User.objects.count()
        response = client.get(at_the_campus(authorize))
        assert response.status_code == 403
        assert "could not be trusted" in response.content.decode()
        nothing_created(before)
    finally:
        other.stop()


def test_l10_a_joined_student_signs_in_with_the_campus_where_it_is_required_staff_keep_passwords(
    client, institution, season, provider, sign_in, staff
):
    sign_in.require_for_students = True
    sign_in.save()
    existing = ProfileFactory(
        institution=institution, user__email="ada.lovelace@example.edu", campus_id="2345678"
    )
    login = reverse("account_login")
    # Not yet joined: the password still logs in, to join.
    answer = client.post(login, {"login": existing.user.email, "password": PASSWORD})
    assert answer.status_code == 302 and "_auth_user_id" in client.session
    provider.person = student()
    connect = client.post(
        reverse("openid_connect_login", kwargs={"provider_id": institution.slug}),
        {"process": "connect"},
    )
    client.get(at_the_campus(connect["Location"]))
    assert SocialAccount.objects.filter(user=existing.user).exists()
    client.logout()
    # Joined: the password no longer logs in; the page says where to sign in.
    refused = client.post(login, {"login": existing.user.email, "password": PASSWORD}, follow=True)
    assert "_auth_user_id" not in client.session
    assert "students sign in with their campus account" in refused.content.decode()
    # Staff keep their passwords.
    client.post(login, {"login": staff.user.email, "password": PASSWORD})
    assert client.session["_auth_user_id"] == str(staff.user.pk)


def test_an_unreachable_identity_provider_is_said_in_words_never_a_server_error(
    client, institution, site_admin
):
    from accounts.models import Protocol as P

    campus_sign_in_save(
        actor=site_admin,
        sign_in=CampusSignIn(
            institution=institution,
            protocol=P.OIDC,
            issuer="http://127.0.0.1:9",  # nothing answers there
            client_id="x",
            client_secret="y",
        ),
    )
    response = client.post(
        reverse("openid_connect_login", kwargs={"provider_id": institution.slug}),
        {"process": "login"},
    )
    assert response.status_code == 503
    assert "could not be reached" in response.content.decode()
