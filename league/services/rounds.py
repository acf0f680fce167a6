"""Drawing a league's rounds (E1, L1): a round robin, one round a week."""

from dataclasses import dataclass
from datetime import date, timedelta

from django.db import transaction

from accounts.models import PlayerProfile
from accounts.services import require_eligible
from matches.services import NewMatch, matches_create

from ..models import Entry, League, LeagueFormat, Round
from ..notifications import tell
from ..pairing import round_robin
from .entries import LeagueError
from .staff import lock_league, require_staff


@dataclass(frozen=True)
class DrawPlan:
    """What drawing the round robin would make: each round's play-by date and its pairs (a
    pair with None is a bye), the players in the order they were seeded."""

    players: list[PlayerProfile]
    play_by: list[date]
    schedule: list[list[tuple]]

    @property
    def byes(self) -> int:
        return sum(1 for pairs in self.schedule for pair in pairs if None in pair)


def _draw_plan(league: League, first_play_by: date, *, allow_past: bool) -> DrawPlan:
    """The round robin for `league` from `first_play_by`, or LeagueError saying why not."""
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
    play_by = [
        first_play_by + timedelta(days=league.round_length_days * index)
        for index in range(len(schedule))
    ]
    if play_by[-1] > season.ends_on:
        raise LeagueError(
            f"{len(schedule)} rounds of {league.round_length_days} days would end on "
            f"{play_by[-1]:%b %-d}, after {season.name} ends ({season.ends_on:%b %-d})."
        )
    return DrawPlan(players=[entry.player for entry in entries], play_by=play_by, schedule=schedule)


def draw_preview(*, actor, league: League, first_play_by: date) -> DrawPlan:
    """What `rounds_generate` would draw, checked the same way, nothing written: the director
    sees it before confirming."""
    require_staff(actor, league)
    return _draw_plan(league, first_play_by, allow_past=False)


def rounds_generate(
    *, actor, league: League, first_play_by: date, allow_past: bool = False
) -> list[Round]:
    """The director draws the whole round robin (circle method): one round per
    `round_length_days`, each match with its deadline; with an odd count a bye each round. A
    first play-by date already past is refused (only the demo, building a season under way,
    passes `allow_past`)."""
    with transaction.atomic():
        league = lock_league(league)
        require_staff(actor, league)
        plan = _draw_plan(league, first_play_by, allow_past=allow_past)
        schedule = plan.schedule
        rounds = Round.objects.bulk_create(
            [
                Round(league=league, number=number, play_by=play_by)
                for number, play_by in enumerate(plan.play_by, start=1)
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
        # The draw closes the waitlist: those still waiting are told (their rows stay, so the
        # league's page says it started without them until they clear it).
        waiting = list(PlayerProfile.objects.filter(waiting__league=league).select_related("user"))
        tell(
            players=waiting,
            subject=f"{league} started without you",
            lines=[
                f"The rounds of {league} are drawn and no place came free before the draw: "
                "its waitlist is closed.",
                "The director can still enter you late if a round has a bye to give.",
            ],
            league=league,
        )
    return rounds
