"""The nightly pipeline (L6, L8, L11): double forfeits, auto-confirmation, standings, brackets,
reminders and the digest; idempotent, set-based, and the public summary line."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from league.models import Bracket, DigestLog, Entry, Standing
from league.nightly import nightly_moment, run_for_institution, run_nightly
from league.refresh import refresh_leagues
from league.standings import rebuild_standings
from matches.models import AuditEvent, MatchStatus
from matches.services import (
    Ruling,
    contact_issue_report,
    rule,
)
from tests.factories import (
    ProfileFactory,
    confirmed_game,
    eligible_student,
    entrant,
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
    assert event.actor is None and "L8" in event.reason
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
    submitted_report(match, by=player, first_score=400, second_score=300)
    night(institution, day_after(match) + timedelta(days=5), django_capture_on_commit_callbacks)
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED  # auto-confirmed, never forfeited
    assert not AuditEvent.objects.filter(match=match, action="double_forfeit").exists()


def test_reports_past_their_window_are_confirmed_by_the_night(
    match, player, institution, django_capture_on_commit_callbacks
):
    report = submitted_report(match, by=player, first_score=400, second_score=300)
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


# --- Standings (L6) ----------------------------------------------------------------------------------


@pytest.fixture
def table(league):
    """Four eligible entrants: Ada, Bo, Cy, Di."""
    return [
        entrant(league, first_name=name, last_name="Example") for name in ("Ada", "Bo", "Cy", "Di")
    ]


def standing(league, profile):
    return Standing.objects.get(league=league, player=profile)


def test_l6_standings_count_wins_ties_forfeits_byes_and_spread(table, league, director, season):
    ada, bo, cy, di = table
    confirmed_game(
        match_between(league, ada, bo), winner=ada, loser=bo, scores=(420, 380)
    )  # Ada +40
    confirmed_game(match_between(league, cy, di), winner=cy, loser=di, scores=(333, 333))  # tie
    rule(
        actor=director.user,
        match=match_between(league, ada, cy),
        ruling=Ruling.FORFEIT,
        winner=1,
        reason="no show",
    )
    rule(
        actor=director.user,
        match=match_between(league, bo, di),
        ruling=Ruling.DOUBLE_FORFEIT,
        reason="nobody reported",
    )
    submitted_report(
        match_between(league, ada, di),
        by=ada,
        first_score=500,
        second_score=100,
        unusual_confirmed=True,
    )  # unconfirmed: L6

    rebuild_standings([league.pk])

    a = standing(league, ada)
    assert (a.wins, a.losses, a.forfeits_won, a.games) == (2, 0, 1, 2)
    assert a.spread == 40 + league.forfeit_spread
    assert (a.points_for, a.points_against) == (420, 380)  # forfeits add to spread only
    c = standing(league, cy)
    assert (c.ties, c.losses, c.forfeits_lost, c.win_points) == (1, 1, 1, Decimal("0.5"))
    assert c.spread == -league.forfeit_spread
    d = standing(league, di)
    assert (d.double_forfeits, d.losses, d.spread) == (1, 1, -league.double_forfeit_spread)
    assert [row.player for row in Standing.objects.filter(league=league)][0] == ada


def test_a_bye_is_a_win_with_the_forfeit_spread(league, director, season, institution):
    from league.services import rounds_generate

    for _ in range(3):
        entrant(league)
    rounds_generate(
        actor=director.user, league=league, first_play_by=timezone.localdate() + timedelta(days=7)
    )
    rebuild_standings([league.pk])
    assert set(Standing.objects.filter(league=league).values_list("byes", flat=True)) == {
        0
    }  # not yet

    rebuild_standings([league.pk], now=timezone.now() + timedelta(days=60))
    rows = Standing.objects.filter(league=league)
    # Three players, three rounds: each sat out once, and nothing else was played.
    assert {(r.byes, r.wins, r.spread, r.points_for, r.games) for r in rows} == {
        (1, 1, league.forfeit_spread, 0, 0)
    }


def test_ties_on_wins_go_to_spread_then_points_for(table, league):
    ada, bo, cy, di = table
    confirmed_game(
        match_between(league, ada, bo), winner=ada, loser=bo, scores=(400, 390)
    )  # Ada +10
    confirmed_game(match_between(league, cy, di), winner=cy, loser=di, scores=(450, 350))  # Cy +100
    rebuild_standings([league.pk])
    assert standing(league, cy).rank == 1 and standing(league, ada).rank == 2


def test_head_to_head_breaks_a_tie_on_wins_spread_and_points(table, league):
    ada, bo, cy, di = table
    confirmed_game(match_between(league, bo, ada), winner=bo, loser=ada, scores=(400, 350))
    confirmed_game(match_between(league, ada, cy), winner=ada, loser=cy, scores=(400, 350))
    confirmed_game(match_between(league, di, bo), winner=di, loser=bo, scores=(400, 350))
    # Ada and Bo: 1-1, spread 0, points for 750 each; Bo won their game.
    rebuild_standings([league.pk])
    assert standing(league, bo).rank < standing(league, ada).rank


def test_players_level_on_everything_share_a_rank(table, league):
    rebuild_standings([league.pk])
    assert set(Standing.objects.filter(league=league).values_list("rank", flat=True)) == {1}


def test_standings_are_live_a_confirmation_rebuilds_them(
    table, league, django_capture_on_commit_callbacks
):
    ada, bo, _, _ = table
    with django_capture_on_commit_callbacks(execute=True):
        confirmed_game(match_between(league, ada, bo), winner=ada, loser=bo)
    assert standing(league, ada).wins == 1


@pytest.mark.parametrize("games", [2, 20])
def test_the_rebuild_runs_a_constant_number_of_queries(
    table, league, games, django_assert_max_num_queries
):
    ada, bo, cy, di = table
    for _ in range(games // 2):
        confirmed_game(match_between(league, ada, bo), winner=ada, loser=bo)
        confirmed_game(match_between(league, cy, di), winner=di, loser=cy)
    # 10 for the table, 1 for brackets to advance, 4 to render its pages (the leagues, their
    # rows, brackets, the upsert).
    with django_assert_max_num_queries(15):
        refresh_leagues([league.pk])


# --- Brackets (L11) ------------------------------------------------------------------------------------


def test_l11_a_complete_regular_season_gets_a_seeded_playoff_bracket(
    table, league, institution, django_capture_on_commit_callbacks
):
    ada, bo, cy, di = table
    league.playoff_size = 4
    league.save()
    confirmed_game(match_between(league, ada, bo), winner=ada, loser=bo, scores=(450, 300))
    confirmed_game(match_between(league, cy, di), winner=cy, loser=di, scores=(420, 400))
    confirmed_game(match_between(league, ada, cy), winner=ada, loser=cy, scores=(400, 390))
    confirmed_game(match_between(league, bo, di), winner=bo, loser=di, scores=(410, 400))
    today = timezone.localdate()

    summary = night(institution, today, django_capture_on_commit_callbacks)

    assert summary.brackets_built == 1
    bracket = Bracket.objects.get(league=league)
    assert bracket.seeds[0] == ada.pk  # seed 1 is the league leader
    finals_of_round_1 = [slot for slot in bracket.slots.all() if slot.round_index == 0]
    assert [(s.seed_a, s.seed_b) for s in finals_of_round_1] == [(1, 4), (2, 3)]
    assert all(s.match and s.match.round.playoff and s.match.deadline for s in finals_of_round_1)
    # The playoff does not change the regular-season table.
    first_game = finals_of_round_1[0].match
    with django_capture_on_commit_callbacks(execute=True):
        confirmed_game(first_game, winner=ada, loser=di)
    assert standing(league, ada).wins == 2


def test_l11_winners_advance_and_the_final_crowns_a_champion(
    table, league, institution, django_capture_on_commit_callbacks
):
    from league.models import LeagueFormat

    ada, bo, cy, di = table
    league.format = LeagueFormat.SINGLE_ELIMINATION
    league.save()
    for seed, profile in enumerate([ada, bo, cy, di], start=1):
        Entry.objects.filter(league=league, player=profile).update(seed=seed)
    today = league.season.registration_deadline + timedelta(days=1)
    night(institution, today, django_capture_on_commit_callbacks)
    bracket = Bracket.objects.get(league=league)
    assert bracket.seeds == [ada.pk, bo.pk, cy.pk, di.pk]  # the director's order

    for slot in bracket.slots.filter(round_index=0):
        winner = slot.match.seats.get(order=1).player  # the better seed sits first
        loser = slot.match.seats.get(order=2).player
        with django_capture_on_commit_callbacks(execute=True):
            confirmed_game(slot.match, winner=winner, loser=loser)
    final = bracket.slots.get(round_index=1)
    assert final.match is not None
    with django_capture_on_commit_callbacks(execute=True):
        confirmed_game(final.match, winner=bo, loser=ada)
    bracket.refresh_from_db()
    assert bracket.champion == bo


def test_l11_which_leagues_are_ready_for_their_bracket(table, league, season):
    """The one definition the nightly job asks for all its leagues at once and the draw asks
    again for one league under its lock."""
    from league.models import LeagueFormat
    from league.playoffs import leagues_ready_for_bracket
    from tests.factories import LeagueFactory

    ada, bo, cy, di = table

    def league_with(*, played: bool, open_match: bool = False, playoff_size: int = 4):
        made = LeagueFactory(season=season, playoff_size=playoff_size)
        if played:
            confirmed_game(match_between(made, ada, bo), winner=ada, loser=bo)
        if open_match:
            match_between(made, cy, di)
        return made

    complete = league_with(played=True)
    still_playing = league_with(played=True, open_match=True)
    no_matches = league_with(played=False)
    no_playoffs = league_with(played=True, playoff_size=1)
    drawn = league_with(played=True)
    Bracket.objects.create(league=drawn, size=2, seeds=[ada.pk, bo.pk])
    tournament = LeagueFactory(season=season, format=LeagueFormat.SINGLE_ELIMINATION)
    ids = [complete.pk, still_playing.pk, no_matches.pk, no_playoffs.pk, drawn.pk, tournament.pk]

    deadline = season.registration_deadline
    assert leagues_ready_for_bracket(ids, deadline) == {complete.pk}  # registration still open
    assert leagues_ready_for_bracket(ids, deadline + timedelta(days=1)) == {
        complete.pk,
        tournament.pk,
    }


def test_l11_no_bracket_while_regular_matches_are_open(
    match, league, institution, django_capture_on_commit_callbacks
):
    summary = night(institution, timezone.localdate(), django_capture_on_commit_callbacks)
    assert summary.brackets_built == 0


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


# --- Public JSON ---------------------------------------------------------------------------------------


def test_standings_json_serves_what_the_pipeline_built(client, table, league):
    ada, bo, _, _ = table
    confirmed_game(match_between(league, ada, bo), winner=ada, loser=bo, scores=(420, 380))
    refresh_leagues([league.pk])
    data = client.get(reverse("league_standings_json", args=[league.slug])).json()
    assert data["league"] == league.slug and data["updated"]
    first = data["standings"][0]
    assert set(first) == {
        "rank",
        "player",
        "wins",
        "losses",
        "ties",
        "byes",
        "forfeits_won",
        "forfeits_lost",
        "double_forfeits",
        "spread",
        "points_for",
        "points_against",
        "games",
    }
    assert (first["player"], first["wins"], first["spread"]) == ("Ada Example", 1, 40)


def test_bracket_json_has_the_public_shape_and_byes_have_no_player_b(
    client, league, institution, season, director
):
    from league.models import LeagueFormat

    league.format = LeagueFormat.SINGLE_ELIMINATION
    league.save()
    for _ in range(3):
        entrant(league)
    refresh_leagues(
        [league.pk], today=season.registration_deadline + timedelta(days=1), build_brackets=True
    )
    data = client.get(reverse("league_bracket_json", args=[league.slug])).json()
    assert (data["league"], data["size"], data["champion"]) == (league.slug, 4, None)
    bye, game = data["rounds"][0]
    assert "player_b" not in bye and bye["status"] == "bye" and bye["winner"] == bye["player_a"]
    assert set(game) == {"seed_a", "player_a", "seed_b", "player_b", "winner", "status"}


@pytest.mark.parametrize("players", [4, 16])
def test_the_standings_page_reads_in_a_constant_number_of_queries(
    client, league, institution, season, players, django_assert_max_num_queries
):
    for _ in range(players):
        entrant(league)
    refresh_leagues([league.pk])
    with django_assert_max_num_queries(5):
        page = client.get(reverse("league_standings", args=[league.slug]))
    assert page.status_code == 200
    assert page.content.decode().count("<tr>") == players + 1


def test_a_private_leagues_json_is_not_public(client, league):
    league.public = False
    league.save()
    assert client.get(reverse("league_standings_json", args=[league.slug])).status_code == 404


def _night_queries(institution, league, season, matches, capture):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    players = [eligible_student(season) for _ in range(2 * matches)]
    last = None
    for i in range(matches):
        last = match_between(league, players[2 * i], players[2 * i + 1])
        if i % 3 == 0:
            submitted_report(last, by=players[2 * i], first_score=400, second_score=300)
    day = day_after(last) + timedelta(days=3)
    with capture(execute=False), CaptureQueriesContext(connection) as queries:
        run_for_institution(institution=institution, today=day)
    return len(queries)


def test_the_pipelines_query_count_grows_with_leagues_not_matches(
    league, season, institution, director, django_capture_on_commit_callbacks
):
    from tests.factories import LeagueFactory

    few = _night_queries(institution, league, season, 3, django_capture_on_commit_callbacks)
    many = _night_queries(
        institution, LeagueFactory(season=season), season, 30, django_capture_on_commit_callbacks
    )
    assert many <= few + 12  # the second run has one more league, ten times the matches


def test_a_failure_mid_rebuild_leaves_every_league_untouched(table, league, season, monkeypatch):
    from league import standings as standings_module
    from tests.factories import LeagueFactory

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


def test_a_failed_email_is_retried_on_its_own(settings):
    from core.tasks import send_email
    from tests.test_email_smtp import free_port

    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", free_port()  # nothing listens there
    settings.EMAIL_TIMEOUT = 2
    from celery.exceptions import Retry

    with pytest.raises(Retry) as retry:
        send_email.apply(args=["Subject", "Body", "league@example.edu", ["someone@example.edu"]])
    assert isinstance(retry.value.exc, ConnectionRefusedError)  # scheduled again, on its own


@pytest.mark.django_db
def test_postgresql_connections_run_without_jit():
    """Compiling the standings aggregate took PostgreSQL longer than running it (config.settings)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW jit")
        assert cursor.fetchone() == ("off",)


def test_the_email_task_keeps_the_name_queued_messages_carry():
    """A message queued before a deploy names its task; a worker that no longer knows that name
    drops the message, and the e-mail with it."""
    from core.tasks import send_email

    assert send_email.name == "accounts.tasks.send_email"
