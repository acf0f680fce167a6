"""What happened in a person's matches, for their download (``league.personal_data``, issue
31): every match they sat in with its seats and scores, the results they reported, the disputes,
proposals and can't-reach reports of their matches, and the audit trail that names them. One
``values()`` query a part, whatever the number of matches.

Their opponents are named, as on the match page (P2 lets opponents see each other); staff who
acted are "staff"; an opponent's can't-reach report says when and how it ended, not what the
opponent wrote."""

from collections import defaultdict

from django.db.models import Q

from accounts import privacy
from accounts.models import PlayerProfile, User, player_name
from matches.models import (
    AUDIT_ACTIONS,
    AuditEvent,
    ContactIssue,
    Dispute,
    Match,
    ProposedTime,
    ReportScore,
    ResultReport,
    ScheduleProposal,
    Seat,
)


def match_parts(user: User, profile: PlayerProfile, when) -> dict:
    """The document's parts about matches; `when` writes a time in the person's time zone."""
    theirs = Match.objects.filter(seats__player=profile).values("pk")
    matches, seat_users = _matches(profile, theirs, when)
    return {
        "matches": matches,
        "result_reports": _reports(profile, when),
        "disputes": _disputes(profile, theirs, when),
        "schedule_proposals": _proposals(profile, theirs, when),
        "contact_issues": _contact_issues(profile, theirs, when),
        "audit_events": _audit(user, theirs, seat_users, when),
    }


def _matches(profile: PlayerProfile, theirs, when) -> tuple[list[dict], dict[int, set[int]]]:
    """Every match they sat in, with every seat's player and result; and, by match, the users
    in its seats (to tell a player's act from staff's in the audit trail)."""
    seats = defaultdict(list)
    seat_users = defaultdict(set)
    for row in (
        Seat.objects.filter(match__in=theirs)
        .order_by("match_id", "order")
        .values(
            "match_id",
            "order",
            "player_id",
            "player__user_id",
            "player__user__first_name",
            "player__user__last_name",
            "player__user__email",
            "player__display_name",
            "player__erased_at",
            "score",
            "place",
            "outcome",
        )
    ):
        name = (
            privacy.former_name(row["player_id"])
            if row["player__erased_at"]
            else player_name(
                row["player__user__first_name"],
                row["player__user__last_name"],
                row["player__user__email"],
                row["player__display_name"],
            )
        )
        seats[row["match_id"]].append(
            {
                "seat": row["order"],
                "player": name,
                "you": row["player_id"] == profile.pk,
                "score": row["score"],
                "place": row["place"],
                "outcome": row["outcome"],
            }
        )
        if row["player__user_id"]:
            seat_users[row["match_id"]].add(row["player__user_id"])
    matches = [
        {
            "match": row["pk"],
            "league": row["league__name"],
            "round": row["round__number"],
            "play_by": row["round__play_by"].isoformat(),
            "deadline": when(row["deadline"]),
            "scheduled_at": when(row["scheduled_at"]),
            "venue": row["venue"],
            "table": row["table"],
            "status": row["status"],
            "finalised_at": when(row["finalised_at"]),
            "seats": seats[row["pk"]],
        }
        for row in Match.objects.filter(pk__in=theirs)
        .order_by("round__play_by", "pk")
        .values(
            "pk",
            "league__name",
            "round__number",
            "round__play_by",
            "deadline",
            "scheduled_at",
            "venue",
            "table",
            "status",
            "finalised_at",
        )
    ]
    return matches, seat_users


