"""Large data sets for measurement (`seed_demo --matches N`): leagues of a large institution with
their rounds and matches in every state, written with bulk inserts in batches of leagues so
memory stays flat. What the nightly job has to do is in it too: unreported matches past their
deadline and reports past their confirmation window.

Matches and seats come from the one service that creates them (`matches_create`, in bulk, with
their "created" audit event); the reports, disputes and results of a match's later life are
written straight in bulk, without the e-mails the services would send: this is data for timing.
"""

import math
import random
from collections.abc import Callable
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone

from accounts.models import EligibilityStatus, PlayerProfile
from matches.deadlines import match_deadline
from matches.models import (
    Dispute,
    MatchStatus,
    Outcome,
    ReportScore,
    ReportStatus,
    ResultReport,
)
from matches.services import NewMatch, matches_create

from .models import Entry, League, Round
from .pairing import round_robin
from .refresh import refresh_leagues

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
    slug_prefix: str = "",
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
                institution,
                season,
                players,
                numbers,
                size,
                rounds_per_league,
                rng,
                first_number,
                slug_prefix,
            )
        say("matches", made, leagues * rounds_per_league * size // 2)
    return made


def _batch(
    institution, season, players, numbers, size, rounds_count, rng, first_number, slug_prefix
) -> int:
    today = institution.today()
    now = timezone.now()
    tz = institution.tz
    new_leagues = League.objects.bulk_create(
        [
            League(
                season=season,
                campus=institution,
                name=f"League {first_number + n}",
                slug=f"{slug_prefix}league-{first_number + n}",
                venue=institution.default_venue or "Games Room",
                capacity=max(size, 2),
            )
            for n in numbers
        ]
    )
    # About 60% of the rounds are over (the last of them due yesterday), one is current, the rest ahead.
    past = max(1, int(rounds_count * 0.6))
    first_play_by = today - timedelta(days=7 * (past - 1) + 1)
    entries, rounds, new, reported = [], [], [], []
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
                scores, outcomes, result = _result(status, rng)
                new.append(
                    NewMatch(
                        round=round_,
                        players=(a, b),
                        status=status,
                        scheduled_at=when,
                        finalised_at=deadline if status in _FINAL else None,
                        scores=scores,
                        outcomes=outcomes,
                    )
                )
                reported.append(result)
    Entry.objects.bulk_create(entries, batch_size=5000)
    Round.objects.bulk_create(rounds, batch_size=5000)
    match_rows = matches_create(actor=None, new=new, reason="Generated by seed_demo", now=now)
    reports = [
        _report(match, item.players, result)
        for match, item, result in zip(match_rows, new, reported, strict=True)
        if result is not None
    ]
    ResultReport.objects.bulk_create(reports, batch_size=5000)
    ReportScore.objects.bulk_create(
        [line for r in reports for line in _report_lines(r)], batch_size=5000
    )
    Dispute.objects.bulk_create(
        [
            Dispute(
                report=r,
                league_id=r.match.league_id,
                raised_by_id=r.opponent_id,
                scores=list(reversed(r.scores_given)),
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


def _result(status, rng):
    """Each seat's score and outcome for a generated match's status, and the reported
    (winner's, loser's) scores when the match has a report."""
    if status in (MatchStatus.CONFIRMED, MatchStatus.RESOLVED):
        win, lose = _scores(rng)
        return (win, lose), (Outcome.WIN, Outcome.LOSS), (win, lose)
    if status == MatchStatus.FORFEIT:
        return None, (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS), None
    if status == MatchStatus.DOUBLE_FORFEIT:
        return None, (Outcome.DOUBLE_FORFEIT, Outcome.DOUBLE_FORFEIT), None
    if status in (MatchStatus.REPORTED, MatchStatus.DISPUTED):
        return None, None, _scores(rng)
    return None, None, None


def _report(match, players, scores) -> ResultReport:
    """The first seat's report of a generated match that has one; the second seat disputes the
    disputed ones."""
    win, lose = scores
    submitted = (match.scheduled_at or match.deadline) + timedelta(hours=2)
    # This week's reports are still in their window; last week's are past it.
    confirm_by = submitted + timedelta(hours=48)
    report_status = {
        MatchStatus.REPORTED: ReportStatus.PENDING,
        MatchStatus.CONFIRMED: ReportStatus.CONFIRMED,
        MatchStatus.RESOLVED: ReportStatus.CONFIRMED,
        MatchStatus.DISPUTED: ReportStatus.DISPUTED,
    }[match.status]
    report = ResultReport(
        match=match,
        submitted_by_id=players[0],
        status=report_status,
        submitted_at=submitted,
        confirm_by=confirm_by,
        confirmed_at=confirm_by if report_status == ReportStatus.CONFIRMED else None,
    )
    report.opponent_id = players[1]
    report.scores_given = (win, lose)
    return report


def _report_lines(report) -> list[ReportScore]:
    """The generated report's line per seat: the first seat won and wrote it."""
    win, lose = report.scores_given
    return [
        ReportScore(
            report=report,
            order=order,
            score=score,
            place=order,
            outcome=outcome,
            confirmed_at=report.submitted_at if order == 1 else report.confirmed_at,
        )
        for order, score, outcome in ((1, win, Outcome.WIN), (2, lose, Outcome.LOSS))
    ]


def bulk_leagues_of_season(
    institution, season, leagues, matches, rng, say, *, analyze=True, first_number=2, slug_prefix=""
) -> None:
    """`leagues` leagues of the season's eligible students with `matches` matches in all, then
    fresh planner statistics (unless the caller takes them once after many institutions) and
    every league's standings and pages."""
    eligible_ids = list(
        PlayerProfile.objects.filter(
            eligibilities__season=season, eligibilities__status=EligibilityStatus.ELIGIBLE
        )
        .order_by("campus_id")
        .values_list("id", flat=True)
    )
    bulk_leagues(
        institution=institution,
        season=season,
        players=eligible_ids,
        leagues=leagues,
        matches=matches,
        rng=rng,
        first_number=first_number,
        slug_prefix=slug_prefix,
        progress=say,
    )
    if analyze:
        analyze_all()
    ids = list(League.objects.filter(season=season).values_list("id", flat=True))
    for start in range(0, len(ids), 20):
        refresh_leagues(ids[start : start + 20])
        say("standings", min(start + 20, len(ids)), len(ids))


def analyze_all() -> None:
    """Fresh planner statistics, as autovacuum would give a live database: without them the
    planner guesses a bulk-loaded table is tiny and picks plans a hundred times slower."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
