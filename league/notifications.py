"""E-mail about a player's place in a league (the waitlist, E1), rendered from
templates/email/league_update.* and written to the outbox in the caller's transaction, as
`matches.notifications` does for a match. Always sent: a place given or lost is news a
player must hear, whatever their preferences."""

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string

from core.tasks import queue_emails
from matches.notifications import addressee


def tell(*, players, subject: str, lines: list[str], league) -> None:
    """One message to each of `players` (profiles) about `league`, with a link to its page."""
    rendered = []
    for address, greeting, _ in filter(None, map(addressee, players)):
        context = {
            "greeting": greeting,
            "lines": lines,
            "league": league,
            "link": league.get_absolute_url(),
            "site_url": settings.SITE_URL,
        }
        message = EmailMultiAlternatives(
            subject=f"[Scrabble league] {subject}",
            body=render_to_string("email/league_update.txt", context),
            to=[address],
        )
        message.attach_alternative(
            render_to_string("email/league_update.html", context), "text/html"
        )
        rendered.append(message)
    queue_emails(rendered)
