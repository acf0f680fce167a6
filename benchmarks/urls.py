from django.db import connection
from django.http import HttpResponse
from django.urls import include, path


def floor(request):
    """The floor: Django, gunicorn and PostgreSQL doing one trivial query and nothing else."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [path("bench/floor/", floor), path("", include("config.urls"))]
