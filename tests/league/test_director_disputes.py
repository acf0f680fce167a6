"""The director's dispute queue (/director/disputes/): the disputes waiting for a ruling (L9),
oldest first, both versions side by side, each row linking to the match and to the admin's
resolve page (issue 18 moved the queue out of the admin's list, which stays for the archive)."""

import pytest
from django.urls import reverse

from matches.services.rulings import rule
from tests.support import (
    InstitutionFactory,
    LeagueFactory,
    SeasonFactory,
    new_match,
    open_dispute,
)

QUEUE = "/director/disputes/"


def test_l9_a_dispute_shows_both_versions_where_they_part_and_the_way_to_the_ruling(
    client, director, match, player, opponent
):
    dispute = open_dispute(
        match,
        reported=(420, 380),
        disputed=(400, 410),
        note="Turn 12 was scored 32, not 12.",
        turn=12,
        scores_at_turn=[200, 210],
    )
    client.force_login(director.user)
    page = client.get(reverse("director_disputes")).content.decode()
    assert reverse("director_disputes") == QUEUE
    row = page[page.index(f'data-testid="dispute-{dispute.pk}"') :].split("</li>")[0]
    first, second = player.user.first_name, opponent.user.first_name
    assert f"{player.name} v {opponent.name}" in row
    assert f"Tuesday League, round {match.round.number}" in row
    assert f"{first} 420 – {second} 380" in row and f"by {player.user}" in row
    assert f"{first} 400 – {second} 410" in row and f"by {opponent.user}" in row
    assert "Turn 12 at 200–210: Turn 12 was scored 32, not 12." in row
    assert reverse("admin:matches_dispute_resolve", args=[dispute.pk]) in row
    assert reverse("match_detail", args=[match.pk]) in row
    assert 'Disputes <span class="muted">(1)</span>' in page


def test_l9_only_this_institutions_open_disputes_oldest_first_and_the_dashboard_links_here(
    client, director, league, match, season
):
    first = open_dispute(match)
    second = open_dispute(new_match(league))
    settled = open_dispute(new_match(league))
    rule(
        actor=director.user,
        match=settled.report.match,
        dispute=settled,
        ruling="upheld",
        reason="The record agrees with the report.",
    )
    elsewhere = LeagueFactory(season=SeasonFactory(institution=InstitutionFactory()))
    theirs = open_dispute(new_match(elsewhere))
    client.force_login(director.user)
    page = client.get(QUEUE).content.decode()
    shown = [d.pk for d in (first, second, settled, theirs) if f'"dispute-{d.pk}"' in page]
    assert shown == [first.pk, second.pk]
    assert page.index(f'"dispute-{first.pk}"') < page.index(f'"dispute-{second.pk}"')
    dashboard = client.get(reverse("director_dashboard")).content.decode()
    assert f'<a class="queue busy" href="{QUEUE}"><span class="count">2</span>' in dashboard


@pytest.mark.parametrize(
    ("persona", "status", "sees_it"),
    [
        ("player", 404, False),
        ("staff", 404, False),
        ("other_director", 200, False),  # their own institution's queue
        ("director", 200, True),
    ],
)
def test_the_dispute_queue_is_the_directors_alone(client, request, match, persona, status, sees_it):
    dispute = open_dispute(match)
    client.force_login(request.getfixturevalue(persona).user)
    response = client.get(QUEUE)
    assert response.status_code == status
    assert (f'"dispute-{dispute.pk}"' in response.content.decode()) == sees_it


def test_a_visitor_is_sent_to_log_in(client):
    response = client.get(QUEUE)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_long_queue_comes_a_page_at_a_time(client, director, league, monkeypatch):
    monkeypatch.setattr("league.views.director.DISPUTES_PER_PAGE", 2)
    disputes = [open_dispute(new_match(league)) for _ in range(5)]
    client.force_login(director.user)
    seen = []
    for number in (1, 2, 3):
        page = client.get(QUEUE, {"page": number}).content.decode()
        assert f"Page {number} of 3" in page
        seen += [d.pk for d in disputes if f'"dispute-{d.pk}"' in page]
    assert seen == [d.pk for d in disputes]
    last = client.get(QUEUE, {"page": 99}).content.decode()  # the last page, not an error
    assert "Page 3 of 3" in last and "No dispute is waiting" not in last


def test_an_empty_queue_says_so(client, director):
    client.force_login(director.user)
    assert "No dispute is waiting for you." in client.get(QUEUE).content.decode()


@pytest.mark.parametrize("disputes", [1, 12])
def test_the_dispute_queue_runs_a_constant_number_of_queries(
    client, director, league, disputes, django_assert_num_queries
):
    for _ in range(disputes):
        open_dispute(new_match(league))
    client.force_login(director.user)
    client.get(QUEUE)
    # The session, the user with their roles, the count, the page of disputes with the names
    # they show, the seats' names, the reports' scores.
    with django_assert_num_queries(6):
        page = client.get(QUEUE).content.decode()
    assert page.count('data-testid="dispute-') == disputes


def test_g9_seat_names_name_a_guest_and_a_student_without_a_first_name(league, season):
    """The queues' names read as values say what PlayerProfile.name and first_name say: a
    guest by their display name, a student without names by e-mail and "Seat n"."""
    from accounts.models import PlayerProfile
    from matches.models import Seat
    from matches.selectors import seat_names

    match = new_match(league)
    guest = PlayerProfile.objects.create(institution=season.institution, display_name="Gus")
    Seat.objects.filter(match=match, order=2).update(player=guest)
    student = match.seats.get(order=1).player
    student.user.first_name = student.user.last_name = ""
    student.user.save()
    names = seat_names([match.pk])[match.pk]
    assert names == [(student.user.email, "Seat 1"), ("Gus", "Gus")]
    profiles = [seat.player for seat in match.seats.order_by("order")]
    assert [name for name, _ in names] == [profile.name for profile in profiles]
    assert seat_names([]) == {}
