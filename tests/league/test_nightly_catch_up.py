"""The nightly after missed nights (L8, L11, E1): one run settles the whole gap as every night
would have, draws the bracket whatever the season window, and says in one digest which nights
were missed; a day before a night that already ran is refused. When it last ran is on the
director's dashboard."""

from datetime import timedelta

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.core import mail
from django.core.management import CommandError, call_command
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from league import nightly
from league.models import Bracket, NightlyRun, Standing
from league.nightly import run_for_institution
from league.nights import NightlyRefused
from league.services import rounds_generate
from matches.models import AuditEvent, Match, MatchStatus, ResultReport
from matches.services import Ruling, report_dispute, rule
from tests.support import (
    LeagueFactory,
    SeasonFactory,
    confirmed_game,
    entrant,
    match_between,
    submitted_report,
)

GRACE_DAYS = 5  # the season window, shortened so a gap past it takes a month, not three


def night(institution, day, capture):
    with capture(execute=True):
        return run_for_institution(institution=institution, today=day)


def digests():
    return [m for m in mail.outbox if "what needs you today" in m.subject]


def table_of(league):
    skip = {"id", "league_id", "updated_at"}
    columns = [f.attname for f in Standing._meta.concrete_fields if f.attname not in skip]
    return sorted(Standing.objects.filter(league=league).values_list(*columns))


@pytest.fixture
def short_window(monkeypatch):
    monkeypatch.setattr(nightly, "SEASON_GRACE_DAYS", GRACE_DAYS)


@pytest.fixture
def term(institution, director, short_window):
    """A five-player round robin of rounds five days apart, drawn today: some games confirmed,
    some reported and never answered, the rest never reported. (league, first night, last day of
    the season)."""
    today = institution.today()
    season = SeasonFactory(
        institution=institution,
        starts_on=today - timedelta(days=1),
        ends_on=today + timedelta(days=24),
        registration_deadline=today,
    )
    league = LeagueFactory(season=season, round_length_days=5, playoff_size=4)
    players = [entrant(league, first_name=name, last_name="Example") for name in "ABCDE"]
    rounds = rounds_generate(actor=director.user, league=league, first_play_by=today + timedelta(1))
    for number, round_ in enumerate(rounds):
        games = list(round_.matches.exclude(status=MatchStatus.BYE).order_by("id"))
        first, second = (seat.player for seat in games[0].seats.order_by("order"))
        if number in (0, 2):
            confirmed_game(games[0], winner=first, loser=second, scores=(420, 380))
        if number in (1, 3):
            submitted_report(games[0], by=first, scores=[400, 390])
    assert len(players) == 5
    return league, today + timedelta(days=1), season.ends_on


def test_l8_l11_a_season_whose_last_three_weeks_had_no_nightly_settles_in_one_run(
    term, institution, director, django_capture_on_commit_callbacks
):
    league, first_night, ends_on = term
    last_run_before_gap = ends_on - timedelta(days=21)
    catch_up = ends_on + timedelta(days=GRACE_DAYS + 1)  # past the season window
    every_night = [
        first_night + timedelta(days=n) for n in range((catch_up - first_night).days + 1)
    ]

    with transaction.atomic():  # what a run every night gives, then undone
        for day in every_night:
            night(institution, day, django_capture_on_commit_callbacks)
        expected_table = table_of(league)
        expected_seeds = Bracket.objects.get(league=league).seeds
        transaction.set_rollback(True)
    assert not NightlyRun.objects.exists() and not Bracket.objects.exists()

    for day in every_night:
        if day <= last_run_before_gap:
            night(institution, day, django_capture_on_commit_callbacks)
    mail.outbox.clear()
    summary = night(institution, catch_up, django_capture_on_commit_callbacks)

    assert table_of(league) == expected_table
    assert Bracket.objects.get(league=league).seeds == expected_seeds
    assert summary.brackets_built == 1
    # Each settled at its own deadline or window, as the night after it would have.
    forfeited = Match.objects.filter(league=league, status=MatchStatus.DOUBLE_FORFEIT)
    assert forfeited.exists() and all(m.finalised_at == m.deadline for m in forfeited)
    auto = ResultReport.objects.filter(
        match__league=league, match__audit_events__action="auto_confirmed"
    )
    assert auto.exists() and all(r.confirmed_at == r.confirm_by for r in auto)
    assert all(r.match.finalised_at == r.confirm_by for r in auto.select_related("match"))
    # One digest for the whole gap, naming the nights missed and every forfeit of them.
    missed = (catch_up - last_run_before_gap).days - 1
    assert [m.to for m in digests()] == [[director.user.email]]
    text = digests()[0].body
    assert f"THE NIGHTLY DID NOT RUN ON {missed} NIGHTS" in text
    assert f"{last_run_before_gap + timedelta(days=1):%a %b %-d}," in text
    assert f"{catch_up - timedelta(days=1):%a %b %-d}." in text
    in_gap = AuditEvent.objects.filter(
        action="double_forfeit", created_at=nightly.nightly_moment(institution, catch_up)
    ).count()
    assert in_gap == summary.forfeits > 0
    assert f"DOUBLE FORFEITS RECORDED TONIGHT ({in_gap})" in text
    assert f"the night of {last_run_before_gap:%A, %B %-d}" in text


