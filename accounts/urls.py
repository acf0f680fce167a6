from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("desk/", views.front_desk, name="front_desk"),
    path("desk/id-check/<int:profile_id>/", views.front_desk_id_check, name="front_desk_id_check"),
    path("desk/lend/<int:profile_id>/", views.front_desk_lend, name="front_desk_lend"),
    path("desk/return/<int:checkout_id>/", views.front_desk_return, name="front_desk_return"),
]
