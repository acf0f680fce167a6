"""A league's public pages: the league, its standings and bracket (HTML and JSON for campus
websites), its calendar feed and its two-letter words; public when the league is."""

from itertools import groupby

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from accounts import roles
from accounts.selectors import eligibility_of
from core.middleware import indexed_if_welcome
from matches.calendar import league_calendar

from .. import formats
from ..addresses import LeagueAddress
from ..models import Entry, League
from ..names import name_style
from ..pages import layout, render_pages
from ..policies import join_refusal
from ..selectors import can_see_league, league_page_row, schedule, waitlist_place
from ..wordlists import list_note
from ..wordlists import two_letter_words as words


def league_detail(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    league = get_object_or_404(League.objects.at(address).select_related("season__institution"))
    if not can_see_league(request.user, league):
        raise Http404
    home = formats.of(league.format).home
    if home is not None:
        response = home(request, league)
    else:
        response = render(
            request, "league/league_detail.html", league_page_context(request, league)
        )
    return indexed_if_welcome(response, league.search_engines)


def league_page_context(request: HttpRequest, league: League) -> dict:
    """What a league's page shows: its players, its schedule by round, the signed-in student's
    place in it. A format's own page (a club's) adds to it."""
    entries = list(league.entries.filter(withdrawn_at__isnull=True).select_related("player__user"))
    rounds = schedule(league)
    today = league.season.institution.today()
    # On a phone the round in play is what a player came for: it stays open, the rest fold.
    in_play = next(
        (r.number for r in rounds if r.play_by >= today), rounds[-1].number if rounds else 0
    )
    return {
        "league": league,
        "names": name_style(request.user, league),
        "rounds": rounds,
        "round_in_play": in_play,
        "entries": entries,
        "me": student_place(request, league, entries, rounds, started=league.started(bool(rounds))),
        "is_staff": roles.is_front_desk_of(request.user, league.season.institution),
        "is_director": roles.is_director_of(request.user, league.season.institution),
    }


def student_place(
    request, league: League, entries: list[Entry], rounds: list, *, started: bool
) -> dict | None:
    """The signed-in student's place in the league for its page: in it (and what withdrawing
    would forfeit), on its waitlist (which place), or neither. One query at most."""
    profile = getattr(request.user, "profile", None) if request.user.is_authenticated else None
    if profile is None or not league.students_withdraw:
        return None
    entry = next((entry for entry in entries if entry.player_id == profile.pk), None)
    if entry is not None:
        # What `remaining_games` counts, read off the schedule the page holds already.
        games = sum(
            1
            for round_ in rounds
            for match in round_.matches.all()
            if not match.is_final and any(s.player_id == profile.pk for s in match.seats.all())
        )
        return {"entry": entry, "started": started, "games": games}
    place = waitlist_place(league, profile)
    if place:
        return {"waiting": place, "started": started}
    if profile.institution_id != league.season.institution_id:
        return None
    # Neither in it nor waiting: the page offers Join (or the waitlist), or says why not, as
    # the leagues list does.
    refusal = join_refusal(
        league,
        joined=False,
        players=len(entries),
        started=started,
        eligibility=eligibility_of(profile, league.season).status,
    )
    return {"offer": True, "refusal": refusal, "started": started}


def _public_league(request, address) -> League:
    league = get_object_or_404(League.objects.at(address).select_related("season__institution"))
    if not can_see_league(request.user, league):
        raise Http404
    return league


def _league_page(request, address: LeagueAddress, part: str):
    """One part of the league's stored pages (``LeaguePageRow``: its name, its content for this
    reader), if this visitor may see the league: one query for a public league. A league not
    rendered yet, or rendered by other templates (before a deploy), is rendered now."""
    row = league_page_row(address, part)
    if row is None or row.layout != layout():
        league = get_object_or_404(League.objects.at(address))
        render_pages([league.pk])
        row = league_page_row(address, part)
    if not row.public:
        league = League.objects.select_related("season__institution").get(pk=row.league_id)
        if not can_see_league(request.user, league):
            raise Http404
    return row


def _json_response(row) -> HttpResponse:
    response = HttpResponse(row.content, content_type="application/json")
    return indexed_if_welcome(response, row.search_engines)


def league_standings(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    row = _league_page(request, address, "standings_html")
    response = render(
        request,
        "league/page.html",
        {
            "title": f"{row.name} standings",
            "content": row.content_for(request.user),
            "sortable": True,
        },
    )
    return indexed_if_welcome(response, row.search_engines)


def league_standings_json(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    return _json_response(_league_page(request, address, "standings_json"))


def league_bracket_json(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    return _json_response(_league_page(request, address, "bracket_json"))


def league_bracket(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    row = _league_page(request, address, "bracket_html")
    response = render(
        request,
        "league/page.html",
        {
            "title": f"{row.name} bracket",
            "content": row.content_for(request.user),
        },
    )
    return indexed_if_welcome(response, row.search_engines)


def league_calendar_feed(request: HttpRequest, address: LeagueAddress) -> HttpResponse:

    league = _public_league(request, address)
    body = league_calendar(league, schedule(league), timezone.now())
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{league.slug}.ics"'
    return response


def two_letter_words(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    """G10: the acceptable two-letter words, grouped by first letter."""

    league = _public_league(request, address)
    groups = [(letter, list(group)) for letter, group in groupby(words(), key=lambda word: word[0])]
    return render(
        request,
        "league/two_letter_words.html",
        {
            "league": league,
            "groups": groups,
            "count": len(words()),
            "note": list_note(league.get_lexicon_display()),
        },
    )
