"""E-mail: written to the outbox (django-post-office's Email table) in the transaction of the
change it reports, and sent from there by a Celery task that beat starts every few seconds.

The request never talks to the broker for mail, so a Redis outage delays mail and never loses it
or fails the request: what the transaction committed is in the outbox, and what rolled back
never was.

The outbox is sent one message at a time by `send_due_mail`, not by post_office's batch sender:
each message is claimed with a row lock that other senders skip, sent, and marked sent (or
requeued, or failed) before the lock goes, so a sender killed at any moment repeats at most the
one message it had in flight, and any number of senders on any number of hosts share the work
without a lock file. A failed delivery is retried as post_office would (POST_OFFICE in
config/settings.py: MAX_RETRIES, RETRY_INTERVAL, LOG_LEVEL).

No mail is written to or sent to an address in the reserved `.invalid` domain (RFC 2606): a
forgotten person's address becomes one (privacy's P4), so whatever renders mail from their row
afterwards, the outbox never takes it, and the sender checks each message again before it goes.
What was written to their real address before they were forgotten leaves the outbox with their
forgetting (`drop_mail_to`)."""

import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import timedelta
from email.utils import parseaddr

from celery import current_app, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from post_office.models import PRIORITY, STATUS, Email, Log
from post_office.settings import (
    get_log_level,
    get_max_retries,
    get_retry_timedelta,
    get_sending_order,
)
from post_office.utils import cleanup_expired_mails

from .copy import copy_instances

logger = logging.getLogger(__name__)

# Kept this long, whatever became of it; then the daily clean-up deletes it.
KEEP_MAIL_DAYS = 90

_undelivered = ContextVar("undelivered", default=False)


@contextmanager
def undelivered() -> Iterator[None]:
    """Mail queued inside is written to the outbox already expired: post_office never sends an
    expired message. The demo's addresses are made up, and no setting of this process can reach
    the worker that would otherwise send them."""
    token = _undelivered.set(True)
    try:
        yield
    finally:
        _undelivered.reset(token)


def _outbox_row(message, expires_at) -> Email:
    html = next(
        (
            content
            for content, mimetype in getattr(message, "alternatives", [])
            if mimetype == "text/html"
        ),
        "",
    )
    text = message.body
    if getattr(message, "content_subtype", "plain") == "html":
        html, text = message.body, ""
    # The Email row itself, not post_office's mail.send(): that renders subject and bodies as
    # Django templates, and they hold names and notes people typed.
    return Email(
        from_email=message.from_email,
        to=list(message.to),
        cc=list(message.cc),
        bcc=list(message.bcc),
        subject=str(message.subject),
        message=text,
        html_message=html,
        headers=dict(message.extra_headers) or None,
        priority=PRIORITY.medium,
        status=STATUS.queued,
        expires_at=expires_at,
    )


# The top-level domain reserved for addresses that can never be delivered (RFC 2606). A
# forgotten person's placeholder address is in it (accounts/privacy.py, ERASED_DOMAIN).
UNDELIVERABLE_DOMAIN = "invalid"


def deliverable(address: str) -> bool:
    """Whether mail may go to `address` ("Name <a@b>" or a plain address): not to the reserved
    `.invalid` domain, where a forgotten person's address lives (P4). Pure: no query."""
    domain = parseaddr(address)[1].rpartition("@")[2].rstrip(".").lower()
    return domain.rpartition(".")[2] != UNDELIVERABLE_DOMAIN


def _only_deliverable(message) -> bool:
    """Take the undeliverable addresses off `message`'s recipients; returns whether any were."""
    dropped = False
    for field in ("to", "cc", "bcc"):
        addresses = list(getattr(message, field) or [])
        kept = [address for address in addresses if deliverable(address)]
        if len(kept) != len(addresses):
            setattr(message, field, kept)
            dropped = True
    return dropped


