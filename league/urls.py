from django.urls import path

from . import club_views, views

urlpatterns = [
    path("", views.league_list, name="league_list"),
    path("<slug:slug>/", views.league_detail, name="league_detail"),
    path("<slug:slug>/join/", views.league_join_view, name="league_join"),
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
]
