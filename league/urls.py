from django.urls import path

from . import timer, views
from .views import settings_files

urlpatterns = [
    path("<league:address>/", views.league_detail, name="league_detail"),
    path("<league:address>/join/", views.league_join_view, name="league_join"),
    path("<league:address>/withdraw/", views.league_withdraw_view, name="league_withdraw"),
    path("<league:address>/waitlist/", views.league_waitlist_view, name="league_waitlist"),
    path(
        "<league:address>/waitlist/leave/",
        views.league_waitlist_leave_view,
        name="league_waitlist_leave",
    ),
    path("<league:address>/standings/", views.league_standings, name="league_standings"),
    path(
        "<league:address>/standings.json", views.league_standings_json, name="league_standings_json"
    ),
    path("<league:address>/bracket/", views.league_bracket, name="league_bracket"),
    path("<league:address>/bracket.json", views.league_bracket_json, name="league_bracket_json"),
    path("<league:address>/calendar.ics", views.league_calendar_feed, name="league_calendar"),
    path("<league:address>/two-letter-words/", views.two_letter_words, name="two_letter_words"),
    path("<league:address>/timer/", timer.table_timer, name="table_timer"),
    path(
        "<league:address>/settings.json",
        settings_files.league_settings_file,
        name="event_settings_file",
    ),
]
