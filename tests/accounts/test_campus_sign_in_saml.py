"""Campus sign-in with SAML 2.0, against pysaml2's identity provider started by the test with
a key it makes (L10): the student signs up with the verified address and campus ID the campus
sent and is eligible at once where the campus's word is enough; an assertion for another
audience, expired, replayed, unsigned, wrongly signed or from an identity provider not
configured for the institution is refused on a page, and nothing is created."""

from urllib.parse import parse_qs, urlsplit

import pytest
from allauth.socialaccount.models import SocialAccount
from django.urls import reverse

from accounts.models import CampusSignIn, EligibilityStatus, Protocol, User
from accounts.selectors import eligibility_of
from accounts.services.campus_sign_in import campus_sign_in_save
from tests.campus_providers import SamlIdp


@pytest.fixture
def client(client):
    """Requests name a host with a dot or localhost, as the SAML library asks of our ACS."""
    client.defaults["HTTP_HOST"] = "localhost"
    return client


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    return tmp_path_factory.mktemp("saml-keys")


@pytest.fixture(scope="module")
def idp(keys):
    started = SamlIdp(keys).start()
    yield started
    started.stop()


@pytest.fixture(autouse=True)
def nothing_bent(idp):
    idp.bend = {}
    idp.person = {}


@pytest.fixture
def sign_in(client, institution, idp, site_admin):
    saved = campus_sign_in_save(
        actor=site_admin,
        sign_in=CampusSignIn(
            institution=institution,
            protocol=Protocol.SAML,
            idp_entity_id=idp.entity_id,
            idp_metadata_url=f"{idp.url}/metadata",
            campus_word_enough=True,
        ),
    )
    metadata = client.get(reverse("saml_metadata", args=[institution.slug]))
    assert metadata.status_code == 200, metadata.content[:500]
    idp.trust(metadata.content.decode())
    return saved


def student(**attributes):
    return {
        "eduPersonPrincipalName": ["grace@example.edu"],
        "mail": ["Grace.Hopper@example.edu"],
        "givenName": ["Grace"],
        "sn": ["Hopper"],
        "eduPersonAffiliation": ["student", "member"],
        "employeeNumber": ["3456789"],
        **attributes,
    }


def start(client, institution):
    response = client.post(reverse("saml_login", args=[institution.slug]), {"process": "login"})
    assert response.status_code == 302, response.content[:500]
    query = parse_qs(urlsplit(response["Location"]).query)
    return query["SAMLRequest"][0], query.get("RelayState", [""])[0]


def post_back(client, action, fields):
    """The browser posts the campus's answer to our ACS, which hands it on to finish."""
    posted = client.post(urlsplit(action).path, fields)
    assert posted.status_code == 302, posted.content[:500]
    return client.get(posted["Location"])


def sign_in_with_campus(client, institution, idp, person, answering=None):
    answering = answering or idp
    answering.person = person
    action, fields = answering.answer(*start(client, institution))
    return post_back(client, action, fields)


def nothing_created(before):
    assert User.objects.count() == before
    assert not SocialAccount.objects.exists()


def test_our_metadata_names_our_acs_for_the_campus_to_register(client, institution, sign_in):
    xml = client.get(reverse("saml_metadata", args=[institution.slug])).content.decode()
    assert reverse("saml_acs", args=[institution.slug]) in xml
    assert "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" in xml


def test_l10_a_student_signs_up_with_the_campus_account_verified_and_eligible_at_once(
    client, institution, season, idp, sign_in
):
    response = sign_in_with_campus(client, institution, idp, student())
    assert response.status_code == 302, response.content.decode()[:1500]
    user = User.objects.get(email="grace.hopper@example.edu")
    assert (user.first_name, user.last_name) == ("Grace", "Hopper")
    assert user.emailaddress_set.get().verified
    assert user.profile.campus_id == "3456789"
    assert SocialAccount.objects.get(user=user).uid == "grace@example.edu"
    eligibility = eligibility_of(user.profile, season)
    assert (eligibility.status, eligibility.source) == (EligibilityStatus.ELIGIBLE, "campus")


