"""Celery beat schedules live in the database (django-celery-beat), editable in the admin: one
nightly task per institution, at 02:00 in the institution's own time zone."""

import json

from django_celery_beat.models import CrontabSchedule, PeriodicTask

NIGHTLY_TASK = "league.tasks.run_nightly_for_institution"


def sync_nightly_schedule(institution) -> None:

    # Fires at 02:00 every day, institution time: the nightly run of docs/design.md.
    crontab, _ = CrontabSchedule.objects.get_or_create(
        minute="0",
        hour="2",
        day_of_week="*",
        day_of_month="*",
        month_of_year="*",
        timezone=institution.timezone,
    )
    PeriodicTask.objects.update_or_create(
        name=f"Nightly pipeline: {institution.slug}",
        defaults={
            "task": NIGHTLY_TASK,
            "crontab": crontab,
            "args": json.dumps([institution.pk]),
            "enabled": True,
        },
    )
