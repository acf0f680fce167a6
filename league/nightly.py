"""The nightly pipeline, per institution, as the 02:00 run of a day in its time zone.

1. Unreported matches past their deadline become double forfeits (L8), except those waiting on a
   can't-reach-opponent report (L5).
2. Reports nobody disputed within the confirmation window become confirmed.
3. In one transaction (``refresh.refresh_leagues``): the standings of every league touched since
   the last run (tonight's forfeits and confirmations, anyone's transitions such as rulings) and
   of every league whose season is recent are rebuilt, winners of final bracket matches advance,
   brackets are built for leagues whose regular season is complete (tournaments: once
   registration has closed) (L11), and their pages are rendered.
4. One reminder 48 hours before the deadline of a match still unscheduled or unreported.
5. The digest for directors and front-desk staff, when there is something to say.
6. The rows of the dashboard's pending-eligibility count folded into one per season.

Each run is recorded (``NightlyRun``). A run after missed nights acts once for the whole gap:
steps 1 and 2 take every match and report due since, each final at its own deadline or window,
and the digest says which nights were missed. What the digest lists is read back from the
database (the audit trail of the nights it covers), so a run cut short and run again still
reports the whole night. A day earlier than one already run is refused: it would undo or redo
what that later night did.

Each step is set-based (its query count grows with leagues, not matches) and idempotent: a second
run of the same day, or two at once, changes nothing more. E-mail is written to the outbox in the
transaction of the step that claims it (core/tasks.py), so a broker outage cannot lose it.
"""

from dataclasses import dataclass, fields
from datetime import date, datetime, timedelta

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from accounts.models import Institution
from accounts.pending import pending_fold
from matches.models import (
    OPEN_STATUSES,
    AuditEvent,
    Match,
    Seat,
)
from matches.services import confirm_stale_reports, forfeit_overdue_matches
from matches.tasks import send_reminders

from . import formats
from .digest import digest_send
from .models import League, NightlyRun
from .nights import (
    last_run,
    night_begin,
    night_events,
    night_release,
    nightly_moment,
)
from .rating_runs import rate
from .refresh import refresh_leagues
from .retention import retention_apply

REMINDER_HOURS = 48
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

    @classmethod
    def from_line(cls, line: str) -> "NightlySummary":
        """A summary read back from its line (a NightlyRun's record); missing keys count 0."""
        known = {f.name for f in fields(cls)}
        values = {}
        for pair in line.split():
            key, _, value = pair.partition("=")
            if key in known and value.isdecimal():
                values[key] = int(value)
        return cls(**values)


def run_nightly(
    *, today: date | None = None, institution: Institution | None = None
) -> NightlySummary:
    total = NightlySummary()
    for each in [institution] if institution else Institution.objects.order_by("slug"):
        total += run_for_institution(institution=each, today=today or each.today())
    return total


def run_for_institution(*, institution: Institution, today: date) -> NightlySummary:
    """One night for one institution. Returns what this run did (``run_nightly`` prints it);
    the night's record (``NightlyRun.summary``) totals the whole night instead, every run of it
    included, and is written after each step, so a run cut short leaves what it did. The run
    holds the night's lease meanwhile (``nights.night_begin``): NightBusy while another has it."""
    run = night_begin(institution=institution, today=today)
    try:
        return _run_night(institution, run, today)
    finally:
        night_release(run)


def _run_night(institution: Institution, run: NightlyRun, today: date) -> NightlySummary:
    earlier = NightlySummary.from_line(run.summary)  # what earlier runs of this night did
    now = nightly_moment(institution, today)
    summary = NightlySummary()
    summary.forfeits = len(
        forfeit_overdue_matches(
            now,
            institution=institution,
            announce=False,
            spare_formats=formats.with_trait("director_closes"),
        )
    )
    summary.auto_confirmed = len(
        confirm_stale_reports(now, institution=institution, announce=False)
    )
    recent = League.objects.filter(
        season__institution=institution,
        season__ends_on__gte=today - timedelta(days=SEASON_GRACE_DAYS),
    ).values_list("pk", flat=True)
    league_ids = set(recent) | touched_leagues(institution=institution, run=run, now=now)
    # The night's results rated (R2) before the pages are rendered, so they show the new ratings;
    # the summary line is the public contract, so what was rated is in the rating periods'
    # own records, not in it.
    rate(institution, now=now)
    refreshed = refresh_leagues(league_ids, now=now, today=today, build_brackets=True)
    done = night_done(institution=institution, run=run, now=now)
    summary.standings_rebuilt = refreshed.standings_rebuilt
    summary.brackets_advanced = refreshed.brackets_advanced
    summary.brackets_built = refreshed.brackets_built
    _record_night(run, done, earlier, summary)
    _erase_as_retention_says(institution, run, today, now)
    summary.reminders_sent = remind_due_matches(institution=institution, now=now)
    _record_night(run, done, earlier, summary)
    summary.digests_sent = digest_send(institution=institution, run=run, now=now)
    pending_fold(institution.pk)  # the dashboard's count stays a sum of a few rows
    run.finished_at = timezone.now()
    _record_night(run, done, earlier, summary)
    return summary


