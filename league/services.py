"""Every change to leagues, entries and rounds: keyword-only, one transaction, the acting user
checked, a DomainError on a broken rule."""

from datetime import date, timedelta

from django.db import transaction
from django.utils import timezone

from accounts import roles
from accounts.errors import DomainError, PermissionDenied
from accounts.models import PlayerProfile
from accounts.services import require_eligible
from matches.models import Match, MatchStatus, Outcome, Seat
from matches.services import match_deadline, withdrawal_forfeits

from .models import Entry, League, LeagueFormat, Round
from .pairing import round_robin
from .refresh import refresh_leagues


class LeagueError(DomainError):
    pass


def _require_director(actor, league: League) -> None:
    if not roles.is_director_of(actor, league.season.institution):
        raise PermissionDenied("Only the league's director can do that.")


def _lock(league: League) -> League:
    return (
        League.objects.select_for_update(of=("self",))
        .select_related("season__institution")
        .get(pk=league.pk)
    )


def _enter(league: League, player: PlayerProfile) -> Entry:
    """Add a player to a locked league: eligible (L10), not yet in, a place left."""
    require_eligible(profile=player, season=league.season)
    existing = Entry.objects.filter(league=league, player=player).first()
    if existing and existing.active:
        raise LeagueError(f"{player.user} is already in {league}.")
    active = Entry.objects.filter(league=league, withdrawn_at__isnull=True).count()
    if active >= league.capacity:
        raise LeagueError(f"{league} is full ({league.capacity} players).")
    if league.rounds.exists():
        raise LeagueError(f"{league} has started: its rounds are already drawn.")
    if existing:  # rejoining after a withdrawal
        existing.withdrawn_at = None
        existing.withdrawn_reason = ""
        existing.joined_at = timezone.now()
        existing.save(update_fields=["withdrawn_at", "withdrawn_reason", "joined_at"])
        entry = existing
    else:
        entry = Entry.objects.create(league=league, player=player)
    refresh_leagues([league.pk])  # every entry has a row in the standings
    return entry


def league_join(*, actor, league: League, today: date | None = None) -> Entry:
    """A student joins a league open for registration."""
    player = PlayerProfile.objects.filter(user=actor).select_related("institution", "user").first()
    if player is None or player.institution_id != league.season.institution_id:
        raise PermissionDenied("Only students of the league's institution can join it.")
    with transaction.atomic():
        league = _lock(league)
        if not league.registration_open(today):
            raise LeagueError(
                f"Registration for {league} closed on {league.season.registration_deadline:%b %-d}."
            )
        return _enter(league, player)


def entry_enrol(*, actor, league: League, player: PlayerProfile) -> Entry:
    """The director enrols a player (after the registration deadline too)."""
    with transaction.atomic():
        league = _lock(league)
        _require_director(actor, league)
        if player.institution_id != league.season.institution_id:
            raise LeagueError(f"{player.user} is not a student of {league.season.institution}.")
        return _enter(league, player)


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
            raise LeagueError(f"{entry.player.user} has already withdrawn.")
        entry.withdrawn_at = timezone.now()
        entry.withdrawn_reason = reason
        entry.save(update_fields=["withdrawn_at", "withdrawn_reason"])
        forfeits = withdrawal_forfeits(
            actor=actor,
            player=entry.player,
            league=league,
            reason=f"{entry.player.user} withdrew: {reason}",
        )
        # Their row is marked withdrawn (or goes, if they never played), forfeits or none.
        refresh_leagues([league.pk])
        return forfeits


def rounds_generate(*, actor, league: League, first_play_by: date) -> list[Round]:
    """The director draws the whole round robin (circle method): one round per
    `round_length_days`, each match with its deadline; with an odd count a bye each round."""
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
        if not season.starts_on <= first_play_by <= season.ends_on:
            raise LeagueError(f"The first play-by date must fall within {season.name}.")
        for entry in entries:
            require_eligible(profile=entry.player, season=season)
        schedule = round_robin([entry.player for entry in entries])
        last_play_by = first_play_by + timedelta(
            days=league.round_length_days * (len(schedule) - 1)
        )
        if last_play_by > season.ends_on:
            raise LeagueError(
                f"{len(schedule)} rounds of {league.round_length_days} days would end on {last_play_by:%b %-d}, "
                f"after {season.name} ends ({season.ends_on:%b %-d})."
            )
        tz = season.institution.tz
        now = timezone.now()
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
        matches, pairs_of = [], []
        for round_, pairs in zip(rounds, schedule, strict=True):
            deadline = match_deadline(
                play_by=round_.play_by, report_window_days=league.report_window_days, tz=tz
            )
            for first, second in pairs:
                bye = second is None
                matches.append(
                    Match(
                        league=league,
                        round=round_,
                        deadline=deadline,
                        status=MatchStatus.BYE if bye else MatchStatus.UNSCHEDULED,
                        venue=league.venue,
                        finalised_at=now if bye else None,
                    )
                )
                pairs_of.append((first, second))
        Match.objects.bulk_create(matches)
        seats = []
        for match, (first, second) in zip(matches, pairs_of, strict=True):
            if second is None:
                seats.append(Seat(match=match, order=1, player=first, outcome=Outcome.BYE))
            else:
                seats += [
                    Seat(match=match, order=1, player=first),
                    Seat(match=match, order=2, player=second),
                ]
        Seat.objects.bulk_create(seats)
    return rounds
