"""Every change to leagues, entries and rounds: keyword-only, one transaction, the acting user
checked, a DomainError on a broken rule; `from league.services import X` reaches them all.

- `entries`: entering a league (a student joins, the director enrols, a late entry, the
  waitlist, player numbers)
- `leaving`: withdrawing, leaving, a player ruled ineligible or forgotten
- `rounds`: drawing a league's rounds
"""

from .entries import (
    LeagueError,
    enter,
    entry_enrol,
    give_places,
    league_join,
    number_entries,
    waitlist_join,
    waitlist_leave,
)
from .leaving import (
    entry_leave,
    entry_withdraw,
    forgotten_players_leave,
    ineligibility_forfeits,
    leave_warning,
    remaining_games,
)
from .rounds import DrawPlan, draw_preview, rounds_generate
from .staff import lock_league, require_staff

__all__ = [
    "DrawPlan",
    "LeagueError",
    "draw_preview",
    "enter",
    "entry_enrol",
    "entry_leave",
    "entry_withdraw",
    "forgotten_players_leave",
    "give_places",
    "ineligibility_forfeits",
    "league_join",
    "leave_warning",
    "lock_league",
    "number_entries",
    "remaining_games",
    "require_staff",
    "rounds_generate",
    "waitlist_join",
    "waitlist_leave",
]
