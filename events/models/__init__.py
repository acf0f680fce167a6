"""The event app's models, one module per idea; `from events.models import X` reaches them all.

- `event`: what an event holds beyond any league (its day, categories and teams, each
  entrant's category and team, the rounds' periods and printed cards, its volunteer scorers,
  the assists sold for the charity)
- `self_entry`: the players' own cards at their tables (S1–S6): the versions and
  confirmations, the director's switch for a round, each entrant's slip and the codes typed
"""

from .event import (
    AssistItem,
    AssistSale,
    Entrant,
    Event,
    EventCategory,
    EventScorer,
    FirstRound,
    RoundCards,
    RoundPeriod,
    RoundStartedEarly,
    ShortTeam,
    Team,
    event_of_league,
)
from .self_entry import CardConfirmation, CodeAttempt, EntrantSlip, RoundSelfEntry, TableCard
from .sent_cards import SentCard

__all__ = [
    "SentCard",
    "AssistItem",
    "AssistSale",
    "CardConfirmation",
    "CodeAttempt",
    "Entrant",
    "EntrantSlip",
    "Event",
    "EventCategory",
    "EventScorer",
    "FirstRound",
    "RoundCards",
    "RoundPeriod",
    "RoundSelfEntry",
    "RoundStartedEarly",
    "ShortTeam",
    "TableCard",
    "Team",
    "event_of_league",
]
