"""Reporting, confirming and disputing a result (L6, L7, L9, G1, G2, G3): the winner reports,
the opponent confirms or disputes within the confirmation window."""

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.services import require_eligible

from ..game_records import RecordError, SeatName, compare_with_report, read_record, stored_moves
from ..models import (
    Dispute,
    GameEnd,
    Match,
    MatchStatus,
    ReportStatus,
    ResultReport,
    Seat,
)
from ..notifications import notify
from ..policy import Action
from ..results import check_scores, winner_seat
from .kernel import (
    MatchError,
    UnusualScores,
    apply_scores,
    audit,
    directors,
    finalise,
    local,
    lock,
    other_seats,
    player_seat,
    require_allowed,
    seats_of,
    snapshot,
    tell_opponents,
    users,
)


def report_submit(
    *,
    actor,
    match: Match,
    first_score: int,
    second_score: int,
    first_pre_adjustment: int | None = None,
    second_pre_adjustment: int | None = None,
    first_tiles_left: str = "",
    second_tiles_left: str = "",
    ended_by: str = GameEnd.WENT_OUT,
    discrepancy_turn: int | None = None,
    discrepancy_note: str = "",
    unusual_confirmed: bool = False,
    game_record: bytes | str | None = None,
    now=None,
) -> ResultReport:
    """The winner reports the game before the deadline (L7); the opponent is asked to confirm.

    ``game_record`` is the game's GCG file, optional. When given, the reported scores must agree
    with its final totals under the league's end-of-game rule (G1); the scores before the
    unplayed tiles and the tiles left are taken from it where the report leaves them blank."""
    now = now or timezone.now()
    check = check_scores(first_score, second_score)
    if check.errors:
        raise MatchError(" ".join(check.errors))
    if check.warnings and not unusual_confirmed:
        raise UnusualScores(
            " ".join(check.warnings) + ' Tick "yes, really" if the scores are right.'
        )
    if ended_by not in GameEnd.values:
        raise MatchError("Say how the game ended.")
    record = None
    if game_record:
        try:
            record = read_record(game_record)
        except RecordError as error:
            raise MatchError(str(error)) from None
    with transaction.atomic():
        match = lock(match)
        seats = seats_of(match)
        seat = player_seat(actor, seats)
        require_allowed(Action.REPORT, match, seat, now)
        # L10: a result counts only for a game of two eligible students, as proposing and
        # accepting ask. The opponent too: a result over someone not eligible is not a game the
        # league recognises. An eligible winner loses nothing by it: ruling a player ineligible
        # settles their open matches as forfeits to their opponents at once.
        for each in seats:
            require_eligible(profile=each.player, season=match.league.season)
        record_text, record_note = "", ""
        if record is not None:
            comparison = _compare_record(record, match, seats, seat, [first_score, second_score])
            given_pre = [first_pre_adjustment, second_pre_adjustment]
            for index, (given, recorded) in enumerate(
                zip(given_pre, comparison.pre_adjustment, strict=True)
            ):
                if given is not None and given != recorded:
                    whose = "Your" if index == seat.order - 1 else "Your opponent's"
                    raise MatchError(
                        f"{whose} score before unplayed tiles differs from the game record: "
                        f"you entered {given}, the record says {recorded}."
                    )
            first_pre_adjustment, second_pre_adjustment = comparison.pre_adjustment
            first_tiles_left = first_tiles_left or comparison.tiles_left[0]
            second_tiles_left = second_tiles_left or comparison.tiles_left[1]
            record_text, record_note = comparison.text, comparison.conversion
        winner = winner_seat(first_score, second_score, first_pre_adjustment, second_pre_adjustment)
        if winner is not None and winner != seat.order:
            raise MatchError("Your scores say you lost: the winner reports the result (L7).")
        try:
            with transaction.atomic():
                report = ResultReport.objects.create(
                    match=match,
                    submitted_by=seat.player,
                    first_score=first_score,
                    second_score=second_score,
                    first_pre_adjustment=first_pre_adjustment,
                    second_pre_adjustment=second_pre_adjustment,
                    first_tiles_left=first_tiles_left.upper().strip(),
                    second_tiles_left=second_tiles_left.upper().strip(),
                    ended_by=ended_by,
                    discrepancy_turn=discrepancy_turn,
                    discrepancy_note=discrepancy_note.strip(),
                    game_record=record_text,
                    game_record_note=record_note,
                    submitted_at=now,
                    confirm_by=now + timedelta(hours=match.league.confirmation_window_hours),
                )
        except IntegrityError:
            raise MatchError("A result has already been reported for this match.") from None
        before = snapshot(match, seats)
        match.status = MatchStatus.REPORTED
        match.save(update_fields=["status"])
        audit(
            match,
            actor,
            "reported",
            before,
            {**snapshot(match, seats), "report": _report_dict(report)},
        )
        tell_opponents(
            match,
            seat,
            seats,
            f"Confirm the result: {first_score}–{second_score}",
            [
                f"{actor} reported {seats[0].player.user} {first_score}, {seats[1].player.user} {second_score}.",
                f"Confirm it or dispute it before {local(match, report.confirm_by)}; after that it counts as reported.",
                *(
                    ["The game record is attached: the match page shows the game move by move."]
                    if record_text
                    else []
                ),
            ],
        )
    return report


