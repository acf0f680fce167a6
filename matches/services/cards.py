"""Score cards entered by the director (E3, E4): the scores written on a table's card are final at
once, with no round of confirmations, because the card is the record the table signed.

A second card with the same scores changes nothing. A card that differs from what the table
already has (a final result, a scorekeeper's live report, or an open dispute) is a conflict and
is refused until the director overrides it with a reason, which supersedes the live report,
resolves the dispute and goes into the match's history."""

from collections.abc import Callable, Sequence

from django.db import transaction
from django.utils import timezone

from accounts import roles
from accounts.naming import Said
from core.errors import NotAllowed

from ..models import (
    LIVE_REPORT_STATUSES,
    Dispute,
    GameEnd,
    Match,
    MatchStatus,
    ResultReport,
)
from .kernel import (
    MatchError,
    apply_scores,
    audit,
    close_live_reports,
    finalise,
    lock,
    require_director,
    require_scores,
    resolve_open_dispute,
    seats_of,
    snapshot,
    tell_players,
)

SCORED_STATUSES = (MatchStatus.CONFIRMED, MatchStatus.RESOLVED)


class CardConflict(MatchError):
    """The table already has a different result: only the director's override replaces it.
    `facts` says what the table has and what the card says, for a page to add what the person
    looking can do about it (the director gives a reason; anyone else calls the director)."""

    def __init__(self, facts: str):
        super().__init__(f"{facts}: give a reason to override.")
        self.facts = facts


class SeatingChanged(MatchError):
    """The card names other players than the table now seats: the round was paired again, or
    two players swapped, after the card was printed or the scoring page was loaded."""


def card_enter(
    *,
    actor,
    match: Match,
    scores: Sequence[int],
    pre_adjustment: Sequence[int | None] = (),
    ended_by: str = GameEnd.WENT_OUT,
    override_reason: str = "",
    unusual_confirmed: bool = False,
    players: Sequence[int] | None = None,
    may_enter: Callable | None = None,
    note: str = "",
    now=None,
    as_system: bool = False,
) -> Match:
    """The table's score card, every seat's final score in seat order, final at once (status
    confirmed, audit "card_entered"). The director of the institution enters it; only the
    director overrides a different result. A management command acts as the site with
    ``as_system=True`` (and only then may ``actor`` be None).

    Who else may enter it is the format's to say: ``may_enter(user)`` (an event's front desk and
    volunteer scorers), asked under the table's lock; without it, the director alone.

    ``players`` are the player profile ids, in seat order, that the person entering the card
    saw or typed: checked against the seats under the table's lock, so a card cannot land on
    the players of a re-pairing or a swap that came in between (SeatingChanged).

    ``note`` says in the audit trail where the card came from when no reason is given (a card
    the players entered and confirmed at their table, S2)."""
    now = now or timezone.now()
    scores = list(scores)
    pre = list(pre_adjustment)
    require_scores(scores, unusual_confirmed=unusual_confirmed, pre_adjustment=pre)
    if ended_by not in GameEnd.values:
        raise MatchError("Say how the game ended.")
    override_reason = (override_reason or "").strip()
    with transaction.atomic():
        match = lock(match)
        if actor is None and not as_system:
            raise NotAllowed("Only the league's director can enter a score card.")
        if actor is not None:
            if may_enter is None:
                require_director(actor, match)
            elif not may_enter(actor):
                raise NotAllowed("Only the event's staff and scorers can enter its score cards.")
            elif override_reason and not roles.is_director_of(
                actor, match.league.season.institution
            ):
                raise NotAllowed(
                    "Only the director can replace a different result: call them over."
                )
        seats = seats_of(match)
        if match.status == MatchStatus.BYE or len(seats) < 2:
            raise MatchError("A bye has no score card.")
        if players is not None and list(players) != [seat.player_id for seat in seats]:
            raise SeatingChanged(
                Said(
                    f"Table {match.table or ''} now seats {' and '.join(['{}'] * len(seats))}: "
                    "the players changed since this card was read. Check the card against the "
                    "table's new players.",
                    *(seat.player for seat in seats),
                    league=match.league,
                )
            )
        if len(scores) != len(seats) or (pre and len(pre) != len(seats)):
            raise MatchError(
                f"This table has {len(seats)} seats: enter one score for each ({len(scores)} given)."
            )
        standing = _what_the_table_has(match, seats)
        if standing == scores and match.status in SCORED_STATUSES:
            return match  # the same card again
        # A scorekeeper's pending report with the card's very scores is no conflict: the card
        # settles it.
        if standing is not None and standing != scores and not override_reason:
            raise CardConflict(_conflict_facts(match, standing, scores))
        before = snapshot(match, seats)
        anew = not match.is_final  # a first result, not a correction
        apply_scores(seats, scores, pre)
        close_live_reports(match)
        resolve_open_dispute(
            match, Dispute.Resolution.AMENDED, override_reason or "Score card entered", actor, now
        )
        # One UPDATE of the match, not two: a second UPDATE of the row while a re-pairing waits
        # for it deadlocked the two (tests/events/test_event_races.py).
        match.ended_by = ended_by
        finalise(match, MatchStatus.CONFIRMED, now, also=["ended_by"], anew=anew)
        after = {**snapshot(match, seats), "ended_by": ended_by}
        audit(match, actor, "card_entered", before, after, override_reason or note)
        if override_reason:
            tell_players(
                match,
                seats,
                f"Result replaced by the director: {'–'.join(map(str, scores))}",
                [
                    "The director entered the table's score card over the earlier result.",
                    f"Reason: {override_reason}",
                ],
            )
    return match


def _what_the_table_has(match: Match, seats) -> list[int] | str | None:
    """What a card would replace: the final scores, a live report's scores, or a word for a
    result without scores (a forfeit); None when the table has nothing yet. An open dispute
    always needs the director's reason, whatever the card says."""
    if match.status in SCORED_STATUSES:
        return [seat.score for seat in seats]
    if match.is_final:
        return match.get_status_display().lower()
    report = ResultReport.objects.filter(match=match, status__in=LIVE_REPORT_STATUSES).first()
    if report is None:
        return None
    if Dispute.objects.filter(report=report, resolved_at__isnull=True).exists():
        return "disputed"
    return [line.score for line in report.scores.order_by("order")]


def _conflict_facts(match: Match, standing, scores) -> str:
    table = f"Table {match.table}" if match.table else "The table"
    if isinstance(standing, str):
        return f"{table} is already {standing}"
    where = "already has" if match.is_final else "has a report of"
    return f"{table} {where} {'–'.join(map(str, standing))}, not {'–'.join(map(str, scores))}"
