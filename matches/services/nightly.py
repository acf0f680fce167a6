"""The nightly job's set-based transitions: conditional UPDATEs over every match at once plus
bulk audit events, acting as the system. Rows a concurrent transition holds are skipped
(FOR UPDATE SKIP LOCKED) and caught the next night."""

from django.db import transaction
from django.db.models import Exists, F, OuterRef, Subquery
from django.utils import timezone

from ..models import (
    OPEN_STATUSES,
    AuditEvent,
    ContactIssue,
    Match,
    MatchStatus,
    Outcome,
    ReportScore,
    ReportStatus,
    ResultReport,
    ScheduleProposal,
    Seat,
)
from ..tasks import notify_double_forfeits
from .kernel import announce_final, for_institution


def forfeit_overdue_matches(
    now=None, *, institution=None, announce: bool = True, spare_formats=(), league_ids=None
) -> list[int]:
    """Set-based, for the nightly job (L8): every match past its deadline with no live report
    becomes a double forfeit, except one with an open can't-reach-opponent report, which waits
    for the director (L5), and the tables of leagues in `spare_formats` (club nights: the
    director closes those). Only the leagues of `league_ids` when given. Returns the forfeited
    matches' ids.

    A report submitted before the deadline is never overwritten: match rows are claimed with
    FOR UPDATE SKIP LOCKED (a report in flight holds the lock) and the UPDATE is conditional on
    the match still being open."""
    now = now or timezone.now()
    with transaction.atomic():
        waiting_for_director = ContactIssue.objects.filter(
            match=OuterRef("pk"), resolved_at__isnull=True
        )
        overdue = for_institution(
            Match.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(status__in=OPEN_STATUSES, deadline__lt=now)
            .exclude(Exists(waiting_for_director))
            .exclude(league__format__in=list(spare_formats))
            .order_by(),
            institution,
            league_ids,
        )
        claimed = list(overdue.values_list("id", "league_id"))
        # The claim read the can't-reach reports as they stood when its statement began: one
        # that committed while it scanned is missed, and its row, unlocked by then, is claimed.
        # Now that the rows are locked no report can reach them, and a new statement sees every
        # report committed before: read them again and leave those matches to the director (L5).
        reported_meanwhile = set(
            ContactIssue.objects.filter(
                match_id__in=[row[0] for row in claimed], resolved_at__isnull=True
            ).values_list("match_id", flat=True)
        )
        claimed = [row for row in claimed if row[0] not in reported_meanwhile]
        if not claimed:
            return []
        match_ids = [row[0] for row in claimed]
        # Final at its own deadline, not at the night that noticed: a run after missed nights
        # records what each night would have.
        record_double_forfeits(
            match_ids,
            actor=None,
            reason="Not reported by the deadline: a double forfeit.",
            now=now,
            finalised_at=F("deadline"),
        )
        if announce:
            announce_final(row[1] for row in claimed)
        # Called, not queued: the notices go into the outbox in this transaction, once each,
        # for exactly the matches it forfeited.
        notify_double_forfeits(match_ids)
    return match_ids


def record_double_forfeits(match_ids, *, actor, reason: str, now, finalised_at) -> None:
    """Claimed, still-open matches become double forfeits in one statement per table: a loss for
    every seat (G9), open proposals superseded, an audit event each. The nightly's L8 and a club
    night's closing (``tables.double_forfeit_tables``) both come here."""
    Match.objects.filter(id__in=match_ids, status__in=OPEN_STATUSES).update(
        status=MatchStatus.DOUBLE_FORFEIT, finalised_at=finalised_at
    )
    Seat.objects.filter(match_id__in=match_ids).update(
        score=None, pre_adjustment_score=None, place=None, outcome=Outcome.DOUBLE_FORFEIT
    )
    ScheduleProposal.objects.filter(
        match_id__in=match_ids, status=ScheduleProposal.Status.OPEN
    ).update(status=ScheduleProposal.Status.SUPERSEDED)
    who = actor if actor is not None and actor.is_authenticated else None
    AuditEvent.objects.bulk_create(
        [
            AuditEvent(
                match_id=match_id,
                actor=who,
                action="double_forfeit",
                before={"status": "unreported"},
                after={"status": MatchStatus.DOUBLE_FORFEIT},
                reason=reason,
                created_at=now,
            )
            for match_id in match_ids
        ],
        batch_size=2000,
    )


