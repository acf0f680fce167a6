"""Nothing is lost to a Redis outage (issue #13): mail is written to the outbox in the transaction
of the change it reports, the request never talks to the broker, and allauth's rate limits do not
live in Redis. The same with real processes and a real Redis stopped and started again is in
test_celery_worker.py."""

import importlib.util
from datetime import timedelta

import pytest
from django.core import mail
from django.core.mail import EmailMessage
from django.core.management import call_command
from django.db import transaction
from django.urls import reverse
from post_office.models import STATUS, Email

from config.celery import app
from core.tasks import queue_email, send_email, send_queued_mail
from matches.models import MatchStatus, ResultReport
from tests.support import PASSWORD, Refusing, free_port, match_between, smtp_settings

pytestmark = pytest.mark.system

DEAD_REDIS = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there


@pytest.fixture
def broker_down(monkeypatch):
    """Celery as in production, tasks sent to the broker, and the broker unreachable."""
    before = app.conf.task_always_eager, app.conf.broker_url
    app.conf.task_always_eager, app.conf.broker_url = False, DEAD_REDIS
    monkeypatch.setattr(app, "_pool", None)  # the broker connections made so far: forgotten
    yield
    app.conf.task_always_eager, app.conf.broker_url = before


@pytest.fixture
def redis_down(settings, monkeypatch):
    """The production settings evaluated with REDIS_URL pointing at a closed port."""
    monkeypatch.setenv("REDIS_URL", DEAD_REDIS)
    spec = importlib.util.find_spec("config.settings")
    production = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(production)
    settings.CACHES = production.CACHES
    call_command("createcachetable")


def queued():
    return Email.objects.filter(status=STATUS.queued)


def test_mail_is_written_with_the_change_and_rolled_back_with_it(db, broker_down):
    with pytest.raises(RuntimeError), transaction.atomic():
        queue_email(EmailMessage("Lost", "Never committed", to=["rowan@example.edu"]))
        raise RuntimeError("the change failed")
    assert not Email.objects.exists()

    queue_email(EmailMessage("Kept", "{{ not a template }}", to=["rowan@example.edu"]))
    assert list(queued().values_list("subject", "message")) == [("Kept", "{{ not a template }}")]


def test_l6_l8_with_the_broker_down_a_report_a_confirmation_and_the_night_succeed_and_their_mail_goes_out_after(
    transactional_db, client, match, league, player, opponent, institution, director, broker_down
):
    late = match_between(league, player, opponent, play_by=match.deadline.date())
    client.force_login(player.user)
    reported = client.post(
        reverse("match_report", args=[match.pk]),
        {"score_1": 400, "score_2": 350, "ended_by": "went_out"},
    )
    client.force_login(opponent.user)
    confirmed = client.post(
        reverse("match_confirm", args=[match.pk, ResultReport.objects.get(match=match).pk])
    )
    day = late.deadline.astimezone(institution.tz).date() + timedelta(days=1)
    call_command("run_nightly", "--today", day.isoformat(), stdout=None)

    assert (reported.status_code, confirmed.status_code) == (302, 302)
    match.refresh_from_db()
    late.refresh_from_db()
    assert (match.status, late.status) == (MatchStatus.CONFIRMED, MatchStatus.DOUBLE_FORFEIT)
    assert not mail.outbox  # nothing could be sent: it waits in the outbox
    waiting = queued().count()
    told = {address for row in queued() for address in row.to}
    assert {player.user.email, opponent.user.email, director.user.email} <= told

    # The broker is back: beat's tick runs the sending task, which sends everything, once.
    send_queued_mail.apply()
    send_queued_mail.apply()
    assert len(mail.outbox) == waiting
    assert not queued().exists()
    subjects = [m.subject for m in mail.outbox]
    assert any("Confirm" in s for s in subjects)
    assert sum("Double forfeit" in s for s in subjects) == 2
    assert sum("what needs you today" in s for s in subjects) == 1


def test_with_redis_down_signed_in_pages_login_signup_and_password_reset_answer(
    db, client, player, institution, redis_down, broker_down
):
    client.force_login(player.user)
    pages = [client.get(path).status_code for path in ("/", reverse("profile"))]
    client.logout()
    login = client.post(
        reverse("account_login"), {"login": player.user.email, "password": PASSWORD}
    )
    client.logout()
    signup = client.post(
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
    client.logout()
    reset = client.post(reverse("account_reset_password"), {"email": player.user.email})

    assert pages == [200, 200]
    assert (login.status_code, signup.status_code, reset.status_code) == (302, 302, 302)
    assert login.url == reverse("home")
    told = sorted(address for row in queued() for address in row.to)
    assert told == sorted(["marlow@example.edu", player.user.email])  # verification, reset


def test_a_refused_delivery_is_retried_on_its_own_later_and_the_rest_is_sent(
    transactional_db, settings, broker_down
):
    from aiosmtpd.controller import Controller

    inbox = Refusing()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        smtp_settings(settings, controller.port)
        for to in ("rowan@example.edu", "bounce@example.edu", "sage@example.edu"):
            queue_email(EmailMessage("Your match", "Body", to=[to]))
        send_queued_mail.apply()
        send_queued_mail.apply()  # the refused one is not due again yet
    finally:
        controller.stop()

    assert sorted(e.rcpt_tos[0] for e in inbox.messages) == [
        "rowan@example.edu",
        "sage@example.edu",
    ]
    refused = Email.objects.get(to=["bounce@example.edu"])
    assert (refused.status, refused.number_of_retries) == (STATUS.requeued, 1)
    assert refused.scheduled_time > refused.last_updated
    assert refused.logs.get().exception_type == "SMTPRecipientsRefused"


def test_the_email_task_queued_before_the_outbox_still_delivers(db, broker_down):
    """A message queued before the deploy names its task; a worker that no longer knows that name
    drops the message, and the e-mail with it."""
    assert send_email.name == "accounts.tasks.send_email"

    send_email.apply(args=["Subject", "Body", "league@example.edu", ["someone@example.edu"]])

    row = queued().get()
    assert (row.to, row.subject, row.from_email) == (
        ["someone@example.edu"],
        "Subject",
        "league@example.edu",
    )


def test_no_task_result_is_kept(settings):
    """Redis kept one result key per e-mail task, and nothing ever read them."""
    assert settings.CELERY_TASK_IGNORE_RESULT is True
    assert send_queued_mail.ignore_result and send_email.ignore_result


def test_a_digest_never_delivered_goes_out_again_when_the_night_runs_again(
    match, director, institution, django_capture_on_commit_callbacks
):
    """The day's digest is claimed once (a rerun sends no second one), but a digest whose
    delivery failed for good (its retries spent) is queued again by the next run of that night."""
    from league.models import DigestLog
    from league.nightly import run_for_institution

    day = match.deadline.astimezone(institution.tz).date()
    with django_capture_on_commit_callbacks(execute=True):
        first = run_for_institution(institution=institution, today=day)
    digest = DigestLog.objects.get(institution=institution, day=day)
    assert first.digests_sent == 1 and len(digest.email_ids) == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert run_for_institution(institution=institution, today=day).digests_sent == 0

    Email.objects.filter(pk__in=digest.email_ids).update(status=STATUS.failed)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        again = run_for_institution(institution=institution, today=day)

    assert again.digests_sent == 1
    assert [m.to for m in mail.outbox] == [[director.user.email]]
    assert Email.objects.get(pk=digest.email_ids[0]).status == STATUS.sent
