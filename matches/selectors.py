from django.db.models import Exists, F, OuterRef, Prefetch, Q, Subquery

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


def my_matches(profile, *, seasons) -> list:
    """A player's matches in these seasons as plain rows with everything the next step needs:
    two queries, no model instances (building ~12 objects per match and walking prefetched
    managers was most of the home page's time)."""
    from .models import ContactIssue
    from .next_step import MyMatch, Opponent

    here = OuterRef("pk")
    open_proposal = ScheduleProposal.objects.filter(match=here, status="open").order_by("-id")
    live_report = ResultReport.objects.filter(
        match=here, status__in=["pending", "confirmed", "disputed"]
    )
    rows = {
        row["id"]: MyMatch(**row)
        for row in Match.objects.filter(seats__player=profile, league__season__in=seasons)
        .order_by("deadline", "id")
        .values(
            "id",
            "status",
            "deadline",
            "scheduled_at",
            league_name=F("league__name"),
            round_number=F("round__number"),
            my_outcome=F("seats__outcome"),
            proposal_by=Subquery(open_proposal.values("proposed_by_id")[:1]),
            report_status=Subquery(live_report.values("status")[:1]),
            report_by=Subquery(live_report.values("submitted_by_id")[:1]),
            waiting_on_director=Exists(
                ContactIssue.objects.filter(match=here, resolved_at__isnull=True)
            ),
        )
    }
    if not rows:
        return []
    opponents = (
        Seat.objects.filter(match_id__in=list(rows))
        .exclude(player=profile)
        .order_by("match_id", "order")
        .values_list(
            "match_id",
            "player__user__first_name",
            "player__user__last_name",
            "player__user__email",
        )
    )
    for match_id, first, last, email in opponents:
        rows[match_id].opponents.append(Opponent(f"{first} {last}".strip(), first, email))
    return list(rows.values())
