"""E-mail about a player's place in a league (the waitlist, E1), rendered from
templates/email/league_update.* and written to the outbox in the caller's transaction, as
`matches.notifications` does for a match. Always sent: a place given or lost is news a
player must hear, whatever their preferences."""

from core.tasks import queue_emails
from matches.notifications import addressee, rendered_message


def tell(*, players, subject: str, lines: list[str], league) -> None:
    """One message to each of `players` (profiles) about `league`, with a link to its page."""
    queue_emails(
        [
            rendered_message(
                "email/league_update",
                to=address,
                subject=subject,
                context={
                    "greeting": greeting,
                    "lines": lines,
                    "league": league,
                    "link": league.get_absolute_url(),
                },
            )
            for address, greeting, _ in filter(None, map(addressee, players))
        ]
    )