def test_l11_a_ruling_on_an_old_seasons_last_open_match_draws_its_bracket_that_night(
    table, league, season, institution, director, django_capture_on_commit_callbacks
):
    ada, bo, cy, di = table
    play_by = institution.today() - timedelta(days=100)
    season.starts_on, season.ends_on = play_by - timedelta(days=10), play_by + timedelta(days=1)
    season.save()
    for first, second in ((ada, bo), (cy, di)):
        rule(
            actor=director.user,
            match=match_between(league, first, second, play_by=play_by),
            ruling=Ruling.FORFEIT,
            forfeiting=[2],
            reason="No show.",
        )
    held = match_between(league, ada, cy, play_by=play_by)
    reported = held.deadline - timedelta(days=1)
    disputed = report_dispute(
        actor=cy.user,
        report=submitted_report(held, by=ada, now=reported),
        scores=[380, 420],
        turn=9,
        note="Turn 9 was mine.",
        now=reported + timedelta(hours=1),
    )
    night(institution, institution.today(), django_capture_on_commit_callbacks)
    assert not Bracket.objects.filter(league=league).exists()  # a dispute holds the season open

    rule(
        actor=director.user,
        match=held,
        dispute=disputed,
        ruling=Ruling.UPHOLD,
        reason="The score sheet agrees with the report.",
    )
    summary = night(
        institution, institution.today() + timedelta(days=1), django_capture_on_commit_callbacks
    )

    assert summary.brackets_built == 1
    assert Bracket.objects.filter(league=league).exists()


def test_a_rerun_of_the_same_night_lists_the_forfeits_the_first_run_recorded(
    match, institution, director, django_capture_on_commit_callbacks
):
    """The killed worker's case without the worker: the first run records the forfeits and
    dies before its digest; once its lease has run out the rerun finds nothing to forfeit and
    still reports them."""
    day = match.deadline.astimezone(institution.tz).date()
    with django_capture_on_commit_callbacks(execute=True):
        first = nightly.night_begin(institution=institution, today=day)
        nightly.forfeit_overdue_matches(
            nightly.nightly_moment(institution, day), institution=institution, announce=False
        )
    NightlyRun.objects.filter(pk=first.pk).update(lease_until=timezone.now())  # it ran out
    mail.outbox.clear()

    summary = night(institution, day, django_capture_on_commit_callbacks)

    assert summary.forfeits == 0 and summary.digests_sent == 1
    assert "DOUBLE FORFEITS RECORDED TONIGHT (1)" in digests()[0].body


def test_the_record_of_a_night_cut_short_and_run_again_totals_the_whole_night(
    match, institution, director, monkeypatch, capsys
):
    """The first run forfeits, then dies before its reminders; the second finds nothing left to
    forfeit. Its output says what it did (forfeits=0); the night's record says what the night
    did (forfeits=1), as the digest does. It said forfeits=0 auto_confirmed=0."""
    day = match.deadline.astimezone(institution.tz).date()

    def killed(**kwargs):  # a step that fails is the league's alone: the time limit is not
        raise SoftTimeLimitExceeded("the task ran out of time")

    monkeypatch.setattr(nightly, "remind_due_matches", killed)
    with pytest.raises(SoftTimeLimitExceeded):
        call_command("run_nightly", "--today", day.isoformat())
    cut_short = NightlyRun.objects.get(institution=institution, day=day)
    assert cut_short.finished_at is None
    assert cut_short.summary.startswith("forfeits=1 auto_confirmed=0 standings_rebuilt=1 ")
    monkeypatch.undo()

    call_command("run_nightly", "--today", day.isoformat())

    assert capsys.readouterr().out.startswith("forfeits=0 auto_confirmed=0 standings_rebuilt=1 ")
    record = NightlyRun.objects.get(institution=institution, day=day)
    assert record.finished_at is not None
    assert record.summary.startswith("forfeits=1 auto_confirmed=0 standings_rebuilt=1 ")
    assert record.summary.endswith(" digests_sent=1")


