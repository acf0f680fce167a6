from django.urls import path

from . import views

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
]
