"""Celery tasks of the league app: thin, taking ids, calling the pipeline."""

import logging
from datetime import date, timedelta

from celery import shared_task
from django.db import OperationalError
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnavailable

from accounts.models import Institution

from .models import NightlyRun, RefreshFailure, RefreshWanted
from .nightly import run_for_institution
from .nights import NightBusy
from .rating_runs import rate
from .refresh import refresh_when_free, render_wanted_pages

logger = logging.getLogger(__name__)


@shared_task(
    bind=True,
    autoretry_for=(OperationalError,),  # a lock timeout or a lost connection: try the night again
    retry_backoff=60,
    max_retries=5,
)
def run_nightly_for_institution(self, institution_id: int, today: str | None = None) -> str:
    """The 02:00 run for one institution (beat starts one per institution, in its time zone).
    Every step is idempotent, so a retry after a failure redoes only what did not commit. The
    night's lease lets one worker run it at a time: a task that finds the night finished stops
    (Celery handed it out twice); one that finds it held tries again when the lease runs out,
    and takes it over if its holder died (a pool child killed gives its task back at once)."""
    institution = Institution.objects.get(pk=institution_id)
    day = date.fromisoformat(today) if today else institution.today()
    if NightlyRun.objects.filter(
        institution=institution, day=day, finished_at__isnull=False
    ).exists():
        return f"{institution.slug}: the night of {day:%Y-%m-%d} is done."
    try:
        return run_for_institution(institution=institution, today=day).line()
    except NightBusy as busy:
        wait = (busy.until - timezone.now()).total_seconds() + 1
        raise self.retry(countdown=max(wait, 1), exc=busy) from None


# A league whose refresh failed is tried again by the sweep this long after (a new result in it
# tries at once): the error, a total that cannot be stored, say, stays until someone mends it.
RETRY_FAILED_AFTER = timedelta(minutes=1)


@shared_task
def refresh_wanted_leagues() -> int:
    """Beat's sweep every few seconds: refresh the leagues whose results became final while
    another refresh ran and that no request has refreshed since (the end of a hall's burst of
    cards, or a process that died between a result and its refresh, or a refresh that failed a
    minute ago), until none is wanted; then the pages of the events whose cards were counted
    since their last render (``PagesWanted``). Returns how many leagues it refreshed or
    rendered."""
    failed_lately = RefreshFailure.objects.filter(
        failed_at__gt=timezone.now() - RETRY_FAILED_AFTER
    ).values("league_id")
    wanted = list(
        RefreshWanted.objects.exclude(league_id__in=failed_lately).values_list(
            "league_id", flat=True
        )
    )
    refresh_when_free(wanted, mark=False, passes=None)
    return len(wanted) + len(render_wanted_pages())


@shared_task(autoretry_for=(OperationalError,), retry_backoff=5, max_retries=5)
def rate_now(institution_id: int, league_ids: list[int] = ()) -> str:
    """Rate the institution now, not at night: an event's last result is final (R2: an event is
    one period), or a director imported ratings (R5); every page that shows a player whose
    rating moved is rendered again (``rating_runs.rate``). Running it twice changes nothing.
    `league_ids`: kept for tasks queued before it was unused."""
    return rate(Institution.objects.get(pk=institution_id)).line()


def ask_to_rate(institution_id: int, league_ids: list[int] = ()) -> None:
    """Hand `rate_now` to a worker (a second or more at a large campus: too long for a
    request); with the broker away nothing is lost, and the night rates it. Call on commit."""
    try:
        rate_now.delay(institution_id, list(league_ids))
    except BrokerUnavailable:
        logger.warning("Could not ask for %s to be rated now: the night will.", institution_id)