def confirm_stale_reports(
    now=None, *, institution=None, announce: bool = True, league_ids=None
) -> list[int]:
    """Set-based, for the nightly job: every report nobody disputed within its window becomes
    confirmed, with the seats' scores and outcomes, and one audit event per match (the system
    acting); only the leagues of `league_ids` when given. Rows locked by a concurrent
    transition are skipped and caught the next night. Returns the confirmed matches' ids. The
    nightly pipeline passes `announce=False`: it rebuilds every league's standings itself."""
    now = now or timezone.now()
    with transaction.atomic():
        # Every transition locks the match row first, so claiming match rows is the claim.
        claimed = list(
            for_institution(
                Match.objects.select_for_update(skip_locked=True, of=("self",)).filter(
                    status=MatchStatus.REPORTED,
                    reports__status=ReportStatus.PENDING,
                    reports__confirm_by__lt=now,
                ),
                institution,
                league_ids,
            ).values_list("id", "league_id")
        )
        if not claimed:
            return []
        match_ids = [row[0] for row in claimed]
        # Confirmed when its window closed, whichever night noticed (missed nights included).
        record_confirmations(
            match_ids,
            actor=None,
            action="auto_confirmed",
            reasons=dict.fromkeys(
                match_ids, "Nobody disputed the report within the confirmation window."
            ),
            now=now,
            confirmed_at=F("confirm_by"),
        )
        if announce:
            announce_final(row[1] for row in claimed)
    return match_ids


def record_confirmations(
    match_ids, *, actor, action: str, reasons: dict[int, str], now, confirmed_at
) -> None:
    """Claimed matches whose pending report stands become confirmed, in one statement per kind
    of row: the report (confirmed at `confirmed_at`), each seat's line of it copied to the seat
    (score, score before tiles, place and outcome, as placed when it was reported), the match
    final, and an audit event each with its reason from `reasons`. The nightly's
    auto-confirmation and a club night's closing (``tables.confirm_answered_tables``) both come
    here; the caller holds the match rows and announces the result."""
    ResultReport.objects.filter(match_id__in=match_ids, status=ReportStatus.PENDING).update(
        status=ReportStatus.CONFIRMED, confirmed_at=confirmed_at
    )
    line = ReportScore.objects.filter(
        report__match_id=OuterRef("match_id"),
        report__status=ReportStatus.CONFIRMED,
        order=OuterRef("order"),
    ).order_by()
    Seat.objects.filter(match_id__in=match_ids).update(
        score=Subquery(line.values("score")[:1]),
        pre_adjustment_score=Subquery(line.values("pre_adjustment")[:1]),
        place=Subquery(line.values("place")[:1]),
        outcome=Subquery(line.values("outcome")[:1]),
    )
    Match.objects.filter(id__in=match_ids).update(
        status=MatchStatus.CONFIRMED,
        finalised_at=Subquery(
            ResultReport.objects.filter(match_id=OuterRef("pk"), status=ReportStatus.CONFIRMED)
            .order_by()
            .values("confirmed_at")[:1]
        ),
    )
    who = actor if actor is not None and actor.is_authenticated else None
    AuditEvent.objects.bulk_create(
        [
            AuditEvent(
                match_id=match_id,
                actor=who,
                action=action,
                before={"status": MatchStatus.REPORTED},
                after={"status": MatchStatus.CONFIRMED},
                reason=reasons[match_id],
                created_at=now,
            )
            for match_id in match_ids
        ],
        batch_size=2000,
    )
