from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.html import format_html_join
from django.views.decorators.http import require_POST

from accounts import roles
from accounts.errors import DomainError
from accounts.models import Eligibility
from accounts.selectors import eligibility_of

from .models import Bracket, Entry, League
from .selectors import (
    bracket_of,
    bracket_rounds,
    can_see_league,
    leagues_for,
    schedule,
    standings_rows,
)
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
    return render(request, "league/league_list.html", {"rows": rows})


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


def _public_league(request, slug) -> League:
    league = get_object_or_404(League.objects.select_related("season__institution"), slug=slug)
    if not can_see_league(request.user, league):
        raise Http404
    return league


def league_standings(request: HttpRequest, slug: str) -> HttpResponse:
    league = _public_league(request, slug)
    rows = standings_rows(league)
    champion = League.objects.filter(pk=league.pk).values_list(
        "bracket__champion__user__first_name", "bracket__champion__user__last_name"
    )[0]
    # ~100 rows × 10 cells through the template engine was most of the page's time; one
    # escaped format string per row does the same work several times faster.
    body = format_html_join(
        "\n",
        '<tr><td>{}</td><th scope="row">{}</th><td>{}</td><td>{}</td><td>{}</td><td data-sort="{}">{}</td>'
        '<td>{}</td><td>{}</td><td>{}</td><td class="muted">{}</td></tr>',
        (
            (
                r["rank"],
                r["player"],
                r["wins"],
                r["losses"],
                r["ties"],
                r["spread"],
                r["spread_display"],
                r["points_for"],
                r["points_against"],
                r["games"],
                r["notes"],
            )
            for r in rows
        ),
    )
    return render(
        request,
        "league/standings.html",
        {
            "league": league,
            "rows": rows,
            "table_body": body,
            "updated": max((row["updated_at"] for row in rows), default=None),
            "champion": " ".join(part for part in champion if part),
            "has_bracket": Bracket.objects.filter(league=league).exists(),
        },
    )


JSON_FIELDS = [
    "rank", "player", "wins", "losses", "ties", "byes", "forfeits_won", "forfeits_lost",
    "double_forfeits", "spread", "points_for", "points_against", "games",
]  # fmt: skip


def league_standings_json(request: HttpRequest, slug: str) -> JsonResponse:
    league = _public_league(request, slug)
    rows = standings_rows(league)
    updated = max((row["updated_at"] for row in rows), default=None)
    return JsonResponse(
        {
            "league": league.slug,
            "updated": updated.isoformat() if updated else None,
            "standings": [{key: row[key] for key in JSON_FIELDS} for row in rows],
        }
    )


def _bracket_context(league):
    bracket, slots = bracket_of(league)
    if bracket is None:
        return None, [], {}
    from accounts.models import PlayerProfile

    names = {
        profile.pk: profile.user.get_full_name() or profile.user.email
        for profile in PlayerProfile.objects.filter(pk__in=bracket.seeds).select_related("user")
    }
    return bracket, bracket_rounds(bracket, slots, names), names


def league_bracket_json(request: HttpRequest, slug: str) -> JsonResponse:
    league = _public_league(request, slug)
    bracket, rounds, names = _bracket_context(league)
    if bracket is None:
        return JsonResponse({"league": league.slug, "size": 0, "champion": None, "rounds": []})
    for games in rounds:
        for game in games:
            game.pop("match_id")
    return JsonResponse(
        {
            "league": league.slug,
            "size": bracket.size,
            "champion": names.get(bracket.champion_id),
            "rounds": rounds,
        }
    )


def league_bracket(request: HttpRequest, slug: str) -> HttpResponse:
    league = _public_league(request, slug)
    bracket, rounds, names = _bracket_context(league)
    champion = names.get(bracket.champion_id) if bracket else None
    return render(
        request,
        "league/bracket.html",
        {"league": league, "bracket": bracket, "rounds": rounds, "champion": champion},
    )


def home(request: HttpRequest) -> HttpResponse:
    """Visitors: what this is. Students: eligibility and "My matches", each with the next step."""
    from django.utils import timezone

    from accounts.models import PlayerProfile
    from accounts.selectors import current_season, next_step_for
    from matches.next_step import next_step
    from matches.selectors import matches_for_home

    context = {}
    profile = (
        PlayerProfile.objects.select_related("institution", "user")
        .filter(user=request.user)
        .first()
        if request.user.is_authenticated
        else None
    )
    if profile:
        season = current_season(profile.institution)
        eligibility = eligibility_of(profile, season) if season else None
        now = timezone.now()
        rows = []
        for match in matches_for_home(profile, seasons=[season] if season else []):
            seat = next(s for s in match.seats.all() if s.player_id == profile.pk)
            opponents = [s.player for s in match.seats.all() if s.player_id != profile.pk]
            rows.append(
                {
                    "match": match,
                    "seat": seat,
                    "opponents": opponents,
                    "step": next_step(match, seat, now),
                }
            )
        rows.sort(
            key=lambda row: (
                not row["step"].needs_you,
                row["match"].is_final,
                row["match"].deadline,
            )
        )
        context.update(
            profile=profile,
            season=season,
            eligibility=eligibility,
            next_step=next_step_for(eligibility) if eligibility else "",
            rows=rows,
            tz=profile.institution.tz,
            is_front_desk=roles.is_front_desk_of(request.user, profile.institution),
        )
    return render(request, "league/home.html", context)


def league_calendar_feed(request: HttpRequest, slug: str) -> HttpResponse:
    from django.utils import timezone

    from matches.calendar import league_calendar

    league = _public_league(request, slug)
    body = league_calendar(league, schedule(league), timezone.now())
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{league.slug}.ics"'
    return response


def two_letter_words(request: HttpRequest, slug: str) -> HttpResponse:
    """G10: the acceptable two-letter words, grouped by first letter."""
    from itertools import groupby

    from .wordlists import two_letter_words as words

    league = _public_league(request, slug)
    groups = [(letter, list(group)) for letter, group in groupby(words(), key=lambda word: word[0])]
    return render(
        request,
        "league/two_letter_words.html",
        {"league": league, "groups": groups, "count": len(words())},
    )
