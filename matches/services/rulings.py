"""The director's rulings (L5, L8, L9): one list of rulings and one entry point, ``rule``.

A ruling is made on a match, on a dispute of its result (L9) or on a can't-reach-opponent report
(L5); what the director may decide depends on which (``RULINGS_ON``). ``rule`` takes the match
lock first and then re-reads the dispute or the report under it, so two rulings at once cannot
both pass: the second finds the first's decision and is refused. Every ruling needs a reason,
lands in the audit trail and reaches every player whatever their e-mail preferences.
"""

from collections.abc import Sequence
from datetime import datetime

from django.db import models, transaction
from django.utils import timezone

from ..deadlines import match_due
from ..models import (
    FINAL_STATUSES,
    ContactIssue,
    Dispute,
    Match,
    MatchStatus,
    Outcome,
    ReportStatus,
    ResultReport,
    ScheduleProposal,
)
from .kernel import (
    MatchError,
    announce_final,
    apply_scores,
    audit,
    clear_scores,
    close_live_reports,
    finalise,
    lock,
    require_director,
    require_reason,
    require_scores,
    resolve_contact_issues,
    resolve_open_dispute,
    seats_of,
    snapshot,
    tell_players,
)


class Ruling(models.TextChoices):
    UPHOLD = "upheld", "Uphold the report"
    AMEND = "amended", "Amend the scores"
    REPLAY = "replay", "Order a replay (new deadline)"
    FORFEIT = "forfeit", "Forfeit: the seats named lose"
    DOUBLE_FORFEIT = "double_forfeit", "Double forfeit: a loss for both"
    EXTEND = "extend", "Extend the deadline"


class RulingOn(models.TextChoices):
    """What the director is ruling on."""

    MATCH = "match", "match"
    DISPUTE = "dispute", "dispute"
    CONTACT_ISSUE = "contact_issue", "can't-reach-opponent report"


RULINGS_ON = {
    RulingOn.DISPUTE: [
        Ruling.UPHOLD,
        Ruling.AMEND,
        Ruling.REPLAY,
        Ruling.FORFEIT,
        Ruling.DOUBLE_FORFEIT,
    ],
    RulingOn.CONTACT_ISSUE: [Ruling.EXTEND, Ruling.FORFEIT, Ruling.DOUBLE_FORFEIT, Ruling.REPLAY],
    RulingOn.MATCH: [
        Ruling.AMEND,
        Ruling.FORFEIT,
        Ruling.DOUBLE_FORFEIT,
        Ruling.REPLAY,
        Ruling.EXTEND,
    ],
}


def ruling_on(dispute=None, contact_issue=None) -> RulingOn:
    if dispute is not None:
        return RulingOn.DISPUTE
    return RulingOn.MATCH if contact_issue is None else RulingOn.CONTACT_ISSUE


def rule(
    *,
    actor,
    match: Match,
    ruling: str,
    reason: str,
    dispute: Dispute | None = None,
    contact_issue: ContactIssue | None = None,
    scores: Sequence[int | None] = (),
    pre_adjustment: Sequence[int | None] = (),
    forfeiting: Sequence[int] = (),
    new_deadline: datetime | None = None,
    now=None,
) -> Match:
    """The director's ruling on `match` (or on its `dispute`, or its `contact_issue`).

    ``scores`` and ``pre_adjustment`` (amending) are in seat order; ``forfeiting`` names the
    seat orders that forfeit (each loses to every seat that does not; two forfeiting seats count
    a double forfeit between them, G9)."""
    now = now or timezone.now()
    reason = require_reason(reason)
    on = ruling_on(dispute, contact_issue)
    if ruling not in RULINGS_ON[on]:
        choices = ", ".join(RULINGS_ON[on])
        raise MatchError(f"{ruling!r} is not a ruling on a {on.label.lower()} ({choices}).")
    scores = (list(scores), list(pre_adjustment))
    forfeiting = sorted(set(forfeiting))
    _check_details(ruling, scores, forfeiting, new_deadline, now)
    with transaction.atomic():
        match = lock(match)
        require_director(actor, match)
        if dispute is not None:
            dispute = _require_open_dispute(dispute, match)
        if contact_issue is not None:
            _decide_contact_issue(contact_issue, match, ruling, reason, actor, now)
        seats = seats_of(match)
        return _RULE[ruling](
            actor=actor,
            match=match,
            seats=seats,
            reason=reason,
            scores=scores,
            forfeiting=forfeiting,
            new_deadline=new_deadline,
            dispute=dispute,
            now=now,
        )