def test_a_double_forfeit_notice_goes_out_once_however_often_the_night_runs(
    match, player, opponent, institution, django_capture_on_commit_callbacks
):
    """The notices are written to the outbox in the forfeit's own transaction: a rerun of the
    night, which forfeits nothing more, writes none again."""
    day = match.deadline.astimezone(institution.tz).date()
    night(institution, day, django_capture_on_commit_callbacks)
    night(institution, day, django_capture_on_commit_callbacks)
    told = [m.to for m in mail.outbox if "Double forfeit" in m.subject]
    assert sorted(told) == sorted([[player.user.email], [opponent.user.email]])


# --- A day before a night that already ran --------------------------------------------------------


def test_l8_a_day_before_a_night_that_already_ran_is_refused_and_changes_nothing(
    match, player, institution, capsys, django_capture_on_commit_callbacks
):
    day = match.deadline.astimezone(institution.tz).date()
    night(institution, day + timedelta(days=3), django_capture_on_commit_callbacks)
    report = ResultReport.objects.filter(match=match)
    before = (NightlyRun.objects.count(), AuditEvent.objects.count(), Standing.objects.count())

    with pytest.raises(CommandError, match="already ran as of"):
        call_command("run_nightly", "--today", day.isoformat())
    with pytest.raises(NightlyRefused):
        run_for_institution(institution=institution, today=day)

    after = (NightlyRun.objects.count(), AuditEvent.objects.count(), Standing.objects.count())
    assert after == before and not report.exists()
    assert capsys.readouterr().out == ""


def test_a_rerun_of_the_last_night_is_allowed(match, institution, capsys):
    day = match.deadline.astimezone(institution.tz).date()
    call_command("run_nightly", "--today", day.isoformat())
    call_command("run_nightly", "--today", day.isoformat())
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("forfeits=1 ") and lines[1].startswith("forfeits=0 ")


# --- When it last ran ---------------------------------------------------------------------------


def test_the_dashboard_says_when_the_nightly_last_ran_and_warns_after_36_hours(
    client, director, season, institution, django_capture_on_commit_callbacks
):
    client.force_login(director.user)
    assert (
        "The nightly job has never run"
        in client.get(reverse("director_dashboard")).content.decode()
    )

    night(institution, institution.today(), django_capture_on_commit_callbacks)
    page = client.get(reverse("director_dashboard")).content.decode()
    assert "The nightly job last ran" in page and 'role="alert"' not in page

    NightlyRun.objects.update(finished_at=timezone.now() - timedelta(hours=37))
    page = client.get(reverse("director_dashboard")).content.decode()
    assert 'role="alert"' in page and "last ran 1" in page  # "1 day, 13 hours ago"


def test_e1_the_demo_reaches_its_playoff_bracket_once_its_dispute_and_cant_reach_report_are_ruled(
    db, capsys, django_capture_on_commit_callbacks
):
    """The demo's term ends and the server is down for two months: the first run after it
    settles the season and draws the playoff."""
    from accounts.models import Season, User
    from matches.models import ContactIssue, Dispute

    call_command("seed_demo")
    director = User.objects.get(email="director@example.edu")
    dispute = Dispute.objects.select_related("report__match").get(resolved_at__isnull=True)
    rule(
        actor=director,
        match=dispute.report.match,
        dispute=dispute,
        ruling=Ruling.UPHOLD,
        reason="The score sheet agrees with the report.",
    )
    issue = ContactIssue.objects.select_related("match").get(resolved_at__isnull=True)
    rule(
        actor=director,
        match=issue.match,
        contact_issue=issue,
        ruling=Ruling.FORFEIT,
        forfeiting=[2],
        reason="The opponent never answered.",
    )
    season = Season.objects.get()
    capsys.readouterr()

    with django_capture_on_commit_callbacks(execute=True):
        call_command("run_nightly", "--today", f"{season.ends_on + timedelta(days=61)}")

    line = capsys.readouterr().out
    assert "brackets_built=1 " in line
    bracket = Bracket.objects.get(league__slug="tuesday-night")
    assert len(bracket.seeds) == 4
    assert not Match.objects.filter(league=bracket.league, round__playoff=False).exclude(
        status__in=["confirmed", "resolved", "forfeit", "double_forfeit", "bye"]
    )
