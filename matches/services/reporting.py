"""Reporting a result (L7, G1, G2, G3, G9): the winner reports every seat's score (at a table
with a scorekeeper, the scorekeeper), optionally with the game's GCG record, which the scores
must agree with. What the other seats do next is in `confirming`."""

from collections.abc import Sequence
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.services import require_eligible

from ..game_records import RecordError, SeatName, compare_with_report, read_record
from ..models import (
    GameEnd,
    Match,
    MatchStatus,
    ReportScore,
    ResultReport,
    Seat,
)
from ..policy import Action
from ..results import outcomes, placements
from ..scrabble import scores_before_adjustment
from .kernel import (
    MatchError,
    audit,
    local,
    lock,
    per_seat,
    player_seat,
    require_allowed,
    require_scores,
    scorekeeper_of,
    scoreline,
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
        pre = per_seat(pre_adjustment, seats, None, "score before unplayed tiles")
        tiles = per_seat(tiles_left, seats, "", "tiles left")
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
                drawn=True,
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
