"""The director's dashboard: each queue with its count and a link to work it, the leagues (each
opening its own queues, ``director_rounds``), the dispute queue, and who the director is (their
institution, a league of theirs) for every director page. The CSV exports and their record are
``director_exports``. The admin panel stays the director's home for the work itself."""

from datetime import datetime

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import OuterRef
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from accounts import roles
from accounts.models import Institution
from accounts.pending import pending_students_count
from accounts.picked import has_picked, institution_at_work, remember_pick
from accounts.selectors import current_season, institution_counts, overdue_checkouts
from core.compiled import CompiledQuery, counted
from core.fragments import rendered
from matches.dispute_queue import (
    DISPUTES_PER_PAGE,
    OPEN_DISPUTES_PAGE,
    WAITING_DISPUTES,
    dispute_row,
    disputes_waiting,
    with_dispute_facts,
)
from matches.models import FINAL_STATUSES, ContactIssue, Match

from ..addresses import LeagueAddress
from ..digest import failures_in_words
from ..models import League, RefreshFailure
from ..nights import last_run, nightly_overdue
from ..selectors import leagues_for


def _director_institution(request: HttpRequest):
    """The director's institution; a site admin's is the one they picked on the dashboard. 404
    for everyone else, and for a site admin who has not picked one yet."""
    institution = institution_at_work(request)
    if institution is None or not roles.is_director_of(request.user, institution):
        raise Http404
    return institution


def _site_admin_choice(request: HttpRequest) -> HttpResponse | None:
    """A site admin sees any institution's dashboard: `?institution=SLUG` picks it (kept for
    the director's other pages); without a pick, the list to pick from."""
    if not roles.is_site_admin(request.user) or roles.institution_of(request.user):
        return None
    slug = request.GET.get("institution")
    if slug:
        institution = Institution.objects.filter(slug=slug).first()
        if institution is None:
            raise Http404
        remember_pick(request, institution)
        return None
    if has_picked(request) and "pick" not in request.GET:
        return None
    return render(
        request,
        "league/pick_institution.html",
        {"institutions": Institution.objects.order_by("name").only("name", "slug")},
    )


def _queue_counts(institution_id, season_id, now):
    """The institution with its four queues and its leagues counted, in one statement."""
    return institution_counts(
        institution_id,
        leagues=League.objects.filter(season__institution_id=institution_id),
        open_disputes=disputes_waiting(institution_id),
        open_contact_issues=ContactIssue.objects.filter(
            resolved_at__isnull=True, match__league__season__institution_id=institution_id
        ),
        pending_students=pending_students_count(institution_id, season_id),
        overdue_checkouts=overdue_checkouts(institution_id, now),
        failing_leagues=RefreshFailure.objects.filter(
            league__season__institution_id=institution_id
        ),
    )


# Written once per process (core.compiled): the ORM took longer to write the counts' four
# queries and the leagues' four subqueries than PostgreSQL took to answer them (issue 18).
QUEUE_COUNTS = CompiledQuery(_queue_counts, institution_id=int, season_id=int, now=datetime)
LEAGUES_PER_PAGE = 20
DASHBOARD_LEAGUES = CompiledQuery(
    lambda institution_id, offset: leagues_for(institution_id).annotate(
        open_matches=counted(
            Match.objects.filter(league=OuterRef("pk")).exclude(status__in=FINAL_STATUSES)
        )
    )[offset : offset + LEAGUES_PER_PAGE],
    shape=("offset",),
    institution_id=int,
)


# The refresh's steps: their failures are kept until a refresh works (``RefreshFailure``), so the
# dashboard reads them there rather than from the night's record.
REFRESH_STEPS = ("standings", "bracket", "pages")


def not_refreshed(institution_id: int) -> list[RefreshFailure]:
    """The institution's leagues whose standings could not be refreshed, oldest failure first:
    read only when the queue counts found one."""
    return list(
        RefreshFailure.objects.filter(league__season__institution_id=institution_id)
        .select_related("league")
        .order_by("since")
    )


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """The queues' counts, the nightly job's last run, and the institution's leagues
    (``?page=``, newest season first), each row kept rendered by what it shows."""
    if picking := _site_admin_choice(request):
        return picking
    institution = _director_institution(request)
    season = current_season(institution)
    now = timezone.now()
    counts = QUEUE_COUNTS.first(
        institution_id=institution.pk, season_id=season.pk if season else 0, now=now
    )
    queues = [
        (
            "Open disputes",
            counts.open_disputes,
            reverse("director_disputes"),
        ),
        (
            "Can't-reach-opponent reports",
            counts.open_contact_issues,
            reverse("admin:matches_contactissue_changelist") + "?state=open",
        ),
        (
            "Students pending eligibility",
            counts.pending_students if season else 0,
            reverse("admin:accounts_playerprofile_changelist") + "?eligibility=pending",
        ),
        ("Overdue equipment", counts.overdue_checkouts, reverse("front_desk")),
    ]
    total = counts.leagues
    page = Paginator(range(total), LEAGUES_PER_PAGE).get_page(request.GET.get("page"))
    leagues = (
        DASHBOARD_LEAGUES.all(institution_id=institution.pk, offset=page.start_index() - 1)
        if total
        else []
    )
    nightly = last_run(institution)
    return render(
        request,
        "league/dashboard.html",
        {
            "institution": institution,
            "site_admin": roles.is_site_admin(request.user),
            "season": season,
            "nightly": nightly,
            "nightly_overdue": nightly_overdue(nightly, now),
            "not_refreshed": not_refreshed(institution.pk) if counts.failing_leagues else [],
            "night_failures": [
                failure
                for failure in failures_in_words(nightly.failures if nightly else [])
                if failure["step"] not in REFRESH_STEPS
            ],
            "queues": queues,
            "page": page,
            "league_rows": [
                rendered(
                    "league/_dashboard_league_row.html",
                    {
                        "slug": league.slug,
                        "address": LeagueAddress(institution.slug, league.slug),
                        "name": league.name,
                        "players": league.players,
                        "open_matches": league.open_matches,
                    },
                )
                for league in leagues
            ],
        },
    )


@login_required
def disputes(request: HttpRequest) -> HttpResponse:
    """The disputes waiting for the director's ruling (L9), oldest first, 25 a page: both
    versions of the scores side by side, the point of discrepancy, and the way to the ruling
    (the admin's resolve page). Each row is kept rendered by what it shows."""
    institution = _director_institution(request)
    total = WAITING_DISPUTES.first(institution_id=institution.pk).waiting
    page = Paginator(range(total), DISPUTES_PER_PAGE).get_page(request.GET.get("page"))
    found = (
        OPEN_DISPUTES_PAGE.all(
            institution_id=institution.pk, offset=page.start_index() - 1, size=DISPUTES_PER_PAGE
        )
        if total
        else []
    )
    return render(
        request,
        "league/director_disputes.html",
        {
            "institution": institution,
            "page": page,
            "total": total,
            "rows": [
                rendered("league/_dispute_row.html", dispute_row(dispute))
                for dispute in with_dispute_facts(found)
            ],
        },
    )


OWN_LEAGUE = CompiledQuery(
    lambda institution_id, slug: League.objects.select_related("season__institution").filter(
        slug=slug, season__institution_id=institution_id
    ),
    institution_id=int,
    slug=str,
)


def _own_league(request, slug) -> League:
    institution = _director_institution(request)
    league = OWN_LEAGUE.first(institution_id=institution.pk, slug=slug)
    if league is None:
        raise Http404("No league of yours has this address.")
    return league