def _check_details(ruling, scores, forfeiting, new_deadline, now) -> None:
    """What each ruling needs besides the reason, checked before anything is locked."""
    if ruling == Ruling.AMEND:
        if not scores[0]:
            raise MatchError("Enter every seat's amended score.")
        # The director's amendment is what the table signed: unusual scores need no "really".
        require_scores(scores[0], unusual_confirmed=True, pre_adjustment=scores[1])
    if ruling == Ruling.FORFEIT and not forfeiting:
        raise MatchError("Pick the seats that forfeit.")
    if ruling in (Ruling.REPLAY, Ruling.EXTEND):
        if new_deadline is None:
            raise MatchError("Give the new deadline.")
        if new_deadline <= now:
            raise MatchError("The new deadline must be in the future.")


def _require_open_dispute(dispute: Dispute, match: Match) -> Dispute:
    """Re-read under the match lock: a ruling that committed meanwhile has closed it."""
    current = Dispute.objects.filter(pk=dispute.pk, report__match=match).first()
    if current is None:
        raise MatchError("That dispute is about another match.")
    if not current.is_open:
        raise MatchError("This dispute has already been resolved.")
    return current


def _decide_contact_issue(issue: ContactIssue, match: Match, ruling, reason, actor, now) -> None:
    """Re-read under the match lock, then record the decision on the report itself (the
    ruling's own effects close any other open report with what became of the match)."""
    decided = ContactIssue.objects.filter(
        pk=issue.pk, match=match, resolved_at__isnull=True
    ).update(resolved_at=now, resolved_by=actor, resolution=f"{ruling}: {reason}"[:200])
    if decided != 1:
        if not ContactIssue.objects.filter(pk=issue.pk, match=match).exists():
            raise MatchError("That report is about another match.")
        raise MatchError("This report has already been decided.")


# --- Each ruling, with the match locked ---------------------------------------------------------


def _forfeit(*, actor, match, seats, reason, forfeiting, now, told=None, **_) -> Match:
    if match.status == MatchStatus.BYE:
        raise MatchError("A bye has no opponent to forfeit to.")
    orders = {seat.order for seat in seats}
    if not set(forfeiting) <= orders:
        raise MatchError(f"This match has seats {', '.join(map(str, sorted(orders)))}.")
    if set(forfeiting) == orders:
        raise MatchError("Every seat forfeiting is a double forfeit: rule that instead.")
    before = snapshot(match, seats)
    clear_scores(
        seats,
        lambda seat: Outcome.FORFEIT_LOSS if seat.order in forfeiting else Outcome.FORFEIT_WIN,
    )
    close_live_reports(match)
    resolve_open_dispute(match, Dispute.Resolution.FORFEIT, reason, actor, now)
    finalise(match, MatchStatus.FORFEIT, now)
    audit(match, actor, "forfeit", before, snapshot(match, seats), reason)
    losers = " and ".join(seat.player.name for seat in seats if seat.order in forfeiting)
    tell_players(
        match,
        seats,
        "Match decided by forfeit",
        told
        or [
            f"The director ruled that {losers} forfeit{'s' if len(forfeiting) == 1 else ''} the match.",
            f"Reason: {reason}",
        ],
    )
    return match


def _double_forfeit(*, actor, match, seats, reason, now, **_) -> Match:
    if match.status == MatchStatus.BYE:
        raise MatchError("A bye cannot be forfeited.")
    before = snapshot(match, seats)
    clear_scores(seats, lambda seat: Outcome.DOUBLE_FORFEIT)
    close_live_reports(match)
    resolve_open_dispute(match, Dispute.Resolution.DOUBLE_FORFEIT, reason, actor, now)
    finalise(match, MatchStatus.DOUBLE_FORFEIT, now)
    audit(match, actor, "double_forfeit", before, snapshot(match, seats), reason)
    tell_players(
        match,
        seats,
        "Match ruled a double forfeit",
        ["The director ruled the match a double forfeit: a loss for both.", f"Reason: {reason}"],
    )
    return match


def _replay(*, actor, match, seats, reason, new_deadline, now, **_) -> Match:
    if match.status == MatchStatus.BYE:
        raise MatchError("A bye cannot be replayed.")
    before = snapshot(match, seats)
    clear_scores(seats, lambda seat: "")
    close_live_reports(match)
    resolve_open_dispute(match, Dispute.Resolution.REPLAY, reason, actor, now)
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
    resolve_contact_issues(match, f"Replay ordered: {reason}", now, actor)
    if was_final:
        announce_final([match.league_id])
    audit(match, actor, "replay_ordered", before, snapshot(match, seats), reason)
    tell_players(
        match,
        seats,
        "Replay ordered",
        [
            f"The director ordered the game replayed: {match_due(match)}.",
            f"Reason: {reason}",
        ],
    )
    return match


