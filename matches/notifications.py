"""E-mail about a match, rendered here and written to the outbox in the caller's transaction."""

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template import engines

from accounts.models import PlayerProfile
from core.tasks import queue_emails

ACTIVITY = "email_match_activity"


def notify(
    *,
    recipients,
    subject: str,
    lines: list[str],
    match,
    link: str = "",
    preference: str | None = ACTIVITY,
) -> None:
    """One message per recipient (users or players' profiles), each with the match and a link to act on it, written
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


def addressee(person) -> tuple[str, str, object] | None:
    """(address, greeting, profile or user id for preferences) of a user or a player's profile;
    None for someone with nowhere to write: a guest gets mail only at an address they gave."""
    if isinstance(person, PlayerProfile):
        if person.is_guest:
            if not person.email:
                return None
            return person.email, person.display_name, person
        person = person.user
    if not person.email:
        return None
    return person.email, person.first_name or person.email, person.pk


def messages(
    *,
    recipients,
    subject: str,
    lines: list[str],
    match,
    link: str = "",
    preference: str | None = ACTIVITY,
) -> list[EmailMultiAlternatives]:
    """The rendered messages `notify` queues, for a caller that queues many matches' at once.
    `recipients` are users (directors) or players' profiles (a guest's has no user)."""
    link = link or match.get_absolute_url()
    subject = about_match(subject, match)
    addressees = [each for each in map(addressee, recipients) if each is not None]
    if preference:
        user_ids = [who for _, _, who in addressees if isinstance(who, int)]
        opted_out = set(
            PlayerProfile.objects.filter(user__in=user_ids, **{preference: False}).values_list(
                "user_id", flat=True
            )
        )
        addressees = [
            (address, greeting, who)
            for address, greeting, who in addressees
            if (who not in opted_out if isinstance(who, int) else getattr(who, preference))
        ]
    return [
        rendered_message(
            "email/match_update",
            to=address,
            subject=subject,
            context={"greeting": greeting, "lines": lines, "match": match, "link": link},
        )
        for address, greeting, _ in addressees
    ]


def about_match(subject: str, match) -> str:
    """A match's mail names the match and its league in the subject ("Confirm the result:
    388–412 · Tuesday Night League, round 3: Ada Quill v Bo Vance"): a subject with only the
    scores named neither."""
    names = " v ".join(seat.player.name for seat in match.seats.all())
    return f"{subject} · {match.league.name}, round {match.round.number}: {names}"


def rendered_message(template: str, *, to: str, subject: str, context: dict):
    """One e-mail from `template`.txt.jinja and `template`.html.jinja, the site's address in its
    context. Jinja2 (core/jinja.py), not Django's template language: the night writes one to
    each player of every double forfeit, thousands at a large campus."""
    context = {**context, "site_url": settings.SITE_URL}
    jinja = engines["jinja2"]
    message = EmailMultiAlternatives(
        subject=f"[Scrabble league] {subject}",
        body=jinja.get_template(f"{template}.txt.jinja").render(context),
        to=[to],
    )
    html = jinja.get_template(f"{template}.html.jinja").render(context)
    message.attach_alternative(html, "text/html")
    return message
