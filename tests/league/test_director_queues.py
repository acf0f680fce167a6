"""The director's page of one league (/director/leagues/<slug>/): its matches not yet final in four
queues by round, and the bulk actions on a round with their confirm step (L5, L8, L9). The
services behind them are tested in test_round_actions.py."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches.league_queues import (
    QUEUES,
    league_queues,
    queue_counts,
    queue_matches,
    with_player_names,
)
from matches.models import AuditEvent, Match, MatchStatus
from matches.services import contact_issue_report, proposal_accept, proposal_create
from tests.support import (
    LeagueFactory,
    confirmed_game,
    open_dispute,
    round_of,
    submitted_report,
)


def players_of(match):
    return [seat.player for seat in match.seats.order_by("order")]


def names(match) -> str:
    return " v ".join(player.name for player in players_of(match))


def section(page: str, key: str) -> str:
    start = page.index(f'data-testid="queue-{key}"')
    return page[start : page.index("</section>", start)]


@pytest.fixture
def queued(league):
    """Round 1: unscheduled, overdue, overdue with a can't-reach report, reported, disputed,
    confirmed, scheduled in time. Round 2: one unscheduled."""
    round_, matches = round_of(league, 7)
    past = timezone.now() - timedelta(hours=3)
    Match.objects.filter(pk__in=[matches[1].pk, matches[2].pk]).update(deadline=past)
    contact_issue_report(
        actor=players_of(matches[2])[0].user, match=matches[2], attempts="Texted all week."
    )
    submitted_report(matches[3], by=players_of(matches[3])[0])
    open_dispute(matches[4])
    winner, loser = players_of(matches[5])
    confirmed_game(matches[5], winner=winner, loser=loser)
    first, second = players_of(matches[6])
    proposal = proposal_create(
        actor=first.user, match=matches[6], times=[timezone.now() + timedelta(days=2)]
    )
    proposal_accept(
        actor=second.user, proposal=proposal, starts_at=proposal.times.first().starts_at
    )
    round2, later = round_of(league, 1)
    return matches, later[0]


def test_l5_l9_each_match_not_final_sits_in_its_queue_linking_to_its_ruling(
    client, director, league, queued
):
    matches, round_two = queued
    client.force_login(director.user)
    page = client.get(reverse("director_league", args=[league.slug])).content.decode()

    unscheduled, overdue = section(page, "unscheduled"), section(page, "overdue")
    reported, disputed = section(page, "reported"), section(page, "disputed")
    assert names(matches[0]) in unscheduled and names(round_two) in unscheduled
    assert names(matches[1]) in overdue and names(matches[2]) in overdue
    assert names(matches[3]) in reported and names(matches[4]) in disputed
    for final_or_on_track in (matches[5], matches[6]):
        assert names(final_or_on_track) not in page
    assert "1 scheduled match still in time is in no queue" in page
    # Each row links to the match page and to the admin's ruling on it.
    assert reverse("match_detail", args=[matches[0].pk]) in unscheduled
    assert reverse("admin:matches_match_rule", args=[matches[1].pk]) in overdue
    issue = matches[2].contact_issues.get()
    assert reverse("admin:matches_contactissue_decide", args=[issue.pk]) in overdue
    dispute = matches[4].reports.get().disputes.get()
    assert reverse("admin:matches_dispute_resolve", args=[dispute.pk]) in disputed
    assert "Pick a round above" in page


@pytest.mark.parametrize("one_round", [False, True])
def test_l5_l9_the_overview_and_a_queue_of_its_own_sort_every_match_alike(
    league, queued, one_round
):
    """The overview's hand-written query and a queue's own page (the ORM's ``queue_expression``)
    put each match in the same queue, in the same order, with the same row facts."""
    matches, round_two = queued
    round_ = round_two.round if one_round else None
    now = timezone.now()
    overview = league_queues(league, now=now, round=round_)
    assert overview.counts == {
        k: v for k, v in queue_counts(league, now=now, round=round_).items() if v
    }
    for key in QUEUES:
        paged = with_player_names(list(queue_matches(league, now=now, queue=key, round=round_)))
        facts = ("pk", "round_number", "deadline", "scheduled_at", "open_dispute_id")
        facts += ("open_issue_id", "confirm_by", "player_names")
        assert [[getattr(m, fact) for fact in facts] for m in getattr(overview, key)] == [
            [getattr(m, fact) for fact in facts] for m in paged
        ]
    if not one_round:
        assert [len(getattr(overview, key)) for key in QUEUES] == [2, 2, 1, 1]
        assert overview.on_track == 1
        assert overview.disputed[0].open_dispute_id == matches[4].reports.get().disputes.get().pk
        assert overview.overdue[1].open_issue_id == matches[2].contact_issues.get().pk
        assert overview.reported[0].confirm_by == matches[3].reports.get().confirm_by


def test_the_queues_show_one_round_with_its_bulk_actions(client, director, league, queued):
    matches, round_two = queued
    client.force_login(director.user)
    page = client.get(reverse("director_league", args=[league.slug]), {"round": 2}).content.decode()
    assert names(round_two) in page and names(matches[0]) not in page
    assert reverse("director_round_extend", args=[league.slug, 2]) in page
    assert reverse("director_round_rule", args=[league.slug, 2]) in page
    assert '<label for="extend_days">' in page and '<label for="rule_reason">' in page


@pytest.mark.parametrize(
    ("persona", "status"),
    [("player", 404), ("staff", 404), ("other_director", 404), ("director", 200)],
)
def test_the_league_queues_are_its_directors_alone(client, request, league, persona, status):
    round_, matches = round_of(league, 1)
    client.force_login(request.getfixturevalue(persona).user)
    assert client.get(reverse("director_league", args=[league.slug])).status_code == status
    for name in ("director_round_extend", "director_round_rule"):
        response = client.post(
            reverse(name, args=[league.slug, 1]),
            {"days": 3, "reason": "Snow", "confirm": "1", "match": matches[0].pk},
        )
        assert response.status_code == (404 if status == 404 else 302)
    if status == 404:
        assert not AuditEvent.objects.exclude(action="created").exists()


def test_a_visitor_is_sent_to_log_in(client, league):
    response = client.get(reverse("director_league", args=[league.slug]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize("size", [2, 12])
def test_the_league_queues_run_a_constant_number_of_queries(
    client, director, season, size, django_assert_num_queries
):
    league = LeagueFactory(season=season)
    for _ in range(2):
        round_, matches = round_of(league, size)
        submitted_report(matches[0], by=players_of(matches[0])[0])
        open_dispute(matches[1])
        Match.objects.filter(pk=matches[-1].pk).update(deadline=timezone.now() - timedelta(days=1))
    client.force_login(director.user)
    url = reverse("director_league", args=[league.slug])
    client.get(url)
    # The session, the user with their roles, the league, rounds, each queue's first matches (one
    # windowed query), their seats with players.
    with django_assert_num_queries(6):
        client.get(url)
    with django_assert_num_queries(6):
        client.get(url, {"round": 2})


@pytest.mark.parametrize("size", [2, 12])
def test_the_confirm_pages_run_a_constant_number_of_queries(
    client, director, league, size, django_assert_num_queries
):
    round_of(league, size)
    client.force_login(director.user)
    for name, data in (
        ("director_round_extend", {"days": 2, "reason": "Snow"}),
        ("director_round_rule", {"reason": "Round closed"}),
    ):
        # The session, the user with their roles, the league, round, the open matches, their seats.
        with django_assert_num_queries(6):
            response = client.post(reverse(name, args=[league.slug, 1]), data)
        assert response.status_code == 200


def test_l5_the_director_extends_a_round_after_seeing_how_many_it_changes(client, director, league):
    round_, matches = round_of(league, 3)
    submitted_report(matches[2], by=players_of(matches[2])[0])
    contact_issue_report(
        actor=players_of(matches[0])[0].user, match=matches[0], attempts="No answer all week."
    )
    client.force_login(director.user)
    url = reverse("director_round_extend", args=[league.slug, 1])

    preview = client.post(url, {"days": 4, "reason": "The Games Room was closed."})
    page = preview.content.decode()
    assert "This will change <strong>2 matches</strong>" in page
    assert page.count("Its can't-reach report is decided by this") == 1
    assert names(matches[0]) in page and names(matches[2]) not in page
    assert not AuditEvent.objects.filter(action="deadline_extended").exists()  # not yet

    # Between the confirm page and the click, one of the two is reported.
    submitted_report(matches[1], by=players_of(matches[1])[0])
    response = client.post(
        url,
        {
            "days": 4,
            "until": "",
            "reason": "The Games Room was closed.",
            "confirm": "1",
            "match": [matches[0].pk, matches[1].pk],
        },
        follow=True,
    )

    message = [str(m) for m in response.context["messages"]][0]
    assert message.startswith("1 match: deadline extended")
    assert "1 match left as they were" in message
    assert response.redirect_chain[-1][0].endswith("?round=1")
    assert Match.objects.get(pk=matches[0].pk).deadline == matches[0].deadline + timedelta(days=4)
    assert Match.objects.get(pk=matches[1].pk).deadline == matches[1].deadline
    assert matches[0].contact_issues.get().resolution.startswith("Deadline extended")


def test_l5_l8_the_director_rules_a_rounds_unplayed_matches_naming_who_forfeits(
    client, director, league
):
    round_, matches = round_of(league, 4)
    winner, loser = players_of(matches[3])
    confirmed_game(matches[3], winner=winner, loser=loser)
    client.force_login(director.user)
    url = reverse("director_round_rule", args=[league.slug, 1])

    page = client.post(url, {"reason": "Round 1 is over."}).content.decode()
    assert "This will change <strong>3 matches</strong>" in page
    assert (
        f'<label for="ruling-{matches[0].pk}">Ruling<span class="sr-only"> on {names(matches[0])}'
        in page
    )
    assert names(matches[3]) not in page

    response = client.post(
        url,
        {
            "reason": "Round 1 is over.",
            "confirm": "1",
            "match": [m.pk for m in matches[:3]],
            f"ruling_{matches[0].pk}": "double",
            f"ruling_{matches[1].pk}": "2",
            f"ruling_{matches[2].pk}": "leave",
        },
        follow=True,
    )

    message = [str(m) for m in response.context["messages"]][0]
    assert message == "2 matches: ruled, players e-mailed. 1 left for now as you chose."
    statuses = [Match.objects.get(pk=m.pk).status for m in matches]
    assert statuses == [
        MatchStatus.DOUBLE_FORFEIT,
        MatchStatus.FORFEIT,
        MatchStatus.UNSCHEDULED,
        MatchStatus.CONFIRMED,
    ]
    event = AuditEvent.objects.get(match=matches[1], action="forfeit")
    assert event.actor == director.user and event.reason == "Round 1 is over."


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"reason": "Snow"}, "Give either a number of days or a date"),
        ({"days": 3, "reason": ""}, "This field is required"),
        ({"days": 90, "reason": "Snow"}, "less than or equal to 60"),
    ],
)
def test_an_extension_missing_what_it_needs_says_so_and_changes_nothing(
    client, director, league, data, message
):
    round_of(league, 1)
    client.force_login(director.user)
    response = client.post(
        reverse("director_round_extend", args=[league.slug, 1]), data, follow=True
    )
    assert message in [str(m) for m in response.context["messages"]][0]
    assert not AuditEvent.objects.exclude(action="created").exists()


def test_the_bulk_actions_need_the_csrf_token(director, league):
    round_, matches = round_of(league, 1)
    client = Client(enforce_csrf_checks=True)
    client.force_login(director.user)
    response = client.post(
        reverse("director_round_rule", args=[league.slug, 1]),
        {"reason": "Closed", "confirm": "1", "match": matches[0].pk},
    )
    assert response.status_code == 403
    assert Match.objects.get(pk=matches[0].pk).status == MatchStatus.UNSCHEDULED


def test_the_dashboard_links_each_league_to_its_queues_with_its_exports_in_its_row(
    client, director, league, queued
):
    client.force_login(director.user)
    page = client.get(reverse("director_dashboard")).content.decode()
    row = page[page.index(f'data-testid="league-{league.slug}"') :]
    row = row[: row.index("</tr>")]
    assert reverse("director_league", args=[league.slug]) in row
    assert '<td class="num">7</td>' in row  # not final: 6 of round 1 (one confirmed), 1 of round 2
    assert f'<a href="{reverse("export_standings", args=[league.slug])}">Standings</a>' in row
    assert f'<a href="{reverse("export_results", args=[league.slug])}">Results</a>' in row
    assert '<th scope="col">Export (CSV)</th>' in page


def test_a_long_queue_shows_its_first_matches_and_pages_the_rest(
    client, director, league, monkeypatch
):
    """Issue 18: the overview shows each queue's size and its first matches, oldest round first;
    ``?queue=`` shows one queue a page at a time, and the round filter stays on every link."""
    monkeypatch.setattr("matches.league_queues.SHOWN_PER_QUEUE", 2)
    monkeypatch.setattr("league.views.director_rounds.QUEUE_PAGE_SIZE", 2)
    round_one, first = round_of(league, 3)
    round_two, second = round_of(league, 2)
    client.force_login(director.user)
    url = reverse("director_league", args=[league.slug])

    page = client.get(url).content.decode()
    unscheduled = section(page, "unscheduled")
    assert 'Unscheduled <span class="muted">(5)</span>' in unscheduled
    assert names(first[0]) in unscheduled and names(first[1]) in unscheduled
    assert names(first[2]) not in unscheduled and names(second[0]) not in unscheduled
    assert "All 5 unscheduled matches" in unscheduled and "3 more than shown here" in unscheduled

    shown = []
    for number in (1, 2, 3):
        page = client.get(url, {"queue": "unscheduled", "page": number}).content.decode()
        assert f"Page {number} of 3" in page
        assert 'data-testid="queue-overdue"' not in page  # one queue on its own page
        shown += [m for m in [*first, *second] if names(m) in section(page, "unscheduled")]
    assert shown == [*first, *second]

    page = client.get(url, {"queue": "unscheduled", "round": 2}).content.decode()
    assert names(second[0]) in page and names(first[0]) not in page
    assert "Page" not in section(page, "unscheduled")  # two matches fit one page
    assert 'href="?queue=overdue&amp;round=2"' in page
    # A page number out of range shows the last page rather than an error.
    assert client.get(url, {"queue": "unscheduled", "page": 99}).status_code == 200


@pytest.mark.parametrize("size", [2, 12])
def test_a_queue_page_runs_a_constant_number_of_queries(
    client, director, league, size, django_assert_num_queries, monkeypatch
):
    monkeypatch.setattr("league.views.director_rounds.QUEUE_PAGE_SIZE", 5)
    round_of(league, size)
    client.force_login(director.user)
    url = reverse("director_league", args=[league.slug])
    client.get(url, {"queue": "unscheduled"})
    # The session, the user with their roles, the league, rounds, the queues' sizes, the page's
    # count, its matches, their seats with players.
    with django_assert_num_queries(8):
        client.get(url, {"queue": "unscheduled", "page": 2})
