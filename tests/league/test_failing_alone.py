"""Each league fails alone (issue 45). What follows a saved write (its league's standings, bracket
and pages, a rating, mail) never turns the answer into a 500; a league whose nightly step fails is
left as it was while every other league of the institution is settled, rendered and mailed; the
night, the digest, the dashboard and `run_nightly` name the league and the step; the next night
settles it once mended.

A league is made to fail for real: a constraint PostgreSQL checks on that league's rows only
(NOT VALID: the rows already there stay), as the standings' old positive-only columns refused a
negative total."""

import io
import json
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse

from league.models import Entry, NightlyRun, RefreshFailure, RefreshWanted, Standing
from league.nightly import NightFailure, run_for_institution
from matches.models import MatchStatus
from matches.services import Ruling, card_enter, report_submit, rule
from ratings import glicko
from ratings.models import RatingPeriod
from tests.support import (
    LeagueFactory,
    at,
    eligible_student,
    match_between,
    rounds_started,
    run,
    write,
)

REFUSED = "a total the standings could not store"
SUMMARY = re.compile(
    r"^forfeits=\d+ auto_confirmed=\d+ standings_rebuilt=\d+ brackets_built=\d+ "
    r"brackets_advanced=\d+ reminders_sent=\d+ digests_sent=\d+$"
)


def refuse(table: str, league_id: int, name: str = "refuse_one_league") -> None:
    """From now on PostgreSQL refuses this league's new rows in `table`."""
    with connection.cursor() as cursor:
        # The test's transaction has foreign keys still to check: checked now, ALTER may run.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(
            f"ALTER TABLE {table} ADD CONSTRAINT {name} CHECK (league_id <> {int(league_id)}) "
            "NOT VALID"
        )


def mend(table: str, name: str = "refuse_one_league") -> None:
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(f"ALTER TABLE {table} DROP CONSTRAINT {name}")


@pytest.fixture
def two_leagues(season):
    """The Broken League and the Fine League, each with a match due yesterday."""
    day = season.institution.today() - timedelta(days=1)
    leagues = []
    for name, slug in (("Broken League", "broken"), ("Fine League", "fine")):
        league = LeagueFactory(season=season, name=name, slug=slug)
        first, second = eligible_student(season), eligible_student(season)
        for player in (first, second):
            Entry.objects.create(league=league, player=player)
        match_between(league, first, second, play_by=day)
        leagues.append(league)
    return leagues


def night(institution, capture, day=None):
    with capture(execute=True):
        return run_for_institution(institution=institution, today=day or institution.today())


def test_one_leagues_failing_refresh_leaves_the_others_settled_rendered_and_mailed(
    two_leagues, institution, director, client, django_capture_on_commit_callbacks
):
    broken, fine = two_leagues
    refuse("league_standing", broken.pk)
    mail.outbox.clear()

    summary = night(institution, django_capture_on_commit_callbacks)

    assert summary.forfeits == 2  # the forfeits step worked for both
    assert summary.failures == [
        NightFailure(institution.slug, "broken", "Broken League", "standings", REFUSED)
    ]
    assert Standing.objects.filter(league=fine, double_forfeits=1).count() == 2
    assert not Standing.objects.filter(league=broken).exists()
    feed = json.loads(client.get(reverse("league_standings_json", args=[at("fine")])).content)
    assert [row["double_forfeits"] for row in feed["standings"]] == [1, 1]
    told = {m.to[0] for m in mail.outbox if "Double forfeit" in m.subject}
    assert len(told) == 4  # both leagues' players
    (digest,) = [m for m in mail.outbox if "what needs you today" in m.subject]
    assert "Broken League: its standings, bracket and pages could not be refreshed" in digest.body
    assert REFUSED in digest.body
    record = NightlyRun.objects.get(institution=institution)
    assert record.finished_at is not None
    assert [(f["league"], f["step"]) for f in record.failures] == [("broken", "standings")]
    failure = RefreshFailure.objects.get(league=broken)
    assert failure.reason == REFUSED and RefreshWanted.objects.filter(league=broken).exists()

    client.force_login(director.user)
    dashboard = client.get(reverse("director_dashboard")).content.decode()
    assert "Not up to date" in dashboard
    assert (
        "Broken League</strong>: its standings, bracket and pages could not be refreshed since"
        in (dashboard)
    )
    assert "Traceback" not in dashboard and "league_standing" not in dashboard

    mend("league_standing")
    tomorrow = institution.today() + timedelta(days=1)
    again = night(institution, django_capture_on_commit_callbacks, tomorrow)

    assert again.failures == []
    assert Standing.objects.filter(league=broken, double_forfeits=1).count() == 2
    assert not RefreshFailure.objects.exists()
    assert NightlyRun.objects.get(institution=institution, day=tomorrow).failures == []
    assert "Not up to date" not in client.get(reverse("director_dashboard")).content.decode()


