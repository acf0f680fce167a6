"""The demo's leagues (E1): round robins of eight eligible students mid-season, their matches in
every state of their life (to schedule, scheduled, reported, disputed, can't reach, ruled), and
a league still open to join."""

from datetime import datetime, time, timedelta

from django.utils import timezone

from accounts.models import (
    EligibilityStatus,
    PlayerProfile,
)
from matches import services
from matches.models import Match, MatchStatus

from .models import League
from .services import entry_enrol, rounds_generate


def evening(institution, days: int, hour: int = 19) -> datetime:
    """7 p.m. on the campus's clock, `days` from today: when students play."""
    return datetime.combine(institution.today() + timedelta(days=days), time(hour), institution.tz)


def make_open_league(institution, season, director) -> None:
    """A league still open to join: five of its eight places taken, rounds not drawn yet."""
    league = League.objects.create(
        season=season,
        name="Wednesday Open League",
        slug="wednesday-open",
        venue=institution.default_venue,
        capacity=LEAGUE_SIZE,
    )
    eligible_students = PlayerProfile.objects.filter(
        eligibilities__season=season, eligibilities__status=EligibilityStatus.ELIGIBLE
    ).order_by("-campus_id")[:5]
    for profile in eligible_students:
        entry_enrol(actor=director, league=league, player=profile)


LEAGUE_SIZE = 8


def make_league(institution, season, director, number, rng) -> None:
    """A round robin of eight eligible students, started ten days ago, its matches in every
    state of the life of a match, all made through the real services."""
    league = League.objects.create(
        season=season,
        name="Tuesday Night League" if number == 1 else f"League {number}",
        slug="tuesday-night" if number == 1 else f"league-{number}",
        venue=institution.default_venue,
        turn_time_seconds=150,
    )
    eligible_students = list(
        PlayerProfile.objects.filter(
            eligibilities__season=season, eligibilities__status=EligibilityStatus.ELIGIBLE
        )
        .order_by("campus_id")
        .select_related("user")
    )
    start = ((number - 1) * LEAGUE_SIZE) % max(len(eligible_students) - LEAGUE_SIZE + 1, 1)
    for profile in eligible_students[start : start + LEAGUE_SIZE]:
        entry_enrol(actor=director, league=league, player=profile)
    rounds = rounds_generate(
        actor=director,
        league=league,
        first_play_by=institution.today() - timedelta(days=10),
        allow_past=True,  # the demo's season is already under way
    )
    _play_out(league, rounds, director, rng)


def _play_out(league, rounds, director, rng) -> None:
    def players(match):
        first, second = (seat.player for seat in match.seats.order_by("order"))
        return first, second

    def scores():
        winner = rng.randint(360, 480)
        return winner, winner - rng.randint(10, 120)

    # Rounds already past: confirmed, resolved disputes, forfeits, a double forfeit.
    for round_ in rounds[:2]:
        for index, match in enumerate(
            Match.objects.filter(round=round_).exclude(status=MatchStatus.BYE)
        ):
            first, second = players(match)
            before = match.deadline - timedelta(days=2)
            win, lose = scores()
            if index == 3 and round_.number == 2:
                services.rule(
                    actor=director,
                    match=match,
                    ruling=services.Ruling.DOUBLE_FORFEIT,
                    reason="Neither player reported",
                    now=before,
                )
                continue
            report = services.report_submit(
                actor=first.user, match=match, scores=[win, lose], now=before
            )
            if index == 2:
                dispute = services.report_dispute(
                    actor=second.user,
                    report=report,
                    scores=[win - 20, lose + 5],
                    turn=11,
                    note="Turn 11 was a 22-point play, not 42.",
                    now=before,
                )
                services.rule(
                    actor=director,
                    match=match,
                    dispute=dispute,
                    ruling=services.Ruling.AMEND,
                    reason="Score sheets compared: turn 11 was 22.",
                    scores=[win - 20, lose],
                    now=before + timedelta(hours=3),
                )
            elif index == 1 and round_.number == 1:
                services.rule(
                    actor=director,
                    match=match,
                    ruling=services.Ruling.FORFEIT,
                    forfeiting=[2],
                    reason="Opponent did not show",
                    now=before,
                )
            else:
                services.report_confirm(
                    actor=second.user, report=report, now=before + timedelta(hours=1)
                )
    # The current round: reported, disputed, can't reach, scheduled, a proposal waiting.
    now = timezone.now()
    current = (
        list(Match.objects.filter(round=rounds[2]).exclude(status=MatchStatus.BYE))
        if len(rounds) > 2
        else []
    )
    for index, match in enumerate(current):
        first, second = players(match)
        win, lose = scores()
        if index == 0:
            services.report_submit(actor=first.user, match=match, scores=[win, lose], now=now)
        elif index == 1:
            report = services.report_submit(
                actor=first.user, match=match, scores=[win, lose], now=now
            )
            services.report_dispute(
                actor=second.user,
                report=report,
                scores=[lose + 30, win],
                turn=7,
                scores_at_turn=[180, 201],
                note="Bingo on turn 7 was not counted.",
                now=now,
            )
        elif index == 2:
            services.contact_issue_report(
                actor=first.user,
                match=match,
                attempts="E-mailed Monday and Wednesday, texted Thursday: no answer.",
            )
        elif index == 3:
            when = evening(league.season.institution, days=1)
            proposal = services.proposal_create(
                actor=first.user, match=match, times=[when, when + timedelta(hours=2)]
            )
            services.proposal_accept(actor=second.user, proposal=proposal, starts_at=when)
    if len(rounds) > 3:
        match = Match.objects.filter(round=rounds[3]).exclude(status=MatchStatus.BYE).first()
        first, _ = players(match)
        when = evening(league.season.institution, days=3)
        services.proposal_create(
            actor=first.user, match=match, times=[when, when + timedelta(days=1)]
        )
