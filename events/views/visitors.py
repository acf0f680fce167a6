"""What a visitor who is not signed in finds of events on the home page: today's public events,
each with its leaderboard and the hall's projector, and the coming ones."""

from datetime import timedelta

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import timezone

from events.models import Event

# The most coming events the home page lists; today's are always all listed.
COMING = 5


def visitor_home_part(request: HttpRequest) -> str:
    """Today's and coming public events, each on its institution's own day: one query. Empty
    when there is none."""
    # Each institution has its own day; a day either side of the server's holds every one's.
    around = timezone.now().date()
    events = list(
        Event.objects.filter(league__public=True, date__gte=around - timedelta(days=1))
        .select_related("league__season__institution")
        .order_by("date", "league__name")[: 50 + COMING]
    )
    today, coming = [], []
    for event in events:
        day = event.league.season.institution.today()
        if event.date == day:
            today.append(event)
        elif event.date > day and len(coming) < COMING:
            coming.append(event)
    if not today and not coming:
        return ""
    return render_to_string(
        "events/_visitor_events.html", {"today": today, "coming": coming}, request=request
    )
