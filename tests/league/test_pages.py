"""The pages students, front-desk staff and the director use (L3, L10, G8, G10): what each shows,
who may see it, and a constant number of queries whatever the data size."""

from datetime import UTC, timedelta

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts.models import Checkout, EquipmentItem
from accounts.services import equipment_check_out
from league.models import Entry
from league.refresh import refresh_leagues
from league.standings import rebuild_standings
from matches.models import Match
from matches.services import contact_issue_report, proposal_create
from tests.support import (
    LeagueFactory,
    confirmed_game,
    eligible_student,
    entrant,
    match_between,
    submitted_report,
)

# --- Home: My matches ---------------------------------------------------------------------------


def test_my_matches_says_the_one_thing_to_do_next(client, match, league, player, opponent, season):
    waiting = match_between(league, player, opponent)
    proposal_create(actor=opponent.user, match=waiting, times=[timezone.now() + timedelta(days=1)])
    to_confirm = match_between(league, player, opponent)
    submitted_report(to_confirm, by=opponent, scores=[300, 400])
    client.force_login(player.user)

    page = client.get(reverse("home")).content.decode()

    assert "Propose times to your opponent" in page
    assert "Accept one of the proposed times" in page
    assert "Confirm or dispute the reported result" in page
    assert "v Sage Okafor" in page
    assert f"mailto:{opponent.user.email}" in page  # how to reach them, shown to the opponent only


def test_a_my_matches_row_kept_rendered_changes_with_its_match(
    client, match, league, player, opponent
):
    """Issue 18: the rows of My matches are kept rendered (core/fragments.py) under every value
    they show: a proposal, a renamed opponent and a new deadline show on the next request."""
    from core import fragments

    fragments.forget_all()
    client.force_login(player.user)
    assert "Propose times to your opponent" in client.get(reverse("home")).content.decode()
    proposal_create(actor=opponent.user, match=match, times=[timezone.now() + timedelta(days=1)])
    opponent.user.first_name = "Renamed"
    opponent.user.save()
    Match.objects.filter(pk=match.pk).update(deadline=match.deadline + timedelta(days=7))
    page = client.get(reverse("home")).content.decode()
    assert "Accept one of the proposed times" in page and "Propose times" not in page
    assert "v Renamed " in page
    from matches.deadlines import deadline_text

    assert deadline_text(match.deadline + timedelta(days=7), player.institution.tz) in page
    assert deadline_text(match.deadline, player.institution.tz) not in page


def test_my_matches_reads_each_state_from_the_players_own_seat(
    client, match, league, player, opponent
):
    """The hand-written query behind My matches: who proposed, who reported, the outcome of the
    player's seat, an open can't-reach report (L5), and no other player's match."""
    later = [timezone.now() + timedelta(days=1)]
    proposal_create(actor=player.user, match=match_between(league, player, opponent), times=later)
    submitted_report(match_between(league, player, opponent), by=player)
    confirmed_game(match_between(league, player, opponent), winner=opponent, loser=player)
    contact_issue_report(
        actor=player.user,
        match=match_between(league, player, opponent),
        attempts="E-mailed twice, no answer.",
    )
    match_between(league, opponent, eligible_student(league.season))
    client.force_login(player.user)

    page = client.get(reverse("home")).content.decode()

    assert "Waiting for your opponent to accept a time" in page
    assert "Reported: waiting for the other players to confirm" in page
    assert "Final: loss" in page
    assert "Waiting for the director (can&#x27;t reach opponent)" in page
    assert "Propose times to your opponent" in page  # the fixture's match
    assert page.count('class="match-row') == 5


def test_my_matches_escapes_what_players_typed(client, match, player, opponent):
    """The rows come from the template: an opponent's name and e-mail reach the page escaped."""
    opponent.user.first_name = '<b>Sage & "Co"</b>'
    opponent.user.save()
    client.force_login(player.user)
    page = client.get(reverse("home")).content.decode()
    assert "<b>Sage" not in page
    assert "v &lt;b&gt;Sage &amp; &quot;Co&quot;&lt;/b&gt; Okafor" in page
    assert "E-mail &lt;b&gt;Sage &amp; &quot;Co&quot;&lt;/b&gt; Okafor</a>" in page


