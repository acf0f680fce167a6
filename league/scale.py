"""Large data sets for measurement (`seed_demo --matches N`): leagues of a large institution with
their rounds and matches in every state, written with bulk inserts in batches of leagues so
memory stays flat. What the nightly job has to do is in it too: unreported matches past their
deadline and reports past their confirmation window.

Bulk rows skip the audit trail and the e-mails that the services would write: this is data for
timing, not history.
"""

import math
import random
from collections.abc import Callable
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from matches.deadlines import match_deadline
from matches.models import (
    Dispute,
    Match,
    MatchStatus,
    Outcome,
    ReportStatus,
    ResultReport,
    Seat,
)

from .models import Entry, League, Round
from .pairing import round_robin

LEAGUES_PER_BATCH = 10
# Share of the past rounds' matches in each state; the rest are confirmed.
PAST_STATES = [
    (0.05, MatchStatus.DOUBLE_FORFEIT),
    (0.02, MatchStatus.FORFEIT),
    (0.03, MatchStatus.RESOLVED),
    (0.02, MatchStatus.DISPUTED),
]


def bulk_leagues(
    *,
    institution,
    season,
    players: list,
    leagues: int,
    matches: int,
    rng: random.Random,
    first_number: int = 2,
    progress: Callable[[str, int, int], None] | None = None,
) -> int:
    """`leagues` round-robin leagues sharing `players` (profile ids, eligible), about `matches`
    matches in all. Returns the number of matches made."""
    say = progress or (lambda step, done, total: None)
    size = max(4, (len(players) // leagues) // 2 * 2)
    rounds_per_league = max(1, math.ceil(matches / (leagues * size // 2)))
    rounds_per_league = min(rounds_per_league, size - 1)
    made = 0
    for start in range(0, leagues, LEAGUES_PER_BATCH):
        numbers = range(start, min(start + LEAGUES_PER_BATCH, leagues))
        with transaction.atomic():
            made += _batch(
                institution, season, players, numbers, size, rounds_per_league, rng, first_number
            )
        say("matches", made, leagues * rounds_per_league * size // 2)
    return made


def _batch(institution, season, players, numbers, size, rounds_count, rng, first_number) -> int:
    today = institution.today()
    now = timezone.now()
    tz = institution.tz
    new_leagues = League.objects.bulk_create(
        [
            League(
                season=season,
                name=f"League {first_number + n}",
                slug=f"league-{first_number + n}",
                venue=institution.default_venue or "Games Room",
                capacity=max(size, 2),
            )
            for n in numbers
        ]
    )
    # About 60% of the rounds are over (the last of them due yesterday), one is current, the rest ahead.
    past = max(1, int(rounds_count * 0.6))
    first_play_by = today - timedelta(days=7 * (past - 1) + 1)
    entries, rounds, match_rows, pairs = [], [], [], []
    for league, n in zip(new_leagues, numbers, strict=True):
        offset = (n * size) % max(len(players) - size + 1, 1)
        members = players[offset : offset + size]
        entries += [Entry(league=league, player_id=p) for p in members]
        for number, round_pairs in enumerate(round_robin(members)[:rounds_count], start=1):
            play_by = first_play_by + timedelta(days=7 * (number - 1))
            round_ = Round(league=league, number=number, play_by=play_by)
            rounds.append(round_)
            deadline = match_deadline(
                play_by=play_by, report_window_days=league.report_window_days, tz=tz
            )
            for a, b in round_pairs:
                status, when = _state(rng, number, past, deadline, now)
                match_rows.append(
                    Match(
                        league=league,
                        round=round_,
                        deadline=deadline,
                        status=status,
                        venue=league.venue,
                        scheduled_at=when,
                        finalised_at=deadline if status in _FINAL else None,
                    )
                )
                pairs.append((a, b))
    Entry.objects.bulk_create(entries, batch_size=5000)
    Round.objects.bulk_create(rounds, batch_size=5000)
    for match in match_rows:
        match.round_id = match.round.pk
    Match.objects.bulk_create(match_rows, batch_size=5000)
    seats, reports = [], []
    for match, (a, b) in zip(match_rows, pairs, strict=True):
        seats += _seats(match, a, b, rng)
        report = _report(match, a, rng)
        if report:
            reports.append(report)
    Seat.objects.bulk_create(seats, batch_size=5000)
    ResultReport.objects.bulk_create(reports, batch_size=5000)
    Dispute.objects.bulk_create(
        [
            Dispute(
                report=r,
                raised_by_id=r.match.seats_cache[1],
                first_score=r.second_score,
                second_score=r.first_score,
                turn=rng.randint(3, 20),
                note="Score sheets disagree.",
                created_at=r.submitted_at + timedelta(hours=5),
                **(
                    {
                        "resolution": "amended",
                        "reason": "Sheets compared",
                        "resolved_at": r.submitted_at + timedelta(days=1),
                    }
                    if r.match.status == MatchStatus.RESOLVED
                    else {}
                ),
            )
            for r in reports
            if r.match.status in (MatchStatus.DISPUTED, MatchStatus.RESOLVED)
        ],
        batch_size=5000,
    )
    return len(match_rows)


_FINAL = {
    MatchStatus.CONFIRMED,
    MatchStatus.RESOLVED,
    MatchStatus.FORFEIT,
    MatchStatus.DOUBLE_FORFEIT,
}


def _state(rng, number, past, deadline, now):
    """A match's status and scheduled time from its round: over, current, or ahead."""
    roll = rng.random()
    if number < past:
        edge = 0.0
        for share, status in PAST_STATES:
            edge += share
            if roll < edge:
                return status, None
        return MatchStatus.CONFIRMED, deadline - timedelta(days=2)
    if number == past:  # due yesterday: the night's work
        if roll < 0.15:
            return MatchStatus.UNSCHEDULED, None  # to be forfeited (L8)
        if roll < 0.45:
            return MatchStatus.REPORTED, deadline - timedelta(
                days=3
            )  # window over: to be confirmed
        return MatchStatus.CONFIRMED, deadline - timedelta(days=2)
    if number == past + 1:  # this week's round
        if roll < 0.2:
            return MatchStatus.REPORTED, now - timedelta(hours=5)
        if roll < 0.5:
            return MatchStatus.SCHEDULED, now + timedelta(days=2)
        return MatchStatus.UNSCHEDULED, None
    return MatchStatus.UNSCHEDULED, None


def _scores(rng):
    winner = rng.randint(330, 520)
    return winner, winner - rng.randint(5, 150)


def _seats(match, a, b, rng) -> list[Seat]:
    match.seats_cache = (a, b)
    first = Seat(match=match, order=1, player_id=a)
    second = Seat(match=match, order=2, player_id=b)
    status = match.status
    if status in (MatchStatus.CONFIRMED, MatchStatus.RESOLVED):
        win, lose = _scores(rng)
        match.scores_cache = (win, lose)
        first.score, first.outcome, second.score, second.outcome = (
            win,
            Outcome.WIN,
            lose,
            Outcome.LOSS,
        )
    elif status == MatchStatus.FORFEIT:
        first.outcome, second.outcome = Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS
    elif status == MatchStatus.DOUBLE_FORFEIT:
        first.outcome = second.outcome = Outcome.DOUBLE_FORFEIT
    elif status in (MatchStatus.REPORTED, MatchStatus.DISPUTED):
        match.scores_cache = _scores(rng)
    return [first, second]


def _report(match, a, rng) -> ResultReport | None:
    status = match.status
    if status not in (
        MatchStatus.CONFIRMED,
        MatchStatus.RESOLVED,
        MatchStatus.REPORTED,
        MatchStatus.DISPUTED,
    ):
        return None
    win, lose = match.scores_cache
    submitted = (match.scheduled_at or match.deadline) + timedelta(hours=2)
    if status == MatchStatus.REPORTED:
        # This week's reports are still in their window; last week's are past it.
        confirm_by = submitted + timedelta(hours=48)
        report_status = ReportStatus.PENDING
    else:
        confirm_by = submitted + timedelta(hours=48)
        report_status = {
            MatchStatus.CONFIRMED: ReportStatus.CONFIRMED,
            MatchStatus.RESOLVED: ReportStatus.CONFIRMED,
            MatchStatus.DISPUTED: ReportStatus.DISPUTED,
        }[status]
    return ResultReport(
        match=match,
        submitted_by_id=a,
        status=report_status,
        first_score=win,
        second_score=lose,
        submitted_at=submitted,
        confirm_by=confirm_by,
        confirmed_at=confirm_by if report_status == ReportStatus.CONFIRMED else None,
    )
