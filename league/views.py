from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from accounts import roles
from accounts.errors import DomainError
from accounts.models import Eligibility
from matches.selectors import matches_of

from .models import Entry, League
from .selectors import can_see_league, leagues_for, schedule
from .services import league_join


@login_required
def league_list(request: HttpRequest) -> HttpResponse:
    """The leagues of the student's institution, with why joining is or isn't possible."""
    institution = roles.institution_of(request.user)
    if institution is None:
        raise Http404
    profile = request.user.profile
    leagues = list(leagues_for(institution))
    mine = set(
        Entry.objects.filter(player=profile, withdrawn_at__isnull=True).values_list(
            "league_id", flat=True
        )
    )
    statuses = dict(
        Eligibility.objects.filter(
            profile=profile, season__in={league.season_id for league in leagues}
        ).values_list("season_id", "status")
    )
    rows = []
    for league in leagues:
        status = statuses.get(league.season_id, "pending")
        if league.pk in mine:
            why_not = "You are in this league."
        elif not league.registration_open():
            why_not = f"Registration closed on {league.season.registration_deadline:%b %-d}."
        elif league.players >= league.capacity:
            why_not = "The league is full."
        elif status != "eligible":
            why_not = "You are not eligible yet: see your home page."
        else:
            why_not = ""
        rows.append(
            {
                "league": league,
                "why_not": why_not,
                "places_left": max(league.capacity - league.players, 0),
            }
        )
    return render(
        request, "league/league_list.html", {"rows": rows, "my_matches": list(matches_of(profile))}
    )


def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    league = get_object_or_404(League.objects.select_related("season__institution"), slug=slug)
    if not can_see_league(request.user, league):
        raise Http404
    entries = list(league.entries.filter(withdrawn_at__isnull=True).select_related("player__user"))
    return render(
        request,
        "league/league_detail.html",
        {"league": league, "rounds": schedule(league), "entries": entries},
    )


@login_required
@require_POST
def league_join_view(request: HttpRequest, slug: str) -> HttpResponse:
    league = get_object_or_404(League.objects.select_related("season__institution"), slug=slug)
    if roles.institution_of(request.user) != league.season.institution:
        raise Http404
    try:
        league_join(actor=request.user, league=league)
    except DomainError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request, f"You joined {league}. Your matches appear once the director draws the rounds."
        )
    return redirect("league_list")
