"""Everything the site holds about one person, as one JSON document they download from their
profile (issue 31): their account and profile, eligibility and its history, the roster lines
and picture-ID checks that made it, equipment they borrowed, their league entries, every match
they sat in with its seats and scores, their reports, the disputes, proposals and can't-reach
reports of their matches, the audit trail that names them, their sign-ins (without any
secret), the mail sent to them (not its body) and their own downloads. Each format adds its own
rows through the registry (``league.formats``).

Here, in league, because the document spans accounts, matches and league (accounts must not
import the other two). A fixed number of queries whatever the person's history: every part is
one ``values()`` query, its rows put together in Python.

Others' names appear only where the person sees them on their own pages: their opponents'
names in their matches (P2 lets opponents see each other). Staff who acted are "staff", not
named; an opponent's can't-reach report says when, not the text they wrote about it."""

from allauth.account.models import EmailAddress
from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from post_office.models import STATUS, Email

from accounts import privacy
from accounts.models import (
    Checkout,
    DataExport,
    Eligibility,
    EligibilityEvent,
    IdCheck,
    PlayerProfile,
    RosterEntry,
    SignInLink,
    User,
    UserSession,
)
from ratings.models import ImportedRating, PlayerRating, RatingChange

from . import formats
from .models import CheckIn, Entry, WaitlistEntry
from .personal_matches import match_parts

ABOUT = (
    "Everything this site holds about you, as of exported_at. Times are in your "
    "institution's time zone, with their offset. Your opponents' names are in your matches, "
    "as on your match pages; staff who acted are named only as staff."
)


def personal_data(user: User, profile: PlayerProfile) -> dict:
    """The document for `user`, whose profile is `profile` (the signed-in person's own)."""
    tz = profile.institution.tz

    def when(moment):
        return timezone.localtime(moment, tz).isoformat(timespec="seconds") if moment else None

    document = {
        "about": ABOUT,
        "exported_at": when(timezone.now()),
        "account": _account(user, when),
        "profile": _profile(profile),
        "eligibility": _eligibility(profile, when),
        "roster_entries": _roster_entries(profile, when),
        "id_checks": [
            {
                "season": row["season__name"],
                "checked_at": when(row["checked_at"]),
                "note": row["note"],
            }
            for row in IdCheck.objects.filter(profile=profile)
            .order_by("checked_at", "pk")
            .values("season__name", "checked_at", "note")
        ],
        "equipment_loans": [
            {
                "item": row["item__label"],
                "kind": row["item__kind"],
                "checked_out_at": when(row["checked_out_at"]),
                "due_at": when(row["due_at"]),
                "checked_in_at": when(row["checked_in_at"]),
            }
            for row in Checkout.objects.filter(profile=profile)
            .order_by("checked_out_at", "pk")
            .values("item__label", "item__kind", "checked_out_at", "due_at", "checked_in_at")
        ],
        **_entries(profile, when),
        **match_parts(user, profile, when),
        "ratings": _ratings(profile),
        "sign_in": _sign_in(user, when),
        "mail_to_you": _mail(user, when),
        "your_downloads": [
            {
                "at": when(row["created_at"]),
                "what": row["what"],
                "whose": row["subject"],
                "rows": row["rows"],
            }
            for row in DataExport.objects.filter(actor=user)
            .order_by("created_at", "pk")
            .values("created_at", "what", "subject", "rows")
        ],
    }
    for spec in formats.registered():
        if spec.personal_data:
            document.update(spec.personal_data(user, profile, when))
    return document


def _ratings(profile: PlayerProfile) -> dict:
    """Their rating now, a rating they were imported with, and every rated period, as the
    profile's history shows them (R1, R5): three queries."""
    now = PlayerRating.objects.filter(player=profile).values(
        "rating", "deviation", "games", "last_played"
    )
    imported = ImportedRating.objects.filter(player=profile).values("rating", "deviation")
    periods = (
        RatingChange.objects.filter(player=profile)
        .order_by("period__ends_on", "period__key")
        .values_list(
            "period__ends_on", "period__league__name", "period__round__number",
            "period_games", "rating_before", "rating", "deviation",
        )
    )  # fmt: skip
    return {
        "now": next(({**row, "last_played": _day(row["last_played"])} for row in now), None),
        "imported_as": next(iter(imported), None),
        "periods": [
            {
                "ended": _day(ended),
                "league": league,
                "round": number,  # none: a whole event
                "games": games,
                "before": before,
                "after": after,
                "deviation": deviation,
            }
            for ended, league, number, games, before, after, deviation in periods
        ],
    }


def _day(day) -> str | None:
    return day.isoformat() if day else None


def _account(user: User, when) -> dict:
    return {
        "email": user.email,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "date_joined": when(user.date_joined),
        "last_login": when(user.last_login),
        "email_addresses": list(
            EmailAddress.objects.filter(user=user)
            .order_by("pk")
            .values("email", "verified", "primary")
        ),
    }


