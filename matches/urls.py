from django.urls import path

from . import views

urlpatterns = [
    path("calendar/<uuid:token>.ics", views.player_calendar_feed, name="player_calendar"),
    path("<int:pk>/", views.match_detail, name="match_detail"),
    path("<int:pk>/propose/", views.match_propose, name="match_propose"),
    path("<int:pk>/accept/<int:proposal_id>/", views.match_accept, name="match_accept"),
    path("<int:pk>/equipment/", views.match_equipment, name="match_equipment"),
    path("<int:pk>/cant-reach/", views.match_cant_reach, name="match_cant_reach"),
    path("<int:pk>/report/", views.match_report, name="match_report"),
    path("<int:pk>/confirm/<int:report_id>/", views.match_confirm, name="match_confirm"),
    path("<int:pk>/dispute/<int:report_id>/", views.match_dispute, name="match_dispute"),
    path("<int:pk>/take-back/<int:report_id>/", views.match_take_back, name="match_take_back"),
]
