"""Signing up (django-allauth) with name, campus e-mail and campus ID; e-mail verification is
mandatory; the institution decides the e-mail domains and the campus-ID pattern."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.urls import reverse

from accounts.models import EligibilityStatus, PlayerProfile, User
from accounts.selectors import eligibility_of
from tests.support import roster_entry

SIGNUP = reverse("account_signup")


def signup_data(**overrides):
    data = {
        "first_name": "Marlow",
        "last_name": "Thistlewood",
        "email": "marlow@example.edu",
        "campus_id": "1234567",
        "password1": "a-long-passphrase-1",
        "password2": "a-long-passphrase-1",
    }
    data.update(overrides)
    return data


@pytest.fixture
def sign_up(client, institution, django_capture_on_commit_callbacks):
    def post(**overrides):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(SIGNUP, signup_data(**overrides))

    return post


def test_a_student_signs_up_and_is_sent_a_verification_email(sign_up, institution):
    response = sign_up()

    assert response.status_code == 302
    user = User.objects.get(email="marlow@example.edu")
    assert (user.first_name, user.last_name) == ("Marlow", "Thistlewood")
    assert user.profile.institution == institution
    assert user.profile.campus_id == "1234567"
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["marlow@example.edu"]
    assert re.search(r"/accounts/confirm-email/\S+/", mail.outbox[0].body)


def test_email_verification_is_mandatory_before_logging_in(sign_up, client):
    sign_up()
    client.logout()

    response = client.post(
        reverse("account_login"), {"login": "marlow@example.edu", "password": "a-long-passphrase-1"}
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert "_auth_user_id" not in client.session


def test_following_the_emailed_link_verifies_the_address(sign_up, client):
    sign_up()
    link = re.search(r"(/accounts/confirm-email/\S+/)", mail.outbox[0].body).group(1)

    client.post(link)

    assert EmailAddress.objects.get(email="marlow@example.edu").verified


def test_l10_a_new_student_sees_they_are_pending_and_what_to_do(sign_up, client, season):
    sign_up()
    link = re.search(r"(/accounts/confirm-email/\S+/)", mail.outbox[0].body).group(1)
    client.post(link)
    client.post(
        reverse("account_login"), {"login": "marlow@example.edu", "password": "a-long-passphrase-1"}
    )

    page = client.get(reverse("home")).content.decode()

    assert "Pending" in page
    assert "Show your current campus picture ID at the Recreation Center front desk" in page


def test_l10_a_student_on_the_roster_is_eligible_from_signup(sign_up, season):
    roster_entry(season, "1234567")
    sign_up()
    profile = PlayerProfile.objects.get(campus_id="1234567")
    assert eligibility_of(profile, season).status == EligibilityStatus.ELIGIBLE


def test_p2_a_student_the_roster_withholds_is_withheld_from_signup(sign_up, season):
    roster_entry(season, "1234567")
    season.roster_entries.update(withholds_name=True)
    sign_up()
    profile = PlayerProfile.objects.get(campus_id="1234567")
    assert profile.registrar_withholds and profile.withheld


def test_an_off_domain_email_is_refused_with_a_clear_message(sign_up):
    response = sign_up(email="marlow@gmail.com")

    assert response.status_code == 200
    assert "no institution here accepts addresses at gmail.com" in response.content.decode()
    assert not User.objects.exists()
    assert not mail.outbox


def test_a_subdomain_of_an_accepted_domain_is_accepted(sign_up):
    sign_up(email="marlow@students.example.edu")
    assert User.objects.filter(email="marlow@students.example.edu").exists()


@pytest.mark.parametrize("campus_id", ["123456", "12345678", "12a4567", "ABCDEFG"])
def test_a_malformed_campus_id_is_refused_naming_the_expected_shape(sign_up, campus_id):
    response = sign_up(campus_id=campus_id)

    assert response.status_code == 200
    assert "Campus ID must be seven digits." in response.content.decode()
    assert not User.objects.exists()


def test_a_duplicate_campus_id_is_refused(sign_up, player):
    response = sign_up(campus_id=player.campus_id)

    assert response.status_code == 200
    assert "is already registered" in response.content.decode()
    assert not User.objects.filter(email="marlow@example.edu").exists()


def test_the_same_campus_id_may_exist_at_another_institution(sign_up, outsider):
    outsider.campus_id = "1234567"
    outsider.save()
    sign_up(campus_id="1234567")
    assert User.objects.filter(email="marlow@example.edu").exists()


def test_a_duplicate_email_creates_nothing_and_warns_the_owner(sign_up, player):
    """allauth does not reveal which addresses have accounts: the page looks like success, and
    the address's owner is told by e-mail that someone tried to sign up again."""
    users = User.objects.count()

    sign_up(email=player.user.email.upper())

    assert User.objects.count() == users
    assert not PlayerProfile.objects.filter(campus_id="1234567").exists()
    assert mail.outbox[0].to == [player.user.email]
    assert "already" in mail.outbox[0].body


