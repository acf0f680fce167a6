"""Every change to a one-day event (E3) or the team challenge (E5), one module per concern;
`from events.services import X` reaches them all.

- `entrants`: who an entrant is (a student, else a guest where the event is open), saving them
  with their category, team and player number; a student's own entry
- `door`: checking in for the evening, leaving mid-event, coming back
- `rounds`: pairing or seating a round, printed cards, starting a round early, closing it
- `swaps`: the director's swap of two players' seats
- `volunteers`: inviting the volunteer scorers, their log-in slips, forgetting them after (P5)
- `assists`: selling the charity's assists, voiding a sale
- `cards`: a table's score card, entered by the event's staff and volunteer scorers
- `table_cards`: the players' own card at their table (S1–S4): entered by the scorekeeper,
  confirmed by the other seats (login or their own slip)
- `slips`: each entrant's slip, their own proof for the whole event (S4)
- `sent_cards`: a card a scoring table's page sent from its device, counted once per key (and
  a table's card or confirmation a player's phone sent, acted on once per key)
- `card_settling`: the scoring table's side of it (S2, S3, S5): counting a version, a typed
  card meeting the players' versions, counting confirmed cards when time is up, the switch

An event is a league of format ``event``; its rounds (``Round``) all fall on the event's day,
each with its periods. A table is a match with its number (``Match.table``); a bye is a match of
one seat. Check-in is for the evening: an entrant checked in for a round stays checked in for
the rounds after it (``CheckIn`` is kept on the round that was next when they arrived), so a
walk-in during round 1 is paired from round 2. An entrant who leaves keeps their scores and is
not paired again.

Pairing itself (``events.pairing``) and the ranking (``events.leaderboard``) are pure functions;
these services read what they need, call them, and write the result in one transaction with the
event's row locked (``events.rights.lock_event``), so a check-in, a pairing and a swap of the
same event happen one after another. Commands act as the site with ``as_system=True``.
"""

from events.rights import EventError

from .assists import AssistError, sale_record, sale_void
from .card_settling import self_entry_close, settle_due_cards, table_card_count
from .cards import card_enter
from .door import (
    check_in_entry,
    entrant_leave,
    entrant_return,
    event_arrive,
    event_check_in,
    event_check_out,
)
from .entrants import (
    EntrantDetails,
    NameOnly,
    SameName,
    Saved,
    clean_details,
    entrant_save,
    event_join,
)
from .rounds import (
    AlreadyPaired,
    RoundPaired,
    cards_printed,
    close_round,
    entrants_named,
    pair_event_round,
    round_start_early,
)
from .sent_cards import CardRefused, card_send, table_send
from .slips import live_slip, slip_mail, slip_of, slip_print_again, slips_of
from .swaps import SwapNeedsConfirming, swap_players
from .table_cards import SeatProof, WrongCode, table_card_confirm, table_card_enter
from .volunteers import (
    forget_volunteers,
    scorer_access_ends,
    scorer_invite,
    scorer_remove,
    scorer_slip,
)

__all__ = [
    "CardRefused",
    "card_send",
    "table_send",
    "AlreadyPaired",
    "AssistError",
    "EntrantDetails",
    "NameOnly",
    "SameName",
    "EventError",
    "RoundPaired",
    "Saved",
    "SwapNeedsConfirming",
    "card_enter",
    "cards_printed",
    "check_in_entry",
    "clean_details",
    "close_round",
    "entrant_leave",
    "entrants_named",
    "entrant_return",
    "entrant_save",
    "event_arrive",
    "event_check_in",
    "event_check_out",
    "event_join",
    "pair_event_round",
    "round_start_early",
    "sale_record",
    "sale_void",
    "forget_volunteers",
    "scorer_access_ends",
    "scorer_invite",
    "scorer_remove",
    "scorer_slip",
    "swap_players",
    "SeatProof",
    "WrongCode",
    "live_slip",
    "slip_mail",
    "slip_of",
    "slip_print_again",
    "slips_of",
    "self_entry_close",
    "settle_due_cards",
    "table_card_confirm",
    "table_card_count",
    "table_card_enter",
]
