"""Each entrant's slip (S4): made when it is first needed (printed at the door, on the sheet of
slips, mailed, shown on a student's home), printed again as a new one when lost (the old link
and code stop working), and found again by its link or its code."""

from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from accounts import roles
from core.errors import NotAllowed
from core.tasks import queue_email
from events.models import EntrantSlip, event_of_league
from events.slips import new_code, new_token, normalised, shown_code
from league.models import Entry
from matches.notifications import rendered_message


def slip_of(entry: Entry) -> EntrantSlip:
    """The entrant's live slip, made now if they have none (the first to ask makes it; a second
    asking at the same moment finds it)."""
    live = EntrantSlip.objects.filter(entry=entry, revoked_at=None).first()
    if live is not None:
        return live
    try:
        with transaction.atomic():
            return EntrantSlip.objects.create(entry=entry, token=new_token(), code=new_code())
    except IntegrityError:  # made meanwhile (or, once in a great while, a code drawn twice)
        return EntrantSlip.objects.filter(entry=entry, revoked_at=None).first() or slip_of(entry)


def slips_of(entries) -> dict[int, EntrantSlip]:
    """Every one of these entrants' live slips, made where missing, by entry id: two queries
    and one insert, whatever their number (the sheet of slips, the mail)."""
    entries = list(entries)
    live = {
        slip.entry_id: slip
        for slip in EntrantSlip.objects.filter(entry__in=entries, revoked_at=None)
    }
    missing = [
        EntrantSlip(entry=entry, token=new_token(), code=new_code())
        for entry in entries
        if entry.pk not in live
    ]
    if missing:
        EntrantSlip.objects.bulk_create(missing, ignore_conflicts=True)
        live = {
            slip.entry_id: slip
            for slip in EntrantSlip.objects.filter(entry__in=entries, revoked_at=None)
        }
    return live


def slip_print_again(*, actor, entry: Entry, now=None) -> EntrantSlip:
    """A lost slip, printed again at the door: a new link and code; the old ones stop working
    on every phone that remembered them. The event's front desk and director only."""
    if not roles.is_front_desk_of(actor, entry.league.season.institution):
        raise NotAllowed("Only the event's front desk and director print a slip again.")
    with transaction.atomic():
        EntrantSlip.objects.filter(entry=entry, revoked_at=None).update(
            revoked_at=now or timezone.now()
        )
        return EntrantSlip.objects.create(entry=entry, token=new_token(), code=new_code())


def live_slip(*, token: str = "", code: str = "") -> EntrantSlip | None:
    """The live slip with this link's token or this typed code, with its entrant and event."""
    found = EntrantSlip.objects.filter(revoked_at=None).select_related(
        "entry__player__user", "entry__league__season__institution"
    )
    if token:
        return found.filter(token=token).first()
    typed = normalised(code)
    return found.filter(code=typed).first() if typed else None


def slip_mail(entry: Entry, now=None) -> bool:
    """Mail the entrant their slip, once, where the players enter their own cards (S4) and the
    entrant gave an address (a guest may not have): written to the outbox with the entry.
    Returns whether it was."""
    league = entry.league
    event = event_of_league(league)
    address = entry.player.address
    if not (event.self_entry and address):
        return False
    slip = slip_of(entry)
    if slip.mailed_at is not None:
        return False
    day = f" on {event.date:%A %-d %B}" if event.date else ""
    number = f" (No. {entry.player_number})" if entry.player_number else ""
    queue_email(
        rendered_message(
            "email/entrant_slip",
            to=address,
            subject=f"Your slip for {league}",
            context={
                "greeting": entry.player.name,
                "lines": [
                    f"You play at {league}{day}{number}. At every table you confirm your "
                    "table's card from your phone: open the link below on it once, and it knows "
                    "you until the day after the event.",
                    f"Can't open it on your phone? Type your slip's code, {shown_code(slip.code)}, "
                    f"at {settings.SITE_URL}{reverse('slip_code')}.",
                    "Keep this e-mail to yourself: whoever opens the link can confirm for you. "
                    "A slip printed at the door is the same slip.",
                ],
                "link": settings.SITE_URL + reverse("slip_page", args=[slip.token]),
                "button": "Open my slip on this phone",
            },
        )
    )
    EntrantSlip.objects.filter(pk=slip.pk).update(mailed_at=now or timezone.now())
    return True
