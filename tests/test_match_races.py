"""Concurrency is real: two reports racing on two database connections, and a confirmation racing
the nightly auto-confirm. Exactly one wins; nothing is doubled or lost."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from matches.models import AuditEvent, MatchStatus, ResultReport
from matches.services import MatchError, confirm_stale_reports, report_confirm, report_submit
from tests.factories import submitted_report


def run_together(*calls):
    """Start every call at the same moment, each in its own thread and database connection."""
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def worker(index, call):
        try:
            barrier.wait(timeout=10)
            outcomes[index] = call()
        except Exception as error:  # noqa: BLE001 - the outcome is the assertion
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


@pytest.mark.parametrize("attempt", range(3))
def test_l7_two_reports_race_and_exactly_one_lands(race_match, attempt):
    match, a, b = race_match
    outcomes = run_together(
        lambda: report_submit(actor=a.user, match=match, first_score=420, second_score=380),
        lambda: report_submit(actor=b.user, match=match, first_score=380, second_score=420),
    )
    landed = [o for o in outcomes if isinstance(o, ResultReport)]
    refused = [o for o in outcomes if isinstance(o, MatchError)]
    assert len(landed) == 1 and len(refused) == 1, outcomes
    assert "already been reported" in refused[0].message
    assert ResultReport.objects.filter(match=match).count() == 1
    assert AuditEvent.objects.filter(match=match, action="reported").count() == 1


def test_a_confirmation_racing_the_nightly_auto_confirm_is_applied_once(race_match):
    match, a, b = race_match
    report = submitted_report(match, by=a, first_score=420, second_score=380)
    ResultReport.objects.filter(pk=report.pk).update(
        confirm_by=timezone.now() - timedelta(minutes=1)
    )

    outcomes = run_together(
        lambda: report_confirm(actor=b.user, report=report),
        lambda: confirm_stale_reports(),
    )

    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED
    confirmations = AuditEvent.objects.filter(
        match=match, action__in=["confirmed", "auto_confirmed"]
    ).count()
    assert confirmations == 1, outcomes
    assert {(s.order, s.score, s.outcome) for s in match.seats.all()} == {
        (1, 420, "win"),
        (2, 380, "loss"),
    }
