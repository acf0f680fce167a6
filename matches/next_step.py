"""The one thing a player should do next about a match, for "My matches"."""

from dataclasses import dataclass

from .models import MatchStatus, ReportStatus


@dataclass(frozen=True)
class NextStep:
    text: str
    needs_you: bool  # the player, not someone else, must act


def next_step(match, seat, now) -> NextStep:
    """Reads only what `matches_for_home` prefetched: no queries."""
    status = match.status
    if status == MatchStatus.BYE:
        return NextStep("Bye this round: a win, nothing to do", False)
    if match.is_final:
        return NextStep(
            f"Final: {seat.get_outcome_display().lower() or match.get_status_display().lower()}",
            False,
        )
    if status == MatchStatus.DISPUTED:
        return NextStep("Disputed: the director will rule", False)
    report = match.live_reports[0] if match.live_reports else None
    if status == MatchStatus.REPORTED and report and report.status == ReportStatus.PENDING:
        if report.submitted_by_id == seat.player_id:
            return NextStep("Reported: waiting for your opponent to confirm", False)
        return NextStep("Confirm or dispute the reported result", True)
    if any(issue.resolved_at is None for issue in match.contact_issues.all()):
        return NextStep("Waiting for the director (can't reach opponent)", False)
    if now > match.deadline:
        return NextStep("Deadline passed: the director decides", False)
    if status == MatchStatus.SCHEDULED:
        if match.scheduled_at and match.scheduled_at > now:
            return NextStep("Play at the scheduled time", True)
        return NextStep("Report the result (the winner reports)", True)
    proposal = match.open_proposals[0] if match.open_proposals else None
    if proposal is None:
        return NextStep("Propose times to your opponent", True)
    if proposal.proposed_by_id == seat.player_id:
        return NextStep("Waiting for your opponent to accept a time", False)
    return NextStep("Accept one of the proposed times", True)
