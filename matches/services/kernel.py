"""What every match transition shares: the errors, the match lock, the seats, the audit trail,
the e-mail to the players and the announcement that a result is final.

Every transition locks the match row first (``lock``), so holding that lock is the claim on the
match: whoever holds it may re-read the match's reports, disputes and can't-reach reports and
trust what they read until the transaction ends."""

from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts import roles
from accounts.models import User
from core.errors import DomainError, NotAllowed
from core.zones import zone_short

from ..models import (
    LIVE_REPORT_STATUSES,
    AuditEvent,
    ContactIssue,
    Dispute,
    Match,
    ReportScore,
    ReportStatus,
    ResultReport,
    ScheduleProposal,
    Seat,
)
from ..notifications import notify
from ..policy import Action, MatchFacts, refusal
from ..results import MAX_SCORE, MIN_SCORE, check_scores, outcomes, placements
from ..signals import results_finalised


class MatchError(DomainError):
    """A match transition that the rules or the match's state forbid."""


class UnusualScores(MatchError):
    """Scores that are possible but rare: accepted only after an explicit "yes, really"."""


# --- The match and its seats ------------------------------------------------------------------


def lock(match: Match) -> Match:
    """The match row, locked for this transaction, with what the rules need."""
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("league__season__institution", "round")
        .get(pk=match.pk)
    )


def seats_of(match: Match) -> list[Seat]:
    return list(Seat.objects.filter(match=match).select_related("player__user").order_by("order"))


def seat_of(user, seats: list[Seat]) -> Seat | None:
    return next((seat for seat in seats if seat.player.user_id == user.pk), None)


def player_seat(user, seats) -> Seat:
    seat = seat_of(user, seats)
    if seat is None:
        raise NotAllowed("Only the match's players can do that.")
    return seat


def other_seats(seat: Seat, seats: list[Seat]) -> list[Seat]:
    return [s for s in seats if s.pk != seat.pk]


def for_institution(queryset, institution, league_ids=None):
    """The matches of `queryset` at this institution (all: None), of these leagues if given."""
    if institution is not None:
        queryset = queryset.filter(league__season__institution=institution)
    if league_ids is not None:
        queryset = queryset.filter(league_id__in=list(league_ids))
    return queryset


# --- Who may act, and when ----------------------------------------------------------------------


def is_match_director(user, match: Match) -> bool:
    return roles.is_director_of(user, match.league.season.institution)


def require_director(user, match: Match) -> None:
    if not is_match_director(user, match):
        raise NotAllowed("Only the league's director can do that.")


def require_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise MatchError("A reason is required: it goes into the match's history.")
    return reason


def scorekeeper_seat(match: Match, seats: list[Seat]) -> Seat | None:
    """The table's scorekeeper where the league's tables have one (G9); None where the winner
    reports (L7)."""
    if not match.league.scorekeeper_reports:
        return None
    return next((seat for seat in seats if seat.order == match.scorekeeper), None)


def scorekeeper_of(match: Match, seats: list[Seat]) -> int | None:
    """The scorekeeper's player id, for the policy's facts."""
    keeper = scorekeeper_seat(match, seats)
    return keeper.player_id if keeper else None


def answered_by(report: ResultReport | None, seats: list[Seat]) -> frozenset[int]:
    """The players who confirmed or disputed `report`, the reporter included."""
    if report is None:
        return frozenset()
    player_of = {seat.order: seat.player_id for seat in seats}
    confirmed = ReportScore.objects.filter(report=report, confirmed_at__isnull=False).values_list(
        "order", flat=True
    )
    disputed = Dispute.objects.filter(report=report).values_list("raised_by_id", flat=True)
    return frozenset(
        {player_of[order] for order in confirmed} | set(disputed) | {report.submitted_by_id}
    )


def facts_of(match: Match, seats: list[Seat], report: ResultReport | None = None) -> MatchFacts:
    """The policy's facts about a locked match, read fresh (`report`: the one acted on)."""
    if report is None:
        report = ResultReport.objects.filter(match=match, status__in=LIVE_REPORT_STATUSES).first()
    return MatchFacts(
        status=match.status,
        deadline=match.deadline,
        proposal_by=ScheduleProposal.objects.filter(
            match=match, status=ScheduleProposal.Status.OPEN
        )
        .values_list("proposed_by_id", flat=True)
        .first(),
        report_status=report.status if report else None,
        report_by=report.submitted_by_id if report else None,
        report_confirm_by=report.confirm_by if report else None,
        waiting_on_director=ContactIssue.objects.filter(
            match=match, resolved_at__isnull=True
        ).exists(),
        scorekeeper=scorekeeper_of(match, seats),
        answered=answered_by(report, seats),
        cards_only=match.league.cards_only,
    )


def require_allowed(action: Action, match: Match, seat: Seat, now, report=None, seats=None) -> None:
    """The policy's refusal, if any, as the error (the match must be locked)."""
    seats = seats if seats is not None else seats_of(match)
    reason = refusal(
        action,
        facts_of(match, seats, report),
        seat.player_id,
        now,
        lambda moment: local(match, moment),
    )
    if reason:
        raise MatchError(reason)


# --- Scores and the end of a match --------------------------------------------------------------


def require_scores(scores, *, unusual_confirmed: bool, pre_adjustment=()) -> None:
    """Every seat's score in range (G1), and each score before the unplayed tiles given in the
    same range; unusual scores only after an explicit "yes, really"."""
    check = check_scores(scores)
    if check.errors:
        raise MatchError(" ".join(check.errors))
    for before in pre_adjustment:
        if before is not None and not MIN_SCORE <= before <= MAX_SCORE:
            raise MatchError(
                f"A score before unplayed tiles of {before} is out of range: it is between "
                f"{MIN_SCORE} and {MAX_SCORE}."
            )
    if check.warnings and not unusual_confirmed:
        raise UnusualScores(
            " ".join(check.warnings) + ' Tick "yes, really" if the scores are right.'
        )


