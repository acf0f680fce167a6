"""Issue 17 on the match page: the one next step first and the rest a tap away, a report the
reporter takes back before anyone answers it, a game played earlier than agreed, and no rule
codes on a student's page."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from matches.models import AuditEvent, Match, MatchStatus, ReportStatus
from matches.services import (
    MatchError,
    Ruling,
    proposal_accept,
    proposal_create,
    report_confirm,
    report_submit,
    report_take_back,
    rule,
)
from tests.support import match_between, run_together, submitted_report

RULE_CODE = re.compile(r"\((?:[LGE]\d+)(?:, [LGE]\d+)*\)")


def scheduled_in(match, player, opponent, hours):
    """The match agreed for `hours` from now; a negative count is a time already past (agreed
    in the future, then the clock moved on)."""
    when = (timezone.now() + timedelta(hours=max(hours, 1))).replace(second=0, microsecond=0)
    proposal = proposal_create(actor=player.user, match=match, times=[when])
    proposal_accept(actor=opponent.user, proposal=proposal, starts_at=when)
    if hours < 0:
        when = timezone.now() + timedelta(hours=hours)
        Match.objects.filter(pk=match.pk).update(scheduled_at=when)
    match.refresh_from_db()
    return when


def page(client, user, match):
    client.force_login(user)
    return client.get(reverse("match_detail", args=[match.pk])).content.decode()


# --- Taking a report back -------------------------------------------------------------------------


def test_the_reporter_takes_back_a_report_nobody_answered_and_reports_again(
    match, player, opponent, django_capture_on_commit_callbacks
):
    report = submitted_report(match, by=player, scores=[402, 380])
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        report_take_back(actor=player.user, report=report)

    match.refresh_from_db()
    report.refresh_from_db()
    assert match.status == MatchStatus.UNSCHEDULED
    assert report.status == ReportStatus.TAKEN_BACK
    assert AuditEvent.objects.filter(match=match, action="report_taken_back").count() == 1
    assert [message.to for message in mail.outbox] == [[opponent.user.email]]
    assert "took back" in mail.outbox[0].body
    # The typo fixed: a new report is accepted, since the taken-back one is no longer live.
    submitted_report(match, by=player, scores=[420, 380])
    match.refresh_from_db()
    assert match.status == MatchStatus.REPORTED


def test_a_taken_back_report_returns_a_scheduled_match_to_scheduled(match, player, opponent):
    scheduled_in(match, player, opponent, hours=-2)
    report = submitted_report(match, by=player)
    report_take_back(actor=player.user, report=report)
    match.refresh_from_db()
    assert match.status == MatchStatus.SCHEDULED


def test_only_the_reporter_takes_a_report_back(match, player, opponent):
    report = submitted_report(match, by=player)
    with pytest.raises(MatchError, match="Only the player who reported"):
        report_take_back(actor=opponent.user, report=report)


def test_l6_a_confirmed_report_cannot_be_taken_back(match, player, opponent):
    report = submitted_report(match, by=player)
    report_confirm(actor=opponent.user, report=report)
    with pytest.raises(MatchError, match="can no longer be taken back"):
        report_take_back(actor=player.user, report=report)
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED


def test_l9_a_report_another_player_answered_at_a_table_of_three_stays(league, table):
    """At a table with a scorekeeper (G9), once one of the others confirmed, it stays."""
    from tests.support import table_of

    ada, bo, cy, _ = table
    match = table_of(league, [ada, bo, cy])
    report = report_submit(actor=ada.user, match=match, scores=[300, 250, 200])
    report_confirm(actor=bo.user, report=report)
    with pytest.raises(MatchError, match="already answered"):
        report_take_back(actor=ada.user, report=report)


@pytest.mark.parametrize("attempt", range(2))
def test_a_take_back_racing_the_confirmation_leaves_one_of_them(race_match, attempt):
    """The match row lock orders them: either the result counts, or it was taken back and
    the confirmation is refused; never a confirmed report that is also taken back."""
    match, a, b = race_match
    report = submitted_report(match, by=a, scores=[420, 380])
    outcomes = run_together(
        lambda: report_take_back(actor=a.user, report=report),
        lambda: report_confirm(actor=b.user, report=report),
    )
    refused = [each for each in outcomes if isinstance(each, MatchError)]
    assert len(refused) == 1, outcomes
    match.refresh_from_db()
    report.refresh_from_db()
    assert (match.status, report.status) in {
        (MatchStatus.CONFIRMED, ReportStatus.CONFIRMED),
        (MatchStatus.UNSCHEDULED, ReportStatus.TAKEN_BACK),
    }


def test_the_match_page_offers_take_back_to_the_reporter_only(client, match, player, opponent):
    submitted_report(match, by=player)
    assert "Take back my report" in page(client, player.user, match)
    assert "Take back my report" not in page(client, opponent.user, match)
    response = client.post(
        reverse("match_take_back", args=[match.pk, match.reports.get().pk]), follow=True
    )
    assert "Only the player who reported" in response.content.decode()


# --- Played earlier than agreed -------------------------------------------------------------------


def test_a_report_before_the_agreed_time_asks_whether_the_game_was_played_earlier(
    match, player, opponent
):
    scheduled_in(match, player, opponent, hours=72)
    with pytest.raises(MatchError, match="We played earlier than agreed"):
        report_submit(actor=player.user, match=match, scores=[420, 380])
    match.refresh_from_db()
    assert match.status == MatchStatus.SCHEDULED


def test_a_game_played_earlier_starts_the_confirmation_window_from_the_report(
    match, player, opponent, league
):
    agreed = scheduled_in(match, player, opponent, hours=72)
    report = report_submit(actor=player.user, match=match, scores=[420, 380], played_earlier=True)
    match.refresh_from_db()
    assert match.scheduled_at <= timezone.now() < agreed
    # The window runs from the game, so it no longer ends before the agreed time came.
    assert report.confirm_by == report.submitted_at + timedelta(
        hours=league.confirmation_window_hours
    )
    event = AuditEvent.objects.get(match=match, action="reported")
    assert event.reason.startswith("Played earlier than the agreed")
    assert event.before["scheduled_at"] == agreed.isoformat()


def test_the_report_form_asks_played_earlier_only_before_the_agreed_time(
    client, match, player, opponent
):
    scheduled_in(match, player, opponent, hours=72)
    assert "We played earlier than agreed" in page(client, player.user, match)
    response = client.post(
        reverse("match_report", args=[match.pk]),
        {"score_1": 420, "score_2": 380, "ended_by": "went_out"},
    )
    assert response.status_code == 200
    assert "once you have played" in response.content.decode()
    match.refresh_from_db()
    assert match.status == MatchStatus.SCHEDULED
    response = client.post(
        reverse("match_report", args=[match.pk]),
        {"score_1": 420, "score_2": 380, "ended_by": "went_out", "played_earlier": "on"},
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.REPORTED


def test_a_game_past_its_agreed_time_is_reported_without_the_question(
    client, match, player, opponent
):
    scheduled_in(match, player, opponent, hours=-1)
    html = page(client, player.user, match)
    assert "We played earlier than agreed" not in html
    report_submit(actor=player.user, match=match, scores=[420, 380])


# --- The page's order ---------------------------------------------------------------------------


def _before(html, first, second):
    return html.index(first) < html.index(second)


def test_a_game_due_now_leads_with_the_short_report_and_hides_the_optional_fields(
    client, match, player, opponent
):
    scheduled_in(match, player, opponent, hours=-1)
    html = page(client, player.user, match)
    assert _before(html, 'data-testid="next-step"', 'id="result-heading"')
    form = html[html.index('id="result-heading"') :]
    # The scores and the ending first; the eight optional fields behind "More details".
    more = form.index("More details (optional)")
    assert form.index('name="score_1"') < more and form.index('name="ended_by"') < more
    for optional in ("pre_1", "tiles_1", "discrepancy_turn", "discrepancy_note", "game_record"):
        assert form.index(f'name="{optional}"') > more, optional
    # Problems are one "Something wrong?" away, after the report.
    assert _before(html, 'id="result-heading"', "Something wrong?")
    assert html.index("t reach my opponent</h3>") > html.index("Something wrong?")


def test_a_match_to_schedule_leads_with_proposing_and_keeps_the_report_behind_a_tap(
    client, match, player
):
    html = page(client, player.user, match)
    assert "Propose times to your opponent" in html
    assert _before(html, 'id="propose-heading"', "Already played? Report the result")


def test_a_report_with_errors_comes_back_open_with_what_was_typed(client, match, player):
    client.force_login(player.user)
    response = client.post(
        reverse("match_report", args=[match.pk]),
        {"score_1": 420, "score_2": 380, "ended_by": "went_out", "discrepancy_turn": "0"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert re.search(r'<details class="more"\s+open', html)
    assert re.search(r'<details class="card"\s+open><summary>Already played', html)


def test_l8_a_ruling_shows_its_decision_and_reason_at_the_top(client, match, player, director):
    rule(
        actor=director.user,
        match=match,
        ruling=Ruling.FORFEIT,
        forfeiting=[2],
        reason="Opponent did not show on Tuesday.",
    )
    html = page(client, player.user, match)
    ruling = html.index('data-testid="ruling"')
    assert ruling < html.index('id="facts-heading"') < html.index("History (")
    assert "Opponent did not show on Tuesday." in html[ruling : html.index('id="facts-heading"')]


@pytest.mark.parametrize("state", ["to schedule", "to report", "reported"])
def test_no_rule_codes_on_the_students_match_page(client, match, player, opponent, state):
    """Students read words and a link to the league's rules, not "(L7)" or "(G1)"."""
    if state != "to schedule":
        scheduled_in(match, player, opponent, hours=-1)
    if state == "reported":
        submitted_report(match, by=player)
    for user in (player.user, opponent.user):
        html = page(client, user, match)
        assert not RULE_CODE.search(html), RULE_CODE.search(html).group()
        assert "pragma" not in html
        assert reverse("league_detail", args=[match.league]) + "#rules" in html


