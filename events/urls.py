"""An event's pages (E3, E5) under /<campus>/leagues/<slug>/: public when the event is (the leaderboard,
the projector, a round's pairings, a table, event.json); the door, the rounds' actions, the
scoring table, the printables, the volunteers and the assists for its staff."""

from django.urls import path

from .views import (
    assists,
    door,
    offline,
    printables,
    public,
    rounds,
    scoring,
    slips,
    table_cards,
    volunteers,
)

urlpatterns = [
    path("<league:address>/event.json", public.event_json, name="event_json"),
    path("<league:address>/leaderboard/", public.event_leaderboard, name="event_leaderboard"),
    path("<league:address>/projector/", public.event_projector, name="event_projector"),
    path(
        "<league:address>/projector/panel/",
        public.event_projector_panel,
        name="event_projector_panel",
    ),
    path("<league:address>/desk/", door.event_desk, name="event_desk"),
    path("<league:address>/desk/check-in/", door.event_check_in, name="event_check_in"),
    path("<league:address>/desk/walk-in/", door.event_walk_in, name="event_walk_in"),
    path("<league:address>/slips.pdf", slips.entrant_slips, name="event_slips"),
    path("<league:address>/slips/again/", slips.entrant_slip_again, name="event_slip_again"),
    path("<league:address>/volunteers/", volunteers.event_scorers, name="event_scorers"),
    path("<league:address>/assists/", assists.event_assists, name="event_assists"),
    path("<league:address>/scores/", scoring.event_scoring_now, name="event_scoring_now"),
    path("<league:address>/rounds/<int:number>/", public.event_round, name="event_round"),
    path("<league:address>/rounds/<int:number>/pair/", rounds.event_pair, name="event_pair"),
    path("<league:address>/rounds/<int:number>/swap/", rounds.event_swap, name="event_swap"),
    path("<league:address>/rounds/<int:number>/close/", rounds.event_close, name="event_close"),
    path("<league:address>/rounds/<int:number>/start/", rounds.event_start, name="event_start"),
    path("<league:address>/rounds/<int:number>/scores/", scoring.event_scores, name="event_scores"),
    path(
        "<league:address>/rounds/<int:number>/scores/send/",
        offline.event_scores_send,
        name="event_scores_send",
    ),
    path(
        "<league:address>/rounds/<int:number>/print/<str:kind>.pdf",
        printables.event_print,
        name="event_print",
    ),
    path(
        "<league:address>/rounds/<int:number>/tables/<int:table>/",
        table_cards.event_table,
        name="event_table",
    ),
    path(
        "<league:address>/rounds/<int:number>/tables/<int:table>/card/",
        table_cards.event_table_card,
        name="event_table_card",
    ),
    path(
        "<league:address>/rounds/<int:number>/tables/<int:table>/confirm/",
        table_cards.event_table_confirm,
        name="event_table_confirm",
    ),
    path(
        "<league:address>/rounds/<int:number>/tables/<int:table>/send/",
        offline.event_table_send,
        name="event_table_send",
    ),
    path(
        "<league:address>/rounds/<int:number>/tables/<int:table>/count/",
        table_cards.event_table_count,
        name="event_table_count",
    ),
    path(
        "<league:address>/rounds/<int:number>/self-entry/",
        table_cards.event_self_entry,
        name="event_self_entry",
    ),
]
