"""Concurrency is real: two reports racing on two database connections, and a confirmation racing
the nightly auto-confirm. Exactly one wins; nothing is doubled or lost."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import roles
from matches.models import AuditEvent, ContactIssue, Dispute, MatchStatus, ResultReport
from matches.services import (
    MatchError,
    Ruling,
    confirm_stale_reports,
    contact_issue_report,
    report_confirm,
    report_dispute,
    report_submit,
    rule,
)
from tests.support import run_together, staff_member, submitted_report


@pytest.fixture
def two_directors(race_match, institution):
    return [staff_member(institution, roles.DIRECTORS).user for _ in range(2)]


@pytest.mark.parametrize("attempt", range(3))
def test_l7_two_reports_race_and_exactly_one_lands(race_match, attempt):
    match, a, b = race_match
    outcomes = run_together(
        lambda: report_submit(actor=a.user, match=match, scores=[420, 380]),
        lambda: report_submit(actor=b.user, match=match, scores=[380, 420]),
    )
    landed = [o for o in outcomes if isinstance(o, ResultReport)]
    refused = [o for o in outcomes if isinstance(o, MatchError)]
    assert len(landed) == 1 and len(refused) == 1, outcomes
    assert "already been reported" in refused[0].message
    assert ResultReport.objects.filter(match=match).count() == 1
    assert AuditEvent.objects.filter(match=match, action="reported").count() == 1


def test_a_confirmation_racing_the_nightly_auto_confirm_is_applied_once(race_match):
    match, a, b = race_match
    report = submitted_report(match, by=a, scores=[420, 380])
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


@pytest.mark.parametrize("attempt", range(3))
def test_l9_two_rulings_on_one_dispute_at_once_exactly_one_lands(
    race_match, two_directors, attempt
):
    """Both directors opened the same dispute; the second to commit finds it resolved."""
    match, a, b = race_match
    report = report_submit(actor=a.user, match=match, scores=[420, 380])
    dispute = report_dispute(actor=b.user, report=report, scores=[400, 410], note="Miscounted.")
    first, second = two_directors

    outcomes = run_together(
        lambda: rule(
            actor=first, match=match, dispute=dispute, ruling=Ruling.UPHOLD, reason="Sheet agrees."
        ),
        lambda: rule(
            actor=second,
            match=match,
            dispute=dispute,
            ruling=Ruling.DOUBLE_FORFEIT,
            reason="Neither kept score.",
        ),
    )

    refused = [o for o in outcomes if isinstance(o, MatchError)]
    assert len(refused) == 1, outcomes
    assert "already been resolved" in refused[0].message
    rulings = AuditEvent.objects.filter(match=match, action__in=["report_upheld", "double_forfeit"])
    assert rulings.count() == 1
    dispute.refresh_from_db()
    match.refresh_from_db()
    assert dispute.resolution == (
        Dispute.Resolution.UPHELD if match.status == MatchStatus.RESOLVED else "double_forfeit"
    )


@pytest.mark.parametrize("attempt", range(3))
def test_l5_two_decisions_on_one_cant_reach_report_at_once_exactly_one_lands(
    race_match, two_directors, attempt
):
    """One director extends the deadline while another awards a forfeit: one decision stands,
    and the report records that one, by that director."""
    match, a, b = race_match
    issue = contact_issue_report(
        actor=a.user, match=match, attempts="Texted Monday and Wednesday, no answer."
    )
    first, second = two_directors

    outcomes = run_together(
        lambda: rule(
            actor=first,
            match=match,
            contact_issue=issue,
            ruling=Ruling.EXTEND,
            new_deadline=match.deadline + timedelta(days=3),
            reason="One more week.",
        ),
        lambda: rule(
            actor=second,
            match=match,
            contact_issue=issue,
            ruling=Ruling.FORFEIT,
            forfeiting=[2],
            reason="Tried enough.",
        ),
    )

    refused = [o for o in outcomes if isinstance(o, MatchError)]
    assert len(refused) == 1, outcomes
    assert "already been decided" in refused[0].message
    issue.refresh_from_db()
    match.refresh_from_db()
    extended = match.status != MatchStatus.FORFEIT
    assert issue.resolved_by == (first if extended else second)
    assert issue.resolution.startswith("extend" if extended else "forfeit")
    decisions = AuditEvent.objects.filter(match=match, action__in=["deadline_extended", "forfeit"])
    assert decisions.count() == 1
    assert ContactIssue.objects.filter(match=match, resolved_at__isnull=True).count() == 0
