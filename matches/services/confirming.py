"""What follows a report (L6, L9, G9): every other seat confirms it or disputes it within the
confirmation window, and the reporter may take it back while nobody has answered it."""

from collections.abc import Sequence

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from ..game_records import stored_moves
from ..models import (
    Dispute,
    Match,
    MatchStatus,
    ReportScore,
    ReportStatus,
    ResultReport,
)
from ..notifications import notify
from ..policy import Action
from ..results import check_scores
from ..signals import seat_confirmed
from .kernel import (
    MatchError,
    apply_scores,
    audit,
    directors,
    finalise,
    lock,
    other_seats,
    per_seat,
    player_seat,
    players,
    require_allowed,
    scoreline,
    seats_of,
    snapshot,
    tell_opponents,
)


def _answering(actor, report: ResultReport, action: Action, now):
    """The match and the report locked, in that order (as every transition locks them), the
    seats, and the actor's seat, once the policy allows them `action` on this report."""
    match = lock(report.match)
    report = ResultReport.objects.select_for_update().get(pk=report.pk)
    seats = seats_of(match)
    seat = player_seat(actor, seats)
    require_allowed(action, match, seat, now, report, seats=seats)
    return match, report, seats, seat


def report_take_back(*, actor, report: ResultReport, now=None) -> Match:
    """The reporter withdraws their report before any other player has answered it (a mistyped
    score is fixed by reporting again, not by a dispute): the match is open again, as it was
    before the report, and the other players are told."""
    now = now or timezone.now()
    with transaction.atomic():
        match, report, seats, seat = _answering(actor, report, Action.TAKE_BACK, now)
        before = snapshot(match, seats)
        report.status = ReportStatus.TAKEN_BACK
        report.save(update_fields=["status"])
        match.status = MatchStatus.SCHEDULED if match.scheduled_at else MatchStatus.UNSCHEDULED
        match.save(update_fields=["status"])
        audit(match, actor, "report_taken_back", before, snapshot(match, seats))
        tell_opponents(
            match,
            seat,
            seats,
            "Result taken back",
            [
                f"{actor} took back the result they reported "
                f"({scoreline([line.score for line in report.scores.order_by('order')])}).",
                "Nothing to confirm for now: they will report it again.",
            ],
        )
    return match


def report_confirm(*, actor, report: ResultReport, now=None) -> Match:
    """Another seat agrees with the report; once every seat has, the result counts (L6, G9).
    A format may settle it sooner (``seat_confirmed``: a club night already closed)."""
    now = now or timezone.now()
    with transaction.atomic():
        match, report, seats, seat = _answering(actor, report, Action.CONFIRM, now)
        before = snapshot(match, seats)
        ReportScore.objects.filter(report=report, order=seat.order).update(confirmed_at=now)
        lines = list(report.scores.order_by("order"))
        scores = [line.score for line in lines]
        waiting = [each for each, line in zip(seats, lines, strict=True) if not line.confirmed_at]
        if waiting:
            audit(match, actor, "seat_confirmed", before, snapshot(match, seats))
            settled = seat_confirmed.send(sender=Match, match=match, actor=actor, now=now)
            if any(result for _, result in settled):
                match.refresh_from_db(fields=["status", "finalised_at"])
            return match
        report.status = ReportStatus.CONFIRMED
        report.confirmed_at = now
        report.save(update_fields=["status", "confirmed_at"])
        apply_scores(seats, scores, [line.pre_adjustment for line in lines])
        finalise(match, MatchStatus.CONFIRMED, now)
        audit(match, actor, "confirmed", before, snapshot(match, seats))
        tell_opponents(
            match,
            seat,
            seats,
            "Result confirmed",
            [f"{actor} confirmed the result {scoreline(scores)}: it counts."],
        )
    return match


def report_dispute(
    *,
    actor,
    report: ResultReport,
    scores: Sequence[int | None],
    note: str,
    turn: int | None = None,
    scores_at_turn: Sequence[int | None] = (),
    move: int | None = None,
    now=None,
) -> Dispute:
    """Another seat disagrees within the confirmation window (L9): their version of every seat's
    score and where the discrepancy happened go to the director. At a table of three or four,
    each seat that disagrees files its own; one is enough to stop the result counting (G9)."""
    now = now or timezone.now()
    note = (note or "").strip()
    if not note:
        raise MatchError("Say what you disagree with.")
    scores = list(scores)
    check = check_scores(scores)
    if check.errors:
        raise MatchError(" ".join(check.errors))
    with transaction.atomic():
        match, report, seats, seat = _answering(actor, report, Action.DISPUTE, now)
        if len(scores) != len(seats):
            raise MatchError(f"This table has {len(seats)} seats: give your score for each.")
        at_turn = per_seat(scores_at_turn, seats, None, "score at that turn")
        if move is not None:
            _require_record_move(report, move)
        dispute = Dispute.objects.create(
            report=report,
            league_id=match.league_id,
            raised_by=seat.player,
            scores=scores,
            turn=turn,
            scores_at_turn=at_turn if any(value is not None for value in at_turn) else [],
            move=move,
            note=note,
            created_at=now,
        )
        before = snapshot(match, seats)
        report.status = ReportStatus.DISPUTED
        report.save(update_fields=["status"])
        match.status = MatchStatus.DISPUTED
        match.save(update_fields=["status"])
        audit(
            match,
            actor,
            "disputed",
            before,
            {
                **snapshot(match, seats),
                "their_version": {"scores": scores, "turn": turn, "move": move},
            },
            reason=note,
        )
        what = [
            f"{actor} disputed the report {scoreline(report.score_list())}; their version is "
            f"{scoreline(scores)}.",
            f"Note: {note}",
            *([f"It points at move {move} of the game record."] if move else []),
        ]
        notify(
            recipients=players(other_seats(seat, seats)),
            subject="Result disputed",
            lines=[*what, "The director will rule on it."],
            match=match,
        )
        # The director is told what to do, not that "the director will rule on it".
        notify(
            recipients=directors(match),
            subject="Result disputed: your ruling is needed",
            lines=[*what, "It waits for your ruling in the dispute queue."],
            match=match,
            link=reverse("director_disputes"),
        )
    return dispute


def _require_record_move(report: ResultReport, move: int) -> None:
    stored = stored_moves(report.game_record)
    if stored is None:
        raise MatchError("This report has no game record, so there is no move to point at.")
    moves = len(stored[1])
    if not 1 <= move <= moves:
        raise MatchError(f"The game record has moves 1 to {moves}; there is no move {move}.")