def test_staff_who_do_not_play_get_their_work_not_a_students_nag(client, director, staff, season):
    client.force_login(director.user)
    page = client.get(reverse("home")).content.decode()
    assert "Your work" in page and "Director dashboard</a>" in page
    assert "Your eligibility" not in page and "Join a league" not in page
    client.force_login(staff.user)
    page = client.get(reverse("home")).content.decode()
    assert "Your work" in page and "Director dashboard" not in page
    assert "Your eligibility" not in page


@pytest.mark.parametrize("count", [1, 15])
def test_home_runs_a_constant_number_of_queries(
    client, match, league, player, opponent, count, django_assert_num_queries
):
    for _ in range(count):
        m = match_between(league, player, opponent)
        proposal_create(actor=opponent.user, match=m, times=[timezone.now() + timedelta(days=1)])
    client.force_login(player.user)
    client.get(reverse("home"))
    # The session, the user with their profile, institution and roles (accounts/backends.py),
    # the season, eligibility, the matches with their opponents, the leagues joined and not
    # drawn yet (issue 30), their entries at coming events with self-entry (their slips, S4).
    with django_assert_num_queries(7):
        assert client.get(reverse("home")).status_code == 200


def test_deadlines_show_in_the_institutions_time_zone(client, match, player):
    """A round's deadline is midnight in the institution's zone: said as the last day, with what
    is due that day (issue 30: one wording everywhere), not as 12:00 AM the next day."""
    league = match.league
    league.report_window_days = 0
    league.save(update_fields=["report_window_days"])
    client.force_login(player.user)
    page = client.get(reverse("home")).content.decode()
    play_by = match.round.play_by
    assert f"play by {play_by.strftime('%a %b %-d')}" in page
    detail = client.get(match.get_absolute_url()).content.decode()
    assert f"Play by {play_by.strftime('%a %b %-d')}, 11:59 PM Central" in detail
    assert "12:00 AM" not in detail and "midnight" not in detail


def test_a_deadline_at_another_time_reads_as_a_day_and_time():
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from matches.deadlines import deadline_text

    chicago = ZoneInfo("America/Chicago")
    midnight = datetime(2026, 11, 28, 6, 0, tzinfo=UTC)
    assert deadline_text(midnight, chicago) == "play by Fri Nov 27"
    assert deadline_text(midnight, chicago, report_window_days=2) == "report by Fri Nov 27"
    afternoon = datetime(2026, 11, 28, 21, 30, tzinfo=UTC)
    assert deadline_text(afternoon, chicago) == "play by Sat Nov 28, 3:30 PM"


