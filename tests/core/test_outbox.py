"""Sending the outbox (Trust on event day): each message is claimed with a row lock that other
senders skip and marked sent as soon as it is delivered, so senders on any number of hosts never
send one message twice, and a crash repeats at most the one in flight. A real worker killed
mid-send is in test_celery_worker.py. post_office's behaviours the project relies on still hold:
only due messages go, highest priority then oldest first, a failed delivery is retried then left
failed, and a log row records each failure."""

import tempfile
import threading
import time
from datetime import timedelta

import pytest
from aiosmtpd.controller import Controller
from django.core import mail
from django.core.mail import EmailMessage
from django.core.mail.backends.locmem import EmailBackend as LocmemBackend
from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from post_office.admin import requeue
from post_office.models import PRIORITY, STATUS, Email

import core.tasks
from config.celery import app
from core.tasks import queue_emails, requeue_failed, send_due_mail, send_now, send_queued_mail
from tests.support import Inbox, Refusing, SlowInbox, free_port, run_together, smtp_settings


def queue(*addresses: str) -> list[int]:
    """Written to the outbox as with a broker, for beat's sender: not sent in this process as
    the transaction commits (a test on real connections commits at once)."""
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        return queue_emails(EmailMessage("Your table", "Table 4", to=[a]) for a in addresses)
    finally:
        app.conf.task_always_eager = eager


class SlowInboxBySender(SlowInbox):
    """Notes which SMTP connection brought each message."""

    def __init__(self):
        super().__init__()
        self.peers = []

    async def handle_DATA(self, server, session, envelope):
        self.peers.append(session.peer)
        return await super().handle_DATA(server, session, envelope)


@pytest.fixture
def smtp(settings):
    """A real SMTP server on loopback, taking its time over each message, and Django's SMTP
    backend pointed at it."""
    inbox = SlowInboxBySender()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    smtp_settings(settings, controller.port)
    yield inbox
    controller.stop()


@pytest.fixture
def hosts(monkeypatch, tmp_path):
    """Each thread on a host of its own, as far as a temp folder tells: the old sender's lock
    file lived there, so it held only among the senders of one host."""

    def own_temp_folder() -> str:
        folder = tmp_path / f"host-{threading.get_ident()}"
        folder.mkdir(exist_ok=True)
        return str(folder)

    monkeypatch.setattr(tempfile, "gettempdir", own_temp_folder)


def test_two_senders_on_two_hosts_at_once_never_send_the_same_message(
    transactional_db, smtp, hosts
):
    addresses = [f"entrant{i:02d}@example.edu" for i in range(40)]
    queue(*addresses)

    outcomes = run_together(send_queued_mail.run, send_queued_mail.run)

    assert outcomes == [None, None]
    delivered = [e.rcpt_tos[0] for e in smtp.messages]
    assert sorted(delivered) == addresses  # each once
    assert len(set(smtp.peers)) == 2  # both senders took a share
    assert not Email.objects.exclude(status=STATUS.sent).exists()


class Watching(Inbox):
    """Notes, as each message arrives, how many outbox rows are already marked sent."""

    def __init__(self):
        super().__init__()
        self.sent_before = []

    async def handle_DATA(self, server, session, envelope):
        self.sent_before.append(Email.objects.filter(status=STATUS.sent).count())
        connection.close()  # this thread's own, opened for the count
        return await super().handle_DATA(server, session, envelope)


def test_each_message_is_marked_sent_before_the_next_one_goes(transactional_db, settings):
    """The old sender marked a batch of up to 100 sent after all of it: a crash mid-batch sent
    every message of the batch delivered so far again."""
    inbox = Watching()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        smtp_settings(settings, controller.port)
        queue(*(f"entrant{i}@example.edu" for i in range(5)))
        send_queued_mail.run()
    finally:
        controller.stop()

    assert inbox.sent_before == [0, 1, 2, 3, 4]
    assert Email.objects.filter(status=STATUS.sent).count() == 5


def test_a_message_another_sender_holds_is_skipped_and_sent_by_that_sender(transactional_db):
    """The in-process path (`send_now`, the demo and the tests) takes the same claim."""
    held, free = queue("held@example.edu", "free@example.edu")
    holding = threading.Event()
    done = threading.Event()

    def other_sender():
        try:
            with transaction.atomic():
                Email.objects.select_for_update().get(pk=held)
                holding.set()
                done.wait(timeout=10)
        finally:
            connection.close()

    holder = threading.Thread(target=other_sender)
    holder.start()
    try:
        assert holding.wait(timeout=10)
        send_now([held, free])
        sent_while_held = [m.to for m in mail.outbox]
    finally:
        done.set()
        holder.join(timeout=10)

    assert sent_while_held == [["free@example.edu"]]
    assert Email.objects.get(pk=held).status == STATUS.queued  # still due: the next tick sends it
    send_now([held, free])
    assert [m.to for m in mail.outbox] == [["free@example.edu"], ["held@example.edu"]]


