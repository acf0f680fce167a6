"""Volunteer scorers (E3) belong to the director's institution and are invited, never handed a
password (issue 28). The director adds one by name and e-mail address; the page says "invited"
whatever the address; the volunteer gets a one-time log-in link by e-mail (following it verifies
the address), which the director can also print on a slip with a QR code. An address whose
account is another institution's is never attached, and the director cannot tell."""

import re
from datetime import datetime, time, timedelta

import pytest
from allauth.account.models import EmailAddress
from django.urls import reverse
from django.utils import timezone
from post_office.models import Email

from accounts import roles
from accounts.models import PlayerProfile, SignInLink, User
from events import services as events
from events.models import EventScorer
from events.rights import may_score
from league.models import League
from tests.support import FEST, at, run, staff_member, write

LINK = re.compile(r"https?://[^/\s]+(/log-in/[^/\s]+/)")


@pytest.fixture
def fest(season, tmp_path):
    data = {**FEST, "date": (season.institution.today() + timedelta(days=3)).isoformat()}
    path = write(tmp_path, "fest.json", __import__("json").dumps(data))
    run("create_event", path, "--institution", season.institution.slug, "--season", season.slug)
    return League.objects.get(slug="fest")


def invite(client, name, email):
    return client.post(reverse("event_scorers", args=[at("fest")]), {"name": name, "email": email})


def mail_to(address) -> list[Email]:
    return [email for email in Email.objects.order_by("id") if address in email.to]


def link_in(email: Email) -> str:
    return LINK.search(email.message).group(1)


def test_e3_a_new_address_becomes_an_account_of_the_directors_institution_with_a_link(
    fest, client, director, institution
):
    client.force_login(director.user)

    response = invite(client, "Val Unteer", "Val@Example.org")

    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Val Unteer is invited" in page and "val@example.org" in page
    user = User.objects.get(email="val@example.org")
    assert user.profile.institution == institution and not user.has_usable_password()
    assert not EmailAddress.objects.get(user=user).verified
    assert EventScorer.objects.get(league=fest).user == user
    (invitation,) = mail_to("val@example.org")
    assert "Volunteer scorer at Scrabble Fest" in invitation.subject
    assert link_in(invitation)


def test_e3_the_link_logs_in_once_verifies_the_address_and_opens_the_scoring_table(
    fest, client, director
):
    volunteer = events.scorer_invite(
        actor=director.user, league=fest, name="Val Unteer", email="val@example.org"
    ).user
    path = link_in(mail_to("val@example.org")[0])

    opened = client.get(path)  # a mail scanner opening it spends nothing
    assert opened.status_code == 200 and "Log in" in opened.content.decode()
    followed = client.post(path)

    scoring = reverse("event_scoring_now", args=[at("fest")])
    assert followed.status_code == 302 and followed["Location"] == scoring
    # No round is paired yet: the event's page, saying when the scoring table opens.
    before = client.get(scoring, follow=True)
    assert before.redirect_chain[-1][0] == fest.get_absolute_url()
    assert "the scoring table opens with round 1" in before.content.decode()
    assert int(client.session["_auth_user_id"]) == volunteer.pk
    assert EmailAddress.objects.get(user=volunteer).verified
    assert may_score(volunteer, fest)
    client.logout()
    again = client.post(path)
    assert again.status_code == 410 and "used already or has expired" in again.content.decode()
    assert "_auth_user_id" not in client.session


def test_e3_a_link_ends_with_the_day_after_the_event(fest, client, director, institution):
    events.scorer_invite(actor=director.user, league=fest, name="Val", email="val@example.org")
    link = SignInLink.objects.get()
    ends = datetime.combine(fest.event.date + timedelta(days=2), time(0), tzinfo=institution.tz)
    assert link.expires_at == ends
    SignInLink.objects.update(expires_at=timezone.now() - timedelta(seconds=1))

    response = client.post(link_in(mail_to("val@example.org")[0]))

    assert response.status_code == 410 and "_auth_user_id" not in client.session


def test_e3_an_address_of_another_institutions_account_is_never_attached_and_the_page_says_invited(
    fest, client, director, outsider
):
    client.force_login(director.user)
    outsiders_address = outsider.user.email

    response = invite(client, "Somebody Else", outsiders_address)

    page = client.get(response["Location"]).content.decode()
    assert "Somebody Else is invited" in page and outsiders_address in page
    invitation = EventScorer.objects.get(league=fest, email=outsiders_address)
    assert invitation.user is None
    assert not may_score(outsider.user, fest)
    assert outsider.user.profile.institution != fest.season.institution
    assert not SignInLink.objects.exists()
    (notice,) = mail_to(outsiders_address)
    assert "another institution" in notice.message and "/log-in/" not in notice.message
    # The slip looks the same and leads nowhere.
    slip = client.post(reverse("event_scorers", args=[at("fest")]), {"slip": invitation.pk})
    assert slip.status_code == 200 and slip["Content-Type"] == "application/pdf"
    assert not SignInLink.objects.exists()