def test_run_nightly_keeps_its_summary_line_names_the_failure_and_exits_1_after_the_others(
    two_leagues, institution
):
    broken, fine = two_leagues
    refuse("league_standing", broken.pk)
    out, err = io.StringIO(), io.StringIO()

    with pytest.raises(CommandError) as failed:
        call_command(
            "run_nightly", "--today", institution.today().isoformat(), stdout=out, stderr=err
        )

    assert failed.value.returncode == 1
    assert SUMMARY.match(out.getvalue().strip()) and out.getvalue().startswith("forfeits=2 ")
    assert f"{institution.slug}: broken: standings: {REFUSED}" in err.getvalue().splitlines()
    assert Standing.objects.filter(league=fine).count() == 2
    assert fine.matches.order_by("pk").first().status == MatchStatus.DOUBLE_FORFEIT


def test_a_league_whose_forfeits_fail_waits_while_the_others_are_forfeited(
    two_leagues, institution, django_capture_on_commit_callbacks
):
    broken, fine = two_leagues
    refuse("matches_match", broken.pk, "refuse_forfeits")
    with connection.cursor() as cursor:  # only its forfeits: its rows may be read and locked
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(
            "ALTER TABLE matches_match DROP CONSTRAINT refuse_forfeits, ADD CONSTRAINT "
            f"refuse_forfeits CHECK (league_id <> {broken.pk} OR status <> 'double_forfeit') "
            "NOT VALID"
        )

    summary = night(institution, django_capture_on_commit_callbacks)

    assert summary.forfeits == 1
    assert fine.matches.order_by("pk").first().status == MatchStatus.DOUBLE_FORFEIT
    assert broken.matches.get().status == MatchStatus.UNSCHEDULED
    assert [(f.league, f.step) for f in summary.failures] == [("broken", "forfeits")]
    assert "an unexpected error" not in summary.failures[0].reason  # a refused value, in words


def test_a_result_in_a_failing_league_is_saved_and_answers_as_saved(
    two_leagues, director, client, django_capture_on_commit_callbacks
):
    broken, _ = two_leagues
    first, second = (seat.player for seat in broken.matches.get().seats.all())
    match = match_between(broken, first, second)  # due in a week
    refuse("league_standing", broken.pk)
    report = report_submit(actor=first.user, match=match, scores=[400, 350])

    client.force_login(second.user)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(reverse("match_confirm", args=[match.pk, report.pk]), follow=True)

    assert answer.status_code == 200
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED
    assert RefreshFailure.objects.get(league=broken).step == "standings"

    with django_capture_on_commit_callbacks(execute=True):
        rule(
            actor=director.user,
            match=match,
            ruling=Ruling.AMEND,
            reason="The card said 410.",
            scores=[410, 350],
        )
    assert [seat.score for seat in match.seats.order_by("order")] == [410, 350]
    assert RefreshFailure.objects.filter(league=broken).exists()


EVENT = {
    "name": "Broken Fest",
    "slug": "broken-fest",
    "format": "event",
    "rounds": [{"number": 1, "periods": [{"starts": "18:00", "minutes": 45}]}],
    "categories": [{"name": "Open", "pairing_group": "Open", "turn_seconds": None}],
}