def test_a_deadline_said_with_its_zone_names_it_plainly():
    """Issue 48: the match page said "(America/Chicago)". Where the zone is said, it is the last
    minute of the day and the zone's plain name."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from matches.deadlines import deadline_in_zone

    chicago, new_york = ZoneInfo("America/Chicago"), ZoneInfo("America/New_York")
    midnight = datetime(2026, 12, 4, 6, 0, tzinfo=UTC)
    assert deadline_in_zone(midnight, chicago) == "play by Thu Dec 3, 11:59 PM Central"
    assert deadline_in_zone(midnight, chicago, 2) == "report by Thu Dec 3, 11:59 PM Central"
    afternoon = datetime(2026, 7, 28, 21, 30, tzinfo=UTC)
    assert deadline_in_zone(afternoon, new_york) == "play by Tue Jul 28, 5:30 PM Eastern"


# --- Leagues ---------------------------------------------------------------------------------------


def test_a_league_you_are_in_says_so_instead_of_a_disabled_join_button(client, league, player):
    Entry.objects.create(league=league, player=player)
    client.force_login(player.user)
    page = client.get(reverse("league_list")).content.decode()
    assert "You are in this league." in page
    assert f"Join {league.name}</button>" not in page


def test_the_join_button_is_disabled_and_says_why(client, league, player):
    client.force_login(player.user)
    page = client.get(reverse("league_list")).content.decode()
    assert "disabled" in page and "You are not eligible yet" in page


# --- Profile and calendar ------------------------------------------------------------------------


def test_a_student_sets_email_preferences_and_they_are_honoured(
    client, match, player, opponent, django_capture_on_commit_callbacks
):
    client.force_login(opponent.user)
    page = client.get(reverse("profile")).content.decode()
    assert "email_digest" not in page  # students get no digest option
    client.post(reverse("profile"), {"email_reminders": "on"})  # match activity off
    opponent.refresh_from_db()
    assert (opponent.email_match_activity, opponent.email_reminders) == (False, True)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        proposal_create(actor=player.user, match=match, times=[timezone.now() + timedelta(days=1)])
    assert not mail.outbox


def test_staff_see_the_digest_preference(client, staff):
    client.force_login(staff.user)
    assert "email_digest" in client.get(reverse("profile")).content.decode()


def test_the_players_calendar_feed_lists_scheduled_games_and_deadlines(
    client, match, player, opponent
):
    from matches.services import proposal_accept

    when = (timezone.now() + timedelta(days=2)).replace(second=0, microsecond=0)
    proposal = proposal_create(actor=player.user, match=match, times=[when])
    proposal_accept(actor=opponent.user, proposal=proposal, starts_at=when)

    response = client.get(reverse("player_calendar", args=[player.calendar_token]))

    assert response["Content-Type"].startswith("text/calendar")
    body = response.content.decode()
    assert body.startswith("BEGIN:VCALENDAR")
    assert "SUMMARY:Scrabble: Rowan Pemberton v Sage Okafor" in body
    assert "LOCATION:Student Union\\, Games Room" in body
    assert "SUMMARY:Deadline: report Rowan Pemberton v Sage Okafor" in body


def test_rotating_the_calendar_link_retires_the_old_one(client, player):
    old = player.calendar_token
    client.force_login(player.user)
    client.post(reverse("calendar_rotate"))
    player.refresh_from_db()
    assert player.calendar_token != old
    assert client.get(reverse("player_calendar", args=[old])).status_code == 404
    assert client.get(reverse("player_calendar", args=[player.calendar_token])).status_code == 200


def test_the_league_calendar_has_each_rounds_play_by_date(client, match, league):
    body = client.get(reverse("league_calendar", args=[league])).content.decode()
    assert "SUMMARY:Tuesday League: round 1 play-by date" in body


# --- G10, G8 ----------------------------------------------------------------------------------------


def test_g10_the_two_letter_words_page_lists_the_shippable_list(client, league):
    page = client.get(reverse("two_letter_words", args=[league])).content.decode()
    assert "96 two-letter words" in page
    for word in ("AA", "XU", "JO"):
        assert f'<span class="word">{word}</span>' in page
    assert "This plays NASPA Word List 2023, which also accepts words this list lacks" in page


def test_g8_the_match_page_shows_the_per_turn_time(client, match, league, player):
    league.turn_time_seconds = 150
    league.save()
    client.force_login(player.user)
    assert (
        "150 seconds; a timed-out turn is lost"
        in client.get(reverse("match_detail", args=[match.pk])).content.decode()
    )


# --- Front desk equipment (L3) ---------------------------------------------------------------------


@pytest.fixture
def board(institution):
    return EquipmentItem.objects.create(institution=institution, kind="board", label="Board 3")


def test_l3_the_desk_lends_a_board_against_a_campus_id_and_takes_it_back(
    client, staff, player, board, season
):
    client.force_login(staff.user)
    response = client.post(
        reverse("front_desk_lend", args=[player.pk]), {"item": board.pk}, follow=True
    )
    assert "Board: Board 3 lent to Rowan Pemberton" in response.content.decode()
    checkout = Checkout.objects.get()
    page = client.get(reverse("front_desk"), {"campus_id": player.campus_id}).content.decode()
    assert "Out now (1)" in page

    client.post(reverse("front_desk_return", args=[checkout.pk]))
    checkout.refresh_from_db()
    assert checkout.checked_in_at is not None and checkout.checked_in_by == staff.user


def test_l3_an_item_already_out_cannot_be_lent_twice(staff, player, opponent, board):
    from core.errors import DomainError

    equipment_check_out(actor=staff.user, item=board, profile=player)
    with pytest.raises(DomainError, match="already out with Rowan Pemberton"):
        equipment_check_out(actor=staff.user, item=board, profile=opponent)


def test_l3_overdue_items_are_listed_at_the_desk_and_in_the_digest(
    client, staff, director, player, board, institution, django_capture_on_commit_callbacks
):
    from league.nightly import run_for_institution

    equipment_check_out(
        actor=staff.user, item=board, profile=player, now=timezone.now() - timedelta(hours=5)
    )
    client.force_login(staff.user)
    assert "1 overdue" in client.get(reverse("front_desk")).content.decode()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        run_for_institution(institution=institution, today=timezone.localdate() + timedelta(days=1))
    digest = next(m for m in mail.outbox if "what needs you" in m.subject)
    assert "OVERDUE EQUIPMENT (1)" in digest.body and "Board 3" in digest.body


@pytest.mark.parametrize("persona", ["player", "outsider", "other_staff"])
def test_only_the_institutions_desk_lends(client, request, player, board, persona):
    client.force_login(request.getfixturevalue(persona).user)
    assert (
        client.post(reverse("front_desk_lend", args=[player.pk]), {"item": board.pk}).status_code
        == 404
    )
    assert not Checkout.objects.exists()


# --- The director's dashboard and exports ----------------------------------------------------------


@pytest.mark.parametrize(
    ("persona", "status"),
    [("player", 404), ("staff", 404), ("director", 200)],
)
def test_the_dashboard_is_for_the_director(client, request, persona, status, season):
    client.force_login(request.getfixturevalue(persona).user)
    assert client.get(reverse("director_dashboard")).status_code == status


def test_the_dashboard_counts_each_queue(client, director, match, player, season):
    from matches.services import contact_issue_report

    contact_issue_report(actor=player.user, match=match, attempts="Emailed twice, no answer.")
    client.force_login(director.user)
    page = client.get(reverse("director_dashboard")).content.decode()
    assert '<span class="count">1</span><span>Can&#x27;t-reach-opponent reports</span>' in page


@pytest.mark.parametrize("leagues", [1, 6])
def test_the_dashboard_runs_a_constant_number_of_queries(
    client, director, season, leagues, django_assert_num_queries
):
    for _ in range(leagues):
        LeagueFactory(season=season)
    client.force_login(director.user)
    client.get(reverse("director_dashboard"))
    # The session, the user with their roles, the season, the four queues' counts and the number
    # of leagues in one, a page of leagues with their open matches, the nightly's last run.
    with django_assert_num_queries(6):
        client.get(reverse("director_dashboard"))


def test_the_dashboard_counts_each_queue_and_pages_the_leagues(
    client, director, match, player, opponent, season
):
    """A queue's count is of this institution only (a dispute elsewhere doesn't count, L9);
    the leagues come 20 a page with their players and matches not final."""
    from league.models import Entry
    from tests.support import InstitutionFactory, SeasonFactory, new_match, open_dispute

    for each in (player, opponent):
        Entry.objects.create(league=match.league, player=each)
    open_dispute(match)
    elsewhere = LeagueFactory(season=SeasonFactory(institution=InstitutionFactory()))
    open_dispute(new_match(elsewhere))
    for number in range(21):
        LeagueFactory(season=season, name=f"League {number:02}")
    client.force_login(director.user)
    page = client.get(reverse("director_dashboard")).content.decode()
    assert '<span class="count">1</span><span>Open disputes</span>' in page
    assert "Page 1 of 2" in page and page.count('data-testid="league-') == 20
    second = client.get(reverse("director_dashboard"), {"page": 2}).content.decode()
    assert second.count('data-testid="league-') == 2
    row = second[second.index('data-testid="league-tuesday"') :].split("</tr>")[0]
    assert '<td class="num">2</td><td class="num">1</td>' in row  # two players, one match open


def test_csv_exports_of_standings_results_and_roster(
    client, director, match, league, player, opponent, season
):
    confirmed_game(match, winner=player, loser=opponent, scores=(410, 380))
    rebuild_standings([league.pk])
    client.force_login(director.user)

    standings = (
        client.get(reverse("export_standings", args=[league.slug])).content.decode().splitlines()
    )
    assert standings[0].startswith("rank,player,campus_id,wins")
    assert standings[1].startswith(f"1,Rowan Pemberton,{player.campus_id},1,0")
    results = (
        client.get(reverse("export_results", args=[league.slug])).content.decode().splitlines()
    )
    assert "Rowan Pemberton,410,1,win,Sage Okafor,380,2,loss,,,,,,,," in results[1]
    roster = client.get(reverse("export_roster")).content.decode().splitlines()
    assert roster[0] == "campus_id,first_name,last_name,email,eligibility_fall-2026"
    assert any(
        line.startswith(f"{player.campus_id},Rowan,Pemberton") and line.endswith("eligible")
        for line in roster
    )


def test_another_director_cannot_export_this_league(client, other_director, league):
    client.force_login(other_director.user)
    assert client.get(reverse("export_standings", args=[league.slug])).status_code == 404


# --- Errors in the site's style -------------------------------------------------------------------


def test_a_missing_page_is_a_404_in_the_sites_style(client, db):
    response = client.get("/leagues/no-such-league/")
    assert response.status_code == 404
    assert "We couldn't find that page" in response.content.decode()


def test_another_directors_dashboard_shows_only_their_institution(
    client, other_director, match, player
):
    from matches.services import contact_issue_report

    contact_issue_report(actor=player.user, match=match, attempts="Emailed twice, no answer.")
    client.force_login(other_director.user)
    page = client.get(reverse("director_dashboard")).content.decode()
    assert "Elsewhere College" in page and "Tuesday League" not in page
    assert '<span class="count">1</span>' not in page


@pytest.mark.parametrize("checks", [1, 10])
def test_the_profile_page_runs_a_constant_number_of_queries(
    client, player, staff, season, checks, django_assert_num_queries
):
    from accounts.services import id_check_record

    for _ in range(checks):
        id_check_record(actor=staff.user, profile=player, season=season)
    client.force_login(player.user)
    client.get(reverse("profile"))
    # The session, the profile with the pending address, the season, the eligibility, the
    # rating history (R1).
    with django_assert_num_queries(6):
        assert client.get(reverse("profile")).status_code == 200


@pytest.mark.parametrize("entrants", [3, 24])
def test_the_bracket_page_and_json_run_a_constant_number_of_queries(
    client, league, institution, season, entrants, django_assert_max_num_queries
):
    from league.models import LeagueFormat

    league.format = LeagueFormat.SINGLE_ELIMINATION
    league.save()
    for _ in range(entrants):
        entrant(league)
    refresh_leagues(
        [league.pk], today=season.registration_deadline + timedelta(days=1), build_brackets=True
    )
    with django_assert_max_num_queries(1):
        page = client.get(reverse("league_bracket", args=[league]))
    with django_assert_max_num_queries(1):
        data = client.get(reverse("league_bracket_json", args=[league])).json()
    assert page.status_code == 200 and data["size"] == (4 if entrants == 3 else 32)


def test_every_page_names_the_site_icon_and_favicon_ico_leads_to_it(client, db):
    page = client.get("/")
    assert b'rel="icon"' in page.content and b"favicon.svg" in page.content
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("favicon.svg")


def test_the_login_page_says_log_in_as_the_rest_of_the_site_does(client, db):
    page = client.get("/accounts/login/").content.decode()
    assert "Log in" in page and "Sign In" not in page


def test_the_profile_adds_the_calendar_in_one_tap_with_a_webcal_link(client, player):
    """It showed a read-only box whose inline select-on-focus the CSP blocked."""
    client.force_login(player.user)
    page = client.get("/profile/").content.decode()
    token = player.calendar_token
    host = settings.SITE_URL.split("://", 1)[1]  # links that leave the site come from SITE_URL
    assert f'href="webcal://{host}/matches/calendar/{token}.ics"' in page
    assert "onfocus" not in page and 'label for="calendar-link"' in page