def test_e3_the_page_reads_the_same_whoever_the_address_belongs_to(
    fest, client, director, outsider, institution
):
    """What the director sees after inviting a new address and another institution's differs
    only in the name and address they typed."""
    client.force_login(director.user)
    pages = []
    for name, email in (("Ann Example", "new@example.org"), ("Ann Example", outsider.user.email)):
        response = invite(client, name, email)
        pages.append(client.get(response["Location"]).content.decode())
        EventScorer.objects.filter(league=fest).delete()
    first, second = (page.replace(outsider.user.email, "ADDRESS") for page in pages)
    first = first.replace("new@example.org", "ADDRESS")
    strip = re.compile(
        r'name="csrfmiddlewaretoken" value="[^"]+"|invited \d+ \w+, \d\d:\d\d|value="\d+"'
    )
    assert strip.sub("", first) == strip.sub("", second)


def test_e3_a_site_admins_address_is_not_attached_either(fest, director, site_admin):
    invitation = events.scorer_invite(
        actor=director.user, league=fest, name="Ada Admin", email=site_admin.email
    )
    assert invitation.user is None


def test_e3_an_account_of_the_same_institution_is_attached_and_gets_a_link(fest, director, player):
    invitation = events.scorer_invite(
        actor=director.user, league=fest, name="Pat Player", email=player.user.email
    )
    assert invitation.user == player.user
    assert may_score(player.user, fest)
    assert link_in(mail_to(player.user.email)[0])
    assert PlayerProfile.objects.filter(user=player.user).count() == 1


def test_e3_the_director_prints_a_slip_whose_link_logs_in_once(fest, client, director, tmp_path):
    from tests.support import poppler

    invitation = events.scorer_invite(
        actor=director.user, league=fest, name="Val Unteer", email="val@example.org"
    )
    client.force_login(director.user)

    slip = client.post(reverse("event_scorers", args=[at("fest")]), {"slip": invitation.pk})

    assert slip.status_code == 200 and slip["Content-Type"] == "application/pdf"
    assert slip["Cache-Control"] == "private, no-store"
    text = poppler("pdftotext", slip.content, tmp_path)
    assert "Val Unteer" in text and "Volunteer scorer" in text
    last_day = f"{fest.event.date + timedelta(days=1):%A %-d %B}"  # the day after, the campus's
    assert f"until the end of {last_day}" in " ".join(text.split())
    # The link is printed as text too; a line may break anywhere inside it.
    found = re.search(r"/log-in/([0-9a-f]{40})/", re.sub(r"\s", "", text))
    assert found, text
    path = reverse("sign_in_link", args=[found.group(1)])
    client.logout()
    assert client.post(path).status_code == 302
    assert int(client.session["_auth_user_id"]) == invitation.user_id


def test_e3_a_removed_volunteer_loses_the_role_and_a_garbled_id_changes_nothing(
    fest, client, director
):
    invitation = events.scorer_invite(
        actor=director.user, league=fest, name="Val", email="val@example.org"
    )
    client.force_login(director.user)
    for garbled in ("abc", "", "²", "1" * 40):
        response = client.post(reverse("event_scorers", args=[at("fest")]), {"remove": garbled})
        assert response.status_code == 302
    assert EventScorer.objects.filter(league=fest).count() == 1

    client.post(reverse("event_scorers", args=[at("fest")]), {"remove": invitation.pk})

    assert not EventScorer.objects.filter(league=fest).exists()
    assert not may_score(invitation.user, fest)
    assert not SignInLink.objects.filter(used_at__isnull=True).exists()


def test_e3_only_the_director_invites_volunteers(fest, client, institution):
    client.force_login(staff_member(institution, roles.FRONT_DESK).user)
    response = invite(client, "Val", "val@example.org")
    assert response.status_code == 404
    assert not EventScorer.objects.exists() and not User.objects.filter(email="val@example.org")


def test_p6_a_printed_slip_is_recorded_as_an_export_of_the_volunteers_name(fest, client, director):
    from accounts.models import DataExport

    invitation = events.scorer_invite(
        actor=director.user, league=fest, name="Val Unteer", email="val@example.org"
    )
    client.force_login(director.user)

    client.post(reverse("event_scorers", args=[at("fest")]), {"slip": invitation.pk})

    (record,) = DataExport.objects.all()
    assert (record.what, record.subject, record.rows, record.actor) == (
        "volunteer-slip.pdf",
        "Val Unteer, Scrabble Fest",
        1,
        director.user,
    )


def test_an_entrant_and_volunteer_finds_their_event_rows_in_their_download(
    fest, client, director, player, season
):
    """Issue 31: the event's own rows (its category, the invitation to score) are in the
    student's download, through the format's part of it."""
    import json

    from tests.support import eligible

    eligible(player, season)
    events.event_join(actor=player.user, league=fest, category="Just for Fun")
    events.scorer_invite(actor=director.user, league=fest, name="Rowan P.", email=player.user.email)
    client.force_login(player.user)

    document = json.loads(client.post(reverse("my_data")).content)

    assert document["event_entries"] == [
        {"event": "Scrabble Fest", "category": "Just for Fun", "team": None}
    ]
    (invitation,) = document["volunteer_invitations"]
    assert (invitation["event"], invitation["name"]) == ("Scrabble Fest", "Rowan P.")
    assert document["assists_bought"] == []
    assert "Scrabble Fest" in [entry["league"] for entry in document["league_entries"]]
