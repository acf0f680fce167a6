"""The record of the nightly's runs (``NightlyRun``), per institution: which night ran, which
nights a run covers (the missed ones too), whether one ran lately, and the audit events of the
pipeline's own transitions in the nights a run covers, which the digest and the night's totals
read back (so a run cut short and run again still reports the whole night)."""

import os
import socket
import uuid
from datetime import date, datetime, time, timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from accounts.models import Institution
from core.compiled import CompiledQuery
from core.errors import DomainError

from .models import NightlyRun

# Longer than this without a finished run and the dashboard and the digest warn.
OVERDUE_AFTER = timedelta(hours=36)
# The audit actions of the pipeline's own transitions (steps 1 and 2).
NIGHTLY_ACTIONS = ("double_forfeit", "auto_confirmed")


class NightlyRefused(DomainError):
    """A run for a day before a night that already ran."""


class NightBusy(DomainError):
    """Another worker holds this night's lease (until `until`): it is running the night now."""

    def __init__(self, message: str, until: datetime):
        super().__init__(message)
        self.until = until


# A night's lease outlasts the longest a task may run (Celery kills it at the time limit), so a
# live run never loses it; and it runs out before Celery hands a dead worker's task to another
# (the broker's visibility timeout), which then takes the night over (config/settings.py).
LEASE = timedelta(seconds=settings.NIGHTLY_LEASE_SECONDS)


def lease_holder() -> str:
    """This process, and this attempt: a run's lease names who holds it."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"[:120]


def nightly_moment(institution: Institution, day: date) -> datetime:
    return datetime.combine(day, time(2, 0), tzinfo=institution.tz)


def night_begin(*, institution: Institution, today: date) -> NightlyRun:
    """The record of this night's run, made or found again (a rerun of the same night), covering
    every night since the last finished run, with its lease taken: a conditional update, so of
    two workers given the same night only one runs it (NightBusy for the other) and a lease run
    out is taken over. Refuses a day before a night that already ran."""
    if refusal := night_refusal(institution=institution, today=today):
        raise NightlyRefused(refusal)
    previous = last_run(institution, before=today)
    run, _ = NightlyRun.objects.get_or_create(
        institution=institution,
        day=today,
        defaults={"covers_from": previous.day + timedelta(days=1) if previous else today},
    )
    now, holder = timezone.now(), lease_holder()
    free = Q(lease_until__isnull=True) | Q(lease_until__lte=now)
    if not NightlyRun.objects.filter(free, pk=run.pk).update(
        leased_by=holder, lease_until=now + LEASE
    ):
        run.refresh_from_db(fields=["leased_by", "lease_until"])
        raise NightBusy(
            f"{institution.slug}: the night of {today:%Y-%m-%d} is being run by "
            f"{run.leased_by} (its lease runs until {run.lease_until:%H:%M:%S} UTC).",
            run.lease_until,
        )
    run.leased_by, run.lease_until = holder, now + LEASE
    return run


def night_release(run: NightlyRun) -> None:
    """Give the night's lease back (only if still ours: a lease taken over stays taken)."""
    NightlyRun.objects.filter(pk=run.pk, leased_by=run.leased_by).update(
        leased_by="", lease_until=None
    )


def night_refusal(*, institution: Institution, today: date) -> str | None:
    """Why a run as of `today` may not happen, or None: a later night already ran."""
    later = NightlyRun.objects.filter(institution=institution, day__gt=today).order_by("-day")
    if later := later.first():
        return (
            f"{institution.slug}: the nightly already ran as of {later.day:%Y-%m-%d}; "
            f"a run as of {today:%Y-%m-%d} would undo or redo what it did."
        )
    return None


def _finished_runs(institution_id: int):
    return NightlyRun.objects.filter(
        institution_id=institution_id, finished_at__isnull=False
    ).order_by("-day")


# The dashboard asks on every request (core.compiled, issue 18).
LATEST_RUN = CompiledQuery(
    lambda institution_id: _finished_runs(institution_id)[:1], institution_id=int
)


def last_run(institution: Institution, *, before: date | None = None) -> NightlyRun | None:
    """The latest finished run (before a day): a run cut short is covered by the next one."""
    if before is None:
        return LATEST_RUN.first(institution_id=institution.pk)
    return _finished_runs(institution.pk).filter(day__lt=before).first()


def nightly_overdue(run: NightlyRun | None, now: datetime) -> bool:
    return run is None or now - run.finished_at > OVERDUE_AFTER


def night_events(institution: Institution, run: NightlyRun, now: datetime) -> Q:
    """The audit events of the pipeline's own transitions in the nights this run covers: every
    run stamps them with its night's moment, so those of a run cut short count as well."""
    return Q(
        actor__isnull=True,
        action__in=NIGHTLY_ACTIONS,
        created_at__gte=nightly_moment(institution, run.covers_from),
        created_at__lte=now,
    )
