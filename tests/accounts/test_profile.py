"""A student edits their own name and e-mail address from the profile. The name changes at once
(and the stored league pages with it); a new address is pending until the link mailed to it is
followed (allauth's ACCOUNT_CHANGE_EMAIL), and must stay in the institution's domains (L10)."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import EligibilityStatus, User
from accounts.selectors import eligibility_of
from accounts.services import email_change_request, name_change, roster_import
from core.errors import DomainError, NotAllowed
from league.models import Entry
from league.refresh import refresh_leagues
from tests.support import PASSWORD

EMAIL = reverse("account_email")


@pytest.fixture
def signed_in(client, player):
    client.force_login(player.user)
    return client


def rename(client, capture, first_name, last_name):
    with capture(execute=True):
        return client.post(
            reverse("profile_name"), {"first_name": first_name, "last_name": last_name}
        )


def ask_for(client, capture, email):
    with capture(execute=True):
        return client.post(EMAIL, {"action_add": "", "email": email})


def follow_the_link(client, capture, message):
    link = re.search(r"/accounts/confirm-email/\S+/", message.body).group(0)
    with capture(execute=True):
        return client.post(link)


# --- The name ------------------------------------------------------------------------------------


def test_a_student_changes_their_name_on_the_profile(
    signed_in, player, django_capture_on_commit_callbacks
):
    response = rename(signed_in, django_capture_on_commit_callbacks, "Rowena", "Pemberton-Hale")
    assert response.status_code == 302 and response["Location"] == reverse("profile")
    page = signed_in.get(reverse("profile")).content.decode()
    assert "Your name is now Rowena Pemberton-Hale." in page
    assert 'data-testid="profile-name">Rowena Pemberton-Hale<' in page
    player.user.refresh_from_db()
    assert (player.user.first_name, player.user.last_name) == ("Rowena", "Pemberton-Hale")


def test_a_name_change_renders_the_stored_standings_again(
    client, signed_in, player, league, season, django_capture_on_commit_callbacks
):
    from tests.support import eligible

    eligible(player, season)
    Entry.objects.create(league=league, player=player)
    refresh_leagues([league.pk])
    standings = reverse("league_standings", args=[league])
    assert "Rowan Pemberton" in client.get(standings).content.decode()

    rename(signed_in, django_capture_on_commit_callbacks, "Rowena", "Pemberton")

    page = client.get(standings).content.decode()
    assert "Rowena Pemberton" in page and "Rowan Pemberton" not in page
    data = client.get(reverse("league_standings_json", args=[league])).json()
    assert [row["player"] for row in data["standings"]] == ["Rowena Pemberton"]


@pytest.mark.parametrize(
    ("first_name", "last_name", "says"),
    [
        ("A" * 151, "Pemberton", "at most 150 characters"),
        ("Rowan", "B" * 300, "at most 150 characters"),
        ("", "Pemberton", "This field is required."),
        ("   ", "Pemberton", "This field is required."),
    ],
)
def test_a_bad_name_is_refused_on_the_profile_and_nothing_changes(
    signed_in, player, first_name, last_name, says, django_capture_on_commit_callbacks
):
    response = rename(signed_in, django_capture_on_commit_callbacks, first_name, last_name)
    page = response.content.decode()
    assert response.status_code == 200 and says in page
    assert 'maxlength="150"' not in page  # the server says so; the browser does not cut it
    # What was typed stays in the form, to be corrected.
    assert f'value="{first_name.strip()}"' in page or not first_name.strip()
    player.user.refresh_from_db()
    assert (player.user.first_name, player.user.last_name) == ("Rowan", "Pemberton")


def test_only_the_person_changes_their_name_or_address(player, opponent):
    with pytest.raises(NotAllowed):
        name_change(actor=opponent.user, user=player.user, first_name="Mal", last_name="Ice")
    with pytest.raises(NotAllowed):
        email_change_request(actor=opponent.user, user=player.user, email="mal@example.edu")
    player.user.refresh_from_db()
    assert player.user.get_full_name() == "Rowan Pemberton"
    assert not EmailAddress.objects.filter(email="mal@example.edu").exists()


def test_l10_a_name_change_neither_makes_nor_unmakes_eligibility(
    player, opponent, season, director
):
    """The roster and the front desk match the campus ID, never the name: taking the name of a
    student on the roster makes nobody eligible, and leaving one's own loses nothing."""
    roster_import(
        actor=director.user,
        season=season,
        data=f"campus_id,first_name,last_name\n{opponent.campus_id},Noor,Vale\n".encode(),
    )
    assert eligibility_of(opponent, season).status == EligibilityStatus.ELIGIBLE
    name_change(actor=player.user, user=player.user, first_name="Noor", last_name="Vale")
    name_change(actor=opponent.user, user=opponent.user, first_name="Sam", last_name="Other")
    roster_import(
        actor=director.user,
        season=season,
        data=f"campus_id,first_name,last_name\n{opponent.campus_id},Noor,Vale\n".encode(),
    )
    assert eligibility_of(player, season).status == EligibilityStatus.PENDING
    assert eligibility_of(opponent, season).status == EligibilityStatus.ELIGIBLE


# --- The e-mail address --------------------------------------------------------------------------


