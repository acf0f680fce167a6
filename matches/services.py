"""Every transition of a match. Keyword-only functions taking model instances and the acting
user; each runs in one transaction with the match row locked, writes one audit event, and raises
a MatchError (a DomainError) that pages show as a message when the rule or the state forbids it.

The nightly job's set-based transitions (`confirm_stale_reports`, later `forfeit_overdue_matches`)
live here too, so each rule lives in one place.
"""

from datetime import datetime, time, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Case, Exists, F, OuterRef, Q, Subquery, Value, When
from django.utils import timezone

from accounts import roles
from accounts.errors import DomainError, PermissionDenied
from accounts.services import require_eligible

from .game_records import (
    RecordError,
    SeatName,
    compare_with_report,
    read_record,
    stored_moves,
)
from .models import (
    FINAL_STATUSES,
    LIVE_REPORT_STATUSES,
    OPEN_STATUSES,
    AuditEvent,
    ContactIssue,
    Dispute,
    GameEnd,
    Match,
    MatchStatus,
    Outcome,
    ProposedTime,
    ReportStatus,
    ResultReport,
    ScheduleProposal,
    Seat,
)
from .notifications import notify
from .results import check_scores, winner_seat
from .signals import results_finalised

MAX_PROPOSED_TIMES = 3


class MatchError(DomainError):
    """A match transition that the rules or the match's state forbid."""


class UnusualScores(MatchError):
    """Scores that are possible but rare: accepted only after an explicit "yes, really"."""


# --- Helpers -------------------------------------------------------------------------------------


def match_deadline(*, play_by, report_window_days: int, tz) -> datetime:
    """The end of the play-by date in the institution's time zone, plus the report window."""
    end_of_day = datetime.combine(
        play_by + timedelta(days=1 + report_window_days), time.min, tzinfo=tz
    )
    return end_of_day


def _lock(match: Match) -> Match:
    """The match row, locked for this transaction, with what the rules need."""
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("league__season__institution", "round")
        .get(pk=match.pk)
    )


def _seats(match: Match) -> list[Seat]:
    return list(Seat.objects.filter(match=match).select_related("player__user").order_by("order"))


def _seat_of(user, seats: list[Seat]) -> Seat | None:
    return next((seat for seat in seats if seat.player.user_id == user.pk), None)


def _player_seat(user, seats) -> Seat:
    seat = _seat_of(user, seats)
    if seat is None:
        raise PermissionDenied("Only the match's players can do that.")
    return seat


def _other_seats(seat: Seat, seats: list[Seat]) -> list[Seat]:
    return [s for s in seats if s.pk != seat.pk]


def is_match_director(user, match: Match) -> bool:
    return roles.is_director_of(user, match.league.season.institution)


def _require_director(user, match: Match) -> None:
    if not is_match_director(user, match):
        raise PermissionDenied("Only the league's director can do that.")


def _require_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise MatchError("A reason is required: it goes into the match's history.")
    return reason


def _snapshot(match: Match, seats: list[Seat]) -> dict:
    return {
        "status": match.status,
        "deadline": match.deadline.isoformat() if match.deadline else None,
        "scheduled_at": match.scheduled_at.isoformat() if match.scheduled_at else None,
        "seats": [
            {
                "player": seat.player_id,
                "score": seat.score,
                "pre": seat.pre_adjustment_score,
                "outcome": seat.outcome,
            }
            for seat in seats
        ],
    }


def _audit(
    match: Match, actor, action: str, before: dict, after: dict, reason: str = ""
) -> AuditEvent:
    return AuditEvent.objects.create(
        match=match,
        actor=actor if actor and actor.is_authenticated else None,
        action=action,
        before=before,
        after=after,
        reason=reason,
    )


def _announce_final(league_ids) -> None:
    ids = sorted(set(league_ids))
    transaction.on_commit(lambda: results_finalised.send(sender=Match, league_ids=ids))


def _users(seats) -> list:
    return [seat.player.user for seat in seats]


def _directors(match: Match) -> list:
    from accounts.models import User

    return list(
        User.objects.filter(
            groups__name=roles.DIRECTORS,
            profile__institution=match.league.season.institution,
            is_active=True,
        )
    )


