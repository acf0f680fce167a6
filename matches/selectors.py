from django.db.models import Prefetch, Q

from accounts import roles

from .models import (
    LIVE_REPORT_STATUSES,
    AuditEvent,
    Dispute,
    Match,
    ReportScore,
    ResultReport,
    ScheduleProposal,
    Seat,
)


def match_for_page(pk: int) -> Match | None:
    """A match with everything its page shows, in a fixed number of queries: ``all_reports``
    newest first, and ``live_reports`` among them (a ruling supersedes the reports it decides,
    and the page still shows their game record)."""
    match = (
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
                queryset=ResultReport.objects.select_related("submitted_by__user")
                .prefetch_related(
                    Prefetch("scores", queryset=ReportScore.objects.order_by("order")),
                    Prefetch(
                        "disputes",
                        queryset=Dispute.objects.select_related("raised_by__user").order_by(
                            "created_at", "id"
                        ),
                    ),
                )
                .order_by("-submitted_at", "-id"),
                to_attr="all_reports",
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
    if match is not None:
        match.live_reports = [r for r in match.all_reports if r.status in LIVE_REPORT_STATUSES]
    return match


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
