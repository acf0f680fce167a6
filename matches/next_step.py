"""The one thing a player should do next about a match, for "My matches"."""

from dataclasses import dataclass, field
from datetime import datetime

from .models import FINAL_STATUSES, MatchStatus, Outcome, ReportStatus


@dataclass(frozen=True)
class NextStep:
    text: str
    needs_you: bool  # the player, not someone else, must act


@dataclass
class Opponent:
    full_name: str
    first_name: str
    email: str


@dataclass
class MyMatch:
    """What "My matches" shows of one match, from one player's seat: plain values read by
    ``league.selectors.my_matches`` in one query, in this order, no model instances."""

    id: int
    status: str
    deadline: datetime
    scheduled_at: datetime | None
    league_name: str
    round_number: int
    my_outcome: str = ""
    proposal_by: int | None = None  # who made the open time proposal, if any
    report_status: str | None = None  # the live report's status, if any
    report_by: int | None = None
    waiting_on_director: bool = False  # an open can't-reach report (L5)
    opponents: list[Opponent] = field(default_factory=list)

    @property
    def is_final(self) -> bool:
        return self.status in FINAL_STATUSES


def next_step(match: MyMatch, player_id: int, now: datetime) -> NextStep:
    status = match.status
    if status == MatchStatus.BYE:
        return NextStep("Bye this round: a win, nothing to do", False)
    if match.is_final:
        outcome = Outcome(match.my_outcome).label if match.my_outcome else ""
        return NextStep(
            f"Final: {(outcome or MatchStatus(status).label).lower()}",
            False,
        )
    if status == MatchStatus.DISPUTED:
        return NextStep("Disputed: the director will rule", False)
    if status == MatchStatus.REPORTED and match.report_status == ReportStatus.PENDING:
        if match.report_by == player_id:
            return NextStep("Reported: waiting for your opponent to confirm", False)
        return NextStep("Confirm or dispute the reported result", True)
    if match.waiting_on_director:
        return NextStep("Waiting for the director (can't reach opponent)", False)
    if now > match.deadline:
        return NextStep("Deadline passed: the director decides", False)
    if status == MatchStatus.SCHEDULED:
        if match.scheduled_at and match.scheduled_at > now:
            return NextStep("Play at the scheduled time", True)
        return NextStep("Report the result (the winner reports)", True)
    if match.proposal_by is None:
        return NextStep("Propose times to your opponent", True)
    if match.proposal_by == player_id:
        return NextStep("Waiting for your opponent to accept a time", False)
    return NextStep("Accept one of the proposed times", True)
