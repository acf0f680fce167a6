"""A card costs the same in a hall of 40 or of 1,000 (issue 49): counting a card at an event
updates its players' standings rows and the ranks that moved (``league.standings`` ·
``count_results``), and the stored pages (the leaderboard's order, the categories' top threes,
the team totals, event.json) follow within seconds, rendered once for every card counted
meanwhile (``league.refresh`` · ``count_cards``, ``render_wanted_pages``). A correction and
the nightly refresh the event whole."""

import json
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from events.services import card_enter
from league import refresh, standings
from league.models import League, LeaguePage, PagesWanted, RefreshFailure, RefreshWanted, Standing
from league.models.results import STANDING_COLUMNS
from league.tasks import refresh_wanted_leagues
from matches.models import Match, MatchStatus
from tests.support import FEST, create_event, rounds_started, run, write

pytestmark = pytest.mark.django_db

CATEGORIES = ["Competitive", "Just for Fun", "Corporate Team"]


def event(season, tmp_path, entrants: int, slug: str = "fest"):
    """The Fest with `entrants` guests over its three categories (a timed one, whose odd group
    gives a bye; two untimed sharing a group, whose odd one sits a table of three), the
    corporate ones in teams of four with short teams filled at their average (E5), round 1
    paired."""
    data = {
        **FEST,
        "slug": slug,
        "date": (season.starts_on + timedelta(days=10)).isoformat(),
        "team_size": 4,
        "short_team": "average_fill",
    }
    create_event(season, tmp_path, data, f"{slug}.json")
    rows = ["name,category,team"]
    for n in range(entrants):
        category = CATEGORIES[n % 3]
        team = f"Team {n // 9}" if category == "Corporate Team" else ""
        rows.append(f"Guest {n},{category},{team}")
    run("import_entrants", write(tmp_path, f"{slug}.csv", "\n".join(rows) + "\n"), "--league", slug)
    league = rounds_started(League.objects.get(slug=slug))
    run("pair_round", "--league", slug, "--all-entrants", "--seed", "11")
    return league


def tables(league, number):
    return list(
        Match.objects.filter(round__league=league, round__number=number)
        .exclude(status=MatchStatus.BYE)
        .order_by("table")
        .prefetch_related("seats")
    )


def stored(league):
    """The league's standings rows and stored pages, their times of writing left out."""
    columns = [c for c in STANDING_COLUMNS if c not in ("updated_at", "league_id")]
    rows = sorted(Standing.objects.filter(league=league).values_list(*columns))
    page = LeaguePage.objects.get(league=league)
    event_json = json.loads(page.event_json)
    event_json.pop("updated")
    standings_json = json.loads(page.standings_json)
    standings_json.pop("updated")
    return {
        "rows": rows,
        "event_json": event_json,
        "event_html": page.event_html,
        "event_html_public": page.event_html_public,
        "standings_json": standings_json,
    }


def as_a_full_refresh_would(league):
    """What the standings and pages would be after a full refresh now (rolled back)."""
    with transaction.atomic():
        refresh.refresh_leagues([league.pk])
        whole = stored(league)
        transaction.set_rollback(True)
    return whole


def count(director, match, scores, capture, **card):
    actor = User.objects.get(pk=director.user.pk)  # as a request reads it: nothing cached
    with capture(execute=True):
        card_enter(actor=actor, match=match, scores=scores, **card)


def scores_for(match, n):
    """A card's scores: every fourth table a tie at the top, the others spread out; a table of
    three has its third seat."""
    seats = match.seats.count()
    if match.table % 4 == 0:
        return [380, 380, 300][:seats]
    return [300 + (7 * match.table + 13 * n) % 150, 320, 280][:seats]


def test_e3_e5_g9_counting_each_card_leaves_what_a_full_refresh_would_after_every_card(
    season, director, tmp_path, django_capture_on_commit_callbacks
):
    """An evening of 26 (a bye in the timed group, a table of three in the untimed one, ties,
    teams short of four, three categories): after every card counted, and after a late
    correction, the standings rows and every stored page are those a full refresh makes."""
    league = event(season, tmp_path, 26)
    byes = Match.objects.filter(league=league, status=MatchStatus.BYE).count()
    threes = [m for m in tables(league, 1) if m.seats.count() == 3]
    assert byes and threes  # the evening has both
    checked = 0
    for number in (1, 2):
        if number == 2:
            run("pair_round", "--league", league.slug, "--seed", "12")
        for n, match in enumerate(tables(league, number)):
            count(director, match, scores_for(match, n), django_capture_on_commit_callbacks)
            assert not PagesWanted.objects.filter(league=league).exists()  # rendered: no worker
            assert not RefreshWanted.objects.filter(league=league).exists()
            assert stored(league) == as_a_full_refresh_would(league)
            checked += 1
    first = tables(league, 1)[0]
    with django_capture_on_commit_callbacks(execute=True):
        card_enter(
            actor=director.user,
            match=first,
            scores=[250, 410, 300][: first.seats.count()],
            override_reason="Scores were swapped on the card",
        )
    after = stored(league)
    assert after == as_a_full_refresh_would(league)
    corrected = after["event_json"]["rounds"][0]["tables"][0]
    assert [seat["score"] for seat in corrected["seats"]][:2] == [250, 410]  # on the page
    assert after["event_json"]["teams"] and after["event_json"]["categories"]["Competitive"]
    assert checked == len(tables(league, 1)) + len(tables(league, 2))


