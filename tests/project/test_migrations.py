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
    # An app migrated to nothing ((app, None)) has no state to build.
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


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


BEFORE_EVENTS_MOVED = [
    ("accounts", "0007_sign_in_link"),
    ("matches", "0011_dispute_league_required"),
    ("league", "0016_volunteer_invitations"),
    ("events", None),
]


@pytest.mark.django_db(transaction=True)
def test_e3_e5_an_events_day_categories_teams_scorers_and_sales_survive_the_move_to_events():
    """An event's parts move to the events app (league 0017, events 0001): its day and table
    settings become an Event, each entry's category and team an Entrant, and the categories,
    teams, periods, volunteer scorers and assists keep their rows in their tables."""
    apps = migrate(BEFORE_EVENTS_MOVED)
    today = timezone.now().date()
    Institution = apps.get_model("accounts", "Institution")
    Season = apps.get_model("accounts", "Season")
    PlayerProfile = apps.get_model("accounts", "PlayerProfile")
    User = apps.get_model("accounts", "User")
    League = apps.get_model("league", "League")
    Round = apps.get_model("league", "Round")
    Entry = apps.get_model("league", "Entry")
    EventCategory = apps.get_model("league", "EventCategory")
    Team = apps.get_model("league", "Team")
    RoundPeriod = apps.get_model("league", "RoundPeriod")
    EventScorer = apps.get_model("league", "EventScorer")
    AssistItem = apps.get_model("league", "AssistItem")
    AssistSale = apps.get_model("league", "AssistSale")

    campus = Institution.objects.create(name="Old U", slug="old-u", email_domains="example.edu")
    season = Season.objects.create(
        institution=campus,
        name="Fall",
        slug="fall",
        starts_on=today,
        ends_on=today + timedelta(days=90),
        registration_deadline=today,
    )
    fest = League.objects.create(
        season=season,
        name="Fest",
        slug="fest",
        venue="Union",
        format="event",
        event_date=today + timedelta(days=5),
        seats_per_table=4,
        team_size=4,
        short_team="average_fill",
    )
    plain = League.objects.create(season=season, name="Plain", slug="plain", venue="Union")
    open_cat = EventCategory.objects.create(league=fest, name="Open", pairing_group="Open")
    fest.champion_category = open_cat
    fest.save()
    acme = Team.objects.create(league=fest, name="Acme")
    guest = PlayerProfile.objects.create(institution=campus, display_name="Ada Guest")
    entry = Entry.objects.create(
        league=fest, player=guest, player_number=1, category=open_cat, team=acme
    )
    student = PlayerProfile.objects.create(
        user=User.objects.create(email="bo@example.edu"), institution=campus, campus_id="1000001"
    )
    Entry.objects.create(league=plain, player=student)
    round_ = Round.objects.create(league=fest, number=1, play_by=fest.event_date)
    RoundPeriod.objects.create(round=round_, number=1, starts="18:00", minutes=45)
    EventScorer.objects.create(league=fest, name="Val", email="val@example.org")
    item = AssistItem.objects.create(league=fest, name="Ringer", first_cents=100, later_cents=200)
    AssistSale.objects.create(
        league=fest, item=item, entry=entry, round=round_, quantity=2, unit_cents=100
    )

    apps = migrate(latest())
    Event = apps.get_model("events", "Event")
    Entrant = apps.get_model("events", "Entrant")
    event = Event.objects.get()
    assert event.league_id == fest.pk and event.date == today + timedelta(days=5)
    assert (event.seats_per_table, event.team_size, event.short_team) == (4, 4, "average_fill")
    assert event.champion_category_id == open_cat.pk
    entrant = Entrant.objects.get()
    assert (entrant.entry_id, entrant.category_id, entrant.team_id) == (
        entry.pk,
        open_cat.pk,
        acme.pk,
    )
    assert apps.get_model("events", "RoundPeriod").objects.get().round_id == round_.pk
    assert apps.get_model("events", "EventScorer").objects.get().email == "val@example.org"
    sale = apps.get_model("events", "AssistSale").objects.get()
    assert (sale.item.name, sale.entry_id, sale.quantity) == ("Ringer", entry.pk, 2)
    assert {f.name for f in apps.get_model("league", "League")._meta.fields}.isdisjoint(
        {"event_date", "seats_per_table", "team_size", "short_team", "champion_category"}
    )
