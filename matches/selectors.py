from dataclasses import dataclass, field

from django.db.models import OuterRef, Prefetch, Q, Subquery

from accounts import roles

from .models import (
    FINAL_STATUSES,
    LIVE_REPORT_STATUSES,
    OPEN_STATUSES,
    AuditEvent,
    ContactIssue,
    Dispute,
    Match,
    MatchStatus,
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


# --- The director's queues of a league -----------------------------------------------------------

QUEUES = ("unscheduled", "overdue", "reported", "disputed")


@dataclass
class LeagueQueues:
    """A league's matches that are not final, each in one queue: ``disputed`` (waiting for the
    director's ruling, L9), ``reported`` (waiting for the other seats' confirmation), ``overdue``
    (neither reported nor final, deadline passed: the nightly's L8 or a can't-reach report, L5,
    decides), ``unscheduled`` (no agreed time yet, still in time). A scheduled match still in
    time is in none: it only counts in ``on_track``."""

    unscheduled: list = field(default_factory=list)
    overdue: list = field(default_factory=list)
    reported: list = field(default_factory=list)
    disputed: list = field(default_factory=list)
    on_track: int = 0


def queue_of(status: str, deadline, now) -> str | None:
    """The queue a match not yet final belongs in (``LeagueQueues``), or None."""
    if status == MatchStatus.DISPUTED:
        return "disputed"
    if status == MatchStatus.REPORTED:
        return "reported"
    if status in OPEN_STATUSES and deadline < now:
        return "overdue"
    if status == MatchStatus.UNSCHEDULED:
        return "unscheduled"
    return None


def league_queues(league, *, now, round=None) -> LeagueQueues:
    """The league's (or one round's) matches not yet final, in their queues, in three queries
    whatever their number: the matches with the open dispute, the open can't-reach report and
    the live report's confirm-by date they need, then the seats with their players."""
    matches = (
        Match.objects.filter(league=league)
        .exclude(status__in=FINAL_STATUSES)
        .select_related("round")
        .annotate(
            open_dispute_id=Subquery(
                Dispute.objects.filter(report__match=OuterRef("pk"), resolved_at__isnull=True)
                .order_by("created_at", "id")
                .values("pk")[:1]
            ),
            open_issue_id=Subquery(
                ContactIssue.objects.filter(match=OuterRef("pk"), resolved_at__isnull=True)
                .order_by()
                .values("pk")[:1]
            ),
            confirm_by=Subquery(
                ResultReport.objects.filter(match=OuterRef("pk"), status__in=LIVE_REPORT_STATUSES)
                .order_by()
                .values("confirm_by")[:1]
            ),
        )
        .prefetch_related(
            Prefetch(
                "seats", queryset=Seat.objects.select_related("player__user").order_by("order")
            )
        )
        .order_by("round__number", "deadline", "id")
    )
    if round is not None:
        matches = matches.filter(round=round)
    queues = LeagueQueues()
    for match in matches:
        queue = queue_of(match.status, match.deadline, now)
        if queue is None:
            queues.on_track += 1
        else:
            getattr(queues, queue).append(match)
    return queues
