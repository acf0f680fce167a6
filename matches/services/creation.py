"""Creating matches and their seats: the one place it happens (round robins, brackets, the demo
and scale generator, the tests), each match with a "created" audit event.

Callers are league services that have already checked the acting user's rights (drawing rounds
is the director's; a bracket is drawn by the nightly job) and hold their own transaction; this
writes in bulk, so the scale generator's 200,000 matches come through here too.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from core.errors import DomainError

from ..deadlines import match_deadline
from ..models import AuditEvent, Match, MatchStatus, Outcome, Seat
from ..results import placements
from .kernel import MatchError, audit, lock, seats_of, snapshot, tell_players


@dataclass
class NewMatch:
    """A match to create. `round` is a league Round (its league, number and play-by date);
    `players` are PlayerProfile ids in seat order, which stands for the draw for first play
    (G9); one player is a bye. The other fields are for generated data that starts later in
    a match's life: `scores` and `outcomes` per seat."""

    round: object
    players: Sequence[int]
    status: str = MatchStatus.UNSCHEDULED
    scheduled_at: datetime | None = None
    finalised_at: datetime | None = None
    scores: Sequence[int | None] | None = None
    outcomes: Sequence[str] | None = None
    scorekeeper: int = 1  # the seat that keeps score where the table has one (G9)
    table: int | None = None  # the table's number at a club night or event round


MAX_SEATS = 4


def check_table(players: Sequence[int], scorekeeper: int = 1) -> None:
    """One to four seats (one: a bye), nobody seated twice, the scorekeeper one of them (G9)."""
    if not 1 <= len(players) <= MAX_SEATS:
        raise DomainError(
            f"A table seats two to {MAX_SEATS} players (one for a bye), not {len(players)}."
        )
    if len(set(players)) != len(players):
        raise DomainError("The same player cannot take two seats at one table.")
    if not 1 <= scorekeeper <= len(players):
        raise DomainError(f"The scorekeeper must be one of the {len(players)} seats.")


def matches_create(
    *, actor, new: Sequence[NewMatch], reason: str = "", now=None, batch_size: int = 5000
) -> list[Match]:
    """Create the matches with their seats and a "created" audit event each; returns them in
    the order given. Each deadline is the end of its round's play-by date in the institution's
    time zone, plus the league's report window."""
    now = now or timezone.now()
    deadlines: dict[int, datetime] = {}
    matches = []
    for item in new:
        check_table(item.players, item.scorekeeper)
        league = item.round.league
        key = id(item.round)
        if key not in deadlines:
            deadlines[key] = match_deadline(
                play_by=item.round.play_by,
                report_window_days=league.report_window_days,
                tz=league.season.institution.tz,
            )
        bye = len(item.players) == 1
        matches.append(
            Match(
                league=league,
                round=item.round,
                deadline=deadlines[key],
                status=MatchStatus.BYE if bye else item.status,
                venue=league.venue,
                scheduled_at=item.scheduled_at,
                finalised_at=now if bye else item.finalised_at,
                scorekeeper=item.scorekeeper,
                table=item.table,
                created_at=now,
            )
        )
    Match.objects.bulk_create(matches, batch_size=batch_size)
    seats = []
    for match, item in zip(matches, new, strict=True):
        played = item.scores and None not in item.scores
        places = placements(item.scores) if played else [None] * len(item.players)
        for index, player_id in enumerate(item.players):
            seats.append(
                Seat(
                    match=match,
                    order=index + 1,
                    player_id=player_id,
                    score=item.scores[index] if item.scores else None,
                    place=places[index],
                    outcome=Outcome.BYE
                    if match.status == MatchStatus.BYE
                    else (item.outcomes[index] if item.outcomes else ""),
                )
            )
    Seat.objects.bulk_create(seats, batch_size=batch_size)
    who = actor if actor is not None and actor.is_authenticated else None
    AuditEvent.objects.bulk_create(
        [
            AuditEvent(
                match=match,
                actor=who,
                action="created",
                before={},
                after={"status": match.status, "players": list(item.players)}
                | ({"table": item.table} if item.table else {}),
                reason=reason,
                created_at=now,
            )
            for match, item in zip(matches, new, strict=True)
        ],
        batch_size=batch_size,
    )
    return matches


def match_create(*, actor, round, players: Sequence[int], reason: str = "", now=None) -> Match:
    """One match (a bracket's next game, a test's): `matches_create` for one."""
    return matches_create(
        actor=actor, new=[NewMatch(round=round, players=players)], reason=reason, now=now
    )[0]


def bye_fill(*, actor, match: Match, player, reason: str, now=None) -> Match:
    """A bye becomes a game: `player` (a late entry to the league) takes the empty second seat,
    and the match is open to schedule and report until its deadline, as any other. Callers are
    league services that checked the actor's rights and hold their transaction. Both players
    are told, whatever their preferences: the bye's holder now has a game to play."""
    now = now or timezone.now()
    match = lock(match)
    seats = seats_of(match)
    if match.status != MatchStatus.BYE or len(seats) != 1:
        raise MatchError("Only a bye can take a late entrant.")
    before = snapshot(match, seats)
    holder = seats[0]
    holder.outcome = ""
    holder.save(update_fields=["outcome"])
    seats.append(Seat.objects.create(match=match, order=2, player=player))
    match.status = MatchStatus.UNSCHEDULED
    match.finalised_at = None
    match.save(update_fields=["status", "finalised_at"])
    audit(match, actor, "bye_filled", before, snapshot(match, seats), reason)
    tell_players(
        match,
        seats,
        f"Round {match.round.number}: a game instead of the bye",
        [
            f"{player.name} joined {match.league} late and plays {holder.player.name} in round "
            f"{match.round.number}, which was {holder.player.name}'s bye.",
            "Agree a time on the match page and play by the round's play-by date.",
        ],
    )
    return match


def seat_add(*, actor, match: Match, player, reason: str, now=None) -> Match:
    """A latecomer joins a table that has not started (G9, E4): they take the table's last
    seat, so they play last. Only a table still open, with no report and a free seat, takes
    one; callers are services that checked the actor's rights and hold their transaction."""
    now = now or timezone.now()
    match = lock(match)
    seats = seats_of(match)
    if match.status not in (MatchStatus.UNSCHEDULED, MatchStatus.SCHEDULED):
        raise MatchError(f"Table {match.table} has a result: nobody joins it now.")
    if match.reports.exists():
        raise MatchError(f"Table {match.table} has reported: nobody joins it now.")
    if len(seats) >= MAX_SEATS:
        raise MatchError(f"Table {match.table} is full ({MAX_SEATS} seats).")
    if any(seat.player_id == player.pk for seat in seats):
        raise MatchError(f"{player.name} already sits at table {match.table}.")
    before = snapshot(match, seats)
    seats.append(Seat.objects.create(match=match, order=len(seats) + 1, player=player))
    audit(match, actor, "seat_added", before, snapshot(match, seats), reason)
    return match
