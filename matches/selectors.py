from django.db import connection
from django.db.models import Prefetch, Q

from accounts import roles
from accounts.models import player_name
from core.compiled import CompiledQuery, attach
from core.raw import placeholders

from .models import (
    LIVE_REPORT_STATUSES,
    AuditEvent,
    ContactIssue,
    Dispute,
    Match,
    ProposedTime,
    ReportScore,
    ResultReport,
    ScheduleProposal,
    Seat,
)

# The match page's reads, each by the match's id, written once per process (core.compiled):
# with prefetch_related the ORM would write these nine statements again on every request,
# which takes it longer than PostgreSQL takes to answer them.
MATCH = CompiledQuery(
    lambda pk: Match.objects.select_related("league__season__institution", "round").filter(pk=pk),
    pk=int,
)
SEATS = CompiledQuery(
    lambda pk: Seat.objects.select_related("player__user").filter(match_id=pk).order_by("order"),
    pk=int,
)
OPEN_PROPOSALS = CompiledQuery(
    lambda pk: ScheduleProposal.objects.filter(match_id=pk, status="open").select_related(
        "proposed_by__user"
    ),
    pk=int,
)
OPEN_PROPOSED_TIMES = CompiledQuery(
    lambda pk: ProposedTime.objects.filter(proposal__match_id=pk, proposal__status="open"),
    pk=int,
)
REPORTS = CompiledQuery(
    lambda pk: (
        ResultReport.objects.filter(match_id=pk)
        .select_related("submitted_by__user")
        .order_by("-submitted_at", "-id")
    ),
    pk=int,
)
REPORT_SCORES = CompiledQuery(
    lambda pk: ReportScore.objects.filter(report__match_id=pk).order_by("report_id", "order"),
    pk=int,
)
REPORT_DISPUTES = CompiledQuery(
    lambda pk: (
        Dispute.objects.filter(report__match_id=pk)
        .select_related("raised_by__user")
        .order_by("created_at", "id")
    ),
    pk=int,
)
AUDIT_EVENTS = CompiledQuery(
    lambda pk: (
        AuditEvent.objects.filter(match_id=pk).select_related("actor").order_by("created_at", "id")
    ),
    pk=int,
)
CONTACT_ISSUES = CompiledQuery(lambda pk: ContactIssue.objects.filter(match_id=pk), pk=int)


def match_for_page(pk: int) -> Match | None:
    """A match with everything its page shows, in a fixed number of queries: its seats, audit
    events and contact issues as prefetched relations, ``open_proposals`` (their ``times``
    prefetched), ``all_reports`` newest first (their ``scores`` and ``disputes`` prefetched),
    and ``live_reports`` among them (a ruling supersedes the reports it decides, and the page
    still shows their game record). As with ``prefetch_related``, the proposals' times and
    the reports' scores and disputes are only asked for when there are proposals or reports."""
    match = MATCH.first(pk=pk)
    if match is None:
        return None
    attach([match], "seats", SEATS.all(pk=pk), "match_id")
    attach([match], "audit_events", AUDIT_EVENTS.all(pk=pk), "match_id")
    attach([match], "contact_issues", CONTACT_ISSUES.all(pk=pk), "match_id")
    match.open_proposals = OPEN_PROPOSALS.all(pk=pk)
    if match.open_proposals:
        attach(match.open_proposals, "times", OPEN_PROPOSED_TIMES.all(pk=pk), "proposal_id")
    match.all_reports = REPORTS.all(pk=pk)
    if match.all_reports:
        attach(match.all_reports, "scores", REPORT_SCORES.all(pk=pk), "report_id")
        attach(match.all_reports, "disputes", REPORT_DISPUTES.all(pk=pk), "report_id")
    for each in (*match.open_proposals, *match.all_reports):
        each.match = match
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


# A guest has no user: the join to users is a left one.
SEAT_NAMES_SQL = """
SELECT seat.match_id, seat."order", person.first_name, person.last_name, person.email,
    profile.display_name
FROM matches_seat seat
JOIN accounts_playerprofile profile ON profile.id = seat.player_id
LEFT JOIN accounts_user person ON person.id = profile.user_id
WHERE seat.match_id IN ({matches})
ORDER BY seat.match_id, seat."order"
"""


def seat_names(match_ids) -> dict[int, list[tuple[str, str]]]:
    """Each match's seats as (name, first name) in seat order, as ``PlayerProfile.name`` and
    ``first_name`` give them ("Seat n" for a first name missing), in one query of plain values:
    a row that shows only names needs no seat, profile and user objects, which would cost more
    to build than the query does to run, and the ORM took as long to write this query as
    PostgreSQL took to answer it."""
    names: dict[int, list[tuple[str, str]]] = {match_id: [] for match_id in match_ids}
    if not names:
        return names
    with connection.cursor() as cursor:
        cursor.execute(SEAT_NAMES_SQL.format(matches=placeholders(len(names))), [*names])
        rows = cursor.fetchall()
    for match_id, order, first, last, email, display_name in rows:
        short = first if email is not None else display_name  # PlayerProfile.first_name
        names[match_id].append(
            (player_name(first, last, email, display_name), short or f"Seat {order}")
        )
    return names
