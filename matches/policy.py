"""What a player may do about a match now, and the one thing they should do next.

One pure function, ``refusal``, answers "may this player do that now?" for every player action;
the services raise its answer as the error, the match page shows only the forms it allows, and
"My matches" words the next step from it. It reads plain facts about the match (``MatchFacts``),
so each caller builds them from what it already loaded and no rule is written twice.
"""

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from .models import FINAL_STATUSES, OPEN_STATUSES, MatchStatus, Outcome, ReportStatus


class Action(StrEnum):
    PROPOSE = "propose times"  # L1, L2
    ACCEPT = "accept a time"  # L1
    AGREE_EQUIPMENT = "change the equipment"  # L4
    REPORT_CONTACT = "report an unreachable opponent"  # L5
    REPORT = "report the result"  # L7, G9
    CONFIRM = "confirm the result"  # L6, G9
    DISPUTE = "dispute the result"  # L9, G9
    TAKE_BACK = "take back your report"  # ours: a mistyped report, before anyone answers it


@dataclass(frozen=True)
class MatchFacts:
    """What the rules need to know about a match; player ids are `PlayerProfile` ids."""

    status: str
    deadline: datetime
    proposal_by: int | None = None  # who made the open time proposal, if any
    report_status: str | None = None  # the live report's status, if any
    report_by: int | None = None
    report_confirm_by: datetime | None = None  # None: not known to the caller, not checked
    waiting_on_director: bool = False  # an open can't-reach report (L5)
    # At a table with a scorekeeper (a club night or an event, G9) only that player reports;
    # None: the winner reports (L7), which the service checks against the scores.
    scorekeeper: int | None = None
    # The players who already confirmed or disputed the live report (the reporter included).
    answered: frozenset[int] = frozenset()
    # An event's table: the scoring table enters its score card; players do nothing here (E3).
    cards_only: bool = False


CARDS_ONLY_REFUSAL = (
    "At this event the scoring table enters each table's score card: hand yours to a volunteer."
)


def refusal(
    action: Action, facts: MatchFacts, player_id: int, now: datetime, say_time=None
) -> str | None:
    """Why the player in the match may not take `action` now, or None when they may.
    `say_time(moment)` words a moment for the message (the institution's clock)."""
    status = facts.status
    if facts.cards_only:
        return CARDS_ONLY_REFUSAL
    if action in (Action.CONFIRM, Action.DISPUTE):
        return _answer_refusal(action, facts, player_id, now, say_time or datetime.isoformat)
    if action == Action.TAKE_BACK:
        return _take_back_refusal(facts, player_id, now)
    if action == Action.REPORT and status in (
        MatchStatus.REPORTED,
        MatchStatus.DISPUTED,
        MatchStatus.CONFIRMED,
    ):
        return "A result has already been reported for this match."
    if action == Action.REPORT and facts.scorekeeper not in (None, player_id):
        return "At this table the scorekeeper reports the result; you confirm or dispute it."
    if action == Action.REPORT and status in FINAL_STATUSES:
        label = MatchStatus(status).label.lower()
        return f"This match is already final ({label}): only the director can change it."
    if status not in OPEN_STATUSES:
        return f"This match is {MatchStatus(status).label.lower()}: you can no longer {action}."
    if action in (Action.PROPOSE, Action.ACCEPT, Action.REPORT) and now > facts.deadline:
        return (
            "The deadline for this match has passed: only the director can record its result now."
        )
    if action == Action.ACCEPT:
        if facts.proposal_by is None:
            return "There is no open proposal to accept."
        if facts.proposal_by == player_id:
            return "Your opponent accepts your proposal, not you."
    if action == Action.REPORT_CONTACT and facts.waiting_on_director:
        return "The director already has a can't-reach-opponent report for this match."
    return None