def test_only_due_messages_go_highest_priority_first_then_oldest(db):
    now = timezone.now()
    names = ["low", "medium", "expired", "later", "retry-due", "high", "retry-later", "expiring"]
    ids = dict(zip(names, queue(*(f"{name}@example.edu" for name in names)), strict=True))
    Email.objects.filter(pk=ids["low"]).update(priority=PRIORITY.low)
    Email.objects.filter(pk=ids["high"]).update(priority=PRIORITY.high)
    Email.objects.filter(pk=ids["expired"]).update(expires_at=now - timedelta(seconds=1))
    Email.objects.filter(pk=ids["expiring"]).update(expires_at=now + timedelta(hours=1))
    Email.objects.filter(pk=ids["later"]).update(scheduled_time=now + timedelta(hours=1))
    Email.objects.filter(pk=ids["retry-due"]).update(
        status=STATUS.requeued, scheduled_time=now - timedelta(minutes=1)
    )
    Email.objects.filter(pk=ids["retry-later"]).update(
        status=STATUS.requeued, scheduled_time=now + timedelta(minutes=5)
    )

    sent = send_due_mail()

    order = [m.to[0].split("@")[0] for m in mail.outbox]
    assert order == ["high", "medium", "retry-due", "expiring", "low"]
    assert sent == 5
    waiting = Email.objects.exclude(status=STATUS.sent).values_list("to", flat=True)
    assert sorted(to[0] for to in waiting) == [
        "expired@example.edu",  # never sent, as post_office never sends an expired message
        "later@example.edu",
        "retry-later@example.edu",
    ]
    assert Email.objects.get(pk=ids["expired"]).status == STATUS.queued


@pytest.fixture
def refusing(settings):
    inbox = Refusing()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    smtp_settings(settings, controller.port)
    yield inbox
    controller.stop()


def _due_again(pk: int) -> None:
    Email.objects.filter(pk=pk).update(scheduled_time=timezone.now() - timedelta(seconds=1))


def test_a_refused_message_is_retried_every_interval_max_retries_times_then_left_failed(
    db, settings, refusing
):
    [bounce] = queue("bounce@example.edu")
    before = timezone.now()

    send_queued_mail.run()

    row = Email.objects.get(pk=bounce)
    assert (row.status, row.number_of_retries) == (STATUS.requeued, 1)
    interval = settings.POST_OFFICE["RETRY_INTERVAL"]
    assert before + interval <= row.scheduled_time <= timezone.now() + interval
    send_queued_mail.run()  # not due again yet
    assert Email.objects.get(pk=bounce).number_of_retries == 1

    for _ in range(settings.POST_OFFICE["MAX_RETRIES"]):
        _due_again(bounce)
        send_queued_mail.run()

    row = Email.objects.get(pk=bounce)
    assert (row.status, row.number_of_retries) == (STATUS.failed, 12)
    assert row.logs.count() == 13  # one a failure (LOG_LEVEL 1), none for a message sent
    assert set(row.logs.values_list("exception_type", flat=True)) == {"SMTPRecipientsRefused"}
    assert not refusing.messages


def test_a_failed_message_goes_again_after_the_admins_requeue_or_requeue_failed(db, refusing):
    first, second = queue("rowan@example.edu", "sage@example.edu")
    Email.objects.filter(pk__in=[first, second]).update(status=STATUS.failed, number_of_retries=12)

    requeue(None, None, Email.objects.filter(pk=first))  # the admin's "Requeue" action
    assert requeue_failed([second]) == 1
    send_queued_mail.run()

    assert sorted(e.rcpt_tos[0] for e in refusing.messages) == [
        "rowan@example.edu",
        "sage@example.edu",
    ]
    assert set(Email.objects.values_list("status", flat=True)) == {STATUS.sent}
    assert not Email.objects.get(pk=first).logs.exists()


class Stalling(LocmemBackend):
    """A mail backend whose first message hangs: a sender on a host that vanished mid-send."""

    stalled = threading.Event()
    release = threading.Event()

    def send_messages(self, messages):
        if not Stalling.stalled.is_set():
            Stalling.stalled.set()
            Stalling.release.wait(timeout=10)
        return super().send_messages(messages)


def test_a_sender_stalled_past_the_claim_timeout_lets_another_sender_take_its_message(
    transactional_db, settings, monkeypatch
):
    """PostgreSQL ends a claim left idle longer than CLAIM_TIMEOUT (five minutes; two seconds
    here), so a message held by a sender whose host vanished goes out from another host, instead
    of waiting hours for TCP to notice."""
    settings.EMAIL_BACKEND = "tests.core.test_outbox.Stalling"
    monkeypatch.setattr(core.tasks, "CLAIM_TIMEOUT", timedelta(seconds=2))
    Stalling.stalled.clear()
    Stalling.release.clear()
    [message] = queue("entrant@example.edu")
    outcome = []

    def vanishing_sender():
        try:
            outcome.append(send_due_mail())
        except Exception as error:  # noqa: BLE001 - the outcome is the assertion
            outcome.append(error)
        finally:
            connection.close()

    stalled = threading.Thread(target=vanishing_sender)
    stalled.start()
    try:
        assert Stalling.stalled.wait(timeout=10)
        assert send_due_mail() == 0  # still claimed: skipped, not waited for
        time.sleep(2.5)
        sent_by_the_other = send_due_mail()
    finally:
        Stalling.release.set()
        stalled.join(timeout=10)

    assert sent_by_the_other == 1
    assert Email.objects.get(pk=message).status == STATUS.sent
    assert isinstance(outcome[0], DatabaseError), outcome
    assert "idle-in-transaction timeout" in str(outcome[0])  # PostgreSQL ended its session
    assert len(mail.outbox) == 2  # the stalled send went through after all: one repeat
