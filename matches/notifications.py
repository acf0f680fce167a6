"""E-mail about a match, rendered here and sent by a Celery task after the transaction commits."""

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string

from accounts.tasks import queue_email


def notify(*, recipients, subject: str, lines: list[str], match, link: str = "") -> None:
    """One message per recipient (users), each with the match and a link to act on it."""
    link = link or match.get_absolute_url()
    for user in recipients:
        if not user.email:
            continue
        context = {
            "user": user,
            "lines": lines,
            "match": match,
            "link": link,
            "site_url": settings.SITE_URL,
        }
        message = EmailMultiAlternatives(
            subject=f"[Scrabble league] {subject}",
            body=render_to_string("email/match_update.txt", context),
            to=[user.email],
        )
        message.attach_alternative(
            render_to_string("email/match_update.html", context), "text/html"
        )
        queue_email(message)
