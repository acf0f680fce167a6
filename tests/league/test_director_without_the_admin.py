"""The director's everyday jobs without the admin (issue 30): drawing a league's rounds from its
director page (a preview of the rounds, then the draw), coming back to the dispute queue after
a ruling, and a dashboard warning that says how to run the nightly. A student who joined a
league not drawn yet is told so at home."""

from datetime import timedelta

import pytest
from django.urls import reverse

from league.models import League, Round
from matches.models import Match
from tests.support import LeagueFactory, entrant, new_match, open_dispute


@pytest.fixture
def undrawn(season):
    league = LeagueFactory(season=season, slug="undrawn", name="Undrawn League")
    for index in range(5):
        entrant(league, first_name=f"Player{index}")
    return league


def test_e1_the_director_draws_a_league_from_its_page_after_a_preview(client, director, undrawn):
    client.force_login(director.user)
    page = client.get(reverse("director_league", args=["undrawn"])).content.decode()
    assert 'data-testid="draw"' in page and "5 players are in" in page
    first = undrawn.season.institution.today() + timedelta(days=7)
    url = reverse("director_league_draw", args=["undrawn"])

    preview = client.post(url, {"first_play_by": first.isoformat()})

    shown = preview.content.decode()
    assert (
        preview.status_code == 200 and "Draw 5 rounds" in shown and "a bye in each round" in shown
    )
    assert f"play by {first:%a %b} {first.day}" in shown
    assert not Round.objects.filter(league=undrawn).exists()  # nothing drawn yet
    drawn = client.post(url, {"first_play_by": first.isoformat(), "confirm": "1"}, follow=True)
    assert "5 rounds drawn" in drawn.content.decode()
    assert Round.objects.filter(league=undrawn).count() == 5
    assert Match.objects.filter(league=undrawn).count() == 15  # 2 games and a bye a round
    after = client.get(reverse("director_league", args=["undrawn"])).content.decode()
    assert 'data-testid="draw"' not in after


def test_e1_the_draw_address_opened_by_get_leads_to_the_league_page_where_the_draw_starts(
    client, director, undrawn
):
    client.force_login(director.user)

    response = client.get(reverse("director_league_draw", args=["undrawn"]), follow=True)

    assert response.redirect_chain == [(reverse("director_league", args=["undrawn"]), 302)]
    assert 'data-testid="draw"' in response.content.decode()
    assert not Round.objects.filter(league=undrawn).exists()


def test_e1_a_draw_that_cannot_be_made_says_why_and_draws_nothing(client, director, undrawn):
    client.force_login(director.user)
    past = undrawn.season.institution.today() - timedelta(days=1)

    refused = client.post(
        reverse("director_league_draw", args=["undrawn"]),
        {"first_play_by": past.isoformat(), "confirm": "1"},
        follow=True,
    )

    assert "Nothing was drawn: The first play-by date" in refused.content.decode()
    assert not Round.objects.filter(league=undrawn).exists()


def test_e1_only_the_leagues_director_draws(client, other_director, staff, undrawn):
    first = undrawn.season.institution.today() + timedelta(days=7)
    for someone in (other_director, staff):
        client.force_login(someone.user)
        response = client.post(
            reverse("director_league_draw", args=["undrawn"]),
            {"first_play_by": first.isoformat(), "confirm": "1"},
        )
        assert response.status_code == 404
    assert not Round.objects.filter(league=undrawn).exists()


def test_l9_after_a_ruling_the_director_is_back_at_the_dispute_queue(client, director, league):
    dispute = open_dispute(new_match(league))
    client.force_login(director.user)
    queue = client.get(reverse("director_disputes")).content.decode()
    resolve = reverse("admin:matches_dispute_resolve", args=[dispute.pk])
    link = f"{resolve}?next={reverse('director_disputes')}"
    assert link in queue

    ruled = client.post(link, {"ruling": "upheld", "reason": "The card agrees."})

    assert ruled.status_code == 302 and ruled["Location"] == reverse("director_disputes")
    outside = client.post(
        f"{resolve}?next=https://elsewhere.example.org/", {"ruling": "upheld", "reason": "x"}
    )
    assert "elsewhere.example.org" not in outside.get("Location", "")


def test_the_dashboards_nightly_warning_says_how_to_run_it(client, director, institution):
    client.force_login(director.user)

    page = client.get(reverse("director_dashboard")).content.decode()

    assert "has never run" in page and "python manage.py run_nightly" in page


def test_l1_a_student_who_joined_a_league_not_drawn_yet_is_told_so_at_home(client, season, undrawn):
    student = undrawn.entries.first().player
    client.force_login(student.user)

    page = client.get(reverse("home")).content.decode()

    assert 'data-testid="joined"' in page and "You are in" in page and "Undrawn League" in page
    deadline = season.registration_deadline
    assert f"Registration closes {deadline:%a %b} {deadline.day}" in page
    assert "No matches yet. " not in page
    assert League.objects.get(slug="undrawn").rounds.count() == 0


def test_a_club_tables_e_mail_links_stand_apart_on_a_students_home():
    """A club night's row read "E-mail KaiE-mail Casey" (issue 30)."""
    from core.fragments import rendered

    row = rendered(
        "league/_my_match_row.html",
        {
            "match_id": 1,
            "needs_you": True,
            "step": "Report the result",
            "opponents": (
                ("Kai Thistlewood", "kai@example.edu"),
                ("Casey Ives", "casey@example.edu"),
            ),
            "placings": "",
            "league_name": "Thursday Club",
            "round_number": 4,
            "table": 2,
            "due": "",
        },
    )

    assert "E-mail Kai Thistlewood</a> <a" in row and "E-mail Casey Ives" in row


def test_a_deadline_reads_the_same_in_the_mail_and_the_admin(
    client, director, match, player, django_capture_on_commit_callbacks
):
    """Issue 30: an extension "to the end of Thu Dec 3" was mailed as "Fri Dec 4, 12:00 AM" and
    the admin listed "Dec. 4, 2026, midnight". One wording everywhere: the last day and what is
    due that day."""
    from django.core import mail

    from matches.deadlines import match_due
    from matches.services import rule

    league = match.league
    league.report_window_days = 2
    league.save(update_fields=["report_window_days"])
    match.refresh_from_db()
    new = match.deadline + timedelta(days=7)
    with django_capture_on_commit_callbacks(execute=True):
        rule(
            actor=director.user,
            match=match,
            ruling="extend",
            reason="Snow day",
            new_deadline=new,
        )
    match.refresh_from_db()
    words = match_due(match)
    assert words.startswith("report by ") and "12:00 AM" not in words
    assert any(words in message.body for message in mail.outbox)
    client.force_login(director.user)
    listing = client.get(reverse("admin:matches_match_changelist")).content.decode()
    assert words in listing and "midnight" not in listing