def _profile(profile: PlayerProfile) -> dict:
    return {
        "institution": profile.institution.name,
        "campus_id": profile.campus_id,
        "name_where_withheld": privacy.anonymous_name(profile.pk),
        "withhold_my_name": profile.withholds_name,
        "registrar_withholds": profile.registrar_withholds,
        "email_preferences": {
            "match_activity": profile.email_match_activity,
            "reminders": profile.email_reminders,
            "digest": profile.email_digest,
        },
        "calendar_feed_url": settings.SITE_URL
        + reverse("player_calendar", args=[profile.calendar_token]),
    }


def _eligibility(profile: PlayerProfile, when) -> list[dict]:
    """Each season's decision with its history, oldest change first."""
    seasons: dict[str, dict] = {}
    for row in (
        Eligibility.objects.filter(profile=profile)
        .order_by("season__starts_on")
        .values("season__name", "status", "source", "reason", "decided_at")
    ):
        seasons[row["season__name"]] = {
            "season": row["season__name"],
            "status": row["status"],
            "source": row["source"],
            "reason": row["reason"],
            "decided_at": when(row["decided_at"]),
            "history": [],
        }
    for row in (
        EligibilityEvent.objects.filter(profile=profile)
        .order_by("created_at", "pk")
        .values("season__name", "old_status", "new_status", "source", "reason", "created_at")
    ):
        season = seasons.setdefault(
            row["season__name"],
            {"season": row["season__name"], "status": "pending", "history": []},
        )
        season["history"].append(
            {
                "at": when(row["created_at"]),
                "from": row["old_status"],
                "to": row["new_status"],
                "source": row["source"],
                "reason": row["reason"],
            }
        )
    return list(seasons.values())


def _roster_entries(profile: PlayerProfile, when) -> list[dict]:
    """The registrar's lines with their campus ID at their institution."""
    if not profile.campus_id:
        return []
    return [
        {
            "season": row["season__name"],
            "campus_id": row["campus_id"],
            "first_name": row["first_name"],
            "last_name": row["last_name"],
            "email": row["email"],
            "withholds_name": row["withholds_name"],
            "imported_at": when(row["imported_at"]),
        }
        for row in RosterEntry.objects.filter(
            season__institution_id=profile.institution_id, campus_id=profile.campus_id
        )
        .order_by("season__starts_on", "pk")
        .values(
            "season__name",
            "campus_id",
            "first_name",
            "last_name",
            "email",
            "withholds_name",
            "imported_at",
        )
    ]


def _entries(profile: PlayerProfile, when) -> dict:
    entries = [
        {
            "league": row["league__name"],
            "joined_at": when(row["joined_at"]),
            "withdrawn_at": when(row["withdrawn_at"]),
            "withdrawn_reason": row["withdrawn_reason"],
            "player_number": row["player_number"],
            "seed": row["seed"],
        }
        for row in Entry.objects.filter(player=profile)
        .order_by("joined_at", "pk")
        .values(
            "league__name", "joined_at", "withdrawn_at", "withdrawn_reason", "player_number", "seed"
        )
    ]
    waiting = [
        {"league": row["league__name"], "joined_at": when(row["joined_at"])}
        for row in WaitlistEntry.objects.filter(player=profile)
        .order_by("joined_at", "pk")
        .values("league__name", "joined_at")
    ]
    check_ins = [
        {
            "league": row["round__league__name"],
            "round": row["round__number"],
            "checked_in_at": when(row["checked_in_at"]),
        }
        for row in CheckIn.objects.filter(entry__player=profile)
        .order_by("checked_in_at", "pk")
        .values("round__league__name", "round__number", "checked_in_at")
    ]
    return {"league_entries": entries, "waitlist": waiting, "check_ins": check_ins}


def _sign_in(user: User, when) -> dict:
    """When their sessions and one-time links end; never a session key or a link's secret."""
    return {
        "sessions": [
            {"expires_at": when(expires)}
            for expires in UserSession.objects.filter(user=user)
            .order_by("expire_date")
            .values_list("expire_date", flat=True)
        ],
        "sign_in_links": [
            {
                "created_at": when(row["created_at"]),
                "expires_at": when(row["expires_at"]),
                "used_at": when(row["used_at"]),
                "leads_to": row["next_path"],
            }
            for row in SignInLink.objects.filter(user=user)
            .order_by("created_at", "pk")
            .values("created_at", "expires_at", "used_at", "next_path")
        ],
    }


MAIL_STATUS = {value: name for name, value in STATUS._asdict().items()}


def _mail(user: User, when) -> list[dict]:
    """The messages in the outbox addressed to them: when, the subject and whether it went;
    not the body, which may hold a link that signs in or resets a password."""
    address = user.email.lower()
    to_them = (
        Q(to__iexact=address)
        | Q(to__istartswith=f"{address}, ")
        | Q(to__iendswith=f", {address}")
        | Q(to__icontains=f", {address}, ")
    )
    return [
        {
            "at": when(row["created"]),
            "subject": row["subject"],
            "status": MAIL_STATUS.get(row["status"], ""),
        }
        for row in Email.objects.filter(to_them)
        .order_by("created", "pk")
        .values("created", "subject", "status")
    ]
