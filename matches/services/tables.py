"""Set-based transitions on the tables of a club night (E4, G9): the director closes the night and
its tables still without scores become double forfeits at once, in one statement per table kind
of row, with an audit event each (the same shape as the nightly's L8, which spares these tables).
"""

from collections.abc import Sequence

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from ..models import (
    LIVE_REPORT_STATUSES,
    OPEN_STATUSES,
    ContactIssue,
    Match,
    ResultReport,
)
from .kernel import announce_final, require_reason
from .nightly import record_double_forfeits


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
