"""Match and league pages: who may see and act (the permission matrix), bad input that changes
nothing, and a constant number of SQL queries whatever the data size."""

import html
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import Lexicon
from matches.deadlines import deadline_in_zone
from matches.models import Dispute, GameEnd, MatchStatus, ResultReport, ScheduleProposal
from matches.services import equipment_agree, proposal_create, rule
from tests.support import (
    LeagueFactory,
    ProfileFactory,
    eligible,
    entrant,
    match_between,
    new_match,
    open_dispute,
    submitted_report,
)

PERSONAS = ["anonymous", "outsider", "player", "opponent", "staff", "other_director", "director"]
SEES_MATCH = {"player", "opponent", "director"}


def login(client, request, persona):
    if persona != "anonymous":
        client.force_login(request.getfixturevalue(persona).user)


def local_input(hours):
    return (
        timezone.localtime(
            timezone.now() + timedelta(hours=hours), timezone.get_fixed_timezone(-360)
        )
    ).strftime("%Y-%m-%dT%H:00")


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_match_page_is_for_its_players_and_director_only(client, request, match, persona):
    login(client, request, persona)
    response = client.get(reverse("match_detail", args=[match.pk]))
    if persona == "anonymous":
        assert response.status_code == 302
    else:
        assert response.status_code == (200 if persona in SEES_MATCH else 404)


ACTIONS = [
    ("match_propose", {"time_1": "2030-01-01T10:00"}),
    ("match_equipment", {"description": "Deluxe board"}),
    ("match_cant_reach", {"attempts": "Emailed twice this week."}),
    ("match_report", {"score_1": 400, "score_2": 350, "ended_by": "went_out"}),
]


@pytest.mark.parametrize("persona", ["anonymous", "outsider", "staff", "other_director"])
@pytest.mark.parametrize(("name", "data"), ACTIONS)
def test_nobody_outside_the_match_can_act_on_it(client, request, match, persona, name, data):
    login(client, request, persona)
    response = client.post(reverse(name, args=[match.pk]), data)
    assert response.status_code in (302, 404)
    if persona != "anonymous":
        assert response.status_code == 404
    match.refresh_from_db()
    assert match.status == MatchStatus.UNSCHEDULED
    assert not match.audit_events.exclude(action="created").exists()


@pytest.mark.parametrize(("name", "data"), ACTIONS)
def test_the_director_sees_but_cannot_act_as_a_player(client, director, match, name, data):
    client.force_login(director.user)
    response = client.post(reverse(name, args=[match.pk]), data)
    assert response.status_code == 200
    assert "Only the match&#x27;s players" in response.content.decode()
    assert not match.audit_events.exclude(action="created").exists()


def test_a_player_proposes_and_the_opponent_accepts_through_the_pages(
    client, match, player, opponent
):
    client.force_login(player.user)
    response = client.post(
        reverse("match_propose", args=[match.pk]),
        {"time_1": local_input(30), "time_2": local_input(54)},
        follow=True,
    )
    assert "Times proposed" in response.content.decode()
    proposal = ScheduleProposal.objects.get()

    client.force_login(opponent.user)
    key = proposal.times.first().starts_at.isoformat()
    response = client.post(
        reverse("match_accept", args=[match.pk, proposal.pk]), {"starts_at": key}, follow=True
    )
    assert "Match scheduled" in response.content.decode()
    match.refresh_from_db()
    assert match.status == MatchStatus.SCHEDULED


