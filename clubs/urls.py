"""A club's nights (E4), under /<campus>/leagues/<slug>/nights/: for the club's director and front desk."""

from django.urls import path

from . import views

urlpatterns = [
    path("<league:address>/nights/", views.club_night_add, name="club_night_add"),
    path("<league:address>/nights/<int:number>/", views.club_night, name="club_night"),
    path(
        "<league:address>/nights/<int:number>/check-in/",
        views.club_check_in,
        name="club_check_in",
    ),
    path("<league:address>/nights/<int:number>/guest/", views.club_guest, name="club_guest"),
    path("<league:address>/nights/<int:number>/seat/", views.club_seat, name="club_seat"),
    path(
        "<league:address>/nights/<int:number>/latecomers/",
        views.club_latecomers,
        name="club_latecomers",
    ),
    path("<league:address>/nights/<int:number>/close/", views.club_close, name="club_close"),
    path("<league:address>/nights/<int:number>/cards.pdf", views.club_cards, name="club_cards"),
    path(
        "<league:address>/nights/<int:number>/tables/<int:match_id>/card/",
        views.club_card,
        name="club_card",
    ),
    path(
        "<league:address>/nights/<int:number>/tables/<int:match_id>/confirm/",
        views.club_confirm,
        name="club_confirm",
    ),
]
