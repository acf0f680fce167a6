"""A league's public address: ``/<campus>/leagues/<slug>/``, its slug unique within its campus.

Every page below a league (standings, bracket, feeds, an event's rounds and tables, a club's
nights) is addressed through ``LeagueAddressConverter``: ``reverse()`` and ``{% url %}`` take the
league itself and the converter writes ``CAMPUS/leagues/SLUG``, so no code builds a league's
address from its slug alone. A view receives a ``LeagueAddress`` and finds its league with
``League.objects.at(address)``.

Addresses from before campuses had their own (``/leagues/<slug>/…``) are pinned to the league
that held them (``OldLeagueAddress``) and answer a permanent redirect that keeps the method.
"""

import argparse
from typing import NamedTuple

from django.core.management.base import CommandError

from core.values import slug_problem


class LeagueAddress(NamedTuple):
    """Which league a public address names: its campus's slug and its own."""

    campus: str
    slug: str

    def __str__(self):
        return f"{self.campus}/leagues/{self.slug}"


class LeagueAddressConverter:
    """``<league:address>`` in a URL pattern: ``CAMPUS/leagues/SLUG``."""

    regex = r"[-a-zA-Z0-9_]+/leagues/[-a-zA-Z0-9_]+"

    def to_python(self, value: str) -> LeagueAddress:
        campus, _, slug = value.split("/", 2)
        return LeagueAddress(campus, slug)

    def to_url(self, value) -> str:
        """A league (its season's institution read, so callers load it with the league), or
        the address a view was given. A bare slug is refused: it names no campus."""
        if isinstance(value, LeagueAddress):
            return str(value)
        season = getattr(value, "season", None)
        if season is None:
            raise ValueError(f"{value!r} is not a league: a league's address needs its campus")
        return str(LeagueAddress(season.institution.slug, value.slug))


def league_argument(text: str) -> str:
    """An argparse `type` for ``--league``: ``CAMPUS/SLUG``, or a bare ``SLUG`` where it names
    one league (``league_of_command`` decides)."""
    parts = text.split("/")
    if len(parts) > 2:
        raise argparse.ArgumentTypeError(f"{text!r}: give SLUG or CAMPUS/SLUG")
    for part in parts:
        problem = slug_problem(part)
        if problem:
            raise argparse.ArgumentTypeError(problem)
    return text


league_argument.__name__ = "league"


def league_of_command(reference: str, queryset=None):
    """The league a command's ``--league`` names: ``CAMPUS/SLUG``, or a bare slug that only
    one campus uses. Refused in words when none, or several, match."""
    from .models import League

    leagues = (queryset if queryset is not None else League.objects).select_related(
        "season__institution"
    )
    if "/" in reference:
        campus, slug = reference.split("/", 1)
        found = leagues.filter(campus__slug=campus, slug=slug).first()
        if found is None:
            raise CommandError(f"No league {slug!r} at {campus!r}.")
        return found
    found = list(leagues.filter(slug=reference).order_by("campus__slug")[:2])
    if not found:
        raise CommandError(f"No league {reference!r}.")
    if len(found) > 1:
        campuses = sorted(leagues.filter(slug=reference).values_list("campus__slug", flat=True))
        raise CommandError(
            f"{reference!r} names a league at {len(campuses)} campuses ({', '.join(campuses)}): "
            f"give CAMPUS/{reference}, e.g. {campuses[0]}/{reference}."
        )
    return found[0]
