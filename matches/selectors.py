from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import (
    Case,
    CharField,
    Count,
    F,
    OuterRef,
    Prefetch,
    Q,
    Subquery,
    Value,
    When,
    Window,
)
from django.db.models.functions import RowNumber

from accounts import roles
from accounts.models import player_name
from core.compiled import CompiledQuery, attach

from .models import (
    FINAL_STATUSES,
    LIVE_REPORT_STATUSES,
    OPEN_STATUSES,
    AuditEvent,
    ContactIssue,
    Dispute,
    Match,
    MatchStatus,
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


# --- The director's queues of a league -----------------------------------------------------------

QUEUES = ("unscheduled", "overdue", "reported", "disputed")
ON_TRACK = "on_track"
# The overview shows this many matches of each queue, oldest round first; a queue's own page
# (``?queue=``) shows them all, QUEUE_PAGE_SIZE at a time.
SHOWN_PER_QUEUE = 20
QUEUE_PAGE_SIZE = 50


@dataclass
class LeagueQueues:
    """A league's matches that are not final, each in one queue: ``disputed`` (waiting for the
    director's ruling, L9), ``reported`` (waiting for the other seats' confirmation), ``overdue``
    (neither reported nor final, deadline passed: the nightly's L8 or a can't-reach report, L5,
    decides), ``unscheduled`` (no agreed time yet, still in time). A scheduled match still in
    time is in none: it only counts in ``on_track``. ``counts`` holds every queue's size; the
    lists hold the matches shown, which may be fewer."""

    unscheduled: list = field(default_factory=list)
    overdue: list = field(default_factory=list)
    reported: list = field(default_factory=list)
    disputed: list = field(default_factory=list)
    counts: dict = field(default_factory=dict)

    @property
    def on_track(self) -> int:
        return self.counts.get(ON_TRACK, 0)


def queue_expression(now) -> Case:
    """The queue a match not yet final belongs in (``LeagueQueues``), worked out by the
    database, which counts and pages the queues."""
    return Case(
        When(status=MatchStatus.DISPUTED, then=Value("disputed")),
        When(status=MatchStatus.REPORTED, then=Value("reported")),
        When(status__in=OPEN_STATUSES, deadline__lt=now, then=Value("overdue")),
        When(status=MatchStatus.UNSCHEDULED, then=Value("unscheduled")),
        default=Value(ON_TRACK),
        output_field=CharField(),
    )


def _queued_matches(league, now, round):
    """``league`` and ``round`` may be given by their ids."""
    # A match's round is its league's own: saying so lets PostgreSQL read that league's rounds
    # alone, where it hashed every league's (37,000 rounds at ten times: most of the query).
    matches = Match.objects.filter(league=league, round__league=league).exclude(
        status__in=FINAL_STATUSES
    )
    if round is not None:
        matches = matches.filter(round=round)
    return matches.annotate(queue=queue_expression(now))


def _what_rows_show() -> dict:
    """The open dispute, the open can't-reach report and the live report's confirm-by date a
    queue's row shows (its players' names come from ``with_player_names``), as expressions of
    the match."""
    return {
        "open_dispute_id": Subquery(
            Dispute.objects.filter(report__match=OuterRef("pk"), resolved_at__isnull=True)
            .order_by("created_at", "id")
            .values("pk")[:1]
        ),
        "open_issue_id": Subquery(
            ContactIssue.objects.filter(match=OuterRef("pk"), resolved_at__isnull=True)
            .order_by()
            .values("pk")[:1]
        ),
        "confirm_by": Subquery(
            ResultReport.objects.filter(match=OuterRef("pk"), status__in=LIVE_REPORT_STATUSES)
            .order_by()
            .values("confirm_by")[:1]
        ),
    }


def _with_what_rows_show(matches):
    return matches.annotate(round_number=F("round__number"), **_what_rows_show())


def seat_names(match_ids) -> dict[int, list[tuple[str, str]]]:
    """Each match's seats as (name, first name) in seat order, as ``PlayerProfile.name`` and
    ``first_name`` give them ("Seat n" for a first name missing), in one query of plain values:
    a row that shows only names needs no seat, profile and user objects, which would cost more
    to build than the query does to run."""
    names: dict[int, list[tuple[str, str]]] = {match_id: [] for match_id in match_ids}
    if not names:
        return names
    rows = (
        Seat.objects.filter(match_id__in=names)
        .order_by("match_id", "order")
        .values_list(
            "match_id",
            "order",
            "player__user__first_name",
            "player__user__last_name",
            "player__user__email",
            "player__display_name",
        )
    )
    for match_id, order, first, last, email, display_name in rows:
        short = first if email is not None else display_name  # PlayerProfile.first_name
        names[match_id].append(
            (player_name(first, last, email, display_name), short or f"Seat {order}")
        )
    return names


def with_player_names(matches: list) -> list:
    """Sets each match's ``player_names`` (in seat order): see ``seat_names``."""
    names = seat_names([match.pk for match in matches])
    for match in matches:
        match.player_names = [name for name, _ in names[match.pk]]
    return matches


QUEUE_ORDER = ("round__number", "deadline", "id")


def _first_of_each_queue(league_id, now, shown, round_id=None):
    kept = Case(When(queue=ON_TRACK, then=Value(1)), default=Value(shown))
    return (
        _queued_matches(league_id, now, round_id)
        .annotate(
            round_number=F("round__number"),
            queue_size=Window(Count("pk"), partition_by=[F("queue")]),
            place=Window(
                RowNumber(), partition_by=[F("queue")], order_by=[F(key) for key in QUEUE_ORDER]
            ),
        )
        # What a row shows is read for the rows kept only: PostgreSQL runs a subquery inside a
        # CASE only when its condition holds, so the rows not shown cost no subqueries.
        .annotate(
            **{
                name: Case(When(place__lte=kept, then=value))
                for name, value in _what_rows_show().items()
            }
        )
        # The matches in no queue are only counted: one row of theirs carries the count.
        .filter(place__lte=kept)
        .order_by(*QUEUE_ORDER)
    )


# Written once per process (core.compiled): the ORM takes as long to write this windowed query,
# with its three subqueries, as PostgreSQL takes to run it.
LEAGUE_QUEUES = CompiledQuery(_first_of_each_queue, league_id=int, now=datetime, shown=int)
ROUND_QUEUES = CompiledQuery(
    _first_of_each_queue, league_id=int, now=datetime, shown=int, round_id=int
)


def league_queues(league, *, now, round=None) -> LeagueQueues:
    """The league's (or one round's) queues: every queue's size and its first SHOWN_PER_QUEUE
    matches, in two queries whatever the league's size (one numbers each queue's matches with
    a window and keeps the first of each; the other reads their players' names)."""
    if round is None:
        matches = LEAGUE_QUEUES.all(league_id=league.pk, now=now, shown=SHOWN_PER_QUEUE)
    else:
        matches = ROUND_QUEUES.all(
            league_id=league.pk, now=now, shown=SHOWN_PER_QUEUE, round_id=round.pk
        )
    queues = LeagueQueues()
    for match in with_player_names(matches):
        queues.counts[match.queue] = match.queue_size
        if match.queue != ON_TRACK:
            getattr(queues, match.queue).append(match)
    return queues


def queue_counts(league, *, now, round=None) -> dict:
    """Each queue's size (and ``on_track``), in one query."""
    counts = dict.fromkeys((*QUEUES, ON_TRACK), 0)
    rows = _queued_matches(league, now, round).values("queue").annotate(size=Count("pk"))
    counts.update({row["queue"]: row["size"] for row in rows.order_by()})
    return counts


def queue_matches(league, *, now, queue: str, round=None):
    """One queue's matches, oldest round first, ready to page (``with_player_names`` gives a
    page's names)."""
    return _with_what_rows_show(_queued_matches(league, now, round).filter(queue=queue)).order_by(
        *QUEUE_ORDER
    )