def _report_dict(report: ResultReport) -> dict:
    return {
        "first_score": report.first_score,
        "second_score": report.second_score,
        "first_pre_adjustment": report.first_pre_adjustment,
        "second_pre_adjustment": report.second_pre_adjustment,
        "ended_by": report.ended_by,
        "game_record": bool(report.game_record),
    }


def _seat_name(seat: Seat) -> SeatName:
    user = seat.player.user
    return SeatName(user.get_full_name(), user.first_name, user.email)


def _compare_record(record, match: Match, seats: list[Seat], seat: Seat, reported: list[int]):
    """The record's totals by seat under the league's rule; MatchError saying which score
    differs from the report."""
    text, parsed = record
    comparison = compare_with_report(
        text,
        parsed,
        league_rule=match.league.end_of_game_rule,
        seats=[_seat_name(each) for each in seats],
        reported=reported,
        reporter=seat.order - 1,
    )
    if comparison.differences:
        raise MatchError(" ".join([*comparison.differences, comparison.conversion]).strip())
    return comparison


def report_confirm(*, actor, report: ResultReport, now=None) -> Match:
    """The opponent agrees with the report: the result counts (L6)."""
    now = now or timezone.now()
    with transaction.atomic():
        match = lock(report.match)
        report = ResultReport.objects.select_for_update().get(pk=report.pk)
        seats = seats_of(match)
        seat = player_seat(actor, seats)
        require_allowed(Action.CONFIRM, match, seat, now, report)
        before = snapshot(match, seats)
        report.status = ReportStatus.CONFIRMED
        report.confirmed_at = now
        report.save(update_fields=["status", "confirmed_at"])
        apply_scores(
            seats,
            report.first_score,
            report.second_score,
            report.first_pre_adjustment,
            report.second_pre_adjustment,
        )
        finalise(match, MatchStatus.CONFIRMED, now)
        audit(match, actor, "confirmed", before, snapshot(match, seats))
        tell_opponents(
            match,
            seat,
            seats,
            "Result confirmed",
            [f"{actor} confirmed the result {report.first_score}–{report.second_score}."],
        )
    return match


def report_dispute(
    *,
    actor,
    report: ResultReport,
    first_score: int,
    second_score: int,
    note: str,
    turn: int | None = None,
    first_score_at_turn: int | None = None,
    second_score_at_turn: int | None = None,
    move: int | None = None,
    now=None,
) -> Dispute:
    """The opponent disagrees within the confirmation window (L9): their version and where the
    discrepancy happened go to the director."""
    now = now or timezone.now()
    note = (note or "").strip()
    if not note:
        raise MatchError("Say what you disagree with.")
    check = check_scores(first_score, second_score)
    if check.errors:
        raise MatchError(" ".join(check.errors))
    with transaction.atomic():
        match = lock(report.match)
        report = ResultReport.objects.select_for_update().get(pk=report.pk)
        seats = seats_of(match)
        seat = player_seat(actor, seats)
        require_allowed(Action.DISPUTE, match, seat, now, report)
        if move is not None:
            _require_record_move(report, move)
        dispute = Dispute.objects.create(
            report=report,
            raised_by=seat.player,
            first_score=first_score,
            second_score=second_score,
            turn=turn,
            first_score_at_turn=first_score_at_turn,
            second_score_at_turn=second_score_at_turn,
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
                "their_version": {
                    "first_score": first_score,
                    "second_score": second_score,
                    "turn": turn,
                    "move": move,
                },
            },
            reason=note,
        )
        notify(
            recipients=users(other_seats(seat, seats)) + directors(match),
            subject=f"Result disputed: {match}",
            lines=[
                f"{actor} disputed the report {report.first_score}–{report.second_score}; their version is "
                f"{first_score}–{second_score}.",
                f"Note: {note}",
                *([f"It points at move {move} of the game record."] if move else []),
                "The director will rule on it.",
            ],
            match=match,
        )
    return dispute


def _require_record_move(report: ResultReport, move: int) -> None:
    stored = stored_moves(report.game_record)
    if stored is None:
        raise MatchError("This report has no game record, so there is no move to point at.")
    moves = len(stored[1])
    if not 1 <= move <= moves:
        raise MatchError(f"The game record has moves 1 to {moves}; there is no move {move}.")
