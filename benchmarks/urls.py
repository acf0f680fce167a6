from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import include, path


def floor(request):
    """The floor: Django, gunicorn and PostgreSQL doing one trivial query and nothing else."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return HttpResponse("ok", content_type="text/plain")


@login_required
def signed_in_floor(request):
    """The signed-in floor: the floor behind login, so the session and the user are looked up
    first, as on every signed-in page."""
    return floor(request)


@login_required
def signed_in_frame(request):
    """The signed-in floor with the site's frame (`base.html`, its menu, the log-out form's
    CSRF token) around an empty page: what every signed-in page pays before its own content."""
    floor(request)
    return render(request, "base.html")


urlpatterns = [
    path("bench/floor/", floor),
    path("bench/floor-signed-in/", signed_in_floor),
    path("bench/frame-signed-in/", signed_in_frame),
    path("", include("config.urls")),
]