def _require_open(match: Match, doing: str) -> None:
    if match.status not in OPEN_STATUSES:
        raise MatchError(
            f"This match is {match.get_status_display().lower()}: you can no longer {doing}."
        )


def _require_before_deadline(match: Match, now) -> None:
    if now > match.deadline:
        raise MatchError(
            "The deadline for this match has passed: only the director can record its result now."
        )


def _local(match: Match, moment: datetime) -> str:
    return timezone.localtime(moment, match.league.season.institution.tz).strftime(
        "%a %b %-d, %-I:%M %p"
    )


# --- Scheduling (L1, L2, L4) ------------------------------------------------------------------------


def proposal_create(*, actor, match: Match, times: list[datetime], now=None) -> ScheduleProposal:
    """A player proposes up to three times at the league's venue; any open proposal is replaced
    (a counter-proposal)."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _lock(match)
        seats = _seats(match)
        seat = _player_seat(actor, seats)
        _require_open(match, "propose times")
        _require_before_deadline(match, now)
        for other in seats:
            require_eligible(profile=other.player, season=match.league.season)
        times = sorted(set(times))
        if not times:
            raise MatchError("Propose at least one time.")
        if len(times) > MAX_PROPOSED_TIMES:
            raise MatchError(f"Propose at most {MAX_PROPOSED_TIMES} times.")
        season = match.league.season
        tz = season.institution.tz
        for moment in times:
            if moment <= now:
                raise MatchError(f"{_local(match, moment)} is in the past.")
            if moment > match.deadline:
                raise MatchError(f"{_local(match, moment)} is after the match's deadline.")
            local_day = timezone.localtime(moment, tz).date()
            if not season.starts_on <= local_day <= season.ends_on:
                raise MatchError(f"{_local(match, moment)} is outside the season ({season.name}).")
        ScheduleProposal.objects.filter(match=match, status=ScheduleProposal.Status.OPEN).update(
            status=ScheduleProposal.Status.SUPERSEDED
        )
        proposal = ScheduleProposal.objects.create(match=match, proposed_by=seat.player)
        ProposedTime.objects.bulk_create(
            [ProposedTime(proposal=proposal, starts_at=m) for m in times]
        )
        _audit(match, actor, "proposal_created", {}, {"times": [m.isoformat() for m in times]})
        _tell_opponents(
            match,
            seat,
            seats,
            f"{actor} proposed times for your match",
            [
                f"{actor} proposed {'a time' if len(times) == 1 else f'{len(times)} times'} "
                f"at {match.league.venue}:",
                *[f"  • {_local(match, m)}" for m in times],
                "Accept one, or propose others.",
            ],
        )
    return proposal


def proposal_accept(*, actor, proposal: ScheduleProposal, starts_at: datetime, now=None) -> Match:
    now = now or timezone.now()
    with transaction.atomic():
        match = _lock(proposal.match)
        proposal = ScheduleProposal.objects.select_for_update().get(pk=proposal.pk)
        seats = _seats(match)
        seat = _player_seat(actor, seats)
        _require_open(match, "accept a time")
        if proposal.status != ScheduleProposal.Status.OPEN:
            raise MatchError("That proposal is no longer open: a newer one replaced it.")
        if proposal.proposed_by_id == seat.player_id:
            raise MatchError("Your opponent accepts your proposal, not you.")
        if not proposal.times.filter(starts_at=starts_at).exists():
            raise MatchError("Pick one of the proposed times.")
        if starts_at <= now:
            raise MatchError("That time has passed: propose another.")
        for other in seats:
            require_eligible(profile=other.player, season=match.league.season)
        before = _snapshot(match, seats)
        proposal.status = ScheduleProposal.Status.ACCEPTED
        proposal.accepted_time = starts_at
        proposal.save(update_fields=["status", "accepted_time"])
        match.scheduled_at = starts_at
        match.venue = match.league.venue
        match.status = MatchStatus.SCHEDULED
        match.save(update_fields=["scheduled_at", "venue", "status"])
        _audit(match, actor, "scheduled", before, _snapshot(match, seats))
        _tell_opponents(
            match,
            seat,
            seats,
            f"Match scheduled: {_local(match, starts_at)}",
            [f"{actor} accepted {_local(match, starts_at)} at {match.venue}."],
        )
    return match


def equipment_agree(*, actor, match: Match, description: str) -> Match:
    """Both players agreed before the game to another dictionary or board (L4)."""
    description = (description or "").strip()
    if not description:
        raise MatchError("Say which dictionary or board you both agreed to.")
    with transaction.atomic():
        match = _lock(match)
        seats = _seats(match)
        seat = _player_seat(actor, seats)
        _require_open(match, "change the equipment")
        before = {"agreed_equipment": match.agreed_equipment}
        match.agreed_equipment = description[:200]
        match.save(update_fields=["agreed_equipment"])
        _audit(
            match, actor, "equipment_agreed", before, {"agreed_equipment": match.agreed_equipment}
        )
        _tell_opponents(
            match,
            seat,
            seats,
            "Equipment agreed for your match",
            [f"{actor} recorded that you both agreed to use: {match.agreed_equipment}."],
        )
    return match


def contact_issue_report(*, actor, match: Match, attempts: str) -> ContactIssue:
    """ "I can't reach my opponent" (L5): the match waits for the director's decision."""
    attempts = (attempts or "").strip()
    if len(attempts) < 10:
        raise MatchError("Describe the attempts you made to reach your opponent (when, and how).")
    with transaction.atomic():
        match = _lock(match)
        seats = _seats(match)
        seat = _player_seat(actor, seats)
        _require_open(match, "report an unreachable opponent")
        if ContactIssue.objects.filter(match=match, resolved_at__isnull=True).exists():
            raise MatchError(
                "The director already has a can't-reach-opponent report for this match."
            )
        issue = ContactIssue.objects.create(match=match, reported_by=seat.player, attempts=attempts)
        _audit(match, actor, "contact_issue_reported", {}, {"attempts": attempts})
        notify(
            recipients=_directors(match),
            subject=f"Can't reach opponent: {match}",
            lines=[
                f"{actor} cannot reach their opponent in {match.league}.",
                f"Attempts: {attempts}",
            ],
            match=match,
            link=f"/admin/matches/contactissue/{issue.pk}/change/",
        )
    return issue


