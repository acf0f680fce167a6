"""E-mail: written to the outbox (django-post-office's Email table) in the transaction of the
change it reports, and sent from there by a Celery task that beat starts every few seconds.

The request never talks to the broker for mail, so a Redis outage delays mail and never loses it
or fails the request: what the transaction committed is in the outbox, and what rolled back
never was. Delivery is retried by post_office (POST_OFFICE in config/settings.py)."""

import hashlib
import os
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import timedelta

from celery import current_app, shared_task
from django.db import connection, transaction
from django.utils import timezone
from post_office.mail import send_queued_mail_until_done
from post_office.models import PRIORITY, STATUS, Email
from post_office.utils import cleanup_expired_mails

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


def queue_emails(messages: Iterable) -> list[int]:
    """Write rendered Django EmailMessages to the outbox, in the current transaction; returns
    their outbox ids."""
    expires_at = timezone.now() if _undelivered.get() else None
    rows = [_outbox_row(message, expires_at) for message in messages]
    if not rows:
        return []
    Email.objects.bulk_create(rows)
    if current_app.conf.task_always_eager:
        # No broker and so no beat (the demo, the tests): these messages are sent in-process
        # once this transaction commits.
        ids = [row.pk for row in rows]
        transaction.on_commit(lambda: send_now(ids))
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
        transaction.on_commit(lambda: send_now(retry))
    return len(failed)


def queue_email(message) -> None:
    """Write one rendered Django EmailMessage to the outbox, in the current transaction."""
    queue_emails([message])


def send_now(ids: list[int]) -> None:
    """Send these outbox messages in this process (the demo, the tests); an expired one is not."""
    for email in Email.objects.filter(pk__in=ids, status=STATUS.queued, expires_at__isnull=True):
        email.dispatch()


def _lock_file() -> str:
    """One sender at a time per database on this host: post_office's lock file, named after the
    database so that deployments (or test runs) sharing a machine never wait for each other."""
    name = hashlib.sha1(str(connection.settings_dict["NAME"]).encode()).hexdigest()[:12]
    return os.path.join(tempfile.gettempdir(), f"scrabble-league-outbox-{name}")


@shared_task(name="core.tasks.send_queued_mail")
def send_queued_mail() -> None:
    """Beat's tick: send the outbox batch by batch until nothing is due. A failed delivery is
    requeued on its own (POST_OFFICE's MAX_RETRIES, RETRY_INTERVAL); a second tick while a
    first still sends finds the lock taken and leaves."""
    send_queued_mail_until_done(lockfile=_lock_file())


@shared_task(name="core.tasks.cleanup_mail")
def cleanup_mail() -> None:
    cleanup_expired_mails(timezone.now() - timedelta(days=KEEP_MAIL_DAYS))


@shared_task(name="accounts.tasks.send_email")
def send_email(
    subject: str, body: str, from_email: str, to: list[str], html: str | None = None
) -> None:
    """How mail left before the outbox, one task per message. Kept under the name such a message
    carries, so one still in the broker at the deploy is written to the outbox and sent."""
    from django.core.mail import EmailMultiAlternatives

    message = EmailMultiAlternatives(subject=subject, body=body, from_email=from_email, to=to)
    if html:
        message.attach_alternative(html, "text/html")
    queue_email(message)
