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

Each league fails alone. A step of every league (forfeits, confirmations, the refresh, reminders)
runs for all of them at once; if that fails, once more for each league on its own, so a league
whose step fails is left as it was and every other is settled, rendered and mailed. A rating
period that fails stops the institution's rating there (later periods wait). The night records
each failure (``NightlyRun.failures``: league, step, reason in words; the error is in the log),
the digest says it, and the next night tries again.
"""

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from datetime import date, datetime, timedelta
from functools import partial

from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone

from accounts.models import Institution
from accounts.pending import pending_fold
from core.isolation import Failure, attempt
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
from .models import League, NightlyRun, RefreshFailure
from .nights import (
    last_run,
    night_begin,
    night_events,
    night_release,
    nightly_moment,
)
from .rating_runs import leagues_showing, rate
from .refresh import refresh_leagues
from .retention import retention_apply

REMINDER_HOURS = 48
# Leagues whose season ended longer ago than this are left alone.
SEASON_GRACE_DAYS = 60


@dataclass(frozen=True)
class NightFailure:
    """A step that failed tonight for one league (or for the whole institution: league "-"),
    the others having gone on: said on standard error, in the night's record and the digest."""

    institution: str  # its slug
    league: str  # the league's slug, or "-" for a step of the whole institution
    name: str  # the league's name, or the institution's
    step: str
    reason: str

    def line(self) -> str:
        """``SLUG: LEAGUE: STEP: reason``, as ``run_nightly`` prints it."""
        return f"{self.institution}: {self.league}: {self.step}: {self.reason}"


@dataclass
class NightlySummary:
    forfeits: int = 0
    auto_confirmed: int = 0
    standings_rebuilt: int = 0
    brackets_built: int = 0
    brackets_advanced: int = 0
    reminders_sent: int = 0
    digests_sent: int = 0
    # Not in the summary line (its keys are the public contract): what failed.
    failures: list[NightFailure] = field(default_factory=list)

    def __add__(self, other: "NightlySummary") -> "NightlySummary":
        return NightlySummary(
            *(getattr(self, name) + getattr(other, name) for name in COUNTS),
            failures=self.failures + other.failures,
        )

    def line(self) -> str:
        """The one summary line of DESIGN.md's public contract."""
        return " ".join(f"{name}={getattr(self, name)}" for name in COUNTS)

    @classmethod
    def from_line(cls, line: str) -> "NightlySummary":
        """A summary read back from its line (a NightlyRun's record); missing keys count 0."""
        values = {}
        for pair in line.split():
            key, _, value = pair.partition("=")
            if key in COUNTS and value.isdecimal():
                values[key] = int(value)
        return cls(**values)


COUNTS = [f.name for f in fields(NightlySummary) if f.name != "failures"]


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
    holds the night's lease meanwhile (``nights.night_begin``): NightBusy while another has it.
    A step that fails for a league is in the summary's ``failures``; the rest of the night ran."""
    run = night_begin(institution=institution, today=today)
    try:
        return _run_night(institution, run, today)
    finally:
        night_release(run)


