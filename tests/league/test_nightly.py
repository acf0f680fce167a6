"""The nightly pipeline (L5, L8): double forfeits, auto-confirmation, reminders and the digest;
idempotent, set-based, and the public summary line. Standings and brackets: test_standings.py."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.utils import timezone

from accounts.selectors import pending_students
from league.models import DigestLog, Standing
from league.nightly import nightly_moment, run_for_institution, run_nightly
from league.standings import rebuild_standings
from matches.models import AuditEvent, MatchStatus
from matches.services import (
    contact_issue_report,
)
from tests.support import (
    ProfileFactory,
    confirmed_game,
    eligible_student,
    match_between,
    open_dispute,
    submitted_report,
)

SUMMARY = re.compile(
    r"^forfeits=\d+ auto_confirmed=\d+ standings_rebuilt=\d+ brackets_built=\d+ "
    r"brackets_advanced=\d+ reminders_sent=\d+ digests_sent=\d+$"
)


def day_after(match):
    """The day whose 02:00 run settles a match due the day before (docs/design.md)."""
    return match.deadline.astimezone(match.league.season.institution.tz).date()


def night(institution, day, capture):
    with capture(execute=True):
        return run_for_institution(institution=institution, today=day)


# --- L8: double forfeits ---------------------------------------------------------------------------


def test_l8_an_unreported_match_becomes_a_double_forfeit_and_both_players_are_told(
    match, player, opponent, institution, django_capture_on_commit_callbacks
):
    mail.outbox.clear()
    summary = night(institution, day_after(match), django_capture_on_commit_callbacks)

    match.refresh_from_db()
    assert summary.forfeits == 1
    assert match.status == MatchStatus.DOUBLE_FORFEIT
    assert {seat.outcome for seat in match.seats.all()} == {"double_forfeit"}
    event = AuditEvent.objects.get(match=match, action="double_forfeit")
    assert event.actor is None and event.reason == "Not reported by the deadline: a double forfeit."
    told = {m.to[0] for m in mail.outbox if "Double forfeit" in m.subject}
    assert told == {player.user.email, opponent.user.email}


def test_l8_a_match_is_not_forfeited_before_the_run_after_its_deadline(
    match, institution, django_capture_on_commit_callbacks
):
    night(institution, day_after(match) - timedelta(days=1), django_capture_on_commit_callbacks)
    match.refresh_from_db()
    assert match.status == MatchStatus.UNSCHEDULED


def test_l5_a_match_with_an_open_cant_reach_report_waits_for_the_director(
    match, player, institution, django_capture_on_commit_callbacks
):
    contact_issue_report(actor=player.user, match=match, attempts="Emailed and texted all week.")
    summary = night(institution, day_after(match), django_capture_on_commit_callbacks)
    match.refresh_from_db()
    assert summary.forfeits == 0
    assert match.status == MatchStatus.UNSCHEDULED


def test_l8_a_reported_match_is_never_forfeited(
    match, player, institution, django_capture_on_commit_callbacks
):
    submitted_report(match, by=player, scores=[400, 300])
    night(institution, day_after(match) + timedelta(days=5), django_capture_on_commit_callbacks)
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED  # auto-confirmed, never forfeited
    assert not AuditEvent.objects.filter(match=match, action="double_forfeit").exists()


def test_reports_past_their_window_are_confirmed_by_the_night(
    match, player, institution, django_capture_on_commit_callbacks
):
    report = submitted_report(match, by=player, scores=[400, 300])
    day = (report.confirm_by + timedelta(days=1)).astimezone(institution.tz).date()
    summary = night(institution, day, django_capture_on_commit_callbacks)
    match.refresh_from_db()
    assert summary.auto_confirmed == 1
    assert match.status == MatchStatus.CONFIRMED


# --- Idempotency -----------------------------------------------------------------------------------


def test_running_the_same_night_twice_changes_nothing_the_second_time(
    match,
    league,
    player,
    opponent,
    director,
    season,
    institution,
    django_capture_on_commit_callbacks,
):
    day = day_after(match)
    soon = match_between(league, player, opponent, play_by=day + timedelta(days=1))  # reminder due
    first = night(institution, day, django_capture_on_commit_callbacks)
    sent = len(mail.outbox)
    second = night(institution, day, django_capture_on_commit_callbacks)

    assert (first.forfeits, first.reminders_sent, first.digests_sent) == (1, 2, 1)
    assert (second.forfeits, second.auto_confirmed, second.reminders_sent, second.digests_sent) == (
        0,
        0,
        0,
        0,
    )
    assert len(mail.outbox) == sent
    assert AuditEvent.objects.filter(action="double_forfeit").count() == 1
    assert DigestLog.objects.count() == 1
    soon.refresh_from_db()
    assert soon.status == MatchStatus.UNSCHEDULED


# --- Reminders and the digest --------------------------------------------------------------------------


def test_players_get_one_reminder_48_hours_before_the_deadline(
    match, player, opponent, institution, django_capture_on_commit_callbacks
):
    opponent.email_reminders = False
    opponent.save()
    day = (match.deadline - timedelta(hours=30)).astimezone(institution.tz).date()
    mail.outbox.clear()
    first = night(institution, day, django_capture_on_commit_callbacks)
    second = night(institution, day + timedelta(days=1), django_capture_on_commit_callbacks)
    reminders = [m for m in mail.outbox if m.subject.startswith("[Scrabble league] Reminder")]
    assert first.reminders_sent == 1 and second.reminders_sent == 0
    assert [m.to for m in reminders] == [[player.user.email]]


def test_the_digest_lists_what_needs_a_human(
    match,
    league,
    player,
    opponent,
    director,
    staff,
    season,
    institution,
    django_capture_on_commit_callbacks,
):
    open_dispute(match_between(league, player, opponent), note="Swapped scores")
    stuck = match_between(league, player, opponent)
    contact_issue_report(actor=player.user, match=stuck, attempts="Called twice, no answer.")
    # A student who signed up and still waits for the ID check (ProfileFactory's student role).
    ProfileFactory(institution=institution, user__first_name="Pending", user__last_name="Newcomer")
    staff.email_digest = False
    staff.save()
    mail.outbox.clear()

    summary = night(institution, day_after(match), django_capture_on_commit_callbacks)

    digests = [m for m in mail.outbox if "what needs you today" in m.subject]
    assert summary.digests_sent == 1
    assert [m.to for m in digests] == [[director.user.email]]
    text = digests[0].body
    assert "DOUBLE FORFEITS RECORDED TONIGHT (1)" in text
    assert "OPEN DISPUTES (1)" in text
    assert "CAN'T REACH OPPONENT (1)" in text
    assert "Pending Newcomer" in text
    pending = pending_students(institution, season).count()  # the count the database keeps
    assert f"STUDENTS PENDING ELIGIBILITY FOR {season.name.upper()} ({pending})" in text
    html = digests[0].alternatives[0][0]
    assert "<h2" in html and "Swapped" not in html  # the note stays in the admin


def test_nothing_to_say_sends_no_digest(
    institution, director, season, django_capture_on_commit_callbacks
):
    mail.outbox.clear()
    summary = night(institution, timezone.localdate(), django_capture_on_commit_callbacks)
    assert summary.digests_sent == 0
    assert not mail.outbox


# --- The command and the schedule -------------------------------------------------------------------


def test_run_nightly_prints_the_one_summary_line(match, institution, capsys):
    call_command("run_nightly", "--today", day_after(match).isoformat())
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and SUMMARY.match(out[0]), out
    assert out[0].startswith("forfeits=1 ")


def test_run_nightly_for_one_institution(match, institution, other_institution, capsys):
    call_command(
        "run_nightly", "--today", day_after(match).isoformat(), "--institution", "elsewhere"
    )
    assert capsys.readouterr().out.startswith("forfeits=0 ")


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--today", "22/11/2026"], "not a date"), (["--institution", "nowhere"], "No institution")],
)
def test_run_nightly_refuses_bad_options(db, args, message):
    with pytest.raises(CommandError, match=message):
        call_command("run_nightly", *args)


def test_each_institution_gets_its_0200_beat_schedule_in_its_own_time_zone(
    institution, other_institution
):
    from django_celery_beat.models import PeriodicTask

    task = PeriodicTask.objects.get(name=f"Nightly pipeline: {institution.slug}")
    assert task.task == "league.tasks.run_nightly_for_institution"
    assert (task.crontab.hour, task.crontab.minute, str(task.crontab.timezone)) == (
        "2",
        "0",
        institution.timezone,
    )
    assert PeriodicTask.objects.filter(name__startswith="Nightly pipeline:").count() == 2


def test_the_night_acts_at_0200_institution_time(institution):
    moment = nightly_moment(institution, timezone.localdate())
    assert moment.astimezone(institution.tz).hour == 2


def test_run_nightly_covers_every_institution(
    match, institution, other_institution, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        summary = run_nightly(today=day_after(match))
    assert summary.forfeits == 1


def _night_queries(institution, league, season, matches, capture):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    players = [eligible_student(season) for _ in range(2 * matches)]
    last = None
    for i in range(matches):
        last = match_between(league, players[2 * i], players[2 * i + 1])
        if i % 3 == 0:
            submitted_report(last, by=players[2 * i], scores=[400, 300])
    day = day_after(last) + timedelta(days=3)
    with capture(execute=False), CaptureQueriesContext(connection) as queries:
        run_for_institution(institution=institution, today=day)
    return len(queries)


def test_the_pipelines_query_count_grows_with_leagues_not_matches(
    league, season, institution, director, django_capture_on_commit_callbacks
):
    from tests.support import LeagueFactory

    few = _night_queries(institution, league, season, 3, django_capture_on_commit_callbacks)
    many = _night_queries(
        institution, LeagueFactory(season=season), season, 30, django_capture_on_commit_callbacks
    )
    assert many <= few + 12  # the second run has one more league, ten times the matches


def test_a_failure_mid_rebuild_leaves_every_league_untouched(table, league, season, monkeypatch):
    from league import standings as standings_module
    from tests.support import LeagueFactory

    ada, bo, _, _ = table
    other = LeagueFactory(season=season)
    rebuild_standings([league.pk, other.pk])
    before = list(Standing.objects.order_by("id").values_list("id", "wins"))
    confirmed_game(match_between(league, ada, bo), winner=ada, loser=bo)
    calls = {"n": 0}
    real_rank = standings_module._rank

    def rank_then_fail(rows, h2h):
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("disk full")
        return real_rank(rows, h2h)

    monkeypatch.setattr(standings_module, "_rank", rank_then_fail)
    with pytest.raises(RuntimeError):
        rebuild_standings([league.pk, other.pk])
    assert list(Standing.objects.order_by("id").values_list("id", "wins")) == before


@pytest.mark.django_db
def test_postgresql_connections_run_without_jit():
    """Compiling the standings aggregate took PostgreSQL longer than running it (config.settings)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW jit")
        assert cursor.fetchone() == ("off",)
