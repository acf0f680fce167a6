"""E-mail leaves through Celery, enqueued after the transaction that caused it commits."""

from celery import shared_task
from django.core.mail import EmailMultiAlternatives


@shared_task(
    # Its name from when it lived in accounts/tasks.py. The name is what a queued message
    # carries, so keeping it lets a worker of this version send mail queued before the move.
    name="accounts.tasks.send_email",
    autoretry_for=(OSError,),  # SMTP down or refusing: retry the message alone, later.
    retry_backoff=30,
    retry_backoff_max=30 * 60,
    max_retries=8,
)
def send_email(
    subject: str, body: str, from_email: str, to: list[str], html: str | None = None
) -> None:
    message = EmailMultiAlternatives(subject=subject, body=body, from_email=from_email, to=to)
    if html:
        message.attach_alternative(html, "text/html")
    message.send()


def queue_email(message) -> None:
    """Send a rendered Django EmailMessage from a Celery task once the current transaction commits."""
    html = next(
        (
            content
            for content, mimetype in getattr(message, "alternatives", [])
            if mimetype == "text/html"
        ),
        None,
    )
    send_email.delay_on_commit(
        str(message.subject), message.body, message.from_email, list(message.to), html
    )
