from django.urls import path

from . import timer, views
from .views import settings_files

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
    path("<slug:slug>/timer/", timer.table_timer, name="table_timer"),
    path(
        "<slug:slug>/settings.json",
        settings_files.league_settings_file,
        name="event_settings_file",
    ),
]
