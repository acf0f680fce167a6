"""The night shared by workers (issue 34), with real processes: four Celery workers take six
campuses' nights, each handed out twice (as a redelivery does), and every campus's night runs
once: its overdue match forfeited once, its digest written once, its lease given back."""

import time
import uuid
from datetime import timedelta

import pytest
from django.conf import settings

from accounts import roles
from config.celery import app
from league.models import DigestLog, NightlyRun
from league.tasks import run_nightly_for_institution
from matches.models import AuditEvent
from tests.project.test_celery_worker import celery, celery_env, stop, wait_for
from tests.support import (
    InstitutionFactory,
    LeagueFactory,
    SeasonFactory,
    new_match,
    staff_member,
)

pytestmark = pytest.mark.system
CAMPUSES = 6
WORKERS = 4


def test_four_workers_run_each_campus_night_once_and_send_each_digest_once(transactional_db):
    campuses = []
    for number in range(CAMPUSES):
        institution = InstitutionFactory(slug=f"campus-{number}", name=f"Campus {number}")
        staff_member(institution, roles.DIRECTORS)
        league = LeagueFactory(season=SeasonFactory(institution=institution))
        campuses.append((institution, new_match(league)))
    day = campuses[0][1].deadline.astimezone(campuses[0][0].tz).date() + timedelta(days=1)
    queue = f"test-{uuid.uuid4().hex[:10]}"
    env = celery_env(settings.CELERY_BROKER_URL, queue, smtp_port=1)
    worker_args = ["worker", "--pool", "solo", "-Q", queue, "--without-heartbeat"]
    workers = [celery(*worker_args, "-n", f"w{n}@%h", env=env) for n in range(WORKERS)]
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        time.sleep(3)  # the workers connect
        for institution, _ in campuses * 2:  # every night handed out twice
            run_nightly_for_institution.apply_async(
                args=[institution.pk, day.isoformat()], queue=queue
            )
        finished = NightlyRun.objects.filter(day=day, finished_at__isnull=False)
        assert wait_for(lambda: finished.count() == CAMPUSES, 120), finished.count()
        time.sleep(3)  # the duplicates run too: they must find their night done or busy
    finally:
        app.conf.task_always_eager = previous
        for worker in workers:
            stop(worker)

    for institution, match in campuses:
        night = NightlyRun.objects.get(institution=institution, day=day)
        assert (night.leased_by, night.lease_until) == ("", None)
        assert AuditEvent.objects.filter(match=match, action="double_forfeit").count() == 1
        assert DigestLog.objects.filter(institution=institution).count() == 1