def test_e3_a_correction_refreshes_the_event_whole(
    season, director, tmp_path, django_capture_on_commit_callbacks, monkeypatch
):
    """A card over a result already counted (the director's, with a reason) is no first count:
    the event's standings are rebuilt from every result, as the nightly does."""
    league = event(season, tmp_path, 12)
    match = tables(league, 1)[0]
    count(director, match, [400, 300][: match.seats.count()], django_capture_on_commit_callbacks)
    rebuilt = []
    real = refresh.rebuild_standings
    monkeypatch.setattr(
        refresh, "rebuild_standings", lambda ids, now: rebuilt.append(ids) or real(ids, now)
    )
    count(
        director,
        match,
        [300, 400][: match.seats.count()],
        django_capture_on_commit_callbacks,
        override_reason="The card was read upside down",
    )
    assert rebuilt == [[league.pk]]


def queries_counting_a_card(league, director, capture):
    match = tables(league, 1)[0]
    with CaptureQueriesContext(connection) as queries:
        count(director, match, [400, 350][: match.seats.count()], capture)
    return [query["sql"] for query in queries.captured_queries]


def test_e3_counting_a_card_runs_the_same_queries_at_40_and_at_1000_entrants(
    season, director, tmp_path, django_capture_on_commit_callbacks, settings
):
    """With a worker to render the pages (not in-process), a card counted reads and writes the
    same statements in a hall of 40 as of 1,000, and leaves the pages wanted; the sweep renders
    them with the card on them. Its time at both sizes: ``benchmarks/counting_cards.py``."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    small = event(season, tmp_path, 40, slug="small")
    large = event(season, tmp_path, 1000, slug="large")
    at_40 = queries_counting_a_card(small, director, django_capture_on_commit_callbacks)
    at_1000 = queries_counting_a_card(large, director, django_capture_on_commit_callbacks)
    assert len(at_40) == len(at_1000), "\n".join(at_1000)
    assert not any("league_leaguepage" in sql for sql in at_1000)  # no render in the request
    assert set(PagesWanted.objects.values_list("league_id", flat=True)) == {small.pk, large.pk}
    refresh_wanted_leagues()
    assert not PagesWanted.objects.exists()
    document = json.loads(LeaguePage.objects.get(league=large).event_json)
    first = document["rounds"][0]["tables"][0]
    assert [seat["score"] for seat in first["seats"]][:2] == [400, 350]
    assert document["standings"][0]["total"] == 400


def test_e3_a_card_whose_count_fails_is_saved_and_its_event_left_for_the_sweep(
    season, director, tmp_path, django_capture_on_commit_callbacks, monkeypatch
):
    """The card is saved and answered as saved; the failure is kept in words and the event is
    marked wanted whole, as a failed refresh leaves it; the sweep's full refresh mends it."""
    league = event(season, tmp_path, 12)
    match = tables(league, 1)[0]

    def broken(*args, **kwargs):
        raise ValueError("a total the standings could not store")

    monkeypatch.setattr(refresh, "count_results", broken)
    count(director, match, [400, 300][: match.seats.count()], django_capture_on_commit_callbacks)
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED
    failure = RefreshFailure.objects.get(league=league)
    assert failure.step == "standings"
    assert RefreshWanted.objects.filter(league=league).exists()
    monkeypatch.undo()
    RefreshFailure.objects.filter(league=league).update(
        failed_at=failure.failed_at - timedelta(minutes=2)
    )
    refresh_wanted_leagues()
    assert not RefreshFailure.objects.filter(league=league).exists()
    assert not RefreshWanted.objects.filter(league=league).exists()
    assert stored(league) == as_a_full_refresh_would(league)
    winner = match.seats.order_by("order").first()
    assert Standing.objects.get(league=league, player_id=winner.player_id).wins == 1


@pytest.mark.django_db(transaction=True)
def test_e3_g9_a_card_counted_while_the_nightly_rebuilds_the_event_is_counted_after_it(
    season, director, tmp_path
):
    """The nightly's rebuild has read the results and not yet stored the rows when a card is
    counted: the count waits for the rebuild's lock and counts from what it committed, so the
    card's players' rows are not overwritten by the rebuild's older reading."""
    league = event(season, tmp_path, 12)
    refresh.refresh_leagues([league.pk])
    match = tables(league, 1)[0]
    read, release = threading.Event(), threading.Event()
    real = standings._results

    def results_then_pause(ids, now):
        found = real(ids, now)
        if threading.current_thread().name == "nightly":
            read.set()
            assert release.wait(WAIT), "the test never released the rebuild"
        return found

    standings._results = results_then_pause
    try:
        nightly = in_a_thread("nightly", lambda: refresh.refresh_leagues([league.pk]))
        assert read.wait(WAIT)
        card = in_a_thread(
            "card",
            lambda: card_enter(
                actor=User.objects.get(pk=director.user.pk),
                match=match,
                scores=[400, 300, 200][: match.seats.count()],
            ),
        )
        waited = _someone_waits_for_a_lock()
        release.set()
        nightly()
        card()
    finally:
        standings._results = real
    assert waited  # the count waited for the rebuild
    winner = match.seats.order_by("order").first()
    assert Standing.objects.get(league=league, player_id=winner.player_id).wins >= 1
    assert stored(league) == as_a_full_refresh_would(league)


WAIT = 30  # seconds: only a failure waits this long


def in_a_thread(name, work):
    """Run `work` on its own connection, as another process would; the answer re-raises."""
    failure = []

    def run_it():
        try:
            work()
        except BaseException as error:  # handed back by the answer
            failure.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run_it, name=name)
    thread.start()

    def join():
        thread.join(WAIT)
        assert not thread.is_alive(), f"{name} never finished"
        if failure:
            raise failure[0]

    return join


def _someone_waits_for_a_lock() -> bool:
    deadline = time.monotonic() + 10
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return True
            time.sleep(0.05)
    return False
