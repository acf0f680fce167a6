"""Forgetting a person (P4): a student deletes their account, or the director does on their
request; the name, e-mail, campus ID and calendar token go, the games stay."""

from datetime import UTC, datetime

import pytest
from allauth.account.models import EmailAddress
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.middleware import SessionMiddleware
from django.core import mail
from django.core.mail import EmailMessage
from django.test import Client
from django.urls import reverse
from post_office.models import STATUS, Email

from accounts import privacy
from accounts.models import PlayerProfile, RosterEntry, User
from accounts.services import profile_forget
from accounts.views import profile_forget_view
from config.celery import app
from core.errors import DomainError, NotAllowed
from core.tasks import deliverable, queue_emails, send_due_mail
from tests.support import PASSWORD, LeagueFactory, confirmed_game, eligible, match_between


@pytest.fixture
def game(season, player, opponent, django_capture_on_commit_callbacks):
    league = LeagueFactory(season=season)
    for profile in (player, opponent):
        eligible(profile, season)
        league.entries.create(player=profile)
    with django_capture_on_commit_callbacks(execute=True):
        confirmed_game(match_between(league, player, opponent), winner=player, loser=opponent)
    return league.matches.get()


def _forgotten(profile) -> PlayerProfile:
    return PlayerProfile.objects.select_related("user").get(pk=profile.pk)


def test_p4_a_student_deletes_their_account_and_shows_as_a_former_player(
    client, player, game, django_capture_on_commit_callbacks
):
    email, campus_id, token = player.user.email, player.campus_id, player.calendar_token
    feed = reverse("player_calendar", args=[token])
    assert client.get(feed).status_code == 200
    client.force_login(player.user)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("profile_forget"), {"confirm": email.upper()})

    assert "Former player" in response.content.decode()
    gone = _forgotten(player)
    former = privacy.former_name(player.pk)
    assert gone.erased_at is not None and gone.name == former and str(gone.user) == former
    assert (gone.user.first_name, gone.user.last_name, gone.campus_id) == ("", "", "")
    assert gone.user.email == privacy.erased_address(player.pk)
    assert gone.calendar_token != token and client.get(feed).status_code == 404
    assert not EmailAddress.objects.filter(user=gone.user).exists()
    assert not gone.user.is_active and not gone.user.groups.exists()
    assert not Client().login(email=email, password=PASSWORD)
    assert client.get(reverse("profile")).status_code == 302  # logged out
    standings = client.get(reverse("league_standings_json", args=[game.league])).json()
    assert former in [row["player"] for row in standings["standings"]]
    body = client.get(reverse("league_detail", args=[game.league])).content.decode()
    assert email not in body and campus_id not in body and "Rowan Pemberton" not in body


def test_p4_a_mistyped_confirmation_changes_nothing_and_says_why(client, player):
    client.force_login(player.user)
    response = client.post(reverse("profile_forget"), {"confirm": "someone@example.edu"})
    assert response.status_code == 400
    assert "Type your e-mail address exactly" in response.content.decode()
    assert _forgotten(player).erased_at is None


def test_p4_mail_to_a_forgotten_person_is_dropped_and_others_mail_stays(
    player, opponent, institution
):
    queue_emails(
        [
            EmailMessage("Reminder", "Play by Friday", to=[player.user.email]),
            EmailMessage("Reminder", "Play by Friday", to=[opponent.user.email]),
        ]
    )
    RosterEntry.objects.create(season=_a_season(institution), campus_id=player.campus_id)

    profile_forget(actor=player.user, profile=player)

    assert list(Email.objects.values_list("to", flat=True)) == [[opponent.user.email]]
    assert not RosterEntry.objects.filter(campus_id=player.campus_id).exists()


def _a_season(institution):
    from tests.support import SeasonFactory

    return SeasonFactory(institution=institution)


def test_p4_the_director_forgets_on_request_and_others_may_not(
    player, opponent, director, other_director
):
    with pytest.raises(NotAllowed):
        profile_forget(actor=opponent.user, profile=player)
    with pytest.raises(NotAllowed):
        profile_forget(actor=other_director.user, profile=player)
    assert _forgotten(player).erased_at is None

    profile_forget(actor=director.user, profile=player, reason="Asked by e-mail on Nov 20")
    assert _forgotten(player).erased_at is not None
    with pytest.raises(DomainError, match="was forgotten on"):
        profile_forget(actor=director.user, profile=player)


def test_p4_the_admin_action_asks_for_the_request_then_forgets(client, director, player):
    client.force_login(director.user)
    url = reverse("admin:accounts_playerprofile_changelist")
    chosen = {"action": "forget_on_request", "_selected_action": [player.pk]}
    page = client.post(url, chosen)
    assert "Their request" in page.content.decode()
    assert _forgotten(player).erased_at is None

    client.post(url, {**chosen, "confirmed": "1", "reason": "Asked at the desk, Nov 24"})
    assert _forgotten(player).erased_at is not None


def test_p4_the_audit_trail_keeps_who_acted_under_their_former_name(
    client, player, opponent, game, director
):
    profile_forget(actor=player.user, profile=player)
    actors = [str(event.actor) for event in game.audit_events.exclude(actor=None)]
    assert privacy.former_name(player.pk) in actors
    client.force_login(director.user)
    page = client.get(game.get_absolute_url()).content.decode()
    assert privacy.former_name(player.pk) in page and "Rowan" not in page


