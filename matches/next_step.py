"""A row of "My matches" and the one thing the player should do next about it."""

from dataclasses import dataclass, field
from datetime import datetime

from . import policy
from .models import FINAL_STATUSES
from .placing import ordinal
from .policy import MatchFacts, NextStep


@dataclass
class Opponent:
    name: str  # in full, as their match page names them to their opponents (P1, P2)
    email: str
    place: int | None = None
    score: int | None = None
    rating: str = ""  # shown as ratings are (R1): "1620", "1620*" while provisional; "" unrated
    chance: int | None = None  # the reader's chance in 100 of beating them (R1), where rated


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
    scorekeeper: int | None = None  # the player who reports, at a table with a scorekeeper
    answered: bool = False  # this player confirmed or disputed the live report
    my_place: int | None = None
    my_score: int | None = None
    cards_only: bool = False  # an event: the scoring table enters the card (E3)
    table: int | None = None  # the table's number at a club night or event
    report_window_days: int = 0  # the league's days to report after play (the deadline's words)
    opponents: list[Opponent] = field(default_factory=list)

    @property
    def is_final(self) -> bool:
        return self.status in FINAL_STATUSES

    @property
    def placings(self) -> str:
        """ "1st Ana Quill 412 · 2nd you 377 · …" for a played game (G9); empty otherwise."""
        if self.my_place is None:
            return ""
        seated = [(self.my_place, 0, "you", self.my_score)] + [
            (each.place, index, each.name, each.score)
            for index, each in enumerate(self.opponents, start=1)
            if each.place is not None
        ]
        places = [place for place, *_ in seated]
        return " · ".join(
            f"{ordinal(place, places.count(place) > 1)} {name} {score}"
            for place, _, name, score in sorted(seated)
        )


def next_step(match: MyMatch, player_id: int, now: datetime) -> NextStep:
    """The one thing this player should do next about this match (the policy decides)."""
    if match.is_final and match.my_place is not None and len(match.opponents) > 1:
        seats = len(match.opponents) + 1
        return NextStep(f"Final: {ordinal(match.my_place)} of {seats}", False)
    facts = MatchFacts(
        status=match.status,
        deadline=match.deadline,
        proposal_by=match.proposal_by,
        report_status=match.report_status,
        report_by=match.report_by,
        waiting_on_director=match.waiting_on_director,
        scorekeeper=match.scorekeeper,
        answered=frozenset({player_id}) if match.answered else frozenset(),
        cards_only=match.cards_only,
    )
    return policy.next_step(
        facts, player_id, now, scheduled_at=match.scheduled_at, my_outcome=match.my_outcome
    )