def test_l5_a_cant_reach_report_tells_the_opponent_as_well_as_the_director(
    match, player, opponent, director, django_capture_on_commit_callbacks
):
    from matches.services import contact_issue_report

    with django_capture_on_commit_callbacks(execute=True):
        contact_issue_report(
            actor=player.user, match=match, attempts="Texted Monday, e-mailed Wednesday."
        )
    told = {message.to[0]: message for message in mail.outbox}
    assert director.user.email in told
    assert "Texted Monday, e-mailed Wednesday." in told[opponent.user.email].body
    assert "can't reach you" in told[opponent.user.email].subject


def test_no_rule_codes_on_the_students_other_pages(client, league, season, player, opponent):
    """The leagues list named formats "(…, E3)" and "(…, E4)": words only for students."""
    from league.models import LeagueFormat
    from tests.support import LeagueFactory

    LeagueFactory(season=season, slug="club", format=LeagueFormat.CLUB)
    LeagueFactory(season=season, slug="fest", format=LeagueFormat.EVENT)
    match_between(league, player, opponent)  # so that My matches has a row
    client.force_login(player.user)
    for url in (
        "/",
        "/leagues/",
        league.get_absolute_url(),
        "/example-state/leagues/club/",
        "/profile/",
    ):
        html = client.get(url).content.decode()
        found = RULE_CODE.search(html) or re.search(r", E\d\)", html)
        assert not found, (url, found.group())
