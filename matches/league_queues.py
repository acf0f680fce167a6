"""The director's queues of one league (/director/leagues/<slug>/): its matches not yet final,
each in one queue, every queue's size and its first matches in one hand-written query; a queue
of its own, page by page, through the ORM."""

from dataclasses import dataclass, field
from datetime import datetime

from django.db import connection
from django.db.models import Case, CharField, Count, F, OuterRef, Subquery, Value, When

from core.raw import moment, moment_param, sql_list

from .models import (
    FINAL_STATUSES,
    LIVE_REPORT_STATUSES,
    OPEN_STATUSES,
    ContactIssue,
    Dispute,
    Match,
    MatchStatus,
    ResultReport,
)
from .selectors import seat_names

QUEUES = ("unscheduled", "overdue", "reported", "disputed")
ON_TRACK = "on_track"
# The overview shows this many matches of each queue, oldest round first; a queue's own page
# (``?queue=``) shows them all, QUEUE_PAGE_SIZE at a time.
SHOWN_PER_QUEUE = 20
QUEUE_PAGE_SIZE = 50
QUEUE_ORDER = ("round__number", "deadline", "id")


@dataclass
class QueuedMatch:
    """What a queue's row shows of a match (``league/_queue_row.html``)."""

    pk: int
    round_number: int
    deadline: datetime
    scheduled_at: datetime | None
    open_dispute_id: int | None
    open_issue_id: int | None
    confirm_by: datetime | None
    player_names: list = field(default_factory=list)


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
    database, which counts and pages the queues. ``LEAGUE_QUEUES_SQL`` writes the same."""
    return Case(
        When(status=MatchStatus.DISPUTED, then=Value("disputed")),
        When(status=MatchStatus.REPORTED, then=Value("reported")),
        When(status__in=OPEN_STATUSES, deadline__lt=now, then=Value("overdue")),
        When(status=MatchStatus.UNSCHEDULED, then=Value("unscheduled")),
        default=Value(ON_TRACK),
        output_field=CharField(),
    )


# Every queue's size and its first matches, oldest round first, with what their rows show (the
# open dispute, the open can't-reach report, the live report's confirm-by date). Written by
# hand: the ORM repeats a window it is asked to compare inside a CASE, so PostgreSQL ran five
# windows over the league's open matches where two do, and numbering them was most of the
# query. The subqueries of the last SELECT run for the rows kept only. One row of the matches
# in no queue is kept, to carry their count. The round's condition is in the join: a match's
# round is its league's own, and saying so lets PostgreSQL read that league's rounds alone.
LEAGUE_QUEUES_SQL = """
WITH queued AS (
    SELECT m.id, r.number AS round_number, m.deadline, m.scheduled_at,
        CASE
            WHEN m.status = '{disputed}' THEN 'disputed'
            WHEN m.status = '{reported}' THEN 'reported'
            WHEN m.status IN ({open}) AND m.deadline < %(now)s THEN 'overdue'
            WHEN m.status = '{unscheduled}' THEN 'unscheduled'
            ELSE '{on_track}'
        END AS queue
    FROM matches_match m
    JOIN league_round r ON r.id = m.round_id AND r.league_id = %(league)s
    WHERE m.league_id = %(league)s AND m.status NOT IN ({final}) {one_round}
), placed AS (
    SELECT queued.*,
        COUNT(*) OVER (PARTITION BY queue) AS queue_size,
        ROW_NUMBER() OVER (PARTITION BY queue ORDER BY round_number, deadline, id) AS place
    FROM queued
)
SELECT placed.id, round_number, deadline, scheduled_at, queue, queue_size,
    (SELECT dispute.id FROM matches_dispute dispute
        JOIN matches_resultreport report ON report.id = dispute.report_id
        WHERE report.match_id = placed.id AND dispute.resolved_at IS NULL
        ORDER BY dispute.created_at, dispute.id LIMIT 1),
    (SELECT issue.id FROM matches_contactissue issue
        WHERE issue.match_id = placed.id AND issue.resolved_at IS NULL LIMIT 1),
    (SELECT live.confirm_by FROM matches_resultreport live
        WHERE live.match_id = placed.id AND live.status IN ({live}) LIMIT 1)
FROM placed
WHERE place <= CASE WHEN queue = '{on_track}' THEN 1 ELSE %(shown)s END
ORDER BY round_number, deadline, placed.id
"""


def _queues_sql(one_round: bool) -> str:
    return LEAGUE_QUEUES_SQL.format(
        disputed=MatchStatus.DISPUTED,
        reported=MatchStatus.REPORTED,
        unscheduled=MatchStatus.UNSCHEDULED,
        on_track=ON_TRACK,
        open=sql_list(OPEN_STATUSES),
        final=sql_list(FINAL_STATUSES),
        live=sql_list(LIVE_REPORT_STATUSES),
        one_round="AND m.round_id = %(round)s" if one_round else "",
    )


LEAGUE_SQL, ROUND_SQL = _queues_sql(one_round=False), _queues_sql(one_round=True)


def league_queues(league, *, now, round=None) -> LeagueQueues:
    """The league's (or one round's) queues: every queue's size and its first SHOWN_PER_QUEUE
    matches, in two queries whatever the league's size (``LEAGUE_QUEUES_SQL``, then the shown
    matches' players' names)."""
    params = {"league": league.pk, "now": moment_param(now), "shown": SHOWN_PER_QUEUE}
    if round is not None:
        params["round"] = round.pk
    with connection.cursor() as cursor:
        cursor.execute(LEAGUE_SQL if round is None else ROUND_SQL, params)
        rows = cursor.fetchall()
    queues = LeagueQueues()
    shown = []
    for pk, number, deadline, scheduled_at, queue, size, dispute, issue, confirm_by in rows:
        queues.counts[queue] = size
        if queue != ON_TRACK:
            match = QueuedMatch(
                pk,
                number,
                moment(deadline),
                moment(scheduled_at),
                dispute,
                issue,
                moment(confirm_by),
            )
            getattr(queues, queue).append(match)
            shown.append(match)
    with_player_names(shown)
    return queues


def with_player_names(matches: list) -> list:
    """Sets each match's ``player_names`` (in seat order): see ``seat_names``."""
    names = seat_names([match.pk for match in matches])
    for match in matches:
        match.player_names = [name for name, _ in names[match.pk]]
    return matches


def _queued_matches(league, now, round):
    # The round's condition: see LEAGUE_QUEUES_SQL.
    matches = Match.objects.filter(league=league, round__league=league).exclude(
        status__in=FINAL_STATUSES
    )
    if round is not None:
        matches = matches.filter(round=round)
    return matches.annotate(queue=queue_expression(now))


def queue_counts(league, *, now, round=None) -> dict:
    """Each queue's size (and ``on_track``), in one query."""
    counts = dict.fromkeys((*QUEUES, ON_TRACK), 0)
    rows = _queued_matches(league, now, round).values("queue").annotate(size=Count("pk"))
    counts.update({row["queue"]: row["size"] for row in rows.order_by()})
    return counts


def queue_matches(league, *, now, queue: str, round=None):
    """One queue's matches, oldest round first, ready to page (``with_player_names`` gives a
    page's names), each with what its row shows, as ``LEAGUE_QUEUES_SQL`` reads it."""
    return (
        _queued_matches(league, now, round)
        .filter(queue=queue)
        .annotate(
            round_number=F("round__number"),
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
        .order_by(*QUEUE_ORDER)
    )
