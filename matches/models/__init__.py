"""Matches and their life: seats, schedule proposals, result reports, disputes, the audit trail.

Words used here:
- seat: a player's place in a match, in playing order (two to four, G9). The order stands for
  the draw for first play; at a table of three or four the scorekeeper (the first seat unless
  the table names another) reports. A final match stores each seat's score, place and outcome,
  so standings read seats alone.
- place: a seat's placing in a played game, by final score, ties broken by the score before the
  unplayed-tile adjustment (G2); only an exact tie on both shares a place (1 = first).
- outcome: what the game was for that seat: a win (sole first place), a tie (a shared first
  place), a loss; or a forfeit won or lost, a double forfeit, a bye. Standings count a game of N
  seats as N-1 games between its seats (G9), from the places.
- spread: points for minus points against. A forfeit win counts +forfeit_spread and the loss
  -forfeit_spread; a double forfeit is a loss for both with -double_forfeit_spread each; a bye is
  a win with +forfeit_spread. Forfeits, double forfeits and byes add to spread only, never to
  points for or against.
- forfeit: the director (or a withdrawal) gives the match to one side without a game.
- double forfeit: nobody reported in time (L8) or the director ruled it; a loss for both.
- bye: no opponent this round (odd number of players).
- report: the account of a game by the seat who reports it (the winner, L7; at a club table the
  scorekeeper, G9), one score per seat; live while pending, confirmed or disputed, and at most one
  live report per match (a database constraint). Every other seat confirms or disputes it.
- deadline: the end of the round's play-by date in the institution's time zone plus the league's
  report window; after it only the director records results.

The tables, one module per idea: match (matches and seats), scheduling (proposals, can't-reach
reports), reports (result reports, their lines, disputes), audit (the trail). Every name is
here too, so `from matches.models import X` holds.
"""

from .audit import AUDIT_ACTIONS, AuditEvent
from .match import FINAL_STATUSES, OPEN_STATUSES, GameEnd, Match, MatchStatus, Outcome, Seat
from .reports import LIVE_REPORT_STATUSES, Dispute, ReportScore, ReportStatus, ResultReport
from .scheduling import ContactIssue, ProposedTime, ScheduleProposal

__all__ = [
    "AUDIT_ACTIONS",
    "FINAL_STATUSES",
    "LIVE_REPORT_STATUSES",
    "OPEN_STATUSES",
    "AuditEvent",
    "ContactIssue",
    "Dispute",
    "GameEnd",
    "Match",
    "MatchStatus",
    "Outcome",
    "ProposedTime",
    "ReportScore",
    "ReportStatus",
    "ResultReport",
    "ScheduleProposal",
    "Seat",
]
