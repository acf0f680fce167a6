"""Every change to leagues, entries and rounds: keyword-only, one transaction, the acting user
checked, a DomainError on a broken rule."""

from datetime import date, timedelta

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from accounts import roles
from accounts.errors import NotEligible
from accounts.models import EligibilityStatus, PlayerProfile
from accounts.selectors import eligibility_of
from accounts.services import require_eligible
from core.errors import DomainError, NotAllowed
from matches.models import FINAL_STATUSES, Match
from matches.services import NewMatch, matches_create, withdrawal_forfeits

from .models import Entry, League, LeagueFormat, Round
from .pairing import round_robin
from .policies import join_refusal
from .refresh import refresh_leagues


class LeagueError(DomainError):
    pass


def _require_director(actor, league: League) -> None:
    if not roles.is_director_of(actor, league.season.institution):
        raise NotAllowed("Only the league's director can do that.")


def _lock(league: League) -> League:
    return (
        League.objects.select_for_update(of=("self",))
        .select_related("season__institution")
        .get(pk=league.pk)
    )


def _enter(
    league: League,
    player: PlayerProfile,
    *,
    today: date | None = None,
    by_director: bool = False,
    refresh: bool = True,
) -> Entry:
    """Add a player to a locked league, if `join_refusal` lets them (L10 and the league's limits)."""
    existing = Entry.objects.filter(league=league, player=player).first()
    eligibility = eligibility_of(player, league.season).status
    if player.is_guest:
        # A guest has no eligibility to look up: an open league admits them, a campus-only
        # league refuses them by name (L10, E4).
        require_eligible(profile=player, season=league.season, campus_only=league.campus_only)
        eligibility = EligibilityStatus.ELIGIBLE
    refusal = join_refusal(
        league,
        joined=existing is not None and existing.active,
        players=Entry.objects.filter(league=league, withdrawn_at__isnull=True).count(),
        started=league.started(league.rounds.exists()),
        eligibility=eligibility,
        today=today,
        enrolled_name=player.name if by_director else None,
    )
    if refusal:
        raise (NotEligible if refusal.not_eligible else LeagueError)(refusal.reason)
    if existing:  # rejoining after a withdrawal
        existing.withdrawn_at = None
        existing.withdrawn_reason = ""
        existing.joined_at = timezone.now()
        existing.save(update_fields=["withdrawn_at", "withdrawn_reason", "joined_at"])
        entry = existing
    else:
        entry = Entry.objects.create(league=league, player=player)
    if league.format == LeagueFormat.EVENT and entry.category_id is None:
        entry.category = league.categories.order_by("position", "id").first()
        entry.save(update_fields=["category"])
    if league.format in (LeagueFormat.CLUB, LeagueFormat.EVENT) and entry.player_number is None:
        number_entries(league)
        entry.refresh_from_db(fields=["player_number"])
    if refresh:  # every entry has a row in the standings (a batch refreshes once, at its end)
        refresh_leagues([league.pk])
    return entry


def number_entries(league: League) -> int:
    """Give every entry of a locked league that has no player number the next free one, in the
    order they joined (E3, E4). Numbers already given never change, so a number printed on a
    table list stays its entrant's. Returns how many were numbered."""
    unnumbered = list(
        Entry.objects.filter(league=league, player_number__isnull=True).order_by("joined_at", "id")
    )
    if not unnumbered:
        return 0
    last = Entry.objects.filter(league=league).aggregate(Max("player_number"))["player_number__max"]
    for number, entry in enumerate(unnumbered, start=(last or 0) + 1):
        entry.player_number = number
    Entry.objects.bulk_update(unnumbered, ["player_number"])
    return len(unnumbered)


def league_join(*, actor, league: League, today: date | None = None) -> Entry:
    """A student joins a league open for registration."""
    player = PlayerProfile.objects.filter(user=actor).select_related("institution", "user").first()
    if player is None or player.institution_id != league.season.institution_id:
        raise NotAllowed("Only students of the league's institution can join it.")
    with transaction.atomic():
        return _enter(_lock(league), player, today=today)


