"""How an event's pages find their event and who may open them: 404 for anyone else."""

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from accounts import roles
from core.errors import DomainError
from core.middleware import campus_time
from events import rights
from league.addresses import LeagueAddress
from league.door import entrant_scanned
from league.models import Entry, League, LeagueFormat, Round
from league.selectors import can_see_league

NUMBER = {"min_value": 1, "max_value": 99999}  # a player number (entrants.clean_details)


def event_of(request: HttpRequest, address: LeagueAddress) -> League:
    league = get_object_or_404(
        League.objects.at(address).select_related("season__institution"), format=LeagueFormat.EVENT
    )
    if not can_see_league(request.user, league):
        raise Http404
    campus_time(league.season.institution)  # read by anyone: the event's clock, not UTC
    return league


def staff_event_of(
    request: HttpRequest, address: LeagueAddress, *, director: bool = False
) -> League:
    league = get_object_or_404(
        League.objects.at(address).select_related("season__institution"), format=LeagueFormat.EVENT
    )
    institution = league.season.institution
    allowed = (
        roles.is_director_of(request.user, institution)
        if director
        else roles.is_front_desk_of(request.user, institution)
    )
    if not allowed:
        raise Http404
    return league


def scorer_event_of(request: HttpRequest, address: LeagueAddress) -> League:
    league = get_object_or_404(
        League.objects.at(address).select_related("season__institution"), format=LeagueFormat.EVENT
    )
    if not rights.may_score(request.user, league):
        raise Http404
    return league


def round_of(league: League, number: int) -> Round:
    return get_object_or_404(
        Round.objects.prefetch_related("periods"), league=league, number=number
    )


def entry_from(league: League, key) -> Entry:
    found = entrant_scanned(league, key)
    if found.entry is not None:
        return found.entry
    if found.outsider is not None:
        raise DomainError(f"{found.outsider.name} is not entered in {league}: add them below.")
    raise DomainError(f"No entrant has the number or campus ID {found.key!r}.")
