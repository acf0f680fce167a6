"""Refusing an oversized request body before anything reads it; the health check; keeping what
belongs to a person out of shared caches; a request whose database connection was lost."""

import logging
import sys
from collections.abc import Callable

from django.conf import settings
from django.core.signals import got_request_exception
from django.db import DatabaseError, connection
from django.dispatch import receiver
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone

from .isolation import CONNECTION

SAFE_METHODS = ("GET", "HEAD")
logger = logging.getLogger(__name__)


@receiver(got_request_exception)
def note_a_lost_database(sender, request=None, **kwargs):
    """A request failed on its database connection (the server restarted, or killed it): said
    to ``DatabaseLostMiddleware`` on the request, which Django's 500 would otherwise hide."""
    if request is not None and isinstance(sys.exc_info()[1], CONNECTION):
        request.database_lost = True


class AnsweredAgain(logging.Filter):
    """Django logs a request that failed as an "Internal Server Error" with its traceback; one
    whose database connection was lost is answered by ``DatabaseLostMiddleware`` instead, which
    logs one line of its own."""

    def filter(self, record):
        return not getattr(getattr(record, "request", None), "database_lost", False)


class DatabaseLostMiddleware:
    """When the database connection is lost in the middle of a request (PostgreSQL restarted,
    or its connections were killed), a read is answered again once on a fresh connection; a
    write, whose transaction rolled back with the connection, answers "not saved, try again"
    (503), never a 500. First in MIDDLEWARE, so it sees every other part of the request."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not getattr(request, "database_lost", False):
            return response
        connection.close()  # gone on the server's side: the next query connects anew
        if request.method in SAFE_METHODS:
            request.database_lost = False
            response = self.get_response(request)
            if not request.database_lost:
                logger.warning(
                    "%s %s: the database connection was lost; answered again",
                    request.method,
                    request.path,
                )
                return response
            connection.close()
        logger.warning(
            "%s %s: the database connection was lost; answered 503", request.method, request.path
        )
        # Drawn without the database (no context processors): it may still be away.
        page = render_to_string("503_database.html", {"saving": request.method not in SAFE_METHODS})
        answer = HttpResponse(page, status=503)
        answer["Retry-After"] = "5"
        return answer


def request_body_limit(max_bytes: Callable[[], int]):
    """Let one view take a larger body than REQUEST_BODY_MAX_BYTES (the roster upload). The
    limit is asked for on each request, so that it follows the settings."""

    def decorate(view):
        view.request_body_max_bytes = max_bytes
        return view

    return decorate


class RequestBodyLimitMiddleware:
    """A 413 page for a request whose declared length is over the view's limit, answered from
    the Content-Length header alone: Django's upload handlers would otherwise write a 200 MB
    multipart body to a temporary file before any form could refuse it (its own
    DATA_UPLOAD_MAX_MEMORY_SIZE counts only the fields that are not files). It must come before
    CsrfViewMiddleware, whose process_view reads the body; a body without Content-Length
    (chunked) is never read by Django at all."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        limit_of = getattr(view_func, "request_body_max_bytes", None)
        limit = limit_of() if limit_of else settings.REQUEST_BODY_MAX_BYTES
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0  # Django reads such a body as empty too
        if length <= limit:
            return None
        return render(
            request,
            "413.html",
            {"limit_mb": limit / (1024 * 1024), "length_mb": length / (1024 * 1024)},
            status=413,
        )


class HealthCheckMiddleware:
    """GET /health/ answers 200 when the database answers and 503 when it does not, for the
    container's healthcheck. That check calls over plain HTTP from inside the container, with
    127.0.0.1 as the host: the HTTPS redirect (a redirect to https on a plain-HTTP port) and
    ALLOWED_HOSTS (a 400), both right for real requests, made it fail always. So this comes first
    in MIDDLEWARE and answers before either is asked."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path_info != "/health/":
            return self.get_response(request)
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
        except DatabaseError:
            return HttpResponse("database unavailable\n", status=503, content_type="text/plain")
        return HttpResponse("ok\n", content_type="text/plain")


class CampusTimeMiddleware:
    """Every page speaks its institution's time zone. A signed-in person's pages (and the admin)
    start in their institution's zone; a page about one league (a public event's projector,
    read by anyone) switches to that league's with ``campus_time``. Whatever a view switched
    to ends with its request: the zone in force before is put back, so the next request on
    the same thread starts clean."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        institution = user.institution if user is not None and user.is_authenticated else None
        with timezone.override(institution.tz if institution else None):
            return self.get_response(request)


def campus_time(institution) -> None:
    """The rest of this request speaks `institution`'s time zone (CampusTimeMiddleware ends
    it with the request)."""
    timezone.activate(institution.tz)


# Files that hold people's names and results whoever asks: rosters, score cards, calendars.
PRIVATE_CONTENT_TYPES = ("text/csv", "application/pdf", "text/calendar")


class PrivateResponsesMiddleware:
    """``Cache-Control: private, no-store`` on every response to a signed-in person (their
    pages name them and show their matches) and on every CSV, PDF and calendar feed, so that a
    shared proxy never keeps a student's page or a roster for the next person. A response that
    says how it may be cached already keeps its own header. Public pages seen signed out stay
    cacheable."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.has_header("Cache-Control"):
            return response
        user = getattr(request, "user", None)
        content_type = response.get("Content-Type", "").split(";")[0].strip()
        if (user is not None and user.is_authenticated) or content_type in PRIVATE_CONTENT_TYPES:
            response["Cache-Control"] = "private, no-store"
        return response


class ClearDeviceAtSignOutMiddleware:
    """Signing out clears what this site kept on the device (``Clear-Site-Data``): the scoring
    table's copy of its pages and the cards it kept while offline (issue 52), with the
    service worker that served them. The next person on a shared phone finds none of it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        if (
            request.method == "POST"
            and match is not None
            and match.url_name == "account_logout"
            and response.status_code in (200, 302, 303)
        ):
            response["Clear-Site-Data"] = '"cache", "storage"'
        return response


# Pages a search engine may index whatever the leagues say: they name no player.
INDEXABLE_PATHS = {"/", "/leagues/", "/accounts/login/", "/accounts/signup/"}


def indexed_if_welcome(response: HttpResponse, welcome: bool) -> HttpResponse:
    """Let search engines index a league's page where its director opted in (P3)."""
    if welcome:
        response["X-Robots-Tag"] = "all"
    return response


class NoIndexMiddleware:
    """Search engines are asked not to index any page (HTML, JSON, calendars, PDFs alike) unless
    it names no player or its league opted in (P3): the header, unlike a meta tag, covers every
    kind of file, and being the default it cannot be forgotten on a new page."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "X-Robots-Tag" not in response and request.path not in INDEXABLE_PATHS:
            response["X-Robots-Tag"] = "noindex, nofollow"
        return response
