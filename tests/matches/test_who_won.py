"""Who won a reported game (G2, G9) is decided in one place, `placements` (matches/results.py),
when the report is written; the nightly's set-based `confirm_stale_reports` copies each seat's
line to the seats. The highest final score wins; a tie on it goes to the higher score before the
unplayed-tile adjustment; only an exact tie on both (or a tie with a pre-adjustment score
missing) is a tie. These tests hold the seats the nightly confirms to that answer."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from league.models import Round
from matches.models import Match, MatchStatus, Outcome, ReportScore, ResultReport, Seat
from matches.results import MAX_SCORE, MIN_SCORE, outcomes, placements, winner_seat
from matches.services import confirm_stale_reports

# Small numbers make ties on the final score, and on the score before the adjustment, common.
SCORE = st.integers(0, 3) | st.sampled_from([MIN_SCORE, 0, MAX_SCORE]) | st.integers(0, MAX_SCORE)
PRE_ADJUSTMENT = st.none() | st.integers(0, 3) | st.integers(0, MAX_SCORE)
CASE = st.tuples(SCORE, SCORE, PRE_ADJUSTMENT, PRE_ADJUSTMENT)

OUTCOMES = {1: (Outcome.WIN, Outcome.LOSS), 2: (Outcome.LOSS, Outcome.WIN)}


def outcomes_by_python(case) -> tuple[str, str]:
    first, second, first_pre, second_pre = case
    winner = winner_seat([first, second], [first_pre, second_pre])
    return OUTCOMES.get(winner, (Outcome.TIE, Outcome.TIE))


def outcomes_by_sql(league, first, second, cases) -> list[tuple[str, str]]:
    """One reported match per case, each with a pending report past its confirmation window,
    confirmed by a single nightly call: a handful of queries whatever the number of cases."""
    now = timezone.now()
    round_ = Round.objects.create(league=league, number=1, play_by=now.date())
    matches = Match.objects.bulk_create(
        Match(
            league=league,
            round=round_,
            deadline=now - timedelta(days=3),
            status=MatchStatus.REPORTED,
        )
        for _ in cases
    )
    Seat.objects.bulk_create(
        Seat(match=match, order=order, player=player)
        for match in matches
        for order, player in ((1, first), (2, second))
    )
    reports = ResultReport.objects.bulk_create(
        ResultReport(
            match=match,
            submitted_by=first,
            submitted_at=now - timedelta(days=3),
            confirm_by=now - timedelta(hours=1),
        )
        for match in matches
    )
    lines = []
    for report, (first_score, second_score, first_pre, second_pre) in zip(
        reports, cases, strict=True
    ):
        scores, pre = [first_score, second_score], [first_pre, second_pre]
        places = placements(scores, pre)
        for order, place, outcome in zip((1, 2), places, outcomes(places), strict=True):
            lines.append(
                ReportScore(
                    report=report,
                    order=order,
                    score=scores[order - 1],
                    pre_adjustment=pre[order - 1],
                    place=place,
                    outcome=outcome,
                )
            )
    ReportScore.objects.bulk_create(lines)
    confirmed = confirm_stale_reports(now)
    assert sorted(confirmed) == sorted(match.pk for match in matches)
    outcome = {
        (match_id, order): value
        for match_id, order, value in Seat.objects.filter(match__in=matches).values_list(
            "match_id", "order", "outcome"
        )
    }
    return [(outcome[match.pk, 1], outcome[match.pk, 2]) for match in matches]


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(cases=st.lists(CASE, min_size=1, max_size=40))
@example(
    cases=[
        (400, 399, None, None),  # the final score decides
        (399, 400, 420, 300),  # ... whatever came before the adjustment
        (400, 400, 390, 380),  # G2: a tie goes to the higher score before the adjustment
        (400, 400, 380, 390),
        (400, 400, 385, 385),  # G2: an exact tie on both is a tie
        (400, 400, None, None),  # no pre-adjustment scores: a tie
        (400, 400, 390, None),  # one missing: a tie
        (400, 400, None, 390),
        (0, 0, 0, 0),
        (MAX_SCORE, MAX_SCORE, MAX_SCORE, 0),
    ]
)
def test_g2_the_nightly_confirmation_and_winner_seat_agree_on_who_won(
    league, player, opponent, cases
):
    # Each example's matches are rolled back, so the next example starts from an empty league.
    with transaction.atomic():
        by_sql = outcomes_by_sql(league, player, opponent, cases)
        transaction.set_rollback(True)
    assert by_sql == [outcomes_by_python(case) for case in cases]
