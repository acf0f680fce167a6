"""Set-based transitions on the tables of a club night (E4, G9): the director closes the night,
its tables still without scores become double forfeits at once and its reports that another
seat has confirmed become final, in one statement per kind of row, with an audit event each (the
same shape as the nightly's L8, which spares these tables, and its auto-confirmation).
"""

from collections.abc import Sequence

from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Q, Subquery
from django.utils import timezone

from ..models import (
    LIVE_REPORT_STATUSES,
    OPEN_STATUSES,
    ContactIssue,
    Match,
    MatchStatus,
    ReportStatus,
    ResultReport,
    Seat,
)
from .kernel import announce_final, require_reason
from .nightly import record_confirmations, record_double_forfeits


def double_forfeit_tables(match_ids: Sequence[int], *, actor, reason: str, now=None) -> list[int]:
    """Of `match_ids`, every table still open and without a live report becomes a double forfeit
    (a loss for every seat, G9). A table with a pending report waits for its confirmation
    window, a disputed one for the director: both are left as they are, as is anything final.
    The caller has checked the actor's rights. Returns the forfeited tables' ids; a second call
    finds none left and changes nothing."""
    now = now or timezone.now()
    reason = require_reason(reason)
    with transaction.atomic():
        live_report = ResultReport.objects.filter(
            match=OuterRef("pk"), status__in=LIVE_REPORT_STATUSES
        )
        # Every transition locks the match row first: holding these rows is the claim on them.
        claimed = list(
            Match.objects.select_for_update(of=("self",))
            .filter(id__in=list(match_ids), status__in=OPEN_STATUSES)
            .exclude(Exists(live_report))
            .order_by("id")
            .values_list("id", "league_id")
        )
        if not claimed:
            return []
        ids = [row[0] for row in claimed]
        record_double_forfeits(ids, actor=actor, reason=reason, now=now, finalised_at=now)
        ContactIssue.objects.filter(match_id__in=ids, resolved_at__isnull=True).update(
            resolved_at=now,
            resolved_by=actor if actor is not None and actor.is_authenticated else None,
            resolution="Match double forfeit: the night was closed",
        )
        announce_final(row[1] for row in claimed)
    return ids


def confirm_answered_tables(match_ids: Sequence[int], *, actor, when: str, now=None) -> list[int]:
    """Of `match_ids`, every table whose pending report at least one seat besides the reporter
    has confirmed becomes confirmed, as if every seat had (G9, ours: a club night's close, or a
    confirmation after it). A report nobody else confirmed keeps its confirmation window, a
    disputed one waits for the director, anything final stays so. Each is audited "confirmed",
    acting as `actor`, with the reason "Confirmed by N of M other seats `when`." The caller has
    checked the actor's rights. Returns the confirmed tables' ids, in a fixed number of queries
    however many tables; a second call finds none left and changes nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        # Every transition locks the match row first: holding these rows is the claim on them,
        # and a confirmation in flight finishes before they are read.
        locked = list(
            Match.objects.select_for_update(of=("self",))
            .filter(id__in=list(match_ids), status=MatchStatus.REPORTED)
            .order_by("id")
            .values_list("id", flat=True)
        )
        if not locked:
            return []
        # Read in a new statement once the rows are held: it sees every confirmation committed
        # before, which the locking statement's own snapshot may not.
        reporter = Seat.objects.filter(
            match_id=OuterRef("match_id"), player_id=OuterRef("submitted_by_id")
        ).values("order")[:1]
        answered = list(
            ResultReport.objects.filter(match_id__in=locked, status=ReportStatus.PENDING)
            .annotate(reporter=Subquery(reporter))
            .annotate(
                others=Count("scores") - 1,
                confirmed=Count(
                    "scores",
                    filter=Q(scores__confirmed_at__isnull=False) & ~Q(scores__order=F("reporter")),
                ),
            )
            .filter(confirmed__gte=1)
            .order_by("match_id")
            .values_list("match_id", "match__league_id", "confirmed", "others")
        )
        if not answered:
            return []
        ids = [row[0] for row in answered]
        record_confirmations(
            ids,
            actor=actor,
            action="confirmed",
            reasons={
                match_id: f"Confirmed by {confirmed} of {others} other seats {when}."
                for match_id, _, confirmed, others in answered
            },
            now=now,
            confirmed_at=now,
        )
        ContactIssue.objects.filter(match_id__in=ids, resolved_at__isnull=True).update(
            resolved_at=now,
            resolved_by=actor if actor is not None and actor.is_authenticated else None,
            resolution="Match confirmed",
        )
        announce_final(row[1] for row in answered)
    return ids