def queue_emails(messages: Iterable) -> list[int]:
    """Write rendered Django EmailMessages to the outbox, in the current transaction; returns
    their outbox ids. A recipient at an undeliverable address (a forgotten person's, P4) is
    taken off, and a message left with nobody to go to is not written at all."""
    expires_at = timezone.now() if _undelivered.get() else None
    rows, refused = [], 0
    for message in messages:
        if _only_deliverable(message) and not message.recipients():
            refused += 1
            continue
        rows.append(_outbox_row(message, expires_at))
    if refused:  # counted, not named: the subjects hold people's names
        logger.info("%d message(s) to undeliverable addresses not written to the outbox", refused)
    if not rows:
        return []
    copy_instances(rows)
    if current_app.conf.task_always_eager:
        # No broker and so no beat (the demo, the tests): these messages are sent in-process
        # once this transaction commits.
        ids = [row.pk for row in rows]
        transaction.on_commit(lambda: send_now(ids), robust=True)  # mail never fails a write
    return [row.pk for row in rows]


def requeue_failed(ids: Iterable[int]) -> int:
    """Queue again those of these outbox messages whose retries were spent (status failed):
    they go out on the next tick. Returns how many."""
    failed = list(Email.objects.filter(pk__in=list(ids), status=STATUS.failed))
    Email.objects.filter(pk__in=[e.pk for e in failed]).update(
        status=STATUS.queued, scheduled_time=None, number_of_retries=0
    )
    if failed and current_app.conf.task_always_eager:
        retry = [e.pk for e in failed]
        transaction.on_commit(lambda: send_now(retry), robust=True)
    return len(failed)


def drop_mail_to(addresses: Iterable[str]) -> int:
    """Forget the outbox's mail to these addresses, sent or still queued (privacy's P4): a
    forgotten person's address and the names in their messages leave the outbox with it, and
    what was waiting to go never goes. Returns how many messages were dropped."""
    addresses = [address for address in addresses if address]
    if not addresses:
        return 0
    query = Q()
    for address in addresses:
        query |= Q(to__icontains=address)
    _, deleted = Email.objects.filter(query).delete()  # their logs go with them (cascade)
    return deleted.get(Email._meta.label, 0)


def queue_email(message) -> None:
    """Write one rendered Django EmailMessage to the outbox, in the current transaction."""
    queue_emails([message])


def send_now(ids: list[int]) -> None:
    """Send these outbox messages in this process (the demo, the tests), through the same claim
    as beat's sender: one that another sender holds, or that is not due (expired, say), is not."""
    send_due_mail(ids=ids)


# How long a claim may sit idle before PostgreSQL ends the session holding it. A sender killed
# on its own host lets go at once (its connection closes); one whose host vanished would hold
# its message until TCP gives up on it, two hours by default. Well past the time one message
# takes to hand to the SMTP server (EMAIL_TIMEOUT is 10 s a step).
CLAIM_TIMEOUT = timedelta(minutes=5)


def due_mail():
    """The outbox messages to send now, in sending order: post_office's get_queued() without its
    batch: queued or requeued, scheduled for now or earlier (or not at all), and not expired (an
    expired message is never sent; `undelivered` relies on that)."""
    now = timezone.now()
    return Email.objects.filter(
        Q(scheduled_time__isnull=True) | Q(scheduled_time__lte=now),
        Q(expires_at__isnull=True) | Q(expires_at__gt=now),
        status__in=[STATUS.queued, STATUS.requeued],
    ).order_by(*get_sending_order())


def send_due_mail(*, ids: Iterable[int] | None = None) -> int:
    """Send every due outbox message (or every due one of `ids`), one at a time, until none is
    left that another sender is not holding; returns how many were sent.

    Each message is claimed, delivered and marked in one short transaction of its own:
    `SELECT … FOR UPDATE SKIP LOCKED` takes the next due row that no other sender holds, the
    message goes to the mail backend while the lock is held, and its new status is written
    before the commit lets the lock go. A row lock rather than a conditional UPDATE to a
    "sending" state: PostgreSQL drops the lock the moment a killed sender's connection closes,
    so a crash needs no lease that must expire before someone else sends the message, leaves no
    message stranded in a state post_office's admin does not know, and the one message in flight
    is the only one sent again. Another sender skips held rows instead of waiting for them, so
    senders on any number of hosts share the outbox. One SMTP connection serves every message
    of a run; a failure closes it and the next message opens another."""
    ids = None if ids is None else list(ids)
    backend = get_connection()
    sent = 0
    try:
        while (status := _send_next(backend, ids)) is not None:
            sent += status == STATUS.sent
    finally:
        backend.close()
    return sent


