"""What a player may do about a match now: one policy (matches/policy.py) that the services
enforce, the match page shows and "My matches" words. Pure cases first, then the two places
where the page and the services used to disagree (the policy won)."""

from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from matches.models import MatchStatus, ReportStatus, ResultReport
from matches.policy import Action, MatchFacts, next_step, refusal
from matches.services import (
    MatchError,
    contact_issue_report,
    equipment_agree,
    report_dispute,
    report_submit,
)

NOW = datetime(2026, 11, 20, 12, tzinfo=UTC)
ME, THEM = 1, 2


def facts(**given):
    return MatchFacts(
        **{"status": MatchStatus.UNSCHEDULED, "deadline": NOW + timedelta(days=3), **given}
    )


def test_l1_either_player_proposes_before_the_deadline_and_only_the_other_accepts():
    assert refusal(Action.PROPOSE, facts(), ME, NOW) is None
    proposed = facts(proposal_by=ME)
    assert refusal(Action.ACCEPT, proposed, THEM, NOW) is None
    assert "Your opponent accepts" in refusal(Action.ACCEPT, proposed, ME, NOW)
    assert "no open proposal" in refusal(Action.ACCEPT, facts(), THEM, NOW)


def test_l7_after_the_deadline_only_the_director_records_the_result():
    late = NOW + timedelta(days=4)
    for action in (Action.PROPOSE, Action.ACCEPT, Action.REPORT):
        assert "deadline for this match has passed" in refusal(
            action, facts(proposal_by=THEM), ME, late
        )
    # Telling the office about an unreachable opponent is still allowed (L5).
    assert refusal(Action.REPORT_CONTACT, facts(), ME, late) is None


@pytest.mark.parametrize("status", [MatchStatus.REPORTED, MatchStatus.DISPUTED])
def test_l7_a_match_reported_once_is_not_reported_again(status):
    assert "already been reported" in refusal(Action.REPORT, facts(status=status), ME, NOW)


@pytest.mark.parametrize(
    "status", [MatchStatus.DOUBLE_FORFEIT, MatchStatus.FORFEIT, MatchStatus.RESOLVED]
)
def test_l8_a_final_match_takes_no_report_and_no_proposal(status):
    assert "already final" in refusal(Action.REPORT, facts(status=status), ME, NOW)
    assert "no longer propose times" in refusal(Action.PROPOSE, facts(status=status), ME, NOW)


def test_l6_l9_only_the_opponent_answers_a_report_and_disputes_only_within_the_window():
    reported = facts(
        status=MatchStatus.REPORTED,
        report_status=ReportStatus.PENDING,
        report_by=THEM,
        report_confirm_by=NOW + timedelta(hours=1),
    )
    assert refusal(Action.CONFIRM, reported, ME, NOW) is None
    assert refusal(Action.DISPUTE, reported, ME, NOW) is None
    assert "confirm your report, not you" in refusal(Action.CONFIRM, reported, THEM, NOW)
    assert "Only the other players" in refusal(Action.DISPUTE, reported, THEM, NOW)
    late = NOW + timedelta(hours=2)
    assert "window to dispute closed" in refusal(Action.DISPUTE, reported, ME, late)
    # Confirming late is fine: the nightly would confirm it anyway.
    assert refusal(Action.CONFIRM, reported, ME, late) is None


def test_l5_one_cant_reach_report_at_a_time():
    assert "already has a can't-reach" in refusal(
        Action.REPORT_CONTACT, facts(waiting_on_director=True), ME, NOW
    )


def test_my_matches_next_step_follows_the_policy():
    assert next_step(facts(), ME, NOW).text == "Propose times to your opponent"
    assert next_step(facts(proposal_by=THEM), ME, NOW).needs_you
    assert not next_step(facts(proposal_by=ME), ME, NOW).needs_you
    late = NOW + timedelta(days=4)
    assert next_step(facts(), ME, late).text == "Deadline passed: the director decides"
    reported = facts(
        status=MatchStatus.REPORTED, report_status=ReportStatus.PENDING, report_by=THEM
    )
    assert next_step(reported, ME, NOW).text == "Confirm or dispute the reported result"
    assert not next_step(reported, THEM, NOW).needs_you


def test_l4_equipment_can_be_agreed_while_a_cant_reach_report_waits(
    client, match, player, opponent
):
    """The page hid the equipment form while a can't-reach report was open, though the service
    accepted it: the policy (the service's rule) won, and the page now offers it."""
    contact_issue_report(actor=player.user, match=match, attempts="Called twice, no answer.")
    client.force_login(player.user)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert "Play with another dictionary or board" in page
    assert "I can't reach my opponent</summary>" not in page
    equipment_agree(actor=player.user, match=match, description="A travel board")
    client.force_login(opponent.user)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert "Proposed: <strong>A travel board</strong>" in page and "I agree" in page
    client.post(reverse("match_equipment", args=[match.pk]), {"description": "A travel board"})
    match.refresh_from_db()
    assert match.agreed_equipment == "A travel board"


def test_l9_the_page_offers_no_dispute_after_the_window_closed(client, match, player, opponent):
    """The page offered the dispute form after the confirmation window, and the service then
    refused it: the page now asks the same policy, so only Confirm is offered."""
    report = report_submit(actor=opponent.user, match=match, scores=[350, 420])
    ResultReport.objects.filter(pk=report.pk).update(
        confirm_by=timezone.now() - timedelta(minutes=5)
    )
    client.force_login(player.user)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert "Confirm this result" in page
    assert "Send dispute to the director" not in page
    with pytest.raises(MatchError, match="window to dispute closed"):
        report_dispute(actor=player.user, report=report, scores=[360, 420], note="Off by 10.")