def entry_enrol(*, actor, league: League, player: PlayerProfile) -> Entry:
    """The director enrols a player (after the registration deadline too)."""
    with transaction.atomic():
        league = _lock(league)
        _require_director(actor, league)
        if player.institution_id != league.season.institution_id:
            raise LeagueError(f"{player.name} is not a student of {league.season.institution}.")
        return _enter(league, player, by_director=True)


def entry_withdraw(*, actor, entry: Entry, reason: str) -> int:
    """The director withdraws a player: their remaining matches become forfeits to their
    opponents. Returns how many matches were forfeited."""
    reason = (reason or "").strip()
    if not reason:
        raise LeagueError("A reason is required.")
    with transaction.atomic():
        league = _lock(entry.league)
        _require_director(actor, league)
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if not entry.active:
            raise LeagueError(f"{entry.player.name} has already withdrawn.")
        entry.withdrawn_at = timezone.now()
        entry.withdrawn_reason = reason
        entry.save(update_fields=["withdrawn_at", "withdrawn_reason"])
        forfeits = withdrawal_forfeits(
            actor=actor,
            player=entry.player,
            league=league,
            reason=f"{entry.player.name} withdrew: {reason}",
        )
        # Their row is marked withdrawn (or goes, if they never played), forfeits or none.
        refresh_leagues([league.pk])
        return forfeits


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
            league = _lock(league)
            _require_director(actor, league)
            forfeits += withdrawal_forfeits(
                actor=actor,
                player=player,
                league=league,
                reason=f"{player.name} was ruled ineligible for {season.name}.",
            )
    return forfeits


def rounds_generate(
    *, actor, league: League, first_play_by: date, allow_past: bool = False
) -> list[Round]:
    """The director draws the whole round robin (circle method): one round per
    `round_length_days`, each match with its deadline; with an odd count a bye each round. A
    first play-by date already past is refused (only the demo, building a season under way,
    passes `allow_past`)."""
    with transaction.atomic():
        league = _lock(league)
        _require_director(actor, league)
        if league.format != LeagueFormat.LEAGUE:
            raise LeagueError("Round robins are for leagues; a tournament gets a bracket.")
        if league.rounds.exists():
            raise LeagueError(f"{league} already has its rounds.")
        entries = list(
            Entry.objects.filter(league=league, withdrawn_at__isnull=True)
            .select_related("player__user")
            .order_by("seed", "joined_at", "id")
        )
        if len(entries) < 2:
            raise LeagueError("A round robin needs at least two players.")
        season = league.season
        today = season.institution.today()
        if first_play_by < today and not allow_past:
            # Round 1 would be overdue at once: its matches double forfeits that very night (L8).
            raise LeagueError(
                f"The first play-by date ({first_play_by:%b %-d}) has passed: choose "
                f"{today:%b %-d} or later."
            )
        if not season.starts_on <= first_play_by <= season.ends_on:
            raise LeagueError(f"The first play-by date must fall within {season.name}.")
        for entry in entries:
            require_eligible(profile=entry.player, season=season, campus_only=league.campus_only)
        schedule = round_robin([entry.player for entry in entries])
        last_play_by = first_play_by + timedelta(
            days=league.round_length_days * (len(schedule) - 1)
        )
        if last_play_by > season.ends_on:
            raise LeagueError(
                f"{len(schedule)} rounds of {league.round_length_days} days would end on {last_play_by:%b %-d}, "
                f"after {season.name} ends ({season.ends_on:%b %-d})."
            )
        rounds = Round.objects.bulk_create(
            [
                Round(
                    league=league,
                    number=number,
                    play_by=first_play_by + timedelta(days=league.round_length_days * (number - 1)),
                )
                for number in range(1, len(schedule) + 1)
            ]
        )
        matches_create(
            actor=actor,
            new=[
                NewMatch(round=round_, players=[p.pk for p in pair if p is not None])
                for round_, pairs in zip(rounds, schedule, strict=True)
                for pair in pairs
            ],
            reason="Round robin drawn",
        )
    return rounds