def test_an_email_change_mails_a_link_to_the_new_address_and_changes_nothing_yet(
    signed_in, player, django_capture_on_commit_callbacks
):
    response = ask_for(signed_in, django_capture_on_commit_callbacks, "rowan.p@example.edu")
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["rowan.p@example.edu"]
    assert re.search(r"/accounts/confirm-email/\S+/", mail.outbox[0].body)
    old = player.user.email
    player.user.refresh_from_db()
    assert player.user.email == old  # the login, the mail, what opponents see
    page = signed_in.get(reverse("profile")).content.decode()
    assert f'data-testid="profile-email">{old}<' in page
    assert "Changing to</dt><dd>rowan.p@example.edu" in page
    page = signed_in.get(EMAIL).content.decode()
    assert 'data-testid="pending-email">rowan.p@example.edu<' in page
    assert "style=" not in page  # allauth's own page hid a form with an inline style (CSP)


def test_only_the_verified_address_is_used_before_and_after_the_change(
    client, match, player, opponent, django_capture_on_commit_callbacks
):
    """The opponent sees the player's address on the match page: the verified one, always; the
    old address logs in until the new one is verified, then the new one does."""
    old = player.user.email
    client.force_login(player.user)
    ask_for(client, django_capture_on_commit_callbacks, "rowan.p@example.edu")
    link_mail = mail.outbox[-1]
    seen_by_opponent = Client()
    seen_by_opponent.force_login(opponent.user)

    page = seen_by_opponent.get(match.get_absolute_url()).content.decode()
    assert f"mailto:{old}" in page and "rowan.p@example.edu" not in page
    client.logout()
    assert client.login(email=old, password=PASSWORD)
    client.logout()

    response = follow_the_link(client, django_capture_on_commit_callbacks, link_mail)
    assert response.status_code == 302
    player.user.refresh_from_db()
    assert player.user.email == "rowan.p@example.edu"
    assert list(EmailAddress.objects.filter(user=player.user).values_list("email", "verified")) == [
        ("rowan.p@example.edu", True)
    ]
    # The old address is told, in case the change was not theirs.
    told = [m for m in mail.outbox if m.to == [old]]
    assert told and "rowan.p@example.edu" in told[-1].body

    page = seen_by_opponent.get(match.get_absolute_url()).content.decode()
    assert "mailto:rowan.p@example.edu" in page and old not in page
    client.logout()
    assert not client.login(email=old, password=PASSWORD)
    assert client.login(email="rowan.p@example.edu", password=PASSWORD)


@pytest.mark.parametrize(
    ("email", "says"),
    [
        (
            "rowan@elsewhere.example.org",
            "Example State University accepts addresses at example.edu",
        ),
        ("rowan@gmail.com", "Use your campus e-mail address"),
        ("not-an-address", "Enter a valid email address."),
        ("", "This field is required."),
    ],
)
def test_l10_an_address_outside_the_institutions_domains_is_refused_and_nothing_changes(
    signed_in, player, other_institution, email, says, django_capture_on_commit_callbacks
):
    """Not even another institution's: the domain decided the student's institution."""
    response = ask_for(signed_in, django_capture_on_commit_callbacks, email)
    page = response.content.decode()
    assert response.status_code == 200 and says in page
    assert mail.outbox == []
    assert list(EmailAddress.objects.filter(user=player.user).values_list("email", flat=True)) == [
        player.user.email
    ]


def test_l10_a_link_followed_after_the_institution_dropped_the_domain_changes_nothing(
    client, player, institution, django_capture_on_commit_callbacks
):
    institution.email_domains = "example.edu, state.example.net"
    institution.save()
    client.force_login(player.user)
    ask_for(client, django_capture_on_commit_callbacks, "rowan@state.example.net")
    institution.email_domains = "example.edu"
    institution.save()
    old = player.user.email

    response = follow_the_link(client, django_capture_on_commit_callbacks, mail.outbox[-1])
    assert response.status_code in (200, 302)
    player.user.refresh_from_db()
    assert player.user.email == old
    assert not EmailAddress.objects.filter(email="rowan@state.example.net", verified=True).exists()
    page = client.get(reverse("profile")).content.decode()
    assert "accepts addresses at example.edu" in page


def test_an_address_another_account_holds_is_never_taken_over(
    client, player, institution, django_capture_on_commit_callbacks
):
    """allauth does not say an address is taken when asked (nor does its signup); following the
    link is refused instead, and nothing fails on the unique address."""
    from tests.support import ProfileFactory

    ProfileFactory(institution=institution, user__email="taken@example.edu", user__verified=False)
    client.force_login(player.user)
    ask_for(client, django_capture_on_commit_callbacks, "taken@example.edu")
    old = player.user.email

    response = follow_the_link(client, django_capture_on_commit_callbacks, mail.outbox[-1])
    assert response.status_code in (200, 302)
    player.user.refresh_from_db()
    assert player.user.email == old
    assert User.objects.filter(email="taken@example.edu").count() == 1
    page = client.get(reverse("profile")).content.decode()
    assert "taken@example.edu belongs to another account" in page


def test_the_service_refuses_an_address_at_another_institution(player, other_institution):
    with pytest.raises(DomainError, match="accepts addresses at example.edu"):
        email_change_request(actor=player.user, user=player.user, email="r@elsewhere.example.org")
    assert EmailAddress.objects.filter(user=player.user).count() == 1


@pytest.mark.parametrize("pending", [False, True])
def test_the_profile_page_with_a_pending_address_runs_a_constant_number_of_queries(
    signed_in, player, pending, django_assert_num_queries
):
    if pending:
        EmailAddress.objects.create(user=player.user, email="rowan.p@example.edu")
    signed_in.get(reverse("profile"))
    # The session, the profile with the pending address, the season, the eligibility, and the
    # rating history (ratings' section of the profile, R1).
    with django_assert_num_queries(6):
        assert signed_in.get(reverse("profile")).status_code == 200
