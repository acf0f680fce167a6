from django.urls import path

from . import views

urlpatterns = [
    path("", views.league_list, name="league_list"),
    path("<slug:slug>/", views.league_detail, name="league_detail"),
    path("<slug:slug>/join/", views.league_join_view, name="league_join"),
]