def test_l10_signing_in_again_as_staff_goes_back_to_pending(
    client, institution, season, idp, sign_in
):
    sign_in_with_campus(client, institution, idp, student())
    client.logout()
    again = sign_in_with_campus(
        client, institution, idp, student(eduPersonAffiliation=["staff", "member"])
    )
    assert again.status_code == 302
    profile = User.objects.get(email="grace.hopper@example.edu").profile
    eligibility = eligibility_of(profile, season)
    assert eligibility.status == EligibilityStatus.PENDING
    assert "no longer says student" in eligibility.reason


@pytest.mark.parametrize(
    "bend",
    [
        {"audience": "https://another-site.example.org/saml/metadata/"},
        {"lifetime_minutes": -10},
        {"sign": False},
    ],
    ids=["another-audience", "expired", "unsigned"],
)
def test_l10_an_assertion_for_another_site_expired_or_unsigned_is_refused(
    client, institution, season, idp, sign_in, bend
):
    before = User.objects.count()
    idp.bend = bend
    if "audience" in bend:
        # The campus knows that other site too: the same metadata under its entity ID.
        ours = sign_in.social_app.settings["sp"]["entity_id"]
        metadata = client.get(reverse("saml_metadata", args=[institution.slug])).content.decode()
        idp.trust(metadata.replace(ours, bend["audience"]))
    response = sign_in_with_campus(client, institution, idp, student())
    assert response.status_code == 403, response.content.decode()[:1500]
    assert "could not be trusted" in response.content.decode()
    nothing_created(before)


def test_l10_a_replayed_assertion_is_refused(client, institution, season, idp, sign_in):
    idp.person = student()
    action, fields = idp.answer(*start(client, institution))
    assert post_back(client, action, fields).status_code == 302
    client.logout()
    before = User.objects.count()
    again = post_back(client, action, fields)
    assert again.status_code == 403
    assert "used before" in again.content.decode()
    assert User.objects.count() == before


def test_l10_an_assertion_signed_with_another_key_is_refused(
    client, institution, season, idp, sign_in, keys
):
    impostor = SamlIdp(keys, name="impostor", entity_id=idp.entity_id, answers_for=idp).start()
    try:
        impostor.trust(
            client.get(reverse("saml_metadata", args=[institution.slug])).content.decode()
        )
        before = User.objects.count()
        response = sign_in_with_campus(client, institution, idp, student(), answering=impostor)
        assert response.status_code == 403
        nothing_created(before)
    finally:
        impostor.stop()


def test_l10_an_identity_provider_not_configured_for_the_institution_is_refused(
    client, institution, season, idp, sign_in, keys
):
    other = SamlIdp(keys, name="other-campus", answers_for=idp).start()
    try:
        other.trust(client.get(reverse("saml_metadata", args=[institution.slug])).content.decode())
        before = User.objects.count()
        response = sign_in_with_campus(client, institution, idp, student(), answering=other)
        assert response.status_code == 403
        nothing_created(before)
    finally:
        other.stop()


@pytest.mark.parametrize(
    "person, says",
    [
        (student(mail=["grace@elsewhere.example.org"]), "is not an address of Example State"),
        ({k: v for k, v in student().items() if k != "employeeNumber"}, "sent no campus ID"),
    ],
    ids=["outside-the-domains", "no-campus-id"],
)
def test_l10_a_person_the_institution_does_not_accept_is_refused_with_nothing_created(
    client, institution, season, idp, sign_in, person, says
):
    before = User.objects.count()
    response = sign_in_with_campus(client, institution, idp, person)
    assert response.status_code == 403
    assert says in response.content.decode()
    nothing_created(before)


def test_an_unreachable_identity_provider_is_said_in_words_never_a_server_error(
    client, institution, site_admin
):
    campus_sign_in_save(
        actor=site_admin,
        sign_in=CampusSignIn(
            institution=institution,
            protocol=Protocol.SAML,
            idp_entity_id="https://idp.example.edu/idp",
            idp_metadata_url="http://127.0.0.1:9/metadata",  # nothing answers there
        ),
    )
    for response in (
        client.post(reverse("saml_login", args=[institution.slug]), {"process": "login"}),
        client.get(reverse("saml_metadata", args=[institution.slug])),
    ):
        assert response.status_code == 503
        assert "could not be reached" in response.content.decode()
