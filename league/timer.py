"""The table timer (G8, G3): a phone or tablet at the table counts each turn down, signals a lost
turn and counts turns; for any league's tables."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from core.values import INT_MAX, number_or_none, shown

from .addresses import LeagueAddress
from .models import League
from .selectors import can_see_league


def table_timer(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    """A phone or tablet at the table times each turn (G8): `seconds` per turn (0: untimed,
    turns only counted), `players` 2 to 4, optional `table` and `names`. Everything runs in the
    page once loaded, so a dropped Wi-Fi stops nothing."""
    league = get_object_or_404(League.objects.at(address).select_related("season__institution"))
    if not can_see_league(request.user, league):
        raise Http404
    default = league.turn_time_seconds or 150
    problems = []
    seconds = number_or_none(request.GET.get("seconds", default), low=0, high=INT_MAX)
    if seconds is None:
        seconds, problems = default, [f"{shown(request.GET['seconds'])} is not a number of seconds"]
    if seconds != 0 and not 30 <= seconds <= 600:
        problems.append(f"{seconds} seconds is outside 30–600")
        seconds = default
    players = number_or_none(request.GET.get("players", 2), low=2, high=4)
    if players is None:
        problems.append("a table has 2 to 4 players")
        players = 2
    names = [name.strip()[:40] for name in request.GET.get("names", "").split(",")]
    names = [name or f"Player {i}" for i, name in enumerate((names + [""] * 4)[:players], 1)]
    table = number_or_none(request.GET.get("table", ""), low=1, high=999)
    return render(
        request,
        "league/table_timer.html",
        {
            "league": league,
            "seconds": seconds,
            "label": f"{seconds // 60}:{seconds % 60:02d}",
            "names": names,
            "table": table or "",
            "problems": problems,
        },
    )