def per_seat(values: Sequence, seats: list[Seat], empty, what: str) -> list:
    """Optional per-seat values: none given means empty for every seat."""
    values = list(values)
    if not values:
        return [empty] * len(seats)
    if len(values) != len(seats):
        raise MatchError(f"Give a {what} for each of the {len(seats)} seats, or none.")
    return [empty if value is None else value for value in values]


def apply_scores(seats: list[Seat], scores, pre_adjustment=()) -> None:
    """Each seat's final score, pre-adjustment score, place and outcome (G2, G9)."""
    pre = list(pre_adjustment) or [None] * len(seats)
    places = placements(scores, pre)
    for seat, score, before, place, outcome in zip(
        seats, scores, pre, places, outcomes(places), strict=True
    ):
        seat.score, seat.pre_adjustment_score = score, before
        seat.place, seat.outcome = place, outcome
    Seat.objects.bulk_update(seats, ["score", "pre_adjustment_score", "place", "outcome"])


def clear_scores(seats: list[Seat], outcome_of) -> None:
    """No game counts: scores cleared, each seat's outcome from `outcome_of(seat)`."""
    for seat in seats:
        seat.score = seat.pre_adjustment_score = seat.place = None
        seat.outcome = outcome_of(seat)
    Seat.objects.bulk_update(seats, ["score", "pre_adjustment_score", "place", "outcome"])


def close_live_reports(match: Match, keep_status: str | None = None) -> None:
    ResultReport.objects.filter(match=match, status__in=LIVE_REPORT_STATUSES).exclude(
        status=keep_status or ""
    ).update(status=ReportStatus.SUPERSEDED)


def resolve_open_dispute(match: Match, resolution: str, reason: str, actor, now) -> None:
    Dispute.objects.filter(report__match=match, resolved_at__isnull=True).update(
        resolution=resolution, reason=reason, resolved_by=actor, resolved_at=now
    )


def resolve_contact_issues(match: Match, resolution: str, now, actor=None) -> None:
    """Close the match's open can't-reach reports (L5) with what became of the match."""
    ContactIssue.objects.filter(match=match, resolved_at__isnull=True).update(
        resolved_at=now, resolved_by=actor, resolution=resolution[:200]
    )


def finalise(match: Match, status: str, now, also=(), anew: bool = False) -> None:
    """The match is final. `also`: other fields set by the caller, saved in the same UPDATE.
    `anew`: it had no result before (a card counted, not a correction), so its league may count
    it into its players' rows alone (``announce_final``)."""
    match.status = status
    match.finalised_at = now
    match.save(update_fields=["status", "finalised_at", *also])
    resolve_contact_issues(match, f"Match {match.get_status_display().lower()}", now)
    announce_final([match.league_id], [match.pk] if anew else ())


def announce_final(league_ids, match_ids=()) -> None:
    """After commit, `league` rebuilds those leagues' standings and brackets (matches never
    imports league: DESIGN.md). `match_ids`: matches final for the first time, whose results a
    league may count into their players' rows alone; a correction names none."""
    ids, matches = sorted(set(league_ids)), sorted(set(match_ids))
    # robust: what follows a saved result never fails the answer (a failure is logged; the
    # leagues stay wanted for the sweep).
    transaction.on_commit(
        lambda: results_finalised.send(sender=Match, league_ids=ids, match_ids=matches),
        robust=True,
    )


# --- The audit trail and the e-mail -------------------------------------------------------------


def snapshot(match: Match, seats: list[Seat]) -> dict:
    return {
        "status": match.status,
        "deadline": match.deadline.isoformat() if match.deadline else None,
        "scheduled_at": match.scheduled_at.isoformat() if match.scheduled_at else None,
        "seats": [
            {
                "player": seat.player_id,
                "score": seat.score,
                "pre": seat.pre_adjustment_score,
                "place": seat.place,
                "outcome": seat.outcome,
            }
            for seat in seats
        ],
    }


def audit(match: Match, actor, action: str, before: dict, after: dict, reason: str = ""):
    return AuditEvent.objects.create(
        match=match,
        actor=actor if actor and actor.is_authenticated else None,
        action=action,
        before=before,
        after=after,
        reason=reason,
    )


def players(seats) -> list:
    """The seats' players' profiles, whom `notify` writes to (a guest at their own address)."""
    return [seat.player for seat in seats]


def directors(match: Match) -> list:
    return list(
        User.objects.filter(
            groups__name=roles.DIRECTORS,
            profile__institution=match.league.season.institution,
            is_active=True,
        )
    )


def local(match: Match, moment: datetime) -> str:
    """A moment on the league's clock, saying whose: "Thu Dec 3, 6:00 PM Central" (a player's
    phone may sit in another zone)."""
    tz = match.league.season.institution.tz
    return f"{timezone.localtime(moment, tz).strftime('%a %b %-d, %-I:%M %p')} {zone_short(tz)}"


def scoreline(scores: Sequence[int]) -> str:
    """Scores in seat order as the e-mails give them: "412–377"."""
    return "–".join(str(score) for score in scores)


def tell_opponents(match: Match, seat: Seat, seats, subject: str, lines: list[str]) -> None:
    """What a player did, told to the other players (they may opt out of such e-mail)."""
    notify(recipients=players(other_seats(seat, seats)), subject=subject, lines=lines, match=match)


def tell_players(match: Match, seats, subject: str, lines: list[str]) -> None:
    """The director's rulings reach every player whatever their preferences."""
    notify(recipients=players(seats), subject=subject, lines=lines, match=match, preference=None)