def night_done(*, institution: Institution, run: NightlyRun, now: datetime) -> dict[str, int]:
    """The night's forfeits and confirmations read back from the audit trail (whichever run
    made them, as the digest reads them): matches by action. Read once the two steps are over:
    nothing after them adds any."""
    return dict(
        AuditEvent.objects.filter(
            night_events(institution, run, now), match__league__season__institution=institution
        )
        .order_by()
        .values("action")
        .annotate(matches=Count("match_id", distinct=True))
        .values_list("action", "matches")
    )


def night_totals(
    *, done: dict[str, int], earlier: NightlySummary, this_run: NightlySummary
) -> NightlySummary:
    """The whole night's summary: its forfeits and confirmations as ``night_done`` read them;
    the standings rebuilt as the most any run of the night rebuilt (each rebuilds the same
    leagues); brackets, reminders and digests, which happen once, as what the earlier runs
    recorded plus this one's."""
    return NightlySummary(
        forfeits=done.get("double_forfeit", 0),
        auto_confirmed=done.get("auto_confirmed", 0),
        standings_rebuilt=max(earlier.standings_rebuilt, this_run.standings_rebuilt),
        brackets_built=earlier.brackets_built + this_run.brackets_built,
        brackets_advanced=earlier.brackets_advanced + this_run.brackets_advanced,
        reminders_sent=earlier.reminders_sent + this_run.reminders_sent,
        digests_sent=earlier.digests_sent + this_run.digests_sent,
    )


def _erase_as_retention_says(institution, run, today, now) -> None:
    """Retention (P5), after the standings and before the digest, which says what it erased:
    added to what earlier runs of the night erased (a second run finds nothing)."""
    erased = retention_apply(institution=institution, today=today, now=now)
    if erased.any:
        totals = {key: run.erased.get(key, 0) + n for key, n in erased.as_dict().items()}
        run.erased = totals
        NightlyRun.objects.filter(pk=run.pk).update(erased=totals)


def _record_night(run, done, earlier, this_run) -> None:
    run.summary = night_totals(done=done, earlier=earlier, this_run=this_run).line()
    run.save(update_fields=["finished_at", "summary"])


def touched_leagues(*, institution: Institution, run: NightlyRun, now: datetime) -> set[int]:
    """Leagues whose tables tonight must rebuild whatever their season's age: those of tonight's
    forfeits and confirmations, and those where anyone (a director ruling, a player confirming)
    changed a match since the last finished run began."""
    tonight = night_events(institution, run, now)
    people = Q(actor__isnull=False)
    previous = last_run(institution, before=run.day)
    if previous:
        people &= Q(created_at__gte=previous.started_at)
    return set(
        AuditEvent.objects.filter(tonight | people, match__league__season__institution=institution)
        .order_by()
        .values_list("match__league_id", flat=True)
        .distinct()
    )


# --- Reminders ---------------------------------------------------------------------------------------


def remind_due_matches(*, institution: Institution, now: datetime) -> int:
    """Claim matches due within 48 hours and still unscheduled or unreported, once each, and
    queue the reminders. Returns how many players will be reminded."""

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
            # An event's tables are played that evening and scored from cards: nothing to remind.
            .exclude(league__format__in=formats.with_trait("cards_only"))
            .values_list("id", flat=True)
        )
        if not due:
            return 0
        Match.objects.filter(id__in=due, reminder_sent_at__isnull=True).update(reminder_sent_at=now)
        players = Seat.objects.filter(match_id__in=due, player__email_reminders=True).count()
        send_reminders(due)  # called, not queued: into the outbox with the claim
    return players
