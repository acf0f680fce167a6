"""Every state change of a match, one module per concern; `from matches import services` reaches
them all.

- `scheduling`: proposing and accepting times, agreed equipment, can't-reach reports (L1, L2, L4, L5)
- `reporting`: the winner's report, with its game record when there is one (L7, G1–G3, G9)
- `confirming`: the other seats' confirmation or dispute, the reporter taking it back (L6, L9)
- `rulings`: the director's rulings, one entry point `rule` (L5, L8, L9)
- `nightly`: the nightly job's set-based transitions (L8, auto-confirmation)
- `creation`: creating matches and seats, one by one or in bulk
- `cards`: score cards entered by the director, final at once (E3, E4)
- `tables`: closing a club night's tables, set-based: double forfeits, reports another seat
  confirmed (E4, G9)
- `rounds`: the director's bulk actions on a round: extend its deadlines, rule its unplayed
  matches, each match through `rule`
- `kernel`: what they share: the errors, the match lock, seats, audit trail, e-mail

Each function is keyword-only, takes model instances and the acting user, runs in one
transaction with the match row locked, writes an audit event, and raises a `MatchError` (a
`DomainError`) that pages show as a message when the rule or the match's state forbids it.
"""

from .cards import SCORED_STATUSES, CardConflict, SeatingChanged, card_enter
from .confirming import report_confirm, report_dispute, report_take_back
from .creation import MAX_SEATS, NewMatch, bye_fill, match_create, matches_create, seat_add
from .kernel import (
    MatchError,
    UnusualScores,
    is_match_director,
    lock,
    require_scores,
    scorekeeper_seat,
    scoreline,
    seat_of,
    seats_of,
)
from .nightly import confirm_stale_reports, forfeit_overdue_matches
from .reporting import report_submit
from .rounds import (
    RoundChange,
    extension_of,
    extension_refusal,
    round_deadlines_extend,
    round_open_matches,
    round_unplayed_rule,
)
from .rulings import (
    RULINGS_ON,
    Ruling,
    RulingOn,
    rule,
    ruling_on,
    withdrawal_forfeits,
)
from .scheduling import (
    MAX_PROPOSED_TIMES,
    contact_issue_report,
    equipment_agree,
    proposal_accept,
    proposal_create,
)
from .tables import confirm_answered_tables, double_forfeit_tables

__all__ = [
    "SCORED_STATUSES",
    "lock",
    "require_scores",
    "scoreline",
    "seat_of",
    "seats_of",
    "MAX_PROPOSED_TIMES",
    "RULINGS_ON",
    "CardConflict",
    "SeatingChanged",
    "MatchError",
    "MAX_SEATS",
    "seat_add",
    "NewMatch",
    "RoundChange",
    "Ruling",
    "RulingOn",
    "UnusualScores",
    "bye_fill",
    "card_enter",
    "confirm_answered_tables",
    "confirm_stale_reports",
    "contact_issue_report",
    "double_forfeit_tables",
    "equipment_agree",
    "forfeit_overdue_matches",
    "is_match_director",
    "match_create",
    "matches_create",
    "proposal_accept",
    "proposal_create",
    "report_confirm",
    "report_dispute",
    "report_submit",
    "report_take_back",
    "extension_of",
    "extension_refusal",
    "round_deadlines_extend",
    "round_open_matches",
    "round_unplayed_rule",
    "rule",
    "scorekeeper_seat",
    "ruling_on",
    "withdrawal_forfeits",
]
