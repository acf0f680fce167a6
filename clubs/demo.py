"""The demo's club (E4, G9): three past club nights with tables of four and three in every state,
and one tonight, all through the real services, as the front desk, the director and the
scorekeepers would. It meets weekly on the weekday the demo is loaded, and is named for it: a
demo loaded on a Saturday has the Saturday Scrabble Club, its nights on Saturdays."""

import random
from datetime import datetime, time, timedelta

from django.utils import timezone

from accounts.models import EligibilityStatus, PlayerProfile
from league.models import ChallengeRule, League, LeagueFormat, Round
from league.services import entry_enrol
from matches import services as match_services
from matches.models import Match

from . import services as club

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
CLUB_SIZE = 10
# How many members come each night: 7 sit at a four and a three, 8 at two fours, 6 at two
# threes (seating.table_sizes); tonight 7 again.
ATTENDANCE = [7, 8, 6, 7]


def _evening(institution, day) -> datetime:
    """7 p.m. on `day` in the institution's time zone: when the club meets."""
    return timezone.make_aware(datetime.combine(day, time(19, 0)), institution.tz)


def make_club(institution, season, director, desk, rng: random.Random) -> League:
    members = list(
        PlayerProfile.objects.filter(
            eligibilities__season=season, eligibilities__status=EligibilityStatus.ELIGIBLE
        )
        .order_by("-campus_id")
        .select_related("user")[:CLUB_SIZE]
    )
    today = institution.today()
    league = League.objects.create(
        season=season,
        # Tonight is one of its nights, so it meets on today's weekday and says so.
        name=f"{WEEKDAYS[today.weekday()]} Scrabble Club",
        slug="scrabble-club",
        format=LeagueFormat.CLUB,
        venue=institution.default_venue,
        challenge_rule=ChallengeRule.CLUB_BONUS_TO_CHALLENGER,
    )
    for member in members:
        entry_enrol(actor=director, league=league, player=member)
    nights = [
        Round.objects.create(league=league, number=n, play_by=today - timedelta(days=7 * (4 - n)))
        for n in range(1, 5)
    ]
    for night, present in zip(nights, ATTENDANCE, strict=True):
        if len(members) < present:
            break
        start = _evening(institution, night.play_by)
        for member in rng.sample(members, present):
            club.check_in(actor=desk, round=night, player=member, now=start)
        tables = club.seat_night(actor=director, round=night, seed=night.number, now=start)
        _play_night(night, tables, director, rng, start, tonight=night.number == 4)
    return league


def _scores(rng, seats: int) -> list[int]:
    return [rng.randint(230, 430) for _ in range(seats)]


def _play_night(night, tables: list[Match], director, rng, start, *, tonight: bool) -> None:
    """Past nights: each table in another state of a table's life; tonight: one reported from a
    phone, the others still playing."""
    after = start + timedelta(hours=2)
    for index, table in enumerate(tables):
        seats = list(table.seats.order_by("order").select_related("player__user"))
        keeper = seats[table.scorekeeper - 1].player.user
        scores = _scores(rng, len(seats))
        if tonight:
            if index == 0:
                # Reported once the table has played (the demo may be seeded before 7 p.m.).
                match_services.report_submit(
                    actor=keeper, match=table, scores=scores, now=max(timezone.now(), after)
                )
            continue
        state = (night.number + index) % 4
        if state == 0:  # the scorekeeper's phone report, every other seat confirms
            report = match_services.report_submit(
                actor=keeper, match=table, scores=scores, now=after
            )
            for seat in seats[1:]:
                match_services.report_confirm(actor=seat.player.user, report=report, now=after)
        elif state == 1:  # the card handed in at the desk, entered by the director
            match_services.card_enter(actor=director, match=table, scores=scores, now=after)
        elif state == 2:  # one seat disputes; the director amends
            report = match_services.report_submit(
                actor=keeper, match=table, scores=scores, now=after
            )
            theirs = [scores[0] - 20, *scores[1:]]
            dispute = match_services.report_dispute(
                actor=seats[-1].player.user,
                report=report,
                scores=theirs,
                turn=9,
                note="The scorekeeper's turn 9 was 20 points less.",
                now=after,
            )
            match_services.rule(
                actor=director,
                match=table,
                dispute=dispute,
                ruling=match_services.Ruling.AMEND,
                reason="Score sheet checked at the table: turn 9 was 20 less.",
                scores=theirs,
                now=after + timedelta(hours=1),
            )
        # state 3: nobody reported; closing the night makes it a double forfeit (G9)
    if not tonight:
        club.close_night(
            actor=director, round=night, reason="Night over", now=start + timedelta(hours=4)
        )
