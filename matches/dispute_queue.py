"""The disputes waiting for a director's ruling (L9): which they are, a page of them, and what a
row of a queue shows. Both queues read from here: the director's own (`/director/disputes/`,
league/views/director.py · disputes) and the admin's list (matches/admin/queues.py)."""

from django.db import connection
from django.db.models import F
from django.utils.timesince import timesince

from accounts.models import player_name
from accounts.selectors import institution_counts
from core.compiled import CompiledQuery
from core.raw import placeholders

from .models import Dispute
from .selectors import seat_names

DISPUTES_PER_PAGE = 25


def disputes_waiting(institution_id: int):
    """The institution's disputes waiting for a ruling (L9): what the queue lists and the
    dashboard counts."""
    return Dispute.objects.filter(
        resolved_at__isnull=True, league__season__institution_id=institution_id
    )


def open_disputes(institution_id: int):
    """``disputes_waiting`` oldest first, in the order of the index ``dispute_queue_order`` so
    a page is read from it, with the names a row shows."""
    return (
        with_dispute_names(disputes_waiting(institution_id))
        # All three keys of the index, resolved_at too: PostgreSQL reads a page off the index
        # only when the ORDER BY starts where the index does.
        .order_by(F("resolved_at").desc(nulls_first=True), "created_at", "-id")
    )


def with_dispute_names(disputes):
    """The disputes with what a row of a queue names, read as values (``dispute_person``):
    a league, a round, two profiles and two users built for each row were a third of the
    page's time."""
    # The match's id, not the report: a report carries its game record, kilobytes a row.
    return disputes.annotate(
        match_pk=F("report__match_id"),
        league_name=F("league__name"),
        round_number=F("report__match__round__number"),
        **{
            f"{who}_{part}": F(f"{path}__{part}")
            for who, path in (("reporter", "report__submitted_by"), ("raiser", "raised_by"))
            for part in PERSON_PARTS
        },
    )


PERSON_PARTS = ("user__first_name", "user__last_name", "user__email", "display_name")


def dispute_person(dispute, who: str) -> str:
    """The reporter's (``who="reporter"``) or the disputer's (``"raiser"``) name, from the
    values ``with_dispute_names`` read."""
    return player_name(*(getattr(dispute, f"{who}_{part}") for part in PERSON_PARTS))


# How many wait, and a page of them, written once per process (core.compiled).
WAITING_DISPUTES = CompiledQuery(
    lambda institution_id: institution_counts(
        institution_id, waiting=disputes_waiting(institution_id)
    ),
    institution_id=int,
)
OPEN_DISPUTES_PAGE = CompiledQuery(
    lambda institution_id, offset, size: open_disputes(institution_id)[offset : offset + size],
    shape=("offset", "size"),
    institution_id=int,
)


# Plain SQL, as ``seat_names``: the ORM took longer to write it than PostgreSQL to answer it.
REPORTED_SCORES_SQL = """
SELECT report_id, score FROM matches_reportscore WHERE report_id IN ({reports})
ORDER BY report_id, "order"
"""


def with_dispute_facts(disputes: list) -> list:
    """Sets each dispute's ``seat_names`` (``seat_names``'s pairs for its match) and
    ``reported_scores`` (the report's scores in seat order), in two queries."""
    seats = seat_names({dispute.match_pk for dispute in disputes})
    scores: dict[int, list] = {dispute.report_id: [] for dispute in disputes}
    if scores:
        with connection.cursor() as cursor:
            cursor.execute(REPORTED_SCORES_SQL.format(reports=placeholders(len(scores))), [*scores])
            for report_id, score in cursor.fetchall():
                scores[report_id].append(score)
    for dispute in disputes:
        dispute.seat_names = seats[dispute.match_pk]
        dispute.reported_scores = scores[dispute.report_id]
    return disputes


def dispute_row(dispute) -> dict:
    """What a queue's row shows of a dispute read through ``with_dispute_names`` and
    ``with_dispute_facts``, as plain values: a row is kept rendered by them (core/fragments.py)."""
    first_names = [first_name for _, first_name in dispute.seat_names]
    return {
        "pk": dispute.pk,
        "match_pk": dispute.match_pk,
        "names": tuple(name for name, _ in dispute.seat_names),
        "league": dispute.league_name,
        "round": dispute.round_number,
        "open": dispute.is_open,
        # The age as text: a kept row must not hold a time that goes on passing.
        "age": timesince(dispute.created_at) if dispute.is_open else "",
        "resolution": dispute.get_resolution_display(),
        "reported": tuple(zip(first_names, dispute.reported_scores, strict=False)),
        "reported_by": dispute_person(dispute, "reporter"),
        "disputed": tuple(zip(first_names, dispute.scores, strict=False)),
        "disputed_by": dispute_person(dispute, "raiser"),
        "turn": dispute.turn,
        "scores_at_turn": tuple(dispute.scores_at_turn or ()),
        "move": dispute.move,
        "note": dispute.note,
    }
