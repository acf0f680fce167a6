from django.urls import path

from . import campus_views, views

urlpatterns = [
    path("profile/", views.profile_page, name="profile"),
    path("profile/name/", views.profile_name, name="profile_name"),
    path("profile/privacy/", views.profile_privacy, name="profile_privacy"),
    path("profile/delete/", views.profile_forget_view, name="profile_forget"),
    path("profile/calendar/rotate/", views.calendar_rotate, name="calendar_rotate"),
    path("log-in/<str:token>/", views.sign_in_with_link, name="sign_in_link"),
    path("campus-sign-in/<slug:slug>/", campus_views.campus_sign_in_page, name="campus_sign_in"),
    path("desk/", views.front_desk, name="front_desk"),
    path("desk/id-check/<int:profile_id>/", views.front_desk_id_check, name="front_desk_id_check"),
    path("desk/lend/<int:profile_id>/", views.front_desk_lend, name="front_desk_lend"),
    path("desk/return/<int:checkout_id>/", views.front_desk_return, name="front_desk_return"),
]