def test_a_card_a_join_and_a_waitlist_post_at_a_failing_event_answer_as_saved(
    season, director, client, tmp_path, django_capture_on_commit_callbacks
):
    data = {**EVENT, "date": season.institution.today().isoformat()}
    path = write(tmp_path, "fest.json", json.dumps(data))
    run("create_event", path, "--institution", season.institution.slug, "--season", season.slug)
    names = "name\n" + "".join(f"Entrant {letter}\n" for letter in "ABCD")
    run("import_entrants", write(tmp_path, "in.csv", names), "--league", "broken-fest")
    fest = rounds_started(Entry.objects.filter(league__slug="broken-fest").first().league)
    fest.capacity = 6
    fest.save()
    refuse("league_standing", fest.pk)
    joining, waiting = eligible_student(season), eligible_student(season)

    client.force_login(joining.user)
    with django_capture_on_commit_callbacks(execute=True):
        joined = client.post(reverse("league_join", args=[at("broken-fest")]), {"category": "Open"})
    assert joined.status_code == 302
    assert Entry.objects.filter(league=fest, player=joining).exists()

    client.force_login(waiting.user)
    with django_capture_on_commit_callbacks(execute=True):
        waited = client.post(reverse("league_waitlist", args=[at("broken-fest")]))
    assert waited.status_code == 302  # an event keeps no waitlist: its free place is taken
    assert Entry.objects.filter(league=fest, player=waiting).exists()

    run("pair_round", "--league", "broken-fest", "--all-entrants", "--seed", "3")
    match = fest.matches.get(table=1)
    seats = list(match.seats.order_by("order"))
    client.force_login(director.user)
    with django_capture_on_commit_callbacks(execute=True):
        card = client.post(
            reverse("event_scores", args=[at("broken-fest"), 1]),
            {
                "table": 1,
                "seen": ",".join(str(seat.player_id) for seat in seats),
                "score_1": 400,
                "score_2": 300,
                "ended_by": "went_out",
            },
        )
    assert card.status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED
    assert RefreshFailure.objects.get(league=fest).reason == REFUSED


def played_round(league, days_ago: int, director):
    """A round of `league` played `days_ago` days ago, its one game's card entered."""
    today = league.season.institution.today()
    first, second = eligible_student(league.season), eligible_student(league.season)
    match = match_between(league, first, second, play_by=today - timedelta(days=days_ago))
    card_enter(actor=director.user, match=match, scores=[400, 350])
    return match


def test_r2_a_rating_period_that_fails_stops_its_institution_there_and_the_digest_says_so(
    season,
    institution,
    other_institution,
    director,
    other_director,
    monkeypatch,
    django_capture_on_commit_callbacks,
):
    early = LeagueFactory(season=season, name="Early League", slug="early")
    broken = LeagueFactory(season=season, name="Broken League", slug="broken")
    late = LeagueFactory(season=season, name="Late League", slug="late")
    elsewhere = LeagueFactory(season__institution=other_institution, slug="elsewhere-league")
    played_round(early, 4, director)
    refused = played_round(broken, 3, director)
    played_round(late, 2, director)
    played_round(elsewhere, 2, other_director)
    refused_players = {seat.player_id for seat in refused.seats.all()}
    real = glicko.rate_period

    def rate_period(pairings, before, **options):
        pairings = list(pairings)
        if {p.first for p in pairings} & refused_players:
            raise ZeroDivisionError("a rating the test refuses")
        return real(pairings, before, **options)

    monkeypatch.setattr(glicko, "rate_period", rate_period)
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        run("run_nightly", "--institution", other_institution.slug)
    summary = night(institution, django_capture_on_commit_callbacks)

    assert RatingPeriod.objects.filter(institution=other_institution).count() == 1
    assert [(f.league, f.step) for f in summary.failures] == [("broken", "rating")]
    rated = RatingPeriod.objects.filter(institution=institution).values_list("league", flat=True)
    assert list(rated) == [early.pk]  # the late period waits for the broken one
    (digest,) = [m for m in mail.outbox if "what needs you today" in m.subject]
    assert "Broken League: the ratings stopped at its results" in digest.body

    monkeypatch.setattr(glicko, "rate_period", real)
    night(institution, django_capture_on_commit_callbacks, institution.today() + timedelta(days=1))
    assert RatingPeriod.objects.filter(institution=institution).count() == 3
