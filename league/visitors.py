"""What a visitor who is not signed in finds of leagues on the home page: the public leagues
of the season running today (each format's own part, an event's, comes from the formats
registry)."""

from datetime import timedelta

from django.utils import timezone

from . import formats
from .models import League

# The most public leagues a visitor's home page lists (a deployment may hold many campuses).
PUBLIC_LEAGUES_SHOWN = 30


def public_leagues_now() -> tuple[list[League], bool]:
    """The public leagues whose season runs today, by institution and name, for a visitor's
    home page, and whether there are more than it shows: one query. Leagues of a format with a
    part of its own there (an event's) are left to it."""
    # Each institution has its own day; a day either side of the server's holds every one's.
    around = timezone.now().date()
    leagues = list(
        League.objects.filter(
            public=True,
            season__starts_on__lte=around + timedelta(days=1),
            season__ends_on__gte=around - timedelta(days=1),
        )
        .exclude(format__in=formats.with_trait("visitor_home_part"))
        .select_related("season__institution")
        .order_by("season__institution__name", "name")[: PUBLIC_LEAGUES_SHOWN + 1]
    )
    return leagues[:PUBLIC_LEAGUES_SHOWN], len(leagues) > PUBLIC_LEAGUES_SHOWN
