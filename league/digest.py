"""The morning digest (nightly step 5): what needs a human, for directors and front-desk staff,
read from the database (the forfeits of every night the run covers, and what waits now), and
sent once a day (``DigestLog`` claims it); nothing to say, no e-mail."""

from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string

from accounts import roles
from accounts.models import Institution, User
from accounts.pending import pending_total
from accounts.selectors import current_season, overdue_checkouts, pending_students
from core.tasks import queue_emails, requeue_failed
from matches.dispute_queue import disputes_waiting
from matches.models import (
    AuditEvent,
    ContactIssue,
    Match,
    MatchStatus,
)

from .models import DigestLog, NightlyRun
from .nights import last_run, night_events

DIGEST_LIST_LIMIT = 25


def digest_content(*, institution: Institution, run: NightlyRun, now: datetime) -> dict:
    """What needs a human this morning, read from the database: the forfeits of every night the
    run covers, and what waits now. Every list is capped, every count is exact."""
    today = run.day
    in_institution = Q(league__season__institution=institution)
    forfeited = AuditEvent.objects.filter(
        night_events(institution, run, now),
        action="double_forfeit",
        match__league__season__institution=institution,
    ).values("match_id")
    forfeits = (
        Match.objects.filter(id__in=forfeited)
        .select_related("league", "round")
        .prefetch_related("seats__player__user")
        .order_by("deadline", "id")
    )
    disputes = (
        disputes_waiting(institution.pk)
        .select_related("report__match__league", "report__match__round", "raised_by__user")
        .order_by("created_at")
    )
    contact = (
        ContactIssue.objects.filter(
            resolved_at__isnull=True, match__league__season__institution=institution
        )
        .select_related("match__league", "match__round", "reported_by__user")
        .order_by("created_at")
    )
    unscheduled = (
        Match.objects.filter(
            in_institution,
            status=MatchStatus.UNSCHEDULED,
            deadline__gt=now,
            deadline__lte=now + timedelta(hours=48),
        )
        .select_related("league", "round")
        .order_by("deadline")
    )
    season = current_season(institution, today)
    pending = pending_students(institution, season)
    overdue = overdue_checkouts(institution, now)
    sections = {
        "forfeits": (forfeits.count(), list(forfeits[:DIGEST_LIST_LIMIT])),
        "disputes": (
            disputes.count(),
            [(d, (now - d.created_at).days) for d in disputes[:DIGEST_LIST_LIMIT]],
        ),
        "contact_issues": (contact.count(), list(contact[:DIGEST_LIST_LIMIT])),
        "pending": (
            pending_total(institution.pk, season.pk if season else None),
            list(pending[:DIGEST_LIST_LIMIT]),
        ),
        "unscheduled": (unscheduled.count(), list(unscheduled[:DIGEST_LIST_LIMIT])),
        "overdue_equipment": (overdue.count(), list(overdue[:DIGEST_LIST_LIMIT])),
    }
    missed = [run.covers_from + timedelta(days=n) for n in range((today - run.covers_from).days)]
    failed = failures_in_words(run.failures)
    return {
        "institution": institution,
        "today": today,
        "season": season,
        "sections": sections,
        "missed_nights": missed,
        "last_run": last_run(institution, before=today),
        "erased": erased_words(run.erased),
        "failed": failed,
        "empty": not missed
        and not failed
        and not any(run.erased.values())
        and all(count == 0 for count, _ in sections.values()),
    }


# What the night's retention erased (P5), in the digest's words, by ``retention.Erased`` key.
ERASED_WORDS = {
    "guest_addresses": ("guest's e-mail address", "guests' e-mail addresses"),
    "volunteer_accounts": ("volunteer account", "volunteer accounts"),
    "past_students": ("student of past seasons", "students of past seasons"),
    "season_records": (
        "roster line, ID check or loan of past seasons",
        "roster lines, ID checks and loans of past seasons",
    ),
}


def erased_words(erased: dict) -> str:
    """ "3 guests' e-mail addresses, 1 volunteer account and 12 students of past seasons"."""
    parts = [
        f"{count} {ERASED_WORDS[key][0] if count == 1 else ERASED_WORDS[key][1]}"
        for key, count in erased.items()
        if count and key in ERASED_WORDS
    ]
    if len(parts) > 1:
        return ", ".join(parts[:-1]) + " and " + parts[-1]
    return "".join(parts)


# What a step that failed left undone, in the digest's and the dashboard's words (a failure's
# `step`, ``league.nightly.NightFailure``).
UNDONE_WORDS = {
    "forfeits": "the double forfeits of its overdue matches were not recorded",
    "confirmations": "its reports past their confirmation window were not confirmed",
    "standings": "its standings, bracket and pages could not be refreshed",
    "bracket": "its bracket and pages could not be refreshed",
    "pages": "its pages could not be refreshed",
    "reminders": "its reminders were not sent",
    "rating": "the ratings stopped at its results: later results wait to be rated",
    "retention": "the retention settings' erasures did not run",
    "digest": "the digest could not be written",
}


def failures_in_words(failures: list[dict]) -> list[dict]:
    """A night's failures (``NightlyRun.failures``) as the digest says them: whose (a league's
    name, or the institution's), what was left undone, and why, in words."""
    return [
        {
            "name": failure["name"],
            "step": failure["step"],
            "undone": UNDONE_WORDS.get(failure["step"], f"its {failure['step']} step failed"),
            "reason": failure["reason"],
        }
        for failure in failures
    ]


def digest_recipients(institution: Institution):
    return (
        User.objects.filter(
            is_active=True,
            profile__institution=institution,
            profile__email_digest=True,
            groups__name__in=[roles.DIRECTORS, roles.FRONT_DESK],
        )
        .distinct()
        .order_by("email")
    )


def digest_send(*, institution: Institution, run: NightlyRun, now: datetime) -> int:
    """Claim the day's digest and queue one e-mail per recipient; nothing to say, no e-mail."""
    today = run.day
    content = digest_content(institution=institution, run=run, now=now)
    if content["empty"]:
        return 0
    recipients = list(digest_recipients(institution))
    if not recipients:
        return 0
    with transaction.atomic():
        log, claimed = DigestLog.objects.select_for_update().get_or_create(
            institution=institution, day=today, defaults={"recipients": len(recipients)}
        )
        if not claimed:
            # This day's digest went out already; what was never delivered (its retries spent)
            # goes out again.
            return requeue_failed(log.email_ids)

        context = {**content, "site_url": settings.SITE_URL}
        subject = f"[Scrabble league] {institution.name}: what needs you today ({today:%b %-d})"
        text = render_to_string("email/digest.txt", context)
        html = render_to_string("email/digest.html", context)
        messages = []
        for user in recipients:
            message = EmailMultiAlternatives(subject=subject, body=text, to=[user.email])
            message.attach_alternative(html, "text/html")
            messages.append(message)
        log.email_ids = queue_emails(messages)
        log.save(update_fields=["email_ids"])
    return len(recipients)
