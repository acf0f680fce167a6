from django.contrib import admin
from django.urls import include, path

admin.site.site_header = "Intramural Scrabble: director's panel"
admin.site.site_title = "Scrabble league admin"
admin.site.index_title = "Your institution"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("leagues/", include("league.urls")),
    path("matches/", include("matches.urls")),
    path("", include("accounts.urls")),
]
