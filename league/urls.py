from django.urls import path

from . import club_views, event_views, views

urlpatterns = [
    path("", views.league_list, name="league_list"),
    path("<slug:slug>/", views.league_detail, name="league_detail"),
    path("<slug:slug>/join/", views.league_join_view, name="league_join"),
    path("<slug:slug>/withdraw/", views.league_withdraw_view, name="league_withdraw"),
    path("<slug:slug>/waitlist/", views.league_waitlist_view, name="league_waitlist"),
    path(
        "<slug:slug>/waitlist/leave/",
        views.league_waitlist_leave_view,
        name="league_waitlist_leave",
    ),
    path("<slug:slug>/standings/", views.league_standings, name="league_standings"),
    path("<slug:slug>/standings.json", views.league_standings_json, name="league_standings_json"),
    path("<slug:slug>/bracket/", views.league_bracket, name="league_bracket"),
    path("<slug:slug>/bracket.json", views.league_bracket_json, name="league_bracket_json"),
    path("<slug:slug>/calendar.ics", views.league_calendar_feed, name="league_calendar"),
    path("<slug:slug>/two-letter-words/", views.two_letter_words, name="two_letter_words"),
    path("<slug:slug>/nights/", club_views.club_night_add, name="club_night_add"),
    path("<slug:slug>/nights/<int:number>/", club_views.club_night, name="club_night"),
    path(
        "<slug:slug>/nights/<int:number>/check-in/",
        club_views.club_check_in,
        name="club_check_in",
    ),
    path("<slug:slug>/nights/<int:number>/guest/", club_views.club_guest, name="club_guest"),
    path("<slug:slug>/nights/<int:number>/seat/", club_views.club_seat, name="club_seat"),
    path("<slug:slug>/nights/<int:number>/close/", club_views.club_close, name="club_close"),
    path(
        "<slug:slug>/nights/<int:number>/tables/<int:match_id>/card/",
        club_views.club_card,
        name="club_card",
    ),
    # Events (E3): public when the event is, staff pages need the role.
    path("<slug:slug>/timer/", event_views.table_timer, name="table_timer"),
    path("<slug:slug>/settings.json", event_views.event_settings_file, name="event_settings_file"),
    path("<slug:slug>/event.json", event_views.event_json, name="event_json"),
    path("<slug:slug>/leaderboard/", event_views.event_leaderboard, name="event_leaderboard"),
    path("<slug:slug>/projector/", event_views.event_projector, name="event_projector"),
    path(
        "<slug:slug>/projector/panel/",
        event_views.event_projector_panel,
        name="event_projector_panel",
    ),
    path("<slug:slug>/desk/", event_views.event_desk, name="event_desk"),
    path("<slug:slug>/desk/check-in/", event_views.event_check_in, name="event_check_in"),
    path("<slug:slug>/desk/walk-in/", event_views.event_walk_in, name="event_walk_in"),
    path("<slug:slug>/volunteers/", event_views.event_scorers, name="event_scorers"),
    path("<slug:slug>/assists/", event_views.event_assists, name="event_assists"),
    path("<slug:slug>/rounds/<int:number>/", event_views.event_round, name="event_round"),
    path("<slug:slug>/rounds/<int:number>/pair/", event_views.event_pair, name="event_pair"),
    path("<slug:slug>/rounds/<int:number>/swap/", event_views.event_swap, name="event_swap"),
    path("<slug:slug>/rounds/<int:number>/close/", event_views.event_close, name="event_close"),
    path("<slug:slug>/rounds/<int:number>/scores/", event_views.event_scores, name="event_scores"),
    path(
        "<slug:slug>/rounds/<int:number>/print/<str:kind>.pdf",
        event_views.event_print,
        name="event_print",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/tables/<int:table>/",
        event_views.event_table,
        name="event_table",
    ),
]
