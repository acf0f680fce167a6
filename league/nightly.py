"""The nightly pipeline, per institution, as the 02:00 run of a day in its time zone.

1. Unreported matches past their deadline become double forfeits (L8), except those waiting on a
   can't-reach-opponent report (L5).
2. Reports nobody disputed within the confirmation window become confirmed.
3. In one transaction (``refresh.refresh_leagues``): every league's standings are rebuilt,
   winners of final bracket matches advance, brackets are built for leagues whose regular season
   is complete (tournaments: once registration has closed) (L11), and their pages are rendered.
4. One reminder 48 hours before the deadline of a match still unscheduled or unreported.
5. The digest for directors and front-desk staff, when there is something to say.

Each step is set-based (its query count grows with leagues, not matches) and idempotent: a second
run of the same day, or two at once, changes nothing more. E-mail is written to the outbox in the
transaction of the step that claims it (core/tasks.py), so a broker outage cannot lose it.
"""

from dataclasses import dataclass, fields
from datetime import date, datetime, time, timedelta

from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string

from accounts import roles
from accounts.models import Institution, User
from accounts.selectors import current_season, overdue_checkouts, pending_students
from core.tasks import queue_emails
from matches.models import (
    OPEN_STATUSES,
    ContactIssue,
    Dispute,
    Match,
    MatchStatus,
    Seat,
)
from matches.services import confirm_stale_reports, forfeit_overdue_matches

from .models import DigestLog, League
from .refresh import refresh_leagues

REMINDER_HOURS = 48
DIGEST_LIST_LIMIT = 25
# Leagues whose season ended longer ago than this are left alone.
SEASON_GRACE_DAYS = 60


@dataclass
class NightlySummary:
    forfeits: int = 0
    auto_confirmed: int = 0
    standings_rebuilt: int = 0
    brackets_built: int = 0
    brackets_advanced: int = 0
    reminders_sent: int = 0
    digests_sent: int = 0

    def __add__(self, other: "NightlySummary") -> "NightlySummary":
        return NightlySummary(
            *(getattr(self, f.name) + getattr(other, f.name) for f in fields(self))
        )

    def line(self) -> str:
        """The one summary line of DESIGN.md's public contract."""
        return " ".join(f"{f.name}={getattr(self, f.name)}" for f in fields(self))


def nightly_moment(institution: Institution, day: date) -> datetime:
    return datetime.combine(day, time(2, 0), tzinfo=institution.tz)


def run_nightly(
    *, today: date | None = None, institution: Institution | None = None
) -> NightlySummary:
    total = NightlySummary()
    for each in [institution] if institution else Institution.objects.order_by("slug"):
        total += run_for_institution(institution=each, today=today or each.today())
    return total


def run_for_institution(*, institution: Institution, today: date) -> NightlySummary:
    now = nightly_moment(institution, today)
    summary = NightlySummary()
    forfeited = forfeit_overdue_matches(now, institution=institution, announce=False)
    summary.forfeits = len(forfeited)
    summary.auto_confirmed = len(
        confirm_stale_reports(now, institution=institution, announce=False)
    )
    league_ids = League.objects.filter(
        season__institution=institution,
        season__ends_on__gte=today - timedelta(days=SEASON_GRACE_DAYS),
    ).values_list("pk", flat=True)
    refreshed = refresh_leagues(league_ids, now=now, today=today, build_brackets=True)
    summary.standings_rebuilt = refreshed.standings_rebuilt
    summary.brackets_advanced = refreshed.brackets_advanced
    summary.brackets_built = refreshed.brackets_built
    summary.reminders_sent = remind_due_matches(institution=institution, now=now)
    summary.digests_sent = digest_send(
        institution=institution, today=today, now=now, forfeited_ids=forfeited
    )
    return summary


# --- Reminders ---------------------------------------------------------------------------------------


def remind_due_matches(*, institution: Institution, now: datetime) -> int:
    """Claim matches due within 48 hours and still unscheduled or unreported, once each, and
    queue the reminders. Returns how many players will be reminded."""
    from matches.tasks import send_reminders

    with transaction.atomic():
        due = list(
            Match.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(
                league__season__institution=institution,
                status__in=OPEN_STATUSES,
                deadline__gt=now,
                deadline__lte=now + timedelta(hours=REMINDER_HOURS),
                reminder_sent_at__isnull=True,
            )
            .values_list("id", flat=True)
        )
        if not due:
            return 0
        Match.objects.filter(id__in=due, reminder_sent_at__isnull=True).update(reminder_sent_at=now)
        players = Seat.objects.filter(match_id__in=due, player__email_reminders=True).count()
        send_reminders(due)  # called, not queued: into the outbox with the claim
    return players


# --- The digest --------------------------------------------------------------------------------------


def digest_content(
    *, institution: Institution, today: date, now: datetime, forfeited_ids: list[int]
) -> dict:
    """What needs a human this morning; every list is capped, every count is exact."""
    in_institution = Q(league__season__institution=institution)
    forfeits = (
        Match.objects.filter(id__in=forfeited_ids)
        .select_related("league", "round")
        .prefetch_related("seats__player__user")
    )
    disputes = (
        Dispute.objects.filter(
            resolved_at__isnull=True, report__match__league__season__institution=institution
        )
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
        "pending": (pending.count(), list(pending[:DIGEST_LIST_LIMIT])),
        "unscheduled": (unscheduled.count(), list(unscheduled[:DIGEST_LIST_LIMIT])),
        "overdue_equipment": (overdue.count(), list(overdue[:DIGEST_LIST_LIMIT])),
    }
    return {
        "institution": institution,
        "today": today,
        "season": season,
        "sections": sections,
        "empty": all(count == 0 for count, _ in sections.values()),
    }


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


def digest_send(
    *, institution: Institution, today: date, now: datetime, forfeited_ids: list[int]
) -> int:
    """Claim the day's digest and queue one e-mail per recipient; nothing to say, no e-mail."""
    content = digest_content(
        institution=institution, today=today, now=now, forfeited_ids=forfeited_ids
    )
    if content["empty"]:
        return 0
    recipients = list(digest_recipients(institution))
    if not recipients:
        return 0
    with transaction.atomic():
        _, claimed = DigestLog.objects.get_or_create(
            institution=institution, day=today, defaults={"recipients": len(recipients)}
        )
        if not claimed:
            return 0  # this day's digest already went out
        from django.conf import settings

        context = {**content, "site_url": settings.SITE_URL}
        subject = f"[Scrabble league] {institution.name}: what needs you today ({today:%b %-d})"
        text = render_to_string("email/digest.txt", context)
        html = render_to_string("email/digest.html", context)
        messages = []
        for user in recipients:
            message = EmailMultiAlternatives(subject=subject, body=text, to=[user.email])
            message.attach_alternative(html, "text/html")
            messages.append(message)
        queue_emails(messages)
    return len(recipients)
