from django.db.models import Count, Prefetch, Q

from accounts import roles
from matches.models import Match, Seat

from .models import League, Round


def leagues_for(institution):
    """An institution's leagues with their entry counts, newest season first."""
    return (
        League.objects.filter(season__institution=institution)
        .select_related("season__institution")
        .annotate(players=Count("entries", filter=Q(entries__withdrawn_at__isnull=True)))
        .order_by("-season__starts_on", "name")
    )


def can_see_league(user, league: League) -> bool:
    if league.public:
        return True
    if not user.is_authenticated:
        return False
    return roles.institution_of(user) == league.season.institution or roles.is_site_admin(user)


def schedule(league: League) -> list[Round]:
    """Rounds with their matches and seats: three queries whatever the league's size."""
    return list(
        Round.objects.filter(league=league)
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "matches",
                queryset=Match.objects.order_by("id").prefetch_related(
                    Prefetch(
                        "seats",
                        queryset=Seat.objects.select_related("player__user").order_by("order"),
                    )
                ),
            )
        )
    )
