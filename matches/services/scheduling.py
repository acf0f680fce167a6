"""Arranging a match (L1, L2, L4, L5): proposing and accepting times at the league's venue,
agreeing other equipment, telling the office the opponent cannot be reached."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.services import require_eligible

from ..models import ContactIssue, Match, MatchStatus, ProposedTime, ScheduleProposal
from ..notifications import notify
from ..policy import Action
from .kernel import (
    MatchError,
    audit,
    directors,
    local,
    lock,
    player_seat,
    require_allowed,
    seats_of,
    snapshot,
    tell_opponents,
)

MAX_PROPOSED_TIMES = 3


def proposal_create(*, actor, match: Match, times: list[datetime], now=None) -> ScheduleProposal:
    """A player proposes up to three times at the league's venue; any open proposal is replaced
    (a counter-proposal)."""
    now = now or timezone.now()
    with transaction.atomic():
        match = lock(match)
        seats = seats_of(match)
        seat = player_seat(actor, seats)
        require_allowed(Action.PROPOSE, match, seat, now)
        for other in seats:
            require_eligible(
                profile=other.player,
                season=match.league.season,
                campus_only=match.league.campus_only,
                drawn=True,
            )
        times = sorted(set(times))
        if not times:
            raise MatchError("Propose at least one time.")
        if len(times) > MAX_PROPOSED_TIMES:
            raise MatchError(f"Propose at most {MAX_PROPOSED_TIMES} times.")
        season = match.league.season
        tz = season.institution.tz
        for moment in times:
            if moment <= now:
                raise MatchError(f"{local(match, moment)} is in the past.")
            if moment > match.deadline:
                raise MatchError(f"{local(match, moment)} is after the match's deadline.")
            local_day = timezone.localtime(moment, tz).date()
            if not season.starts_on <= local_day <= season.ends_on:
                raise MatchError(f"{local(match, moment)} is outside the season ({season.name}).")
        ScheduleProposal.objects.filter(match=match, status=ScheduleProposal.Status.OPEN).update(
            status=ScheduleProposal.Status.SUPERSEDED
        )
        proposal = ScheduleProposal.objects.create(match=match, proposed_by=seat.player)
        ProposedTime.objects.bulk_create(
            [ProposedTime(proposal=proposal, starts_at=m) for m in times]
        )
        audit(match, actor, "proposal_created", {}, {"times": [m.isoformat() for m in times]})
        tell_opponents(
            match,
            seat,
            seats,
            f"{actor} proposed times for your match",
            [
                f"{actor} proposed {'a time' if len(times) == 1 else f'{len(times)} times'} "
                f"at {match.league.venue}:",
                *[f"  • {local(match, m)}" for m in times],
                "Accept one, or propose others.",
            ],
        )
    return proposal


def proposal_accept(*, actor, proposal: ScheduleProposal, starts_at: datetime, now=None) -> Match:
    now = now or timezone.now()
    with transaction.atomic():
        match = lock(proposal.match)
        proposal = ScheduleProposal.objects.select_for_update().get(pk=proposal.pk)
        seats = seats_of(match)
        seat = player_seat(actor, seats)
        if proposal.status != ScheduleProposal.Status.OPEN:
            raise MatchError("That proposal is no longer open: a newer one replaced it.")
        require_allowed(Action.ACCEPT, match, seat, now)
        if not proposal.times.filter(starts_at=starts_at).exists():
            raise MatchError("Pick one of the proposed times.")
        if starts_at <= now:
            raise MatchError("That time has passed: propose another.")
        for other in seats:
            require_eligible(
                profile=other.player,
                season=match.league.season,
                campus_only=match.league.campus_only,
                drawn=True,
            )
        before = snapshot(match, seats)
        proposal.status = ScheduleProposal.Status.ACCEPTED
        proposal.accepted_time = starts_at
        proposal.save(update_fields=["status", "accepted_time"])
        match.scheduled_at = starts_at
        match.venue = match.league.venue
        match.status = MatchStatus.SCHEDULED
        match.save(update_fields=["scheduled_at", "venue", "status"])
        audit(match, actor, "scheduled", before, snapshot(match, seats))
        tell_opponents(
            match,
            seat,
            seats,
            f"Match scheduled: {local(match, starts_at)}",
            [f"{actor} accepted {local(match, starts_at)} at {match.venue}."],
        )
    return match


def equipment_agree(*, actor, match: Match, description: str = "") -> Match:
    """Another dictionary or board instead of the league's (L4): it holds only once every
    player has agreed. A player proposes it (a different proposal replaces the one waiting);
    each other player agrees to the proposal as written; the last agreement records it."""
    description = " ".join((description or "").split())[:200]
    with transaction.atomic():
        match = lock(match)
        seats = seats_of(match)
        seat = player_seat(actor, seats)
        require_allowed(Action.AGREE_EQUIPMENT, match, seat, timezone.now())
        proposal = description or match.equipment_proposed
        if not proposal:
            raise MatchError("Say which dictionary or board you propose to use.")
        before = {
            "agreed_equipment": match.agreed_equipment,
            "equipment_proposed": match.equipment_proposed,
            "equipment_agreed_by": list(match.equipment_agreed_by),
        }
        if proposal != match.equipment_proposed:
            match.equipment_proposed = proposal
            match.equipment_agreed_by = [seat.player_id]
        elif seat.player_id not in match.equipment_agreed_by:
            match.equipment_agreed_by = [*match.equipment_agreed_by, seat.player_id]
        everyone = {other.player_id for other in seats}
        settled = everyone <= set(match.equipment_agreed_by)
        if settled:
            match.agreed_equipment = proposal
            match.equipment_proposed = ""
            match.equipment_agreed_by = []
        match.save(update_fields=["agreed_equipment", "equipment_proposed", "equipment_agreed_by"])
        after = {
            "agreed_equipment": match.agreed_equipment,
            "equipment_proposed": match.equipment_proposed,
            "equipment_agreed_by": list(match.equipment_agreed_by),
        }
        action = "equipment_agreed" if settled else "equipment_proposed"
        audit(match, actor, action, before, after)
        if settled:
            tell_opponents(
                match,
                seat,
                seats,
                "Equipment agreed for your match",
                [f"You all agreed to use: {match.agreed_equipment}."],
            )
        else:
            tell_opponents(
                match,
                seat,
                seats,
                "Another dictionary or board proposed for your match",
                [
                    f"{actor} proposes to use: {proposal}.",
                    "It holds only if you agree too: say so on the match page.",
                ],
            )
    return match


def contact_issue_report(*, actor, match: Match, attempts: str) -> ContactIssue:
    """ "I can't reach my opponent" (L5): the match waits for the director's decision."""
    attempts = (attempts or "").strip()
    if len(attempts) < 10:
        raise MatchError("Describe the attempts you made to reach your opponent (when, and how).")
    with transaction.atomic():
        match = lock(match)
        seats = seats_of(match)
        seat = player_seat(actor, seats)
        require_allowed(Action.REPORT_CONTACT, match, seat, timezone.now())
        issue = ContactIssue.objects.create(match=match, reported_by=seat.player, attempts=attempts)
        audit(match, actor, "contact_issue_reported", {}, {"attempts": attempts})
        notify(
            recipients=directors(match),
            subject="Can't reach opponent",
            lines=[
                f"{actor} cannot reach their opponent in {match.league}.",
                f"Attempts: {attempts}",
            ],
            match=match,
            link=f"/admin/matches/contactissue/{issue.pk}/change/",
        )
        # The opponent hears it too: often the nudge that gets the game played, and no one
        # should learn of a forfeit they never saw coming.
        tell_opponents(
            match,
            seat,
            seats,
            "Your opponent can't reach you",
            [
                f"{actor} told the director they could not reach you about your match in "
                f"{match.league}.",
                f"What they tried: {attempts}",
                "Reply to them or propose times on the match page; the director decides the "
                "match otherwise.",
            ],
        )
    return issue
