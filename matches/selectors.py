from django.db.models import Prefetch, Q

from accounts import roles

from .models import AuditEvent, Match, ResultReport, ScheduleProposal, Seat


def match_for_page(pk: int) -> Match | None:
    """A match with everything its page shows, in a fixed number of queries."""
    return (
        Match.objects.select_related("league__season__institution", "round")
        .prefetch_related(
            Prefetch(
                "seats", queryset=Seat.objects.select_related("player__user").order_by("order")
            ),
            Prefetch(
                "proposals",
                queryset=ScheduleProposal.objects.filter(status="open")
                .select_related("proposed_by__user")
                .prefetch_related("times"),
                to_attr="open_proposals",
            ),
            Prefetch(
                "reports",
                queryset=ResultReport.objects.filter(
                    status__in=["pending", "confirmed", "disputed"]
                ).select_related("submitted_by__user", "dispute"),
                to_attr="live_reports",
            ),
            Prefetch(
                "audit_events",
                queryset=AuditEvent.objects.select_related("actor").order_by("created_at", "id"),
            ),
            "contact_issues",
        )
        .filter(pk=pk)
        .first()
    )


def can_see_match(user, match: Match) -> bool:
    """Its players, its league's director and site admins; nobody else learns it exists."""
    if not user.is_authenticated:
        return False
    if roles.is_director_of(user, match.league.season.institution):
        return True
    return any(seat.player.user_id == user.pk for seat in match.seats.all())


def matches_of(profile):
    return (
        Match.objects.filter(Q(seats__player=profile))
        .select_related("league__season__institution", "round")
        .prefetch_related(
            Prefetch(
                "seats", queryset=Seat.objects.select_related("player__user").order_by("order")
            )
        )
        .order_by("deadline", "id")
    )


def matches_for_home(profile, *, seasons):
    """A player's matches in these seasons with everything the next step needs: 6 queries."""
    from .models import ContactIssue

    return (
        Match.objects.filter(seats__player=profile, league__season__in=seasons)
        .select_related("league__season__institution", "round")
        .prefetch_related(
            Prefetch(
                "seats", queryset=Seat.objects.select_related("player__user").order_by("order")
            ),
            Prefetch(
                "proposals",
                queryset=ScheduleProposal.objects.filter(status="open"),
                to_attr="open_proposals",
            ),
            Prefetch(
                "reports",
                queryset=ResultReport.objects.filter(
                    status__in=["pending", "confirmed", "disputed"]
                ),
                to_attr="live_reports",
            ),
            Prefetch(
                "contact_issues", queryset=ContactIssue.objects.filter(resolved_at__isnull=True)
            ),
        )
        .order_by("deadline", "id")
    )
