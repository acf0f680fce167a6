"""Reporting, confirming and disputing a result (L6, L7, L9, G1, G2, G3, G9): the winner reports
(at a table with a scorekeeper, the scorekeeper), every other seat confirms or disputes within
the confirmation window."""

from collections.abc import Sequence
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
    ReportScore,
    ReportStatus,
    ResultReport,
    Seat,
)
from ..notifications import notify
from ..policy import Action
from ..results import check_scores, outcomes, placements
from ..scrabble import scores_before_adjustment
from .kernel import (
    MatchError,
    apply_scores,
    audit,
    directors,
    finalise,
    local,
    lock,
    other_seats,
    player_seat,
    players,
    require_allowed,
    require_scores,
    scorekeeper_of,
    seats_of,
    snapshot,
    tell_opponents,
)


def report_submit(
    *,
    actor,
    match: Match,
    scores: Sequence[int | None],
    pre_adjustment: Sequence[int | None] = (),
    tiles_left: Sequence[str] = (),
    ended_by: str = GameEnd.WENT_OUT,
    discrepancy_turn: int | None = None,
    discrepancy_note: str = "",
    unusual_confirmed: bool = False,
    game_record: bytes | str | None = None,
    played_earlier: bool = False,
    now=None,
) -> ResultReport:
    """The winner (L7), or at a table with a scorekeeper the scorekeeper (G9), reports every
    seat's score before the deadline; each other seat is asked to confirm.

    ``scores``, ``pre_adjustment`` and ``tiles_left`` are in seat order. ``game_record`` is the
    game's GCG file, optional. When given, the reported scores must agree with its final totals
    under the league's end-of-game rule (G1); the scores before the unplayed tiles and the tiles
    left are taken from it where the report leaves them blank.

    A match scheduled for later is reported only with ``played_earlier``: the players say they
    played before the agreed time, which then becomes now, so the confirmation window starts
    from the game and not before it (ours)."""
    now = now or timezone.now()
    scores = list(scores)
    require_scores(scores, unusual_confirmed=unusual_confirmed, pre_adjustment=list(pre_adjustment))
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
        require_allowed(Action.REPORT, match, seat, now, seats=seats)
        agreed = match.scheduled_at
        if agreed is not None and agreed > now:
            if not played_earlier:
                raise MatchError(
                    f"This match is scheduled for {local(match, agreed)}: report it once you "
                    'have played, or tick "We played earlier than agreed".'
                )
            match.scheduled_at = now
        pre = _per_seat(pre_adjustment, seats, None, "score before unplayed tiles")
        tiles = _per_seat(tiles_left, seats, "", "tiles left")
        if len(scores) != len(seats):
            raise MatchError(
                f"This table has {len(seats)} seats: enter one score for each "
                f"({len(scores)} given)."
            )
        # L10: a result counts only for a game of eligible students, as proposing and
        # accepting ask. The other seats too: a result over someone not eligible is not a game
        # the league recognises. An eligible winner loses nothing by it: ruling a player
        # ineligible settles their open matches as forfeits to the others at once.
        for each in seats:
            require_eligible(
                profile=each.player,
                season=match.league.season,
                campus_only=match.league.campus_only,
            )
        record_text, record_note = "", ""
        if record is not None:
            comparison = _compare_record(record, match, seats, seat, scores)
            for index, (given, recorded) in enumerate(
                zip(pre, comparison.pre_adjustment, strict=True)
            ):
                if given is not None and given != recorded:
                    whose = "Your" if index == seat.order - 1 else f"{_name(seats[index])}'s"
                    raise MatchError(
                        f"{whose} score before unplayed tiles differs from the game record: "
                        f"you entered {given}, the record says {recorded}."
                    )
            pre = list(comparison.pre_adjustment)
            tiles = [
                given or recorded
                for given, recorded in zip(tiles, comparison.tiles_left, strict=True)
            ]
            record_text, record_note = comparison.text, comparison.conversion
        else:
            pre = _pre_from_tiles(match.league.end_of_game_rule, scores, pre, tiles, ended_by)
        places = placements(scores, pre)
        if scorekeeper_of(match, seats) is None and places[seat.order - 1] != 1:
            raise MatchError("Your scores say you lost: the winner reports the result.")
        try:
            with transaction.atomic():
                report = ResultReport.objects.create(
                    match=match,
                    submitted_by=seat.player,
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
        ReportScore.objects.bulk_create(
            ReportScore(
                report=report,
                order=each.order,
                score=score,
                pre_adjustment=before,
                tiles_left=left.upper().strip(),
                place=place,
                outcome=outcome,
                # The reporter's own line stands confirmed: they wrote it.
                confirmed_at=now if each.pk == seat.pk else None,
            )
            for each, score, before, left, place, outcome in zip(
                seats, scores, pre, tiles, places, outcomes(places), strict=True
            )
        )
        before = snapshot(match, seats)
        match.status = MatchStatus.REPORTED
        match.save(update_fields=["status", "scheduled_at"])
        audit(
            match,
            actor,
            "reported",
            {**before, "scheduled_at": agreed.isoformat() if agreed else None},
            {
                **snapshot(match, seats),
                "report": {
                    "scores": scores,
                    "pre_adjustment": pre,
                    "ended_by": ended_by,
                    "game_record": bool(record_text),
                },
            },
            reason=(
                f"Played earlier than the agreed {local(match, agreed)}"
                if match.scheduled_at != agreed
                else ""
            ),
        )
        tell_opponents(
            match,
            seat,
            seats,
            f"Confirm the result: {scoreline(scores)}",
            [
                f"{actor} reported " + _named_scores(seats, scores) + ".",
                f"Confirm it or dispute it before {local(match, report.confirm_by)}; after that it counts as reported.",
                *(
                    ["The game record is attached: the match page shows the game move by move."]
                    if record_text
                    else []
                ),
            ],
        )
    return report


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


def _per_seat(values: Sequence, seats: list[Seat], empty, what: str) -> list:
    """Optional per-seat values: none given means empty for every seat."""
    values = list(values)
    if not values:
        return [empty] * len(seats)
    if len(values) != len(seats):
        raise MatchError(f"Give a {what} for each of the {len(seats)} seats, or none.")
    return [empty if value is None else value for value in values]


# What a seat's tiles left may hold: letters, and ? for a blank.
TILE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ?"


def _pre_from_tiles(
    rule: str, scores: list[int], pre: list[int | None], tiles: list[str], ended_by: str
) -> list[int | None]:
    """The scores before the unplayed tiles a report leaves blank, worked out from how the game
    ended and every seat's tiles left under the league's end-of-game rule (G1), so that a tie
    on final score goes to G2 (it was recorded as a tie). Someone went out: the one seat
    without tiles left is them. Otherwise (no play, passes, time) every seat has tiles. When
    what was given does not say that much, the blanks stay blank."""
    racks = [(left or "").strip().upper() for left in tiles]
    for order, rack in enumerate(racks, start=1):
        if rack.strip(TILE_LETTERS):
            raise MatchError(
                f"Seat {order}'s tiles left: letters, and ? for a blank ({rack!r} given)."
            )
    if all(before is not None for before in pre):
        return pre
    empty = [index for index, rack in enumerate(racks) if not rack]
    if ended_by == GameEnd.WENT_OUT:
        if len(empty) != 1:
            return pre
        went_out = empty[0]
    elif empty:
        return pre
    else:
        went_out = None
    derived = scores_before_adjustment(rule, scores, racks, went_out)
    return [
        given if given is not None else worked for given, worked in zip(pre, derived, strict=True)
    ]


def scoreline(scores: Sequence[int]) -> str:
    return "–".join(str(score) for score in scores)


def _name(seat: Seat) -> str:
    return seat.player.name


def _named_scores(seats: list[Seat], scores: Sequence[int]) -> str:
    return ", ".join(f"{_name(seat)} {score}" for seat, score in zip(seats, scores, strict=True))


def _seat_name(seat: Seat) -> SeatName:
    player = seat.player
    return SeatName(player.name, player.first_name, player.address)


def _compare_record(record, match: Match, seats: list[Seat], seat: Seat, reported: list[int]):
    """The record's totals by seat under the league's rule; MatchError saying which score
    differs from the report."""
    text, parsed = record
    comparison = compare_with_report(
        text,
        parsed,
        league_rule=match.league.end_of_game_rule,
        challenge_rule=match.league.challenge_rule,
        seats=[_seat_name(each) for each in seats],
        reported=reported,
        reporter=seat.order - 1,
    )
    if comparison.differences:
        raise MatchError(" ".join([*comparison.differences, comparison.conversion]).strip())
    return comparison


def report_confirm(*, actor, report: ResultReport, now=None) -> Match:
    """Another seat agrees with the report; once every seat has, the result counts (L6, G9)."""
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
        at_turn = _per_seat(scores_at_turn, seats, None, "score at that turn")
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
        notify(
            recipients=players(other_seats(seat, seats)) + directors(match),
            subject=f"Result disputed: {match}",
            lines=[
                f"{actor} disputed the report {scoreline(report.score_list())}; their version is "
                f"{scoreline(scores)}.",
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
