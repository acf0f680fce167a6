"""What the staff type or scan at the event's door and the club night's check-in: the search
(`?q=`) and the key of an entrant (a campus ID or a player number), read through
``core.values`` so that a NUL byte, a pasted page or a "²" gets a message, never an error."""

from typing import NamedTuple
from urllib.parse import urlencode

from django.contrib import messages
from django.db.models import Q
from django.http import HttpRequest

from accounts.models import PlayerProfile
from core.errors import BadValue, DomainError
from core.values import INT_MAX, clean_text, number_or_none
from league.models import Entry, League

SEARCH_MAX = 100


def searched(request: HttpRequest) -> str | None:
    """The search, tidied; None, with a message, when it cannot be searched for."""
    try:
        return clean_text(request.GET.get("q"), what="The search", max_length=SEARCH_MAX)
    except BadValue as error:
        messages.error(request, error.message)
        return None


def search_filter(query: str) -> Q:
    """Entrants whose name holds each word of `query` ("ada qu" finds a student Ada Quill, whose
    first and last names are kept apart), or whose campus ID or player number it is."""
    number = number_or_none(query, low=1, high=INT_MAX)
    named = Q()
    for word in query.split() or [query]:
        named &= (
            Q(player__user__first_name__icontains=word)
            | Q(player__user__last_name__icontains=word)
            | Q(player__display_name__icontains=word)
        )
    return (
        named
        | Q(player__campus_id=query)
        | (Q(player_number=number) if number is not None else Q(pk__in=[]))
    )


def back_with_search(url: str, query) -> str:
    """`url` with the search the staff had open, when it is one that can be searched."""
    try:
        query = clean_text(query, what="The search", max_length=SEARCH_MAX)
    except BadValue:
        query = ""
    return f"{url}?{urlencode({'q': query})}" if query else url


def scanned_key(key) -> tuple[str, int | None]:
    """What was scanned or typed, as text (a campus ID) and as a player number if it is one."""
    key = clean_text(key, what="The player number or campus ID", max_length=SEARCH_MAX)
    if not key:
        raise DomainError("Scan or type a player number or campus ID.")
    return key, number_or_none(key, low=1, high=INT_MAX)


class Scanned(NamedTuple):
    """What a scan or a typed key found: the key as read, the league's entrant it names (None
    when none), and the campus's student it names when that student is not an entrant."""

    key: str
    entry: Entry | None
    outsider: PlayerProfile | None


def entrant_scanned(league: League, key, *, present_only: bool = False) -> Scanned:
    """The entrant of `league` a campus ID or a player number names (a campus ID first);
    `present_only` leaves out those who have left."""
    key, number = scanned_key(key)
    entries = Entry.objects.filter(league=league).select_related("player__user")
    if present_only:
        entries = entries.filter(withdrawn_at__isnull=True)
    entry = entries.filter(player__campus_id=key).first()
    if entry is None and number is not None:
        entry = entries.filter(player_number=number).first()
    outsider = None
    if entry is None:
        outsider = PlayerProfile.objects.filter(
            institution=league.season.institution, campus_id=key
        ).first()
    return Scanned(key, entry, outsider)
