"""League's models, one module per idea; `from league.models import X` reaches them all.

Words used here:
- league: a competition in one season with its own rule settings (format, venue, lexicon,
  end-of-game rule G1, challenge rule G5, per-turn time G8, spreads, windows).
- entry: a player in a league; withdrawn with a reason, never deleted.
- round: a league's round of games, to be played by its `play_by` date: a week of a league, a
  round of a tournament, a club's night, an event's round.
"""

from .entries import CheckIn, Entry, WaitlistEntry
from .leagues import ChallengeRule, EndOfGameRule, League, LeagueFormat, Lexicon, SeedBy
from .records import (
    DigestLog,
    LeaguePage,
    NightlyRun,
    OldLeagueAddress,
    PagesWanted,
    RefreshFailure,
    RefreshWanted,
)
from .results import STANDING_COLUMNS, Bracket, BracketSlot, Standing
from .rounds import Round

__all__ = [
    "STANDING_COLUMNS",
    "Bracket",
    "BracketSlot",
    "ChallengeRule",
    "CheckIn",
    "DigestLog",
    "EndOfGameRule",
    "Entry",
    "League",
    "LeagueFormat",
    "SeedBy",
    "LeaguePage",
    "Lexicon",
    "NightlyRun",
    "OldLeagueAddress",
    "RefreshFailure",
    "PagesWanted",
    "RefreshWanted",
    "Round",
    "Standing",
    "WaitlistEntry",
]
