"""What the director downloads and the record of it (P6): the CSV exports of a league's
standings and results and of the roster, each recorded through ``accounts.services`` ·
``export_record`` as it is served, and the list of every export of the institution's personal
data (``/director/exports/``), newest first, in the campus's clock."""

import csv

from allauth.account.models import EmailAddress
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from accounts import roles
from accounts.models import DataExport, Eligibility, PlayerProfile
from accounts.selectors import current_season
from accounts.services import export_record
from core.middleware import campus_time
from matches.models import FINAL_STATUSES, Match, Seat
from matches.services import MAX_SEATS

from ..pages import JSON_KEYS
from ..selectors import standings_of
from .director import _director_institution, _own_league, _site_admin_choice

EXPORTS_PER_PAGE = 50


@login_required
def exports(request: HttpRequest) -> HttpResponse:
    """Every download of the institution's personal data (P6), newest first, 50 a page: when
    (in the institution's time zone), who, what, whose and how many rows. Its directors and
    site admins only; anyone else gets the 404 of every director page."""
    if picking := _site_admin_choice(request):
        return picking
    institution = _director_institution(request)
    campus_time(institution)  # a site admin's clock too: the campus's, not UTC
    found = DataExport.objects.filter(institution=institution).select_related("actor")
    page = Paginator(found, EXPORTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "league/director_exports.html",
        {"institution": institution, "page": page, "exports": page.object_list},
    )


# What makes Excel, LibreOffice and Google Sheets read a text cell as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value):
    """A text cell a spreadsheet would run as a formula (a player named =HYPERLINK(...)) gets a
    leading apostrophe, which the spreadsheet shows as text; numbers, a spread of -50 among them,
    stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _csv(request, institution, filename: str, header: list[str], rows, *, what, subject):
    """Every CSV export goes through here, so every cell is made safe to open in a spreadsheet
    and every download is recorded (P6): `what` the kind of file, `subject` whose data."""
    rows = list(rows)
    export_record(
        institution=institution, actor=request.user, what=what, subject=subject, rows=len(rows)
    )
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow(header)
    writer.writerows([spreadsheet_safe(cell) for cell in row] for row in rows)
    return response


@login_required
def export_standings(request: HttpRequest, slug: str) -> HttpResponse:
    league = _own_league(request, slug)
    # standings.json's counts (pages.COLUMNS), with the campus ID and withdrawals for the director;
    # the ratings are not the league's counts (R1: the institution's list has them).
    counts = [
        key for key in JSON_KEYS if key not in ("rank", "player", "rating", "rating_provisional")
    ]
    header = ["rank", "player", "campus_id", *counts, "withdrawn"]
    rows = [
        [
            r.rank,
            r.player.name,
            r.player.campus_id,
            *(getattr(r, key) for key in counts),
            r.withdrawn,
        ]
        for r in standings_of(league)
    ]
    return _csv(
        request,
        league.season.institution,
        f"{league.slug}-standings.csv",
        header,
        rows,
        what="standings.csv",
        subject=league.name,
    )


@login_required
def export_results(request: HttpRequest, slug: str) -> HttpResponse:
    league = _own_league(request, slug)
    tz = league.season.institution.tz
    matches = (
        Match.objects.filter(league=league, status__in=FINAL_STATUSES)
        .select_related("round")
        .prefetch_related(
            Prefetch(
                "seats", queryset=Seat.objects.select_related("player__user").order_by("order")
            )
        )
        .order_by("round__number", "id")
    )
    # A column group per seat, up to a table of four (G9); a two-player match leaves 3 and 4 empty.
    seat_columns = ["player", "score", "place", "outcome"]
    header = [
        "round",
        "playoff",
        "status",
        *(f"{column}_{order}" for order in range(1, MAX_SEATS + 1) for column in seat_columns),
        "finalised_at",
    ]
    rows = []
    for match in matches:
        seats = list(match.seats.all())
        cells = []
        for order in range(MAX_SEATS):
            seat = seats[order] if order < len(seats) else None
            cells += (
                [seat.player.name, seat.score, seat.place, seat.outcome]
                if seat
                else ["", "", "", ""]
            )
        rows.append(
            [
                match.round.number,
                match.round.playoff,
                match.status,
                *cells,
                # In the institution's zone, with its offset: a spreadsheet reads the campus's
                # clock, and the offset keeps the moment exact.
                timezone.localtime(match.finalised_at, tz).isoformat(timespec="seconds")
                if match.finalised_at
                else "",
            ]
        )
    return _csv(
        request,
        league.season.institution,
        f"{league.slug}-results.csv",
        header,
        rows,
        what="results.csv",
        subject=league.name,
    )


@login_required
def export_roster(request: HttpRequest) -> HttpResponse:
    """Every student with a campus ID and a verified e-mail address, and their eligibility for
    the current season. An unverified signup may be anyone typing someone else's address."""
    institution = _director_institution(request)
    season = current_season(institution)

    statuses = {}
    if season:
        statuses = dict(
            Eligibility.objects.filter(season=season).values_list("profile_id", "status")
        )
    profiles = (
        PlayerProfile.objects.filter(institution=institution, user__groups__name=roles.STUDENTS)
        .filter(Exists(EmailAddress.objects.filter(user_id=OuterRef("user_id"), verified=True)))
        .exclude(campus_id="")
        .select_related("user")
        .order_by("user__last_name", "user__first_name")
    )
    rows = [
        [
            p.campus_id,
            p.user.first_name,
            p.user.last_name,
            p.user.email,
            statuses.get(p.pk, "pending"),
        ]
        for p in profiles
    ]
    return _csv(
        request,
        institution,
        f"{institution.slug}-roster.csv",
        [
            "campus_id",
            "first_name",
            "last_name",
            "email",
            f"eligibility_{season.slug if season else 'none'}",
        ],
        rows,
        what="roster.csv",
        subject=season.name if season else institution.name,
    )