def test_the_campus_id_is_unique_within_an_institution_in_the_database(player, institution):
    from django.db import IntegrityError, transaction

    from tests.support import ProfileFactory

    with pytest.raises(IntegrityError), transaction.atomic():
        ProfileFactory(institution=institution, campus_id=player.campus_id)


def test_the_signup_form_labels_every_field(client, institution):
    page = client.get(SIGNUP).content.decode()
    for label in ["First name", "Last name", "Email", "Campus ID", "Password"]:
        assert f">{label}" in page


def test_an_email_over_254_characters_is_refused_and_nothing_is_stored(sign_up):
    """allauth cut such an address to 254 characters and stored that; the same signup again
    then collided with the cut address (a 500)."""
    email = "m" * 250 + "@example.edu"

    first, again = sign_up(email=email), sign_up(email=email, campus_id="7654321")

    for response in (first, again):
        assert response.status_code == 200
        assert "at most 254 characters" in response.content.decode()
    assert not User.objects.exists()
    assert not EmailAddress.objects.exists()


def test_l10_full_width_digits_are_the_same_campus_id(sign_up, player):
    """A phone's full-width digits (NFKC) are the ID on the card: already registered here."""
    player.campus_id = "3456789"
    player.save()

    response = sign_up(campus_id="３４５６７８９")

    assert "is already registered" in response.content.decode()
    assert not User.objects.filter(email="marlow@example.edu").exists()


def test_l10_a_campus_id_in_digits_of_another_script_is_refused(sign_up):
    response = sign_up(campus_id="٣٤٥٦٧٨٩")  # Arabic-Indic digits pass a Unicode \d{7}

    assert "Campus ID must be seven digits." in response.content.decode()
    assert not User.objects.exists()


def test_l10_a_campus_id_taken_between_the_check_and_the_save_is_the_forms_message(
    sign_up, institution, monkeypatch
):
    """Another signup with the same campus ID finishes after this form checked it and before
    this one saves: the database's constraint decides, and the page says so (not a 500)."""
    from accounts.forms import CampusSignupForm
    from tests.support import ProfileFactory

    checked = CampusSignupForm.clean

    def clean_then_the_other_signup_finishes(form):
        cleaned = checked(form)
        ProfileFactory(institution=institution, campus_id="1234567")
        return cleaned

    monkeypatch.setattr(CampusSignupForm, "clean", clean_then_the_other_signup_finishes)

    response = sign_up()

    assert response.status_code == 200
    assert "This campus ID is already registered." in response.content.decode()
    assert not User.objects.filter(email="marlow@example.edu").exists()
    assert PlayerProfile.objects.filter(campus_id="1234567").count() == 1


@pytest.mark.django_db(transaction=True)
def test_l10_ten_simultaneous_signups_with_one_campus_id_make_one_account_and_no_500():
    import threading

    from django.db import connection
    from django.test import Client

    from accounts import roles
    from tests.support import InstitutionFactory

    roles.sync_groups()
    InstitutionFactory(slug="example-state", email_domains="example.edu")
    start = threading.Barrier(10)
    statuses = []

    def sign_up(n):
        try:
            client = Client(raise_request_exception=False)
            start.wait()
            response = client.post(SIGNUP, signup_data(email=f"racer{n}@example.edu"))
            statuses.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=sign_up, args=(n,)) for n in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(statuses) == [200] * 9 + [302]
    assert PlayerProfile.objects.filter(campus_id="1234567").count() == 1
    assert User.objects.count() == 1


def test_allauths_mail_names_the_site_instead_of_hello_from_nothing(sign_up):
    sign_up()
    body = mail.outbox[0].body
    assert "Hello from Intramural Scrabble!" in body and "Hello from !" not in body


def test_a_name_too_long_is_refused_with_a_message_not_cut_by_the_browser(client, sign_up):
    page = client.get(SIGNUP).content.decode()
    assert 'name="first_name"' in page and 'maxlength="150"' not in page
    response = sign_up(first_name="A" * 300)
    assert response.status_code == 200
    assert "at most 150 characters" in response.content.decode()
    assert not User.objects.filter(first_name__startswith="AAA").exists()