def _extend(*, actor, match, seats, reason, new_deadline, now, **_) -> Match:
    if match.is_final:
        raise MatchError("This match is final: order a replay instead.")
    if new_deadline <= match.deadline:
        raise MatchError("The new deadline must be later than both now and the current deadline.")
    before = snapshot(match, seats)
    match.deadline = new_deadline
    match.reminder_sent_at = None
    match.save(update_fields=["deadline", "reminder_sent_at"])
    resolve_contact_issues(match, f"Deadline extended: {reason}", now, actor)
    audit(match, actor, "deadline_extended", before, snapshot(match, seats), reason)
    tell_players(
        match,
        seats,
        "Deadline extended",
        [
            f"The director extended the deadline: {match_due(match)}.",
            f"Reason: {reason}",
        ],
    )
    return match


def _amend(*, actor, match, seats, reason, scores, now, **_) -> Match:
    """The director records or amends the scores (after the deadline, or ruling on a dispute)."""
    return _record(actor, match, seats, scores, reason, now, Dispute.Resolution.AMENDED)


def _uphold(*, actor, match, seats, reason, dispute, now, **_) -> Match:
    """The disputed report stands as it was reported."""
    report = ResultReport.objects.get(pk=dispute.report_id)
    report.status = ReportStatus.CONFIRMED
    report.confirmed_at = now
    report.save(update_fields=["status", "confirmed_at"])
    lines = list(report.scores.order_by("order"))
    scores = ([line.score for line in lines], [line.pre_adjustment for line in lines])
    return _record(actor, match, seats, scores, reason, now, Dispute.Resolution.UPHELD)


def _record(actor, match, seats, scores, reason, now, resolution) -> Match:
    if match.status == MatchStatus.BYE or len(seats) < 2:
        raise MatchError("A bye has no scores to record.")
    values, pre = scores
    if len(values) != len(seats) or (pre and len(pre) != len(seats)):
        raise MatchError(f"This match has {len(seats)} seats: give a score for each.")
    before = snapshot(match, seats)
    apply_scores(seats, values, pre)
    upheld = resolution == Dispute.Resolution.UPHELD
    close_live_reports(match, keep_status=ReportStatus.CONFIRMED if upheld else None)
    resolve_open_dispute(match, resolution, reason, actor, now)
    finalise(match, MatchStatus.RESOLVED, now)
    action = "report_upheld" if upheld else "result_recorded"
    audit(match, actor, action, before, snapshot(match, seats), reason)
    named = ", ".join(
        f"{seat.player.name} {score}" for seat, score in zip(seats, values, strict=True)
    )
    tell_players(
        match,
        seats,
        f"Result recorded by the director: {'–'.join(map(str, values))}",
        [f"The director recorded {named}.", f"Reason: {reason}"],
    )
    return match


_RULE = {
    Ruling.UPHOLD: _uphold,
    Ruling.AMEND: _amend,
    Ruling.REPLAY: _replay,
    Ruling.FORFEIT: _forfeit,
    Ruling.DOUBLE_FORFEIT: _double_forfeit,
    Ruling.EXTEND: _extend,
}


# --- A player's withdrawal ------------------------------------------------------------------------


def withdrawal_forfeits(
    *,
    actor,
    player,
    league,
    reason: str,
    now=None,
    by_player: bool = False,
    told: list[str] | None = None,
) -> int:
    """A player left the league: each of their matches not yet final becomes a forfeit to the
    others. Called by `league.services.entry_withdraw` (the director) and `entry_leave` (the
    player themself, `by_player`: the players are told so, not that the director ruled)
    inside their transaction; `told` is what the players read instead, where neither is
    what happened (a forgotten player left, P4)."""
    now = now or timezone.now()
    if told is None and by_player:
        told = [
            f"{player.name} withdrew from {league}: the match is a forfeit win for their opponent."
        ]
    count = 0
    open_matches = (
        Match.objects.filter(league=league, seats__player=player)
        .exclude(status__in=FINAL_STATUSES)
        .order_by("id")
    )
    for match in open_matches:
        locked = lock(match)
        seats = seats_of(locked)
        mine = next(seat for seat in seats if seat.player_id == player.pk)
        _forfeit(
            actor=actor,
            match=locked,
            seats=seats,
            reason=reason,
            forfeiting=[mine.order],
            now=now,
            told=told,
        )
        count += 1
    return count
