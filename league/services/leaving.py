"""Leaving a league: a student withdraws, the director withdraws a player, a player ruled
ineligible, a player forgotten (P4): their remaining matches become forfeits to their
opponents; a place freed before the draw goes to the first waiting."""

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from accounts import privacy
from accounts.models import Institution, PlayerProfile
from core.errors import NotAllowed
from matches.models import FINAL_STATUSES, Match
from matches.services import withdrawal_forfeits

from .. import formats
from ..models import Bracket, Entry, League, LeagueFormat, Round, WaitlistEntry
from ..refresh import refresh_leagues
from .entries import LeagueError, give_places
from .staff import lock_league, require_staff


def _withdraw(
    league: League,
    entry: Entry,
    *,
    actor,
    reason: str,
    told: str,
    by_player: bool,
    told_players: list[str] | None = None,
):
    """Withdraw an active entry of a locked league: its remaining matches become forfeits to
    the opponents; before the draw the place goes to the first waiting. Returns the forfeits.
    `told` is the forfeits' reason in the audit trail; `told_players` what the players read,
    where `by_player`'s words are not what happened."""
    started = league.started(league.rounds.exists())
    entry.withdrawn_at = timezone.now()
    entry.withdrawn_reason = reason
    entry.save(update_fields=["withdrawn_at", "withdrawn_reason"])
    forfeits = withdrawal_forfeits(
        actor=actor,
        player=entry.player,
        league=league,
        reason=told,
        by_player=by_player,
        told=told_players,
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


def forgotten_players_leave(*, profile_ids, actor=None) -> int:
    """Forgotten people (P4) leave what they were still to play, as a withdrawal leaves it:
    they wait for no place, and in each league or tournament not over their place goes (to the
    first waiting, before the draw) and their matches not yet final become forfeits to their
    opponents. What is over keeps them as it was, since results are the league's record, and so
    do clubs and events, where the desk marks who leaves (E3, E4). Called inside the forgetting's
    transaction once their rows are erased (`receivers.forgotten_players_leave_their_leagues`),
    so what it writes names them as former players and the outbox takes none of it for them.
    `actor` is who asked (none for the nightly's retention). Returns how many matches were
    forfeited."""
    ids = list(profile_ids)
    # First: a place one of them frees is never given to another of them.
    WaitlistEntry.objects.filter(player_id__in=ids).delete()
    forfeits = 0
    for entry_id, league_id in _entries_still_to_play(ids):
        league = lock_league(League(pk=league_id))
        entry = (
            Entry.objects.select_for_update(of=("self",)).select_related("player").get(pk=entry_id)
        )
        if not entry.active:  # withdrawn while this waited for the league's lock
            continue
        former = privacy.former_name(entry.player_id)
        forfeits += _withdraw(
            league,
            entry,
            actor=actor,
            reason="Forgotten",
            told=f"{former} left {league}.",
            by_player=False,
            told_players=[
                f"{former} left {league}: the match is a forfeit win for their opponent."
            ],
        )
    return forfeits


def _entries_still_to_play(profile_ids: list[int]) -> list[tuple[int, int]]:
    """(entry, league) of these players' active entries in leagues and tournaments they are
    still to play in, in league order (the order every lock is taken in): where a match of
    theirs is not yet final, or whose season has not ended and which is not over (not drawn
    yet, a match still open, or a bracket still to come or under way). One query for the
    leagues, one for the institutions' days, whatever the number of players."""
    season_on = Q(pk__in=[])
    for institution in Institution.objects.filter(profiles__pk__in=profile_ids).distinct():
        season_on |= Q(
            league__season__institution=institution,
            league__season__ends_on__gte=institution.today(),
        )
    league = OuterRef("league")
    not_final = Match.objects.exclude(status__in=FINAL_STATUSES)
    own_open = not_final.filter(league=league, seats__player=OuterRef("player"))
    over = (
        Exists(Round.objects.filter(league=league))
        & ~Exists(not_final.filter(league=league))
        & (
            Exists(Bracket.objects.filter(league=league, finished_at__isnull=False))
            | Q(league__format=LeagueFormat.LEAGUE, league__playoff_size__lt=2)
        )
    )
    return list(
        Entry.objects.filter(player_id__in=profile_ids, withdrawn_at__isnull=True)
        .exclude(league__format__in=formats.with_trait("open_entry"))
        .filter(Exists(own_open) | (season_on & ~over))
        .order_by("league_id", "id")
        .values_list("pk", "league_id")
    )
