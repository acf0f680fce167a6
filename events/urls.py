"""An event's pages (E3, E5) under /leagues/<slug>/: public when the event is (the leaderboard,
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
    path("<slug:slug>/event.json", public.event_json, name="event_json"),
    path("<slug:slug>/leaderboard/", public.event_leaderboard, name="event_leaderboard"),
    path("<slug:slug>/projector/", public.event_projector, name="event_projector"),
    path(
        "<slug:slug>/projector/panel/",
        public.event_projector_panel,
        name="event_projector_panel",
    ),
    path("<slug:slug>/desk/", door.event_desk, name="event_desk"),
    path("<slug:slug>/desk/check-in/", door.event_check_in, name="event_check_in"),
    path("<slug:slug>/desk/walk-in/", door.event_walk_in, name="event_walk_in"),
    path("<slug:slug>/slips.pdf", slips.entrant_slips, name="event_slips"),
    path("<slug:slug>/slips/again/", slips.entrant_slip_again, name="event_slip_again"),
    path("<slug:slug>/volunteers/", volunteers.event_scorers, name="event_scorers"),
    path("<slug:slug>/assists/", assists.event_assists, name="event_assists"),
    path("<slug:slug>/scores/", scoring.event_scoring_now, name="event_scoring_now"),
    path("<slug:slug>/rounds/<int:number>/", public.event_round, name="event_round"),
    path("<slug:slug>/rounds/<int:number>/pair/", rounds.event_pair, name="event_pair"),
    path("<slug:slug>/rounds/<int:number>/swap/", rounds.event_swap, name="event_swap"),
    path("<slug:slug>/rounds/<int:number>/close/", rounds.event_close, name="event_close"),
    path("<slug:slug>/rounds/<int:number>/start/", rounds.event_start, name="event_start"),
    path("<slug:slug>/rounds/<int:number>/scores/", scoring.event_scores, name="event_scores"),
    path(
        "<slug:slug>/rounds/<int:number>/scores/send/",
        offline.event_scores_send,
        name="event_scores_send",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/print/<str:kind>.pdf",
        printables.event_print,
        name="event_print",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/tables/<int:table>/",
        table_cards.event_table,
        name="event_table",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/tables/<int:table>/card/",
        table_cards.event_table_card,
        name="event_table_card",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/tables/<int:table>/confirm/",
        table_cards.event_table_confirm,
        name="event_table_confirm",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/tables/<int:table>/send/",
        offline.event_table_send,
        name="event_table_send",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/tables/<int:table>/count/",
        table_cards.event_table_count,
        name="event_table_count",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/self-entry/",
        table_cards.event_self_entry,
        name="event_self_entry",
    ),
]