# --- Reporting, confirming, disputing (L6, L7, L9, G1, G2, G3) --------------------------------------


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
        match = _lock(match)
        seats = _seats(match)
        seat = _player_seat(actor, seats)
        if match.status in (MatchStatus.REPORTED, MatchStatus.DISPUTED, MatchStatus.CONFIRMED):
            raise MatchError("A result has already been reported for this match.")
        if match.is_final:
            raise MatchError(
                f"This match is already final ({match.get_status_display().lower()}): only the director can change it."
            )
        _require_before_deadline(match, now)
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
        before = _snapshot(match, seats)
        match.status = MatchStatus.REPORTED
        match.save(update_fields=["status"])
        _audit(
            match,
            actor,
            "reported",
            before,
            {**_snapshot(match, seats), "report": _report_dict(report)},
        )
        _tell_opponents(
            match,
            seat,
            seats,
            f"Confirm the result: {first_score}–{second_score}",
            [
                f"{actor} reported {seats[0].player.user} {first_score}, {seats[1].player.user} {second_score}.",
                f"Confirm it or dispute it before {_local(match, report.confirm_by)}; after that it counts as reported.",
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


def _apply_scores(
    seats: list[Seat], first: int, second: int, first_pre=None, second_pre=None
) -> None:
    winner = winner_seat(first, second, first_pre, second_pre)
    for seat, score, pre in ((seats[0], first, first_pre), (seats[1], second, second_pre)):
        seat.score = score
        seat.pre_adjustment_score = pre
        seat.outcome = (
            Outcome.TIE
            if winner is None
            else (Outcome.WIN if winner == seat.order else Outcome.LOSS)
        )
    Seat.objects.bulk_update(seats, ["score", "pre_adjustment_score", "outcome"])


def _finalise(match: Match, status: str, now) -> None:
    match.status = status
    match.finalised_at = now
    match.save(update_fields=["status", "finalised_at"])
    ContactIssue.objects.filter(match=match, resolved_at__isnull=True).update(
        resolved_at=now, resolution=f"Match {match.get_status_display().lower()}"
    )
    _announce_final([match.league_id])


def report_confirm(*, actor, report: ResultReport, now=None) -> Match:
    """The opponent agrees with the report: the result counts (L6)."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _lock(report.match)
        report = ResultReport.objects.select_for_update().get(pk=report.pk)
        seats = _seats(match)
        seat = _player_seat(actor, seats)
        if report.submitted_by_id == seat.player_id:
            raise MatchError("Your opponent confirms your report, not you.")
        if report.status != ReportStatus.PENDING or match.status != MatchStatus.REPORTED:
            raise MatchError(
                f"This report is {report.get_status_display().lower()}: there is nothing to confirm."
            )
        before = _snapshot(match, seats)
        report.status = ReportStatus.CONFIRMED
        report.confirmed_at = now
        report.save(update_fields=["status", "confirmed_at"])
        _apply_scores(
            seats,
            report.first_score,
            report.second_score,
            report.first_pre_adjustment,
            report.second_pre_adjustment,
        )
        _finalise(match, MatchStatus.CONFIRMED, now)
        _audit(match, actor, "confirmed", before, _snapshot(match, seats))
        _tell_opponents(
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
        match = _lock(report.match)
        report = ResultReport.objects.select_for_update().get(pk=report.pk)
        seats = _seats(match)
        seat = _player_seat(actor, seats)
        if report.submitted_by_id == seat.player_id:
            raise MatchError("Only your opponent can dispute your report.")
        if report.status != ReportStatus.PENDING:
            raise MatchError(
                f"This report is {report.get_status_display().lower()}: it can no longer be disputed."
            )
        if now > report.confirm_by:
            raise MatchError(
                f"The window to dispute closed at {_local(match, report.confirm_by)}. Contact the director."
            )
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
        before = _snapshot(match, seats)
        report.status = ReportStatus.DISPUTED
        report.save(update_fields=["status"])
        match.status = MatchStatus.DISPUTED
        match.save(update_fields=["status"])
        _audit(
            match,
            actor,
            "disputed",
            before,
            {
                **_snapshot(match, seats),
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
            recipients=_users(_other_seats(seat, seats)) + _directors(match),
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


def _for_institution(queryset, institution):
    return (
        queryset
        if institution is None
        else queryset.filter(league__season__institution=institution)
    )


def forfeit_overdue_matches(now=None, *, institution=None, announce: bool = True) -> list[int]:
    """Set-based, for the nightly job (L8): every match past its deadline with no live report
    becomes a double forfeit, except one with an open can't-reach-opponent report, which waits
    for the director (L5). Returns the forfeited matches' ids.

    A report submitted before the deadline is never overwritten: match rows are claimed with
    FOR UPDATE SKIP LOCKED (a report in flight holds the lock) and the UPDATE is conditional on
    the match still being open."""
    now = now or timezone.now()
    with transaction.atomic():
        waiting_for_director = ContactIssue.objects.filter(
            match=OuterRef("pk"), resolved_at__isnull=True
        )
        overdue = _for_institution(
            Match.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(status__in=OPEN_STATUSES, deadline__lt=now)
            .exclude(Exists(waiting_for_director))
            .order_by(),
            institution,
        )
        claimed = list(overdue.values_list("id", "league_id"))
        if not claimed:
            return []
        match_ids = [row[0] for row in claimed]
        Match.objects.filter(id__in=match_ids, status__in=OPEN_STATUSES).update(
            status=MatchStatus.DOUBLE_FORFEIT, finalised_at=now
        )
        Seat.objects.filter(match_id__in=match_ids).update(
            score=None, pre_adjustment_score=None, outcome=Outcome.DOUBLE_FORFEIT
        )
        ScheduleProposal.objects.filter(
            match_id__in=match_ids, status=ScheduleProposal.Status.OPEN
        ).update(status=ScheduleProposal.Status.SUPERSEDED)
        AuditEvent.objects.bulk_create(
            [
                AuditEvent(
                    match_id=match_id,
                    actor=None,
                    action="double_forfeit",
                    before={"status": "unreported"},
                    after={"status": MatchStatus.DOUBLE_FORFEIT},
                    reason="Not reported by the deadline: a double forfeit (L8).",
                    created_at=now,
                )
                for match_id in match_ids
            ],
            batch_size=2000,
        )
        if announce:
            _announce_final(row[1] for row in claimed)
        from .tasks import notify_double_forfeits

        notify_double_forfeits.delay_on_commit(match_ids)
    return match_ids


def confirm_stale_reports(now=None, *, institution=None, announce: bool = True) -> list[int]:
    """Set-based, for the nightly job: every report nobody disputed within its window becomes
    confirmed, with the seats' scores and outcomes, and one audit event per match (the system
    acting). Rows locked by a concurrent transition are skipped and caught the next night.
    Returns the confirmed matches' ids. The nightly pipeline passes `announce=False`: it
    rebuilds every league's standings itself."""
    now = now or timezone.now()
    with transaction.atomic():
        # Every transition locks the match row first, so claiming match rows is the claim.
        claimed = list(
            _for_institution(
                Match.objects.select_for_update(skip_locked=True, of=("self",)).filter(
                    status=MatchStatus.REPORTED,
                    reports__status=ReportStatus.PENDING,
                    reports__confirm_by__lt=now,
                ),
                institution,
            ).values_list("id", "league_id")
        )
        if not claimed:
            return []
        match_ids = [row[0] for row in claimed]
        ResultReport.objects.filter(match_id__in=match_ids, status=ReportStatus.PENDING).update(
            status=ReportStatus.CONFIRMED, confirmed_at=now
        )
        live = ResultReport.objects.filter(
            match_id=OuterRef("match_id"), status=ReportStatus.CONFIRMED
        )
        first_wins = Q(first_score__gt=F("second_score")) | Q(
            first_score=F("second_score"), first_pre_adjustment__gt=F("second_pre_adjustment")
        )
        second_wins = Q(second_score__gt=F("first_score")) | Q(
            first_score=F("second_score"), second_pre_adjustment__gt=F("first_pre_adjustment")
        )
        for order, mine, pre, i_win, they_win in (
            (1, "first_score", "first_pre_adjustment", first_wins, second_wins),
            (2, "second_score", "second_pre_adjustment", second_wins, first_wins),
        ):
            outcome = live.annotate(
                outcome=Case(
                    When(i_win, then=Value(Outcome.WIN)),
                    When(they_win, then=Value(Outcome.LOSS)),
                    default=Value(Outcome.TIE),
                )
            ).values("outcome")[:1]
            Seat.objects.filter(match_id__in=match_ids, order=order).update(
                score=Subquery(live.values(mine)[:1]),
                pre_adjustment_score=Subquery(live.values(pre)[:1]),
                outcome=Subquery(outcome),
            )
        Match.objects.filter(id__in=match_ids).update(
            status=MatchStatus.CONFIRMED, finalised_at=now
        )
        AuditEvent.objects.bulk_create(
            [
                AuditEvent(
                    match_id=match_id,
                    actor=None,
                    action="auto_confirmed",
                    before={"status": MatchStatus.REPORTED},
                    after={"status": MatchStatus.CONFIRMED},
                    reason="Nobody disputed the report within the confirmation window.",
                    created_at=now,
                )
                for match_id in match_ids
            ]
        )
        if announce:
            _announce_final(row[1] for row in claimed)
    return match_ids


# --- The director's decisions (L5, L9) ------------------------------------------------------------


def _close_live_reports(match: Match, keep_status: str | None = None) -> None:
    ResultReport.objects.filter(match=match, status__in=LIVE_REPORT_STATUSES).exclude(
        status=keep_status or ""
    ).update(status=ReportStatus.SUPERSEDED)


def _tell_opponents(match: Match, seat: Seat, seats, subject: str, lines: list[str]) -> None:
    """What a player did, told to the other players (they may opt out of such e-mail)."""
    notify(recipients=_users(_other_seats(seat, seats)), subject=subject, lines=lines, match=match)


def _tell_players(match: Match, seats, subject: str, lines: list[str]) -> None:
    """The director's rulings reach both players whatever their preferences."""
    notify(recipients=_users(seats), subject=subject, lines=lines, match=match, preference=None)


def match_forfeit(*, actor, match: Match, winner: Seat | int, reason: str, now=None) -> Match:
    """The director gives the match to one side (a forfeit win and a forfeit loss)."""
    now = now or timezone.now()
    reason = _require_reason(reason)
    with transaction.atomic():
        match = _lock(match)
        _require_director(actor, match)
        return _forfeit_locked(actor=actor, match=match, winner=winner, reason=reason, now=now)


def _clear_scores(seats: list[Seat], outcome_of) -> None:
    """No game counts: scores cleared, each seat's outcome from `outcome_of(seat)`."""
    for seat in seats:
        seat.score = seat.pre_adjustment_score = None
        seat.outcome = outcome_of(seat)
    Seat.objects.bulk_update(seats, ["score", "pre_adjustment_score", "outcome"])


def _forfeit_locked(*, actor, match, winner, reason, now) -> Match:
    seats = _seats(match)
    if match.status == MatchStatus.BYE:
        raise MatchError("A bye has no opponent to forfeit to.")
    winner_order = winner if isinstance(winner, int) else winner.order
    if winner_order not in {seat.order for seat in seats}:
        raise MatchError("Pick one of the match's players as the winner.")
    before = _snapshot(match, seats)
    _clear_scores(
        seats,
        lambda seat: Outcome.FORFEIT_WIN if seat.order == winner_order else Outcome.FORFEIT_LOSS,
    )
    _close_live_reports(match)
    _resolve_open_dispute(match, Dispute.Resolution.FORFEIT, reason, actor, now)
    _finalise(match, MatchStatus.FORFEIT, now)
    _audit(match, actor, "forfeit", before, _snapshot(match, seats), reason)
    winner_name = next(seat.player.user for seat in seats if seat.order == winner_order)
    _tell_players(
        match,
        seats,
        "Match decided by forfeit",
        [f"The director awarded the match to {winner_name} by forfeit.", f"Reason: {reason}"],
    )
    return match


def match_double_forfeit(*, actor, match: Match, reason: str, now=None) -> Match:
    """The director rules a double forfeit: a loss for both (L5, L8)."""
    now = now or timezone.now()
    reason = _require_reason(reason)
    with transaction.atomic():
        match = _lock(match)
        _require_director(actor, match)
        seats = _seats(match)
        if match.status == MatchStatus.BYE:
            raise MatchError("A bye cannot be forfeited.")
        before = _snapshot(match, seats)
        _clear_scores(seats, lambda seat: Outcome.DOUBLE_FORFEIT)
        _close_live_reports(match)
        _resolve_open_dispute(match, Dispute.Resolution.DOUBLE_FORFEIT, reason, actor, now)
        _finalise(match, MatchStatus.DOUBLE_FORFEIT, now)
        _audit(match, actor, "double_forfeit", before, _snapshot(match, seats), reason)
        _tell_players(
            match,
            seats,
            "Match ruled a double forfeit",
            [
                "The director ruled the match a double forfeit: a loss for both.",
                f"Reason: {reason}",
            ],
        )
    return match


def match_replay(*, actor, match: Match, new_deadline: datetime, reason: str, now=None) -> Match:
    """The director orders the game replayed: back to unscheduled with a new deadline."""
    now = now or timezone.now()
    reason = _require_reason(reason)
    if new_deadline <= now:
        raise MatchError("The new deadline must be in the future.")
    with transaction.atomic():
        match = _lock(match)
        _require_director(actor, match)
        seats = _seats(match)
        if match.status == MatchStatus.BYE:
            raise MatchError("A bye cannot be replayed.")
        before = _snapshot(match, seats)
        _clear_scores(seats, lambda seat: "")
        _close_live_reports(match)
        _resolve_open_dispute(match, Dispute.Resolution.REPLAY, reason, actor, now)
        ScheduleProposal.objects.filter(match=match, status=ScheduleProposal.Status.OPEN).update(
            status=ScheduleProposal.Status.SUPERSEDED
        )
        was_final = match.is_final
        match.status = MatchStatus.UNSCHEDULED
        match.scheduled_at = None
        match.deadline = new_deadline
        match.finalised_at = None
        match.reminder_sent_at = None
        match.save(
            update_fields=["status", "scheduled_at", "deadline", "finalised_at", "reminder_sent_at"]
        )
        ContactIssue.objects.filter(match=match, resolved_at__isnull=True).update(
            resolved_at=now, resolved_by=actor, resolution=f"Replay ordered: {reason}"
        )
        if was_final:
            _announce_final([match.league_id])
        _audit(match, actor, "replay_ordered", before, _snapshot(match, seats), reason)
        _tell_players(
            match,
            seats,
            "Replay ordered",
            [
                f"The director ordered the game replayed by {_local(match, new_deadline)}.",
                f"Reason: {reason}",
            ],
        )
    return match


def match_extend_deadline(
    *, actor, match: Match, new_deadline: datetime, reason: str, now=None
) -> Match:
    """More time for a match not yet final (L5)."""
    now = now or timezone.now()
    reason = _require_reason(reason)
    with transaction.atomic():
        match = _lock(match)
        _require_director(actor, match)
        if match.is_final:
            raise MatchError("This match is final: order a replay instead.")
        if new_deadline <= max(now, match.deadline):
            raise MatchError(
                "The new deadline must be later than both now and the current deadline."
            )
        seats = _seats(match)
        before = _snapshot(match, seats)
        match.deadline = new_deadline
        match.reminder_sent_at = None
        match.save(update_fields=["deadline", "reminder_sent_at"])
        ContactIssue.objects.filter(match=match, resolved_at__isnull=True).update(
            resolved_at=now, resolved_by=actor, resolution=f"Deadline extended: {reason}"
        )
        _audit(match, actor, "deadline_extended", before, _snapshot(match, seats), reason)
        _tell_players(
            match,
            seats,
            "Deadline extended",
            [
                f"The director extended the deadline to {_local(match, new_deadline)}.",
                f"Reason: {reason}",
            ],
        )
    return match


def match_record_result(
    *,
    actor,
    match: Match,
    first_score: int,
    second_score: int,
    reason: str,
    first_pre_adjustment: int | None = None,
    second_pre_adjustment: int | None = None,
    now=None,
) -> Match:
    """The director records or amends a match's scores (after the deadline, or ruling on a
    dispute). The result is `resolved`."""
    now = now or timezone.now()
    reason = _require_reason(reason)
    check = check_scores(first_score, second_score)
    if check.errors:
        raise MatchError(" ".join(check.errors))
    with transaction.atomic():
        match = _lock(match)
        _require_director(actor, match)
        return _record_locked(
            actor=actor,
            match=match,
            scores=(first_score, second_score, first_pre_adjustment, second_pre_adjustment),
            reason=reason,
            now=now,
            resolution=Dispute.Resolution.AMENDED,
        )


def _record_locked(*, actor, match, scores, reason, now, resolution) -> Match:
    seats = _seats(match)
    if match.status == MatchStatus.BYE or len(seats) != 2:
        raise MatchError("Only a two-player match has scores to record.")
    before = _snapshot(match, seats)
    _apply_scores(seats, *scores)
    _close_live_reports(
        match,
        keep_status=ReportStatus.CONFIRMED if resolution == Dispute.Resolution.UPHELD else None,
    )
    _resolve_open_dispute(match, resolution, reason, actor, now)
    _finalise(match, MatchStatus.RESOLVED, now)
    _audit(
        match,
        actor,
        "result_recorded" if resolution == Dispute.Resolution.AMENDED else "report_upheld",
        before,
        _snapshot(match, seats),
        reason,
    )
    first, second = scores[0], scores[1]
    _tell_players(
        match,
        seats,
        f"Result recorded by the director: {first}–{second}",
        [
            f"The director recorded {seats[0].player.user} {first}, {seats[1].player.user} {second}.",
            f"Reason: {reason}",
        ],
    )
    return match


def _resolve_open_dispute(match: Match, resolution: str, reason: str, actor, now) -> None:
    Dispute.objects.filter(report__match=match, resolved_at__isnull=True).update(
        resolution=resolution, reason=reason, resolved_by=actor, resolved_at=now
    )


def dispute_resolve(
    *,
    actor,
    dispute: Dispute,
    resolution: str,
    reason: str,
    first_score: int | None = None,
    second_score: int | None = None,
    winner: int | None = None,
    new_deadline: datetime | None = None,
    now=None,
) -> Match:
    """The director rules on a dispute (L9): uphold the report, amend the scores, order a
    replay, forfeit one side or rule a double forfeit; always with a reason; both players told."""
    now = now or timezone.now()
    reason = _require_reason(reason)
    if not dispute.is_open:
        raise MatchError("This dispute has already been resolved.")
    match = dispute.report.match
    if resolution == Dispute.Resolution.REPLAY:
        if new_deadline is None:
            raise MatchError("A replay needs a new deadline.")
        return match_replay(
            actor=actor, match=match, new_deadline=new_deadline, reason=reason, now=now
        )
    if resolution == Dispute.Resolution.DOUBLE_FORFEIT:
        return match_double_forfeit(actor=actor, match=match, reason=reason, now=now)
    if resolution == Dispute.Resolution.FORFEIT:
        if winner not in (1, 2):
            raise MatchError("Pick the player who wins by forfeit.")
        return match_forfeit(actor=actor, match=match, winner=winner, reason=reason, now=now)
    if resolution == Dispute.Resolution.AMENDED:
        if first_score is None or second_score is None:
            raise MatchError("Enter both amended scores.")
        return match_record_result(
            actor=actor,
            match=match,
            first_score=first_score,
            second_score=second_score,
            reason=reason,
            now=now,
        )
    if resolution == Dispute.Resolution.UPHELD:
        with transaction.atomic():
            match = _lock(match)
            _require_director(actor, match)
            report = ResultReport.objects.select_for_update().get(pk=dispute.report_id)
            report.status = ReportStatus.CONFIRMED
            report.confirmed_at = now
            report.save(update_fields=["status", "confirmed_at"])
            return _record_locked(
                actor=actor,
                match=match,
                scores=(
                    report.first_score,
                    report.second_score,
                    report.first_pre_adjustment,
                    report.second_pre_adjustment,
                ),
                reason=reason,
                now=now,
                resolution=Dispute.Resolution.UPHELD,
            )
    raise MatchError(f"{resolution!r} is not a way to resolve a dispute.")


def contact_issue_resolve(
    *,
    actor,
    issue: ContactIssue,
    decision: str,
    reason: str,
    winner: int | None = None,
    new_deadline: datetime | None = None,
    now=None,
) -> Match:
    """The director decides a can't-reach-opponent report (L5): extend the deadline, award a
    forfeit win, rule a double forfeit, or order a replay."""
    if issue.resolved_at is not None:
        raise MatchError("This report has already been decided.")
    match = issue.match
    if decision == "extend":
        if new_deadline is None:
            raise MatchError("Give the new deadline.")
        result = match_extend_deadline(
            actor=actor, match=match, new_deadline=new_deadline, reason=reason, now=now
        )
    elif decision == "forfeit":
        if winner not in (1, 2):
            raise MatchError("Pick the player who wins by forfeit.")
        result = match_forfeit(actor=actor, match=match, winner=winner, reason=reason, now=now)
    elif decision == "double_forfeit":
        result = match_double_forfeit(actor=actor, match=match, reason=reason, now=now)
    elif decision == "replay":
        if new_deadline is None:
            raise MatchError("Give the new deadline.")
        result = match_replay(
            actor=actor, match=match, new_deadline=new_deadline, reason=reason, now=now
        )
    else:
        raise MatchError(
            f"{decision!r} is not a decision (extend, forfeit, double_forfeit, replay)."
        )
    ContactIssue.objects.filter(pk=issue.pk).update(
        resolved_by=actor, resolution=f"{decision}: {reason}"
    )
    return result


def withdrawal_forfeits(*, actor, player, league, reason: str, now=None) -> int:
    """A player left the league: each of their matches not yet final becomes a forfeit to the
    opponent. Called by `league.services.entry_withdraw` inside its transaction."""
    now = now or timezone.now()
    count = 0
    open_matches = (
        Match.objects.filter(league=league, seats__player=player)
        .exclude(status__in=FINAL_STATUSES)
        .order_by("id")
    )
    for match in open_matches:
        locked = _lock(match)
        opponent = next(seat for seat in _seats(locked) if seat.player_id != player.pk)
        _forfeit_locked(actor=actor, match=locked, winner=opponent.order, reason=reason, now=now)
        count += 1
    return count