def _answer_refusal(action, facts: MatchFacts, player_id, now, say_time) -> str | None:
    if facts.report_by == player_id:
        return (
            "The other players confirm your report, not you."
            if action == Action.CONFIRM
            else "Only the other players can dispute your report."
        )
    if player_id in facts.answered:
        return "You have already answered this report: the director has the rest."
    # Once one seat disputes, the others may still add their own version (G9), not confirm.
    open_to = (
        [(ReportStatus.PENDING, MatchStatus.REPORTED)]
        if action == Action.CONFIRM
        else [
            (ReportStatus.PENDING, MatchStatus.REPORTED),
            (ReportStatus.DISPUTED, MatchStatus.DISPUTED),
        ]
    )
    if (facts.report_status, facts.status) not in open_to:
        label = ReportStatus(facts.report_status).label.lower() if facts.report_status else "gone"
        doing = (
            "there is nothing to confirm"
            if action == Action.CONFIRM
            else "it can no longer be disputed"
        )
        return f"This report is {label}: {doing}."
    if (
        action == Action.DISPUTE
        and facts.report_confirm_by is not None
        and now > facts.report_confirm_by
    ):
        closed = say_time(facts.report_confirm_by)
        return f"The window to dispute closed at {closed}. Contact the director."
    return None


def _take_back_refusal(facts: MatchFacts, player_id, now) -> str | None:
    """The reporter may withdraw their own report while nobody else has answered it: a typo
    fixed by reporting again, not by a dispute the director must rule on."""
    if facts.report_by != player_id:
        return "Only the player who reported the result can take it back."
    if (facts.report_status, facts.status) != (ReportStatus.PENDING, MatchStatus.REPORTED):
        return "This result can no longer be taken back: ask the director to change it."
    if facts.answered - {player_id}:
        return "Another player has already answered this report: ask the director to change it."
    if now > facts.deadline:
        return "The deadline for this match has passed: ask the director to change the result."
    return None


def may(action: Action, facts: MatchFacts, player_id: int, now: datetime) -> bool:
    return refusal(action, facts, player_id, now) is None


# --- The next step, for "My matches" ------------------------------------------------------------


@dataclass(frozen=True)
class NextStep:
    text: str
    needs_you: bool  # the player, not someone else, must act


def next_step(
    facts: MatchFacts,
    player_id: int,
    now: datetime,
    *,
    scheduled_at: datetime | None = None,
    my_outcome: str = "",
) -> NextStep:
    status = facts.status
    if status == MatchStatus.BYE:
        return NextStep("Bye this round: a win, nothing to do", False)
    if status in FINAL_STATUSES:
        outcome = Outcome(my_outcome).label if my_outcome else MatchStatus(status).label
        return NextStep(f"Final: {outcome.lower()}", False)
    if facts.cards_only:
        return NextStep("Play at your table; the scoring table enters your card", False)
    if status == MatchStatus.DISPUTED:
        if may(Action.DISPUTE, facts, player_id, now):
            return NextStep("Disputed by another player: add your version or wait", True)
        return NextStep("Disputed: the director will rule", False)
    if status == MatchStatus.REPORTED and facts.report_status == ReportStatus.PENDING:
        if may(Action.CONFIRM, facts, player_id, now):
            return NextStep("Confirm or dispute the reported result", True)
        return NextStep("Reported: waiting for the other players to confirm", False)
    if facts.waiting_on_director:
        return NextStep("Waiting for the director (can't reach opponent)", False)
    if facts.scorekeeper not in (None, player_id) and now <= facts.deadline:
        return NextStep("Play your game: the scorekeeper reports the scores", False)
    if not may(Action.REPORT, facts, player_id, now):
        return NextStep("Deadline passed: the director decides", False)
    if status == MatchStatus.SCHEDULED:
        if scheduled_at and scheduled_at > now:
            return NextStep("Play at the scheduled time", True)
        if facts.scorekeeper is not None:
            return NextStep("Report every seat's score (you keep score)", True)
        return NextStep("Report the result (the winner reports)", True)
    if facts.proposal_by is None:
        return NextStep("Propose times to your opponent", True)
    if may(Action.ACCEPT, facts, player_id, now):
        return NextStep("Accept one of the proposed times", True)
    return NextStep("Waiting for your opponent to accept a time", False)