def _send_next(backend, ids: list[int] | None) -> int | None:
    """Claim the next due message, deliver it and record how that went; returns its new status
    (DROPPED for one with nobody deliverable to go to), or None when nothing is left to claim."""
    outermost = not transaction.get_connection().in_atomic_block
    with transaction.atomic():
        if outermost:
            _limit_claim()
        due = due_mail() if ids is None else due_mail().filter(pk__in=ids)
        email = due.select_for_update(skip_locked=True).prefetch_related("attachments").first()
        if email is None:
            return None
        try:
            # post_office's own rendering: headers, Expires, Message-ID, attachments.
            message = email.email_message()
            # Checked again here, on the row already read (no query): a row queue_emails did not
            # write (post_office's own send, the admin, an outbox older than the check) never
            # goes to a forgotten person either (P4).
            if _only_deliverable(message) and not message.recipients():
                return _record_dropped(email)
            # A message without recipients is marked sent, as post_office does: no retry could
            # ever deliver it.
            if message.recipients():
                backend.open()
                backend.send_messages([message])
        except SoftTimeLimitExceeded:
            raise  # the task's time is up: this claim rolls back and the next tick sends it
        except Exception as error:  # noqa: BLE001 - every failure is recorded and retried
            logger.warning("Outbox message %s not delivered: %r", email.pk, error)
            backend.close()
            return _record_failure(email, error)
        return _record_sent(email)


# What `_send_next` answers for a message it dropped instead of sending.
DROPPED = -1


def _record_dropped(email: Email) -> int:
    """A message to nobody but undeliverable addresses leaves the outbox unsent, as
    `drop_mail_to` drops a forgotten person's mail (P4): no retry could ever deliver it."""
    Email.objects.filter(pk=email.pk).delete()
    logger.info("Outbox message %s dropped: its only recipients are undeliverable", email.pk)
    return DROPPED


def _limit_claim() -> None:
    """End this transaction's session if it sits idle longer than CLAIM_TIMEOUT. PostgreSQL only:
    SQLite (the demo's) has neither row locks nor such a setting."""
    connection = transaction.get_connection()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            milliseconds = int(CLAIM_TIMEOUT.total_seconds() * 1000)
            cursor.execute(
                "SELECT set_config('idle_in_transaction_session_timeout', %s, true)",
                [str(milliseconds)],
            )


def _record_sent(email: Email) -> int:
    Email.objects.filter(pk=email.pk).update(status=STATUS.sent, last_updated=timezone.now())
    if get_log_level() >= 2:
        Log.objects.create(email=email, status=STATUS.sent)
    return STATUS.sent


def _record_failure(email: Email, error: Exception) -> int:
    """As post_office's sender does: requeued for RETRY_INTERVAL later while retries remain,
    failed after MAX_RETRIES (the admin's Requeue and `requeue_failed` send it again), and a log
    row with the error (LOG_LEVEL 1 and up)."""
    now = timezone.now()
    retries = email.number_of_retries or 0
    if retries < get_max_retries():
        status, retries, scheduled = STATUS.requeued, retries + 1, now + get_retry_timedelta()
    else:
        status, scheduled = STATUS.failed, email.scheduled_time
    Email.objects.filter(pk=email.pk).update(
        status=status, number_of_retries=retries, scheduled_time=scheduled, last_updated=now
    )
    if get_log_level() >= 1:
        Log.objects.create(
            email=email,
            status=STATUS.failed,
            message=str(error),
            exception_type=type(error).__name__,
        )
    return status


@shared_task(name="core.tasks.send_queued_mail")
def send_queued_mail() -> None:
    """Beat's tick: send what is due, one claimed message at a time (`send_due_mail`). Ticks
    running at once, on one worker or many hosts, share the outbox; a tick killed mid-send
    repeats at most the message it had in flight, and the next tick sends the rest."""
    send_due_mail()


@shared_task(name="core.tasks.cleanup_mail")
def cleanup_mail() -> None:
    cleanup_expired_mails(timezone.now() - timedelta(days=KEEP_MAIL_DAYS))


@shared_task(name="accounts.tasks.send_email")
def send_email(
    subject: str, body: str, from_email: str, to: list[str], html: str | None = None
) -> None:
    """How mail left before the outbox, one task per message. Kept under the name such a message
    carries, so one still in the broker at the deploy is written to the outbox and sent."""
    message = EmailMultiAlternatives(subject=subject, body=body, from_email=from_email, to=to)
    if html:
        message.attach_alternative(html, "text/html")
    queue_email(message)
