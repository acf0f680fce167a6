"""One worker runs an institution's night at a time (issue 34): the night's lease on its
NightlyRun, taken by a conditional update, given back at the end, taken over once it runs out
(a worker that died)."""

from datetime import timedelta

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.utils import timezone

from league.models import DigestLog, NightlyRun
from league.nightly import run_for_institution
from league.nights import LEASE, NightBusy
from league.tasks import run_nightly_for_institution
from matches.models import AuditEvent
from tests.support import new_match, refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def overdue(league, director):
    """A match past its deadline, and the day whose night forfeits it."""
    match = new_match(league)
    institution = league.season.institution
    return match, match.deadline.astimezone(institution.tz).date() + timedelta(days=1)


def held_night(institution, day, *, until):
    return NightlyRun.objects.create(
        institution=institution,
        day=day,
        covers_from=day,
        leased_by="other-host:4242:abcd1234",
        lease_until=until,
    )


def test_a_night_another_worker_holds_is_left_to_it_and_nothing_is_done_twice(
    league, overdue, institution
):
    match, day = overdue
    held_night(institution, day, until=timezone.now() + timedelta(minutes=5))

    with pytest.raises(NightBusy, match="is being run by other-host:4242"):
        run_for_institution(institution=institution, today=day)
    # The task tries again once the lease runs out (called directly, Celery raises instead).
    with pytest.raises(NightBusy):
        run_nightly_for_institution(institution.pk, day.isoformat())
    error = refused("run_nightly", "--today", day.isoformat(), "--institution", institution.slug)

    assert "is being run by other-host:4242" in str(error)
    assert not AuditEvent.objects.filter(action="double_forfeit").exists()
    assert not DigestLog.objects.exists()


def test_a_lease_run_out_is_taken_over_and_given_back_when_the_night_is_done(
    league, overdue, institution
):
    match, day = overdue
    held_night(institution, day, until=timezone.now() - timedelta(seconds=1))  # a dead worker

    summary = run_for_institution(institution=institution, today=day)

    assert summary.forfeits == 1 and summary.digests_sent == 1
    night = NightlyRun.objects.get(institution=institution, day=day)
    assert night.finished_at is not None
    assert (night.leased_by, night.lease_until) == ("", None)  # free for a rerun
    # The same night's task handed out again finds it done and does nothing.
    said = run_nightly_for_institution(institution.pk, day.isoformat())
    assert said == f"{institution.slug}: the night of {day:%Y-%m-%d} is done."
    assert DigestLog.objects.count() == 1


def test_the_lease_outlasts_a_task_and_runs_out_before_celery_hands_the_task_out_again(settings):
    assert LEASE > timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT)
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert LEASE < timedelta(seconds=visibility)


def test_a_night_that_fails_gives_its_lease_back_for_the_retry(
    league, overdue, institution, monkeypatch
):
    match, day = overdue

    def broken(**kwargs):  # a step's own failure is noted and the night goes on: not this
        raise SoftTimeLimitExceeded("the task ran out of time")

    monkeypatch.setattr("league.nightly.digest_send", broken)
    with pytest.raises(SoftTimeLimitExceeded):
        run_for_institution(institution=institution, today=day)
    assert NightlyRun.objects.get(day=day).lease_until is None
    monkeypatch.undo()
    assert run_for_institution(institution=institution, today=day).digests_sent == 1
