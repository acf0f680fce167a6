"""The director's dashboard: each queue with its count and a link to work it, the leagues (each
opening its own queues, ``director_rounds``), and CSV exports of standings, results and the roster. The admin panel stays the director's home for the work itself."""

import csv

from allauth.account.models import EmailAddress
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Exists, OuterRef, Prefetch, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone

from accounts import roles
from accounts.models import Eligibility
from accounts.selectors import current_season, overdue_checkouts, pending_students
from matches.models import FINAL_STATUSES, ContactIssue, Dispute, Match, Seat
from matches.services import MAX_SEATS

from .models import League
from .nightly import last_run, nightly_overdue
from .pages import JSON_KEYS
from .selectors import leagues_for, standings_of


def _director_institution(request: HttpRequest):
    institution = roles.institution_of(request.user)
    if institution is None or not roles.is_director_of(request.user, institution):
        raise Http404
    return institution


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    institution = _director_institution(request)
    season = current_season(institution)
    now = timezone.now()
    in_institution = {"match__league__season__institution": institution}
    queues = [
        (
            "Open disputes",
            Dispute.objects.filter(
                resolved_at__isnull=True, report__match__league__season__institution=institution
            ).count(),
            reverse("admin:matches_dispute_changelist") + "?state=open",
        ),
        (
            "Can't-reach-opponent reports",
            ContactIssue.objects.filter(resolved_at__isnull=True, **in_institution).count(),
            reverse("admin:matches_contactissue_changelist") + "?state=open",
        ),
        (
            "Students pending eligibility",
            pending_students(institution, season).count(),
            reverse("admin:accounts_playerprofile_changelist") + "?eligibility=pending",
        ),
        ("Overdue equipment", overdue_checkouts(institution, now).count(), reverse("front_desk")),
    ]
    nightly = last_run(institution)
    return render(
        request,
        "league/dashboard.html",
        {
            "institution": institution,
            "season": season,
            "nightly": nightly,
            "nightly_overdue": nightly_overdue(nightly, now),
            "queues": queues,
            "leagues": list(
                leagues_for(institution).annotate(
                    open_matches=Coalesce(
                        Subquery(
                            Match.objects.filter(league=OuterRef("pk"))
                            .exclude(status__in=FINAL_STATUSES)
                            .order_by()
                            .values("league")
                            .annotate(count=Count("pk"))
                            .values("count")
                        ),
                        0,
                    )
                )
            ),
        },
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


def _csv(filename: str, header: list[str], rows) -> HttpResponse:
    """Every CSV export goes through here, so every cell is made safe to open in a spreadsheet."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow(header)
    writer.writerows([spreadsheet_safe(cell) for cell in row] for row in rows)
    return response


def _own_league(request, slug) -> League:
    institution = _director_institution(request)
    return get_object_or_404(
        League.objects.select_related("season__institution"),
        slug=slug,
        season__institution=institution,
    )


@login_required
def export_standings(request: HttpRequest, slug: str) -> HttpResponse:
    league = _own_league(request, slug)
    # standings.json's counts (pages.COLUMNS), with the campus ID and withdrawals for the director.
    counts = [key for key in JSON_KEYS if key not in ("rank", "player")]
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
    return _csv(f"{league.slug}-standings.csv", header, rows)


@login_required
def export_results(request: HttpRequest, slug: str) -> HttpResponse:
    league = _own_league(request, slug)
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
                match.finalised_at.isoformat() if match.finalised_at else "",
            ]
        )
    return _csv(f"{league.slug}-results.csv", header, rows)


@login_required
def export_roster(request: HttpRequest) -> HttpResponse:
    """Every student with a campus ID and a verified e-mail address, and their eligibility for
    the current season. An unverified signup may be anyone typing someone else's address."""
    institution = _director_institution(request)
    season = current_season(institution)
    from accounts.models import PlayerProfile

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
        f"{institution.slug}-roster.csv",
        [
            "campus_id",
            "first_name",
            "last_name",
            "email",
            f"eligibility_{season.slug if season else 'none'}",
        ],
        rows,
    )
