"""Celery tasks of the league app: thin, taking ids, calling the pipeline."""

from datetime import date

from celery import shared_task
from django.db import OperationalError

from accounts.models import Institution

from .models import RefreshWanted
from .nightly import run_for_institution
from .rating_runs import rate
from .refresh import refresh_when_free


@shared_task(
    autoretry_for=(OperationalError,),  # a lock timeout or a lost connection: try the night again
    retry_backoff=60,
    max_retries=5,
)
def run_nightly_for_institution(institution_id: int, today: str | None = None) -> str:
    """The 02:00 run for one institution (beat starts one per institution, in its time zone).
    Every step is idempotent, so a retry after a failure redoes only what did not commit."""
    institution = Institution.objects.get(pk=institution_id)
    day = date.fromisoformat(today) if today else institution.today()
    return run_for_institution(institution=institution, today=day).line()


@shared_task
def refresh_wanted_leagues() -> int:
    """Beat's sweep every few seconds: refresh the leagues whose results became final while
    another refresh ran and that no request has refreshed since (the end of a hall's burst of
    cards, or a process that died between a result and its refresh), until none is wanted.
    Returns how many leagues were wanted."""
    wanted = list(RefreshWanted.objects.values_list("league_id", flat=True))
    refresh_when_free(wanted, mark=False, passes=None)
    return len(wanted)


@shared_task(autoretry_for=(OperationalError,), retry_backoff=5, max_retries=5)
def rate_finished_event(institution_id: int, league_id: int) -> str:
    """An event's last result is final: rate the institution now (R2: an event is one period)
    and show the new ratings on the event's pages; other leagues' pages show them after the
    night. Running it twice changes nothing."""
    run = rate(Institution.objects.get(pk=institution_id))
    refresh_when_free([league_id])
    return run.line()
