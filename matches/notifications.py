"""E-mail about a match, rendered here and written to the outbox in the caller's transaction."""

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string

from accounts.models import PlayerProfile
from core.tasks import queue_emails

ACTIVITY = "email_match_activity"
REMINDERS = "email_reminders"


def notify(
    *,
    recipients,
    subject: str,
    lines: list[str],
    match,
    link: str = "",
    preference: str | None = ACTIVITY,
) -> None:
    """One message per recipient (users), each with the match and a link to act on it, written
    to the outbox in the caller's transaction.

    `preference` names the profile setting that lets a person opt out of this kind of message;
    None for what everyone must hear (the director's rulings, double forfeits)."""
    queue_emails(
        messages(
            recipients=recipients,
            subject=subject,
            lines=lines,
            match=match,
            link=link,
            preference=preference,
        )
    )


def messages(
    *,
    recipients,
    subject: str,
    lines: list[str],
    match,
    link: str = "",
    preference: str | None = ACTIVITY,
) -> list[EmailMultiAlternatives]:
    """The rendered messages `notify` queues, for a caller that queues many matches' at once."""
    link = link or match.get_absolute_url()
    recipients = [user for user in recipients if user.email]
    if preference:
        opted_out = set(
            PlayerProfile.objects.filter(user__in=recipients, **{preference: False}).values_list(
                "user_id", flat=True
            )
        )
        recipients = [user for user in recipients if user.pk not in opted_out]
    rendered = []
    for user in recipients:
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
        rendered.append(message)
    return rendered
