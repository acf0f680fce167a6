from django.db.models import F, Prefetch, Q

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
    five queries, no model instances (building ~12 objects per match and walking prefetched
    managers was most of the home page's time)."""
    from .models import ContactIssue
    from .next_step import MyMatch, Opponent

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
        )
    }
    if not rows:
        return []
    ids = list(rows)
    seats = Seat.objects.filter(match_id__in=ids).order_by("match_id", "order")
    for match_id, player_id, outcome, first, last, email in seats.values_list(
        "match_id",
        "player_id",
        "outcome",
        "player__user__first_name",
        "player__user__last_name",
        "player__user__email",
    ):
        if player_id == profile.pk:
            rows[match_id].my_outcome = outcome
        else:
            rows[match_id].opponents.append(Opponent(f"{first} {last}".strip(), first, email))
    proposals = ScheduleProposal.objects.filter(match_id__in=ids, status="open")
    for match_id, proposed_by in proposals.values_list("match_id", "proposed_by_id"):
        rows[match_id].proposal_by = proposed_by
    reports = ResultReport.objects.filter(
        match_id__in=ids, status__in=["pending", "confirmed", "disputed"]
    )
    for match_id, status, submitted_by in reports.values_list(
        "match_id", "status", "submitted_by_id"
    ):
        rows[match_id].report_status, rows[match_id].report_by = status, submitted_by
    waiting = ContactIssue.objects.filter(match_id__in=ids, resolved_at__isnull=True)
    for match_id in waiting.values_list("match_id", flat=True):
        rows[match_id].waiting_on_director = True
    return list(rows.values())
