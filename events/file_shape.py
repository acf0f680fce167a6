"""The keys of an event's settings file (E3, E5), checked by ``league.file_schema`` before
``events.files`` reads them: each key's type, each text's length (its column's), each number
whole and in range, each list's length: at most 50 categories, 30 rounds, 10 periods a round,
50 assists. Limits a real event never meets."""

from league.file_schema import (
    Clock,
    Day,
    Flag,
    ListOf,
    Nullable,
    Obj,
    Text,
    Whole,
    choices_of,
    column_length,
)

from .models import AssistItem, EventCategory, FirstRound, ShortTeam

MAX_CATEGORIES = 50
MAX_ROUNDS = 30
MAX_PERIODS = 10
MAX_ASSISTS = 50
MAX_CENTS = 10_000_000  # $100,000 for one chit: beyond it is a slip of the keyboard
MAX_TURN_SECONDS = 600

CATEGORY_NAME = Text(column_length(EventCategory, "name"), required=True)
EVENT_KEYS = {
    "date": Day("the event's day"),
    "seats_per_table": Whole(2, 4),
    "team_size": Nullable(Whole(2, 8)),
    "short_team": choices_of(ShortTeam),
    "self_entry": Flag(),  # S1: players enter their own table's card
    "first_round": choices_of(FirstRound),  # R4: round 1 at random or by rating
    "champion_category": Nullable(Text(column_length(EventCategory, "name"))),
    "categories": Nullable(
        ListOf(
            Obj(
                {
                    "name": CATEGORY_NAME,
                    "pairing_group": Nullable(Text(column_length(EventCategory, "pairing_group"))),
                    "turn_seconds": Nullable(Whole(10, MAX_TURN_SECONDS)),
                },
                frozenset({"name"}),
            ),
            "categories",
            MAX_CATEGORIES,
        )
    ),
    "assists": Nullable(
        ListOf(
            Obj(
                {
                    "name": Text(column_length(AssistItem, "name"), required=True),
                    "first_cents": Whole(0, MAX_CENTS),
                    "later_cents": Whole(0, MAX_CENTS),
                },
                frozenset({"name", "first_cents"}),
            ),
            "assists",
            MAX_ASSISTS,
        )
    ),
}
EVENT_ROUNDS = ListOf(
    Obj(
        {
            "number": Whole(1, 99),
            "periods": ListOf(
                Obj(
                    {"starts": Clock(), "minutes": Whole(1, 600)}, frozenset({"starts", "minutes"})
                ),
                "periods",
                MAX_PERIODS,
                min_items=1,
            ),
        },
        frozenset({"number", "periods"}),
    ),
    "rounds",
    MAX_ROUNDS,
    min_items=1,
)

EVENT_KEYS["rounds"] = Nullable(EVENT_ROUNDS)
EVENT_REQUIRED = frozenset({"date"})