def test_the_winner_reports_from_their_own_side_of_the_board(client, match, opponent):
    """The opponent sits second; "your score" becomes seat 2's score."""
    client.force_login(opponent.user)
    client.post(
        reverse("match_report", args=[match.pk]),
        {"score_1": 390, "score_2": 410, "ended_by": "went_out"},
    )
    report = ResultReport.objects.get()
    assert report.score_list() == [390, 410]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"score_1": "lots", "score_2": 300, "ended_by": "went_out"},
            "Enter a whole number",
        ),
        (
            {"score_1": 1600, "score_2": 300, "ended_by": "went_out"},
            "less than or equal to 1500",
        ),
        (
            {"score_1": -101, "score_2": 300, "ended_by": "went_out"},
            "greater than or equal to -100",
        ),
        ({"score_1": 300, "score_2": 400, "ended_by": "went_out"}, "the winner reports"),
        ({"score_1": 90, "score_2": 60, "ended_by": "went_out"}, "yes, really"),
    ],
)
def test_bad_reports_re_render_with_a_message_and_change_nothing(
    client, match, player, data, message
):
    client.force_login(player.user)
    response = client.post(reverse("match_report", args=[match.pk]), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not ResultReport.objects.exists()


def test_g3_a_report_with_an_unknown_ending_re_renders_with_the_error_and_changes_nothing(
    client, match, player
):
    client.force_login(player.user)
    response = client.post(
        reverse("match_report", args=[match.pk]),
        {"score_1": 420, "score_2": 380, "ended_by": "resigned"},
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "Select a valid choice. resigned is not one of the available choices." in page
    assert "Nothing was changed" in page
    assert 'value="420"' in page  # what was typed comes back with the error
    assert not ResultReport.objects.exists()
    match.refresh_from_db()
    assert match.status == MatchStatus.UNSCHEDULED
    assert not match.audit_events.exclude(action="created").exists()


@pytest.mark.parametrize("ending", GameEnd)
def test_g3_the_chosen_ending_is_stored_and_shown_on_the_match_page(
    client, match, player, opponent, ending
):
    client.force_login(player.user)
    client.post(
        reverse("match_report", args=[match.pk]),
        {"score_1": 420, "score_2": 380, "ended_by": ending.value},
    )
    assert ResultReport.objects.get().ended_by == ending
    client.force_login(opponent.user)
    url = reverse("match_detail", args=[match.pk])
    for _ in ("reported", "confirmed"):
        # The report form and its choices are gone: only the chosen ending is named.
        page = client.get(url).content.decode().lower()
        assert ending.label.lower() in page
        assert not [other for other in GameEnd if other != ending and other.label.lower() in page]
        client.post(reverse("match_confirm", args=[match.pk, ResultReport.objects.get().pk]))


def test_a_time_in_the_past_re_renders_with_a_message(client, match, player):
    client.force_login(player.user)
    response = client.post(
        reverse("match_propose", args=[match.pk]), {"time_1": "2001-01-01T10:00"}
    )
    assert "is in the past" in response.content.decode()
    assert not ScheduleProposal.objects.exists()


def test_double_submission_from_two_tabs_lands_once(client, match, player):
    client.force_login(player.user)
    data = {"score_1": 400, "score_2": 350, "ended_by": "went_out"}
    client.post(reverse("match_report", args=[match.pk]), data)
    second = client.post(reverse("match_report", args=[match.pk]), data)
    assert "already been reported" in second.content.decode()
    assert ResultReport.objects.count() == 1


def test_the_opponent_confirms_or_disputes_from_the_match_page(client, match, player, opponent):
    report = submitted_report(match, by=player, scores=[400, 350])
    client.force_login(opponent.user)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert "Confirm this result" in page and "Dispute it" in page

    response = client.post(
        reverse("match_dispute", args=[match.pk, report.pk]),
        {"score_1": 370, "score_2": 380, "turn": 9, "note": "Turn 9 miscounted"},
        follow=True,
    )
    assert "Dispute sent" in response.content.decode()
    dispute = Dispute.objects.get()
    assert dispute.scores == [370, 380]


@pytest.mark.parametrize("persona", ["outsider", "player", "staff", "other_director"])
def test_only_the_opponent_confirms(client, request, match, player, persona):
    report = submitted_report(match, by=player, scores=[400, 350])
    login(client, request, persona)
    client.post(reverse("match_confirm", args=[match.pk, report.pk]))
    match.refresh_from_db()
    assert match.status == MatchStatus.REPORTED


@pytest.mark.parametrize("matches", [1, 12])
def test_the_match_page_runs_a_constant_number_of_queries(
    client, match, league, player, opponent, season, matches, django_assert_num_queries
):
    for _ in range(matches):
        match_between(league, player, opponent)
    proposal_create(actor=player.user, match=match, times=[timezone.now() + timedelta(days=1)])
    client.force_login(opponent.user)
    client.get(reverse("match_detail", args=[match.pk]))
    # The session, the user with their roles, the match, its seats, open proposals, their times,
    # reports, audit events, can't-reach reports.
    with django_assert_num_queries(9):
        assert client.get(reverse("match_detail", args=[match.pk])).status_code == 200


# --- League pages -------------------------------------------------------------------------------


def test_a_public_league_page_is_visible_to_anyone(client, league, match):
    assert client.get(reverse("league_detail", args=[league])).status_code == 200


@pytest.mark.parametrize(
    ("persona", "status"),
    [("anonymous", 404), ("outsider", 404), ("player", 200), ("director", 200)],
)
def test_a_private_league_page_is_for_its_institution(client, request, league, persona, status):
    league.public = False
    league.save()
    login(client, request, persona)
    assert client.get(reverse("league_detail", args=[league])).status_code == status


@pytest.mark.parametrize("rounds", [1, 8])
def test_the_league_page_runs_a_constant_number_of_queries(
    client, league, player, opponent, season, rounds, django_assert_max_num_queries
):
    eligible(player, season), eligible(opponent, season)
    for _ in range(rounds):
        match_between(league, player, opponent)
    with django_assert_max_num_queries(5):
        client.get(reverse("league_detail", args=[league]))


def test_the_leagues_page_says_why_joining_is_disabled(client, league, player):
    client.force_login(player.user)
    page = client.get(reverse("league_list")).content.decode()
    assert "You are not eligible yet" in page


def test_an_eligible_student_joins_from_the_leagues_page(client, league, player, season):
    eligible(player, season)
    client.force_login(player.user)
    response = client.post(reverse("league_join", args=[league]), follow=True)
    assert "You joined Tuesday League" in response.content.decode()


def test_a_student_cannot_join_another_institutions_league(client, outsider, other_institution):
    from tests.support import SeasonFactory

    elsewhere = LeagueFactory(season=SeasonFactory(institution=other_institution))
    client.force_login(ProfileFactory(institution=other_institution).user)
    client.force_login(outsider.user)
    assert client.post(reverse("league_join", args=[elsewhere])).status_code == 302


# --- The director's dispute queue --------------------------------------------------------------------


@pytest.mark.parametrize("disputes", [1, 10])
def test_the_dispute_queue_shows_both_versions_in_a_constant_number_of_queries(
    client, director, league, season, disputes, django_assert_num_queries
):
    for _ in range(disputes):
        open_dispute(new_match(league), turn=5, note="Miscount at turn 5")
    client.force_login(director.user)
    url = reverse("admin:matches_dispute_changelist") + "?state=open"
    client.get(url)
    # The session, the user's permissions (two), the count, the page of disputes, their
    # matches' seats with players and users, the reports' scores. No league filter: a league is
    # searched for by name (500 leagues made a sidebar 500 links long).
    with django_assert_num_queries(8):
        page = client.get(url).content.decode()
    assert page.count("Miscount at turn 5") == disputes
    # Each score beside its player's first name: the report's 420-380, the dispute's 400-410.
    assert re.search(r"<strong>\w+ 420 – \w+ 380</strong>", page)
    assert re.search(r"<strong>\w+ 400 – \w+ 410</strong>", page)


def test_the_admins_dispute_list_finds_a_leagues_disputes_by_its_name(
    client, director, league, season
):
    """A campus of hundreds of leagues: the list is searched by league name rather than
    filtered from a sidebar of every league (issue 34)."""
    other = LeagueFactory(season=season, name="Friday Blitz", slug="friday-blitz")
    open_dispute(new_match(league), turn=5, note="Miscount in the league")
    for profile in (entrant(other), entrant(other)):
        eligible(profile, season)
    open_dispute(new_match(other), turn=7, note="Miscount at the blitz")
    client.force_login(director.user)
    url = reverse("admin:matches_dispute_changelist")
    page = client.get(url, {"state": "open", "q": "blitz"}).content.decode()
    assert "Miscount at the blitz" in page
    assert "Miscount in the league" not in page


def _uphold(dispute, director):
    """The director upholds the report `dispute` contests (L9)."""
    rule(
        actor=director.user,
        match=dispute.report.match,
        dispute=dispute,
        ruling=Dispute.Resolution.UPHELD,
        reason="Sheets compared.",
    )


def test_l9_the_admins_dispute_list_shows_a_ruled_dispute_with_its_ruling_not_a_resolve_link(
    client, director, league, season
):
    """The rows are drawn whole from plain values (matches/dispute_queue.py · dispute_row): an
    open dispute offers its ruling and says how long it has waited; a ruled one says the ruling."""
    ruled = open_dispute(new_match(league), turn=5, note="Miscount, since ruled")
    waiting = open_dispute(new_match(league), turn=7, scores_at_turn=[120, 98], note="Still open")
    _uphold(ruled, director)
    client.force_login(director.user)
    url = reverse("admin:matches_dispute_changelist")
    resolved = client.get(url, {"state": "resolved"}).content.decode()
    assert "Miscount, since ruled" in resolved and "Still open" not in resolved
    assert Dispute.Resolution.UPHELD.label in resolved
    assert reverse("admin:matches_dispute_resolve", args=[ruled.pk]) not in resolved
    assert f'href="{reverse("admin:matches_dispute_change", args=[ruled.pk])}">—</a>' in resolved

    still_open = client.get(url, {"state": "open"}).content.decode()
    assert "Miscount, since ruled" not in still_open
    assert reverse("admin:matches_dispute_resolve", args=[waiting.pk]) in still_open
    assert "turn 7 at 120–98" in still_open
    assert f'href="{reverse("match_detail", args=[waiting.report.match_id])}"' in still_open


def test_l9_the_admins_open_queue_pages_through_every_waiting_dispute_oldest_first(
    client, director, league, season, django_assert_num_queries
):
    """The list as a director opens it (?state=open) is counted and paged by the director's own
    queue's reads; any other view of it (a search, here an empty one) by the admin's. Both show
    the same disputes on the same pages, each once, oldest first."""
    notes = [f"Miscount number {n:02d}" for n in range(27)]
    for note in notes:
        open_dispute(new_match(league), note=note)
    ruled = open_dispute(new_match(league), note="Already ruled")
    _uphold(ruled, director)
    client.force_login(director.user)
    url = reverse("admin:matches_dispute_changelist")

    def shown(params):
        page = client.get(url, params).content.decode()
        return re.findall(r"Miscount number \d\d|Already ruled", page), page

    client.get(url, {"state": "open"})
    with django_assert_num_queries(8):
        first, page = shown({"state": "open"})
    assert "27 disputes" in page
    second, _ = shown({"state": "open", "p": 2})
    assert first + second == notes
    assert (first, second) == (
        shown({"state": "open", "q": ""})[0],
        shown({"state": "open", "q": "", "p": 2})[0],
    )
    assert (
        client.get(url, {"state": "open", "p": 3}).status_code == 302
    )  # no such page: the admin's own answer


def test_the_director_resolves_a_dispute_in_the_admin_with_a_reason(
    client, director, league, season
):
    dispute = open_dispute(new_match(league), turn=5, note="Miscount at turn 5")
    client.force_login(director.user)
    url = reverse("admin:matches_dispute_resolve", args=[dispute.pk])
    page = client.get(url).content.decode()
    assert "Report (" in page and "'s version" in page
    # The deadline in the institution's clock, as the new-deadline field expects it.
    deadline = dispute.report.match.deadline
    league = dispute.report.match.league
    said = deadline_in_zone(deadline, season.institution.tz, league.report_window_days)
    assert f"Deadline: {said}." in page and said.endswith(" PM Central")
    assert "America/Chicago" not in page
    assert "Result disputed by" in page and "— disputed by" not in page  # labels, not codes
    assert "Turn 5: Miscount at turn 5" in page and "Turn ?" not in page

    missing = client.post(url, {"ruling": "upheld", "reason": ""})
    assert missing.status_code == 200
    dispute.refresh_from_db()
    assert dispute.is_open

    client.post(
        url,
        {"ruling": "amended", "reason": "Sheets compared", "score_1": 390, "score_2": 410},
    )
    dispute.refresh_from_db()
    assert dispute.resolution == "amended"
    assert dispute.report.match.status == MatchStatus.RESOLVED


def test_another_directors_queue_never_shows_these_disputes(client, other_director, league, season):
    dispute = open_dispute(new_match(league), turn=5, note="Miscount at turn 5")
    client.force_login(other_director.user)
    assert (
        "Miscount" not in client.get(reverse("admin:matches_dispute_changelist")).content.decode()
    )
    assert (
        client.get(reverse("admin:matches_dispute_resolve", args=[dispute.pk])).status_code == 404
    )


def test_the_director_draws_rounds_in_the_admin(client, director, league, season):
    for _ in range(4):
        entrant(league)
    client.force_login(director.user)
    response = client.post(
        reverse("admin:league_league_draw", args=[league.pk]),
        {"first_play_by": (timezone.localdate() + timedelta(days=7)).isoformat()},
        follow=True,
    )
    assert "3 rounds drawn" in response.content.decode()


def page_text(response) -> str:
    """A page's words as a reader sees them: no tags, entities read, spacing collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def test_g7_the_leagues_lexicon_is_named_on_the_league_list_the_league_page_and_the_match_page(
    client, league, match, player
):
    league.lexicon = Lexicon.CSW24
    league.save()
    client.force_login(player.user)
    for url in (
        reverse("league_list"),
        reverse("league_detail", args=[league]),
        reverse("match_detail", args=[match.pk]),
    ):
        assert "Collins Scrabble Words 2024" in page_text(client.get(url)), url


def test_g7_l4_an_agreed_alternative_appears_beside_the_lexicon_on_the_match_page(
    client, league, match, player, opponent
):
    league.lexicon = Lexicon.OSPD4
    league.save()
    lexicon = "Official Scrabble Players Dictionary, 4th edition"
    alternative = "Rowan's deluxe board and OSPD6"
    beside = re.compile(re.escape(lexicon) + r".{0,60}" + re.escape(alternative))
    url = reverse("match_detail", args=[match.pk])
    client.force_login(opponent.user)

    equipment_agree(actor=player.user, match=match, description=alternative)
    proposed = page_text(client.get(url))
    assert lexicon in proposed and alternative in proposed  # proposed, not yet agreed
    assert not beside.search(proposed)

    equipment_agree(actor=opponent.user, match=match)
    agreed = page_text(client.get(url))
    assert beside.search(agreed)


@pytest.mark.parametrize("leagues", [1, 6])
def test_the_leagues_page_runs_a_constant_number_of_queries(
    client, player, season, leagues, django_assert_num_queries
):
    for _ in range(leagues):
        LeagueFactory(season=season)
    client.force_login(player.user)
    client.get(reverse("league_list"))
    with django_assert_num_queries(4):  # the session, the list's count, its page
        assert client.get(reverse("league_list")).status_code == 200


def test_a_proposed_time_is_read_in_the_institutions_time_zone(client, match, player):
    """18:00 typed on a campus in Chicago is 18:00 in Chicago, whatever the server's zone."""
    from zoneinfo import ZoneInfo

    client.force_login(player.user)
    day = (
        timezone.localtime(timezone.now(), ZoneInfo("America/Chicago")) + timedelta(days=2)
    ).date()
    client.post(reverse("match_propose", args=[match.pk]), {"time_1": f"{day.isoformat()}T18:00"})
    moment = ScheduleProposal.objects.get().times.get().starts_at
    assert timezone.localtime(moment, ZoneInfo("America/Chicago")).hour == 18


def test_l1_the_proposal_form_says_the_zone_it_reads_times_in(client, match, player, opponent):
    """Issue 48: "6:00 PM" typed on a phone set to New York was saved as Chicago's 6:00 PM and
    nothing said so. The form says whose clock it reads; the times offered, the agreed time and
    the deadline say the zone's plain name, never "America/Chicago"."""
    from zoneinfo import ZoneInfo

    client.force_login(player.user)
    url = reverse("match_detail", args=[match.pk])
    page = client.get(url).content.decode()
    assert "Times are Central Time (Chicago)" in page
    assert re.search(r"<dt>Deadline</dt><dd>Play by \w{3} \w{3} \d+, 11:59 PM Central</dd>", page)
    assert "America/" not in page

    day = (
        timezone.localtime(timezone.now(), ZoneInfo("America/Chicago")) + timedelta(days=2)
    ).date()
    client.post(reverse("match_propose", args=[match.pk]), {"time_1": f"{day.isoformat()}T18:00"})
    said = f"{day:%a %b} {day.day}, 6:00 PM"
    assert f"{said} (Central time)" in client.get(url).content.decode()  # waiting on them
    client.force_login(opponent.user)
    offered = client.get(url).content.decode()
    assert f"{said} Central" in offered  # the choice to accept
    proposal = ScheduleProposal.objects.get()
    key = proposal.times.get().starts_at.isoformat()
    client.post(reverse("match_accept", args=[match.pk, proposal.pk]), {"starts_at": key})
    assert f"Playing {said} Central at" in client.get(url).content.decode()
