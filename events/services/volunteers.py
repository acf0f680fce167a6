"""An event's volunteer scorers (E3): invited by name and address, accounts of the director's
institution that log in with a one-time link (by e-mail, or on a printed slip)."""

import secrets
from datetime import datetime, time, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.urls import reverse
from django.utils import timezone

from accounts.models import PlayerProfile, SignInLink, User
from accounts.services import profiles_forget, sign_in_link_create, volunteer_account_create
from core.tasks import queue_email
from events.models import CodeAttempt, EventScorer, event_of_league
from events.rights import (
    EventError,
    lock_event,
    require,
)
from league.models import League
from matches.notifications import rendered_message

# --- Volunteers ---------------------------------------------------------------------------------


def scorer_access_ends(league: League) -> datetime:
    """When a volunteer's rights and links end: at the end of the day after the event."""
    day = (event_of_league(league).date or league.season.institution.today()) + timedelta(days=2)
    return datetime.combine(day, time(0, 0), tzinfo=league.season.institution.tz)


def scoring_path(league: League) -> str:
    """Where a volunteer's link leads: the event's scoring table, at the round in play."""
    return reverse("event_scoring_now", args=[league])


def scorer_invite(*, actor, league: League, name: str, email: str, now=None) -> EventScorer:
    """The director invites a volunteer to enter this event's score cards, by name and address.
    Volunteers belong to the director's institution: an address without an account gets a new
    account there; one whose account is this institution's is attached; one whose account is
    another institution's (or a site admin's) is never attached, and its owner is told so. The
    director sees "invited" in every case, so the page tells nobody whether, or where, an
    address has an account. An attached volunteer is mailed a one-time log-in link (following
    it verifies the address); inviting the same address again sends a fresh one."""
    now = now or timezone.now()
    name = " ".join((name or "").split())
    email = (email or "").strip().lower()
    if not name:
        raise EventError("Give the volunteer's name.")
    if len(name) > 150:
        raise EventError(f"A name is at most 150 characters ({len(name)} given): shorten it.")
    if len(email) > 254:
        raise EventError(f"An e-mail address is at most 254 characters ({len(email)} given).")
    try:
        validate_email(email)
    except ValidationError:
        raise EventError(f"{email!r} is not an e-mail address.") from None
    with transaction.atomic():
        league = lock_event(league)
        require(actor, league)
        institution = league.season.institution
        if now >= scorer_access_ends(league):
            raise EventError(f"{league} is over: volunteers score until the day after it.")
        scorer = EventScorer.objects.filter(league=league, email=email).first()
        if scorer is None:
            user = User.objects.filter(email__iexact=email).select_related("profile").first()
            if user is None:
                user = volunteer_account_create(institution=institution, name=name, email=email)
            elif user.institution is None or user.institution.pk != institution.pk:
                user = None
            elif attached := EventScorer.objects.filter(league=league, user=user).first():
                scorer = attached
            if scorer is None:
                scorer = EventScorer.objects.create(
                    league=league, name=name, email=email, user=user, created_by=actor
                )
        _send_invitation(league, scorer, now)
    return scorer


def _log_in_url(token: str) -> str:
    return settings.SITE_URL + reverse("sign_in_link", args=[token])


def _send_invitation(league: League, scorer: EventScorer, now) -> None:
    if scorer.user is None:
        lines = [
            f"The director of {league} at {league.season.institution.name} invited this address "
            "to enter the event's score cards.",
            "This address already has an account with another institution, so it cannot be "
            "used for their volunteers. If you are volunteering, give the director another "
            "address.",
        ]
        link, button = league.get_absolute_url(), f"Open {league}"
        link = settings.SITE_URL + link
    else:
        token = sign_in_link_create(
            user=scorer.user,
            expires_at=scorer_access_ends(league),
            next_path=scoring_path(league),
            now=now,
        )
        lines = [
            f"You are a volunteer scorer at {league}"
            + (
                f" on {event_of_league(league).date:%A %-d %B}"
                if event_of_league(league).date
                else ""
            )
            + ": you enter the tables' score cards at the scoring table.",
            "The button logs you in once, without a password, until the end of the day after "
            "the event. Keep this e-mail to yourself: whoever follows the link is logged in as "
            "you.",
        ]
        link, button = _log_in_url(token), "Log in to score"
    queue_email(
        rendered_message(
            "email/volunteer_invitation",
            to=scorer.email,
            subject=f"Volunteer scorer at {league}",
            context={"greeting": scorer.name, "lines": lines, "link": link, "button": button},
        )
    )


def scorer_slip(*, actor, league: League, scorer: EventScorer, now=None) -> str:
    """A fresh one-time log-in link for the director to print on a slip and hand over. An
    invitation nobody could be attached to gets a link that leads nowhere, so that the slip,
    like the page, does not tell the director the address has an account elsewhere."""
    now = now or timezone.now()
    with transaction.atomic():
        league = lock_event(league)
        require(actor, league)
        scorer = EventScorer.objects.select_related("user").get(pk=scorer.pk, league=league)
        if now >= scorer_access_ends(league):
            raise EventError(f"{league} is over: volunteers score until the day after it.")
        if scorer.user is None:
            return _log_in_url(secrets.token_hex(20))
        token = sign_in_link_create(
            user=scorer.user,
            expires_at=scorer_access_ends(league),
            next_path=scoring_path(league),
            now=now,
        )
        return _log_in_url(token)


def scorer_remove(*, actor, league: League, scorer: EventScorer) -> None:
    """The volunteer may no longer enter this event's cards; their unused links to it end."""
    with transaction.atomic():
        league = lock_event(league)
        require(actor, league)
        scorer = EventScorer.objects.filter(pk=scorer.pk, league=league).first()
        if scorer is None:
            return
        if scorer.user is not None:
            SignInLink.objects.filter(
                user=scorer.user,
                used_at__isnull=True,
                # Links made before they led to the scoring table led to the event's page.
                next_path__in=[scoring_path(league), league.get_absolute_url()],
            ).update(used_at=timezone.now())
        scorer.delete()


def forget_volunteers(institution, cutoff, now) -> int:
    """Retention (P5): volunteers' accounts (invited to score, no role, no campus ID) whose
    last event was before `cutoff` are forgotten as P4 forgets; a volunteer who is also a
    student or staff keeps their account, only the invitations' copies of it go with the
    student. Returns how many were forgotten."""
    last_event = (
        EventScorer.objects.filter(user=OuterRef("user"))
        .order_by("-league__event__date")
        .values("league__event__date")[:1]
    )
    helpers = (
        PlayerProfile.objects.filter(
            institution=institution,
            erased_at__isnull=True,
            campus_id="",
            user__is_staff=False,
            user__groups__isnull=True,
            user__scorer_for__isnull=False,
        )
        .annotate(last_event=Subquery(last_event))
        .filter(last_event__lt=cutoff)
        .values_list("pk", flat=True)
        .distinct()
    )
    forgotten = profiles_forget(helpers, now=now)
    # The slip codes' attempts keep a device cookie's id: they go with the guests' addresses
    # (S4, P5); they matter only while the evening's cards are settled. A wrong code typed on
    # the slip page names no event: it goes once it is as old.
    CodeAttempt.objects.filter(
        league__season__institution=institution, league__event__date__lt=cutoff
    ).delete()
    CodeAttempt.objects.filter(league=None, at__date__lt=cutoff).delete()
    return forgotten
