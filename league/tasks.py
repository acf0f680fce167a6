"""Celery tasks of the league app: thin, taking ids, calling the pipeline."""

from datetime import date

from celery import shared_task
from django.db import OperationalError

from accounts.models import Institution

from .nightly import run_for_institution


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