@pytest.mark.django_db(transaction=True)
def test_p4_the_student_and_the_director_forgetting_at_once_forget_once(
    institution, player, director
):
    from tests.support import run_together

    def by(user):
        return lambda: profile_forget(actor=user, profile=PlayerProfile.objects.get(pk=player.pk))

    outcomes = run_together(by(player.user), by(director.user))

    assert sorted(type(outcome).__name__ for outcome in outcomes) == [
        "DomainError",
        "PlayerProfile",
    ]
    assert "was forgotten on" in next(str(o) for o in outcomes if isinstance(o, DomainError))
    assert _forgotten(player).erased_at is not None


def test_p4_a_forgotten_player_leaves_the_waitlists(season, player):
    from league.models import WaitlistEntry

    league = LeagueFactory(season=season)
    WaitlistEntry.objects.create(league=league, player=player)
    profile_forget(actor=player.user, profile=player)
    assert not WaitlistEntry.objects.filter(player=player).exists()


def test_p4_front_desk_staff_cannot_forget_a_player(player, institution):
    from tests.support import staff_member

    desk = staff_member(institution, "Front desk")
    with pytest.raises(NotAllowed):
        profile_forget(actor=desk.user, profile=player)
    assert _forgotten(player).erased_at is None


def test_p4_only_a_site_admin_forgets_someone_with_admin_access(director, site_admin, institution):
    from tests.support import staff_member

    colleague = staff_member(institution, "Directors")
    with pytest.raises(NotAllowed, match="site admin"):
        profile_forget(actor=director.user, profile=colleague)
    profile_forget(actor=site_admin, profile=colleague, reason="Left the university")
    assert _forgotten(colleague).erased_at is not None


# --- Mail: none is written or sent to a forgotten person --------------------------------------


def test_p4_the_outbox_takes_no_mail_for_a_forgotten_address(player, opponent):
    profile_forget(actor=player.user, profile=player)
    forgotten = privacy.erased_address(player.pk)

    ids = queue_emails(
        [
            EmailMessage("Double forfeit", "Hello", to=[forgotten]),
            EmailMessage("Double forfeit", "Hello", to=[opponent.user.email], cc=[forgotten]),
        ]
    )

    assert len(ids) == 1
    assert list(Email.objects.values_list("to", "cc")) == [([opponent.user.email], [])]
    assert not deliverable(f"Former volunteer <former-volunteer-3@{privacy.ERASED_DOMAIN}>")
    assert deliverable(opponent.user.email) and deliverable("Sage Okafor <sage@example.org>")


def test_p4_a_message_queued_before_the_forgetting_is_never_sent(player, opponent):
    """Two messages wait in the outbox for beat's sender when the player is forgotten: one to
    their address, and one an older outbox holds for their placeholder address (the nightly's
    notice of the issue). Neither goes; the opponent's does."""
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False  # written for beat's sender, not sent as it commits
    try:
        queue_emails(
            EmailMessage("Reminder", "Play by Friday", to=[address])
            for address in (player.user.email, opponent.user.email)
        )
    finally:
        app.conf.task_always_eager = eager
    profile_forget(actor=player.user, profile=player)
    Email.objects.create(
        from_email="league@example.edu",
        to=[privacy.erased_address(player.pk)],
        subject="Double forfeit",
        status=STATUS.queued,
    )
    mail.outbox.clear()

    assert send_due_mail() == 1

    assert [message.to for message in mail.outbox] == [[opponent.user.email]]
    assert list(Email.objects.values_list("to", flat=True)) == [[opponent.user.email]]


# --- A second forget ------------------------------------------------------------------------


def _forgotten_on_nov_3(profile) -> str:
    """Forget `profile` and date it 9 PM on Nov 3, 2026 at the campus (Chicago): the next day
    already in UTC. Returns the refusal a second forget gets."""
    profile_forget(actor=profile.user, profile=profile)
    PlayerProfile.objects.filter(pk=profile.pk).update(
        erased_at=datetime(2026, 11, 4, 3, 0, tzinfo=UTC)
    )
    return f"{privacy.former_name(profile.pk)} was forgotten on Nov 3, 2026."


def test_p4_a_second_forget_is_refused_saying_when_the_first_happened(rf, player, director):
    user = User.objects.get(pk=player.user.pk)  # signed in as the profile page was sent
    refusal = _forgotten_on_nov_3(player)
    with pytest.raises(DomainError) as refused:
        profile_forget(actor=director.user, profile=player)
    assert refused.value.message == refusal

    # The profile's Delete, sent before another tab's went through: refused, nothing changes.
    request = rf.post(reverse("profile_forget"), {"confirm": user.email})
    request.user = user
    SessionMiddleware(lambda request: None).process_request(request)
    request._messages = FallbackStorage(request)
    response = profile_forget_view(request)
    assert response.status_code == 409
    assert refusal in response.content.decode()
    erased = PlayerProfile.objects.get(pk=player.pk).erased_at
    assert erased == datetime(2026, 11, 4, 3, 0, tzinfo=UTC)


def test_p4_the_admin_refuses_each_person_forgotten_already_saying_when(
    client, director, player, opponent
):
    refusals = [_forgotten_on_nov_3(player), _forgotten_on_nov_3(opponent)]
    client.force_login(director.user)
    url = reverse("admin:accounts_playerprofile_changelist")
    chosen = {"action": "forget_on_request", "_selected_action": [player.pk, opponent.pk]}

    response = client.post(url, {**chosen, "confirmed": "1", "reason": "Asked again by e-mail"})

    said = [str(message) for message in get_messages(response.wsgi_request)]
    assert sorted(said) == sorted(refusals)  # one each, and no "0 forgotten"
    for profile in (player, opponent):
        erased = PlayerProfile.objects.get(pk=profile.pk).erased_at
        assert erased == datetime(2026, 11, 4, 3, 0, tzinfo=UTC)
