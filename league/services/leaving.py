"""Leaving a league: a student withdraws, the director withdraws a player, and a player ruled
ineligible: their remaining matches become forfeits to their opponents; a place freed before
the draw goes to the first waiting."""

from django.db import transaction
from django.utils import timezone

from accounts.models import PlayerProfile
from core.errors import NotAllowed
from matches.models import FINAL_STATUSES, Match
from matches.services import withdrawal_forfeits

from ..models import Entry, League
from ..refresh import refresh_leagues
from .entries import LeagueError, give_places
from .staff import lock_league, require_staff


def _withdraw(league: League, entry: Entry, *, actor, reason: str, told: str, by_player: bool):
    """Withdraw an active entry of a locked league: its remaining matches become forfeits to
    the opponents; before the draw the place goes to the first waiting. Returns the forfeits."""
    started = league.started(league.rounds.exists())
    entry.withdrawn_at = timezone.now()
    entry.withdrawn_reason = reason
    entry.save(update_fields=["withdrawn_at", "withdrawn_reason"])
    forfeits = withdrawal_forfeits(
        actor=actor, player=entry.player, league=league, reason=told, by_player=by_player
    )
    if not started:
        give_places(league, actor=actor)
    # Their row is marked withdrawn (or goes, if they never played), forfeits or none.
    refresh_leagues([league.pk])
    return forfeits


def entry_withdraw(*, actor, entry: Entry, reason: str) -> int:
    """The director withdraws a player: their remaining matches become forfeits to their
    opponents. Returns how many matches were forfeited."""
    reason = (reason or "").strip()
    if not reason:
        raise LeagueError("A reason is required.")
    with transaction.atomic():
        league = lock_league(entry.league)
        require_staff(actor, league)
        entry = (
            Entry.objects.select_for_update(of=("self",))
            .select_related("player__user")
            .get(pk=entry.pk)
        )
        if not entry.active:
            raise LeagueError(f"{entry.player.name} has already withdrawn.")
        return _withdraw(
            league,
            entry,
            actor=actor,
            reason=reason,
            told=f"{entry.player.name} withdrew: {reason}",
            by_player=False,
        )


def remaining_games(entry: Entry) -> int:
    """The entry's matches not yet final: what withdrawing now turns into forfeits."""
    return (
        Match.objects.filter(league=entry.league_id, seats__player=entry.player_id)
        .exclude(status__in=FINAL_STATUSES)
        .count()
    )


def leave_warning(league: League, games: int) -> str:
    plural = "game becomes a forfeit" if games == 1 else "games become forfeits"
    return (
        f"Withdrawing from {league} now is for good: your remaining {games} {plural} to your "
        "opponents."
    )


def entry_leave(*, actor, entry: Entry, accept_forfeits: bool = False) -> int:
    """A student withdraws from a league themself. Before the draw at once, their place going
    to the first waiting; after it only with `accept_forfeits`, since their remaining games
    become forfeits to their opponents, as the director's withdrawal makes them. At a club or
    an event the front desk or the director marks who leaves (E3, E4), so it is refused there.
    Returns how many matches were forfeited."""
    with transaction.atomic():
        league = lock_league(entry.league)
        entry = (
            Entry.objects.select_for_update(of=("self",))
            .select_related("player__user")
            .get(pk=entry.pk)
        )
        if entry.player.user_id is None or entry.player.user_id != actor.pk:
            raise NotAllowed(
                "Only the player can withdraw themself; the director withdraws others."
            )
        if not league.students_withdraw:
            raise LeagueError(
                f"At {league} the front desk or the director marks who leaves: ask them."
            )
        if not entry.active:
            raise LeagueError(f"You have already withdrawn from {league}.")
        games = remaining_games(entry)
        if games and not accept_forfeits:
            raise LeagueError(leave_warning(league, games))
        return _withdraw(
            league,
            entry,
            actor=actor,
            reason="Withdrew themself",
            told=f"{entry.player.name} withdrew from {league}.",
            by_player=True,
        )


def ineligibility_forfeits(*, actor, player: PlayerProfile, season) -> int:
    """A player ruled ineligible for `season` (L10) cannot play on: each of their matches still
    open in the season's leagues becomes a forfeit to the opponent, as a withdrawal's does. Their
    entries stay, so a lifted ruling lets them play what is still to come. Called in the
    ruling's transaction (`receivers.settle_the_matches_of_an_ineligible_player`); the
    eligibility reason stays in the eligibility history, since both players see the match's."""
    still_open = (
        Match.objects.filter(league__season=season, seats__player=player)
        .exclude(status__in=FINAL_STATUSES)
        .values("league_id")
    )
    forfeits = 0
    with transaction.atomic():
        for league in League.objects.filter(pk__in=still_open).order_by("pk"):
            league = lock_league(league)
            require_staff(actor, league)
            forfeits += withdrawal_forfeits(
                actor=actor,
                player=player,
                league=league,
                reason=f"{player.name} was ruled ineligible for {season.name}.",
            )
    return forfeits
