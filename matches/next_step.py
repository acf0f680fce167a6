"""A row of "My matches" and the one thing the player should do next about it."""

from dataclasses import dataclass, field
from datetime import datetime

from . import policy
from .models import FINAL_STATUSES
from .policy import MatchFacts, NextStep


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
    """The one thing this player should do next about this match (the policy decides)."""
    facts = MatchFacts(
        status=match.status,
        deadline=match.deadline,
        proposal_by=match.proposal_by,
        report_status=match.report_status,
        report_by=match.report_by,
        waiting_on_director=match.waiting_on_director,
    )
    return policy.next_step(
        facts, player_id, now, scheduled_at=match.scheduled_at, my_outcome=match.my_outcome
    )