def _reports(profile: PlayerProfile, when) -> list[dict]:
    """The results they reported, each with every seat's line."""
    lines = defaultdict(list)
    for row in (
        ReportScore.objects.filter(report__submitted_by=profile)
        .order_by("report_id", "order")
        .values("report_id", "order", "score", "pre_adjustment", "tiles_left", "place", "outcome")
    ):
        report_id, seat = row.pop("report_id"), row.pop("order")
        lines[report_id].append({"seat": seat, **row})
    return [
        {
            "match": row["match_id"],
            "status": row["status"],
            "ended_by": row["ended_by"],
            "submitted_at": when(row["submitted_at"]),
            "confirm_by": when(row["confirm_by"]),
            "confirmed_at": when(row["confirmed_at"]),
            "discrepancy_turn": row["discrepancy_turn"],
            "discrepancy_note": row["discrepancy_note"],
            "game_record": row["game_record"],
            "scores": lines[row["pk"]],
        }
        for row in ResultReport.objects.filter(submitted_by=profile)
        .order_by("submitted_at", "pk")
        .values(
            "pk",
            "match_id",
            "status",
            "ended_by",
            "submitted_at",
            "confirm_by",
            "confirmed_at",
            "discrepancy_turn",
            "discrepancy_note",
            "game_record",
        )
    ]


def _disputes(profile: PlayerProfile, theirs, when) -> list[dict]:
    """The disputes they raised and those of their matches' reports."""
    return [
        {
            "match": row["report__match_id"],
            "raised_by_you": row["raised_by_id"] == profile.pk,
            "scores": row["scores"],
            "turn": row["turn"],
            "scores_at_turn": row["scores_at_turn"],
            "note": row["note"],
            "raised_at": when(row["created_at"]),
            "resolution": row["resolution"],
            "reason": row["reason"],
            "resolved_at": when(row["resolved_at"]),
        }
        for row in Dispute.objects.filter(Q(raised_by=profile) | Q(report__match__in=theirs))
        .order_by("created_at", "pk")
        .values(
            "report__match_id",
            "raised_by_id",
            "scores",
            "turn",
            "scores_at_turn",
            "note",
            "created_at",
            "resolution",
            "reason",
            "resolved_at",
        )
    ]


def _proposals(profile: PlayerProfile, theirs, when) -> list[dict]:
    times = defaultdict(list)
    for row in (
        ProposedTime.objects.filter(proposal__match__in=theirs)
        .order_by("starts_at", "pk")
        .values("proposal_id", "starts_at")
    ):
        times[row["proposal_id"]].append(when(row["starts_at"]))
    return [
        {
            "match": row["match_id"],
            "proposed_by_you": row["proposed_by_id"] == profile.pk,
            "status": row["status"],
            "times": times[row["pk"]],
            "accepted_time": when(row["accepted_time"]),
            "proposed_at": when(row["created_at"]),
        }
        for row in ScheduleProposal.objects.filter(match__in=theirs)
        .order_by("created_at", "pk")
        .values("pk", "match_id", "proposed_by_id", "status", "accepted_time", "created_at")
    ]


def _contact_issues(profile: PlayerProfile, theirs, when) -> list[dict]:
    """Their can't-reach reports in full; an opponent's about them, when and how it ended."""
    issues = []
    for row in (
        ContactIssue.objects.filter(match__in=theirs)
        .order_by("created_at", "pk")
        .values("match_id", "reported_by_id", "attempts", "created_at", "resolved_at", "resolution")
    ):
        yours = row["reported_by_id"] == profile.pk
        issues.append(
            {
                "match": row["match_id"],
                "reported_by_you": yours,
                **({"attempts": row["attempts"]} if yours else {}),
                "reported_at": when(row["created_at"]),
                "resolved_at": when(row["resolved_at"]),
                "resolution": row["resolution"],
            }
        )
    return issues


def _audit(user: User, theirs, seat_users: dict[int, set[int]], when) -> list[dict]:
    """Every audit event of their matches, and any other they made."""

    def by(actor_id, match_id):
        if actor_id is None:
            return "the system"
        if actor_id == user.pk:
            return "you"
        return "another player" if actor_id in seat_users.get(match_id, ()) else "staff"

    return [
        {
            "match": row["match_id"],
            "at": when(row["created_at"]),
            "action": AUDIT_ACTIONS.get(row["action"], row["action"]),
            "by": by(row["actor_id"], row["match_id"]),
            "before": row["before"],
            "after": row["after"],
            "reason": row["reason"],
        }
        for row in AuditEvent.objects.filter(Q(actor=user) | Q(match__in=theirs))
        .order_by("created_at", "pk")
        .values("match_id", "created_at", "action", "actor_id", "before", "after", "reason")
    ]