def _run_night(institution: Institution, run: NightlyRun, today: date) -> NightlySummary:
    earlier = NightlySummary.from_line(run.summary)  # what earlier runs of this night did
    now = nightly_moment(institution, today)
    summary = NightlySummary()
    alone = EachLeagueAlone(institution, summary.failures)
    summary.forfeits = len(
        alone.step(
            "forfeits",
            lambda league_ids: forfeit_overdue_matches(
                now,
                institution=institution,
                announce=False,
                spare_formats=formats.with_trait("director_closes"),
                league_ids=league_ids,
            ),
            [],
        )
    )
    summary.auto_confirmed = len(
        alone.step(
            "confirmations",
            lambda league_ids: confirm_stale_reports(
                now, institution=institution, announce=False, league_ids=league_ids
            ),
            [],
        )
    )
    # Recent leagues, each saying whether its last refresh failed (a failure to clear).
    recent = dict(
        League.objects.filter(
            season__institution=institution,
            season__ends_on__gte=today - timedelta(days=SEASON_GRACE_DAYS),
        )
        .annotate(failing=Exists(RefreshFailure.objects.filter(league=OuterRef("pk"))))
        .values_list("pk", "failing")
    )
    league_ids = set(recent) | touched_leagues(institution=institution, run=run, now=now)
    # The night's results rated (R2) before the pages are rendered, so they show the new ratings;
    # the summary line is the public contract, so what was rated is in the rating periods'
    # own records, not in it.
    rated = alone.rating(lambda: rate(institution, now=now, pages=False))
    refreshed = refresh_leagues(
        league_ids,
        now=now,
        today=today,
        build_brackets=True,
        failing=[league_id for league_id, failing in recent.items() if failing],
    )
    alone.note(refreshed.failed)
    if rated is not None and rated.changed:
        # Leagues of other seasons name players whose rating moved tonight: their pages too.
        others = set(leagues_showing(rated.changed)) - league_ids
        alone.note(refresh_leagues(others, now=now, only_pages=True).failed)
    done = night_done(institution=institution, run=run, now=now)
    summary.standings_rebuilt = refreshed.standings_rebuilt
    summary.brackets_advanced = refreshed.brackets_advanced
    summary.brackets_built = refreshed.brackets_built
    _record_night(run, done, earlier, summary)
    alone.whole("retention", lambda: _erase_as_retention_says(institution, run, today, now))
    summary.reminders_sent = alone.step(
        "reminders",
        lambda league_ids: remind_due_matches(
            institution=institution, now=now, league_ids=league_ids
        ),
        0,
    )
    _record_night(run, done, earlier, summary)  # the digest reads what failed from the record
    summary.digests_sent = (
        alone.whole("digest", lambda: digest_send(institution=institution, run=run, now=now)) or 0
    )
    pending_fold(institution.pk)  # the dashboard's count stays a sum of a few rows
    run.finished_at = timezone.now()
    _record_night(run, done, earlier, summary)
    return summary


class EachLeagueAlone:
    """The night's steps, each failing alone: a step of every league runs for all of them at
    once, and only when that fails for each league on its own; what fails is noted in
    `failures` (``NightFailure``) and the night goes on."""

    def __init__(self, institution: Institution, failures: list[NightFailure]):
        self.institution, self.failures = institution, failures

    def step(self, step: str, work: Callable, nothing):
        """`work(None)` for every league, else `work([league])` for each; returns what the
        runs that worked returned, added together (`nothing` when none did)."""
        about = f"{self.institution.slug}: every league"
        done, failure = attempt(step, lambda: work(None), about=about)
        if failure is None:
            return done
        done = nothing
        for league_id, slug, name in self._leagues():
            one, failure = attempt(
                step, partial(work, [league_id]), about=f"{self.institution.slug}: {slug}"
            )
            if failure is None:
                done = done + one
            else:
                self._add(slug, name, failure)
        return done

    def rating(self, work: Callable):
        """The institution's rating: a period that fails stops it there (``RatingRun``).
        Returns the run, or None when it failed as a whole."""
        run, failure = attempt("rating", work, about=self.institution.slug)
        if failure is not None:
            self._add("-", self.institution.name, failure)
        elif run.stopped is not None:
            league = League.objects.filter(pk=run.stopped.league_id).values("slug", "name")
            found = league.first() or {"slug": "-", "name": self.institution.name}
            self._add(found["slug"], found["name"], run.stopped.failure)
        return run

    def note(self, failed: dict[int, Failure]) -> None:
        """Failures another step kept per league (the refresh's)."""
        if not failed:
            return
        leagues = League.objects.filter(pk__in=list(failed)).values_list("pk", "slug", "name")
        for league_id, slug, name in leagues.order_by("slug"):
            self._add(slug, name, failed[league_id])

    def whole(self, step: str, work: Callable):
        """A step of the whole institution (retention, the digest): a failure is noted."""
        done, failure = attempt(step, work, about=self.institution.slug)
        if failure is not None:
            self._add("-", self.institution.name, failure)
        return done

    def _leagues(self):
        return (
            League.objects.filter(season__institution=self.institution)
            .values_list("pk", "slug", "name")
            .order_by("slug")
        )

    def _add(self, slug: str, name: str, failure: Failure) -> None:
        self.failures.append(
            NightFailure(self.institution.slug, slug, name, failure.step, failure.reason)
        )


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
    run.failures = [asdict(failure) for failure in this_run.failures]
    run.save(update_fields=["finished_at", "summary", "failures"])


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


def remind_due_matches(*, institution: Institution, now: datetime, league_ids=None) -> int:
    """Claim matches due within 48 hours and still unscheduled or unreported, once each (only
    the leagues of `league_ids` when given), and queue the reminders. Returns how many players
    will be reminded."""

    in_leagues = Q() if league_ids is None else Q(league_id__in=list(league_ids))
    with transaction.atomic():
        due = list(
            Match.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(
                in_leagues,
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
