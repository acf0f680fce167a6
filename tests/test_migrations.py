"""A campus that ran two-player seasons before games of three and four (G9) keeps every report,
dispute and result when it upgrades: matches' migration 0003 copies them into one line per seat."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [
    ("accounts", "0003_equipment_and_preferences"),
    ("matches", "0002_report_game_record"),
    ("league", "0006_digestlog_email_ids"),
]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


@pytest.mark.django_db(transaction=True)
def test_g9_two_seat_reports_disputes_and_results_survive_the_move_to_lines_per_seat():
    apps = migrate(BEFORE)
    now = timezone.now()
    Institution = apps.get_model("accounts", "Institution")
    User = apps.get_model("accounts", "User")
    PlayerProfile = apps.get_model("accounts", "PlayerProfile")
    Season = apps.get_model("accounts", "Season")
    League = apps.get_model("league", "League")
    Round = apps.get_model("league", "Round")
    Match = apps.get_model("matches", "Match")
    Seat = apps.get_model("matches", "Seat")
    ResultReport = apps.get_model("matches", "ResultReport")
    Dispute = apps.get_model("matches", "Dispute")

    campus = Institution.objects.create(name="Old U", slug="old-u", email_domains="example.edu")
    season = Season.objects.create(
        institution=campus,
        name="Spring",
        slug="spring",
        starts_on=now.date(),
        ends_on=now.date() + timedelta(days=90),
        registration_deadline=now.date(),
    )
    ada, bo = (
        PlayerProfile.objects.create(
            user=User.objects.create(email=f"{name}@example.edu", first_name=name),
            institution=campus,
            campus_id=number,
        )
        for name, number in (("ada", "1000001"), ("bo", "1000002"))
    )
    league = League.objects.create(season=season, name="Old", slug="old", venue="Union")
    round_ = Round.objects.create(league=league, number=1, play_by=now.date())
    confirmed, disputed = (
        Match.objects.create(league=league, round=round_, deadline=now, status=status)
        for status in ("confirmed", "disputed")
    )
    for match in (confirmed, disputed):
        Seat.objects.create(match=match, order=1, player=ada)
        Seat.objects.create(match=match, order=2, player=bo)
    Seat.objects.filter(match=confirmed, order=1).update(score=420, outcome="win")
    Seat.objects.filter(match=confirmed, order=2).update(score=380, outcome="loss")
    ResultReport.objects.create(
        match=confirmed,
        submitted_by=ada,
        status="confirmed",
        first_score=420,
        second_score=380,
        first_tiles_left="",
        second_tiles_left="QI",
        confirm_by=now,
        confirmed_at=now,
    )
    report = ResultReport.objects.create(
        match=disputed,
        submitted_by=bo,
        status="disputed",
        first_score=400,
        second_score=400,
        first_pre_adjustment=390,
        second_pre_adjustment=395,
        confirm_by=now,
    )
    Dispute.objects.create(
        report=report,
        raised_by=ada,
        first_score=410,
        second_score=400,
        turn=7,
        first_score_at_turn=180,
        second_score_at_turn=201,
        note="Turn 7",
    )

    apps = migrate(latest())
    ReportScore = apps.get_model("matches", "ReportScore")
    lines = {
        (line.report.match_id, line.order): line
        for line in ReportScore.objects.select_related("report")
    }
    assert len(lines) == 4
    assert (lines[(confirmed.pk, 1)].score, lines[(confirmed.pk, 1)].place) == (420, 1)
    assert (lines[(confirmed.pk, 2)].tiles_left, lines[(confirmed.pk, 2)].outcome) == ("QI", "loss")
    # The tie on final score goes to the higher score before tiles (G2): seat 2 won it.
    tied = [lines[(disputed.pk, order)] for order in (1, 2)]
    assert [(line.place, line.outcome) for line in tied] == [(2, "loss"), (1, "win")]
    # The reporter's own line stands confirmed; the disputer's does not.
    assert tied[1].confirmed_at is not None and tied[0].confirmed_at is None
    dispute = apps.get_model("matches", "Dispute").objects.get()
    assert (dispute.scores, dispute.scores_at_turn) == ([410, 400], [180, 201])
    # Matches' 0010 gives each dispute its match's league, which the director's queue reads.
    assert dispute.league_id == disputed.league_id
    seats = apps.get_model("matches", "Seat").objects.filter(match_id=confirmed.pk)
    assert sorted(seats.values_list("order", "place")) == [(1, 1), (2, 2)]
