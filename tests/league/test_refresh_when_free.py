"""L6: a final result reaches the standings and the stored pages. At a hall's burst of cards the
refreshes of one league would run one after another, each card waiting for all those before
it; here a result that becomes final while its league is being refreshed leaves the refresh
wanted and returns, and the refresh in progress takes it (``league.refresh.refresh_when_free``).
Real threads and connections: the pause is inside the first refresh's rendering."""

import json
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from league import refresh
from league.models import LeaguePage, RefreshFailure, RefreshWanted, Standing
from league.tasks import refresh_wanted_leagues
from tests.support import confirmed_game, match_between

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 30  # seconds: only a failure waits this long


class PausedRender:
    """`render_pages` as in production, except that the renders named in `pauses` (1 for the
    first) stop until `release()`."""

    def __init__(self, pauses):
        self.pauses = set(pauses)
        self.calls = 0
        self.paused = threading.Event()
        self.released = threading.Event()
        self.real = refresh.render_pages

    def __call__(self, league_ids, now=None):
        self.calls += 1
        if self.calls in self.pauses:
            self.paused.set()
            assert self.released.wait(WAIT), "the test never released the render"
            self.paused.clear()
            self.released.clear()
        return self.real(league_ids, now=now)

    def release(self):
        self.released.set()


def in_a_thread(work):
    """Run `work` on its own connection, as another request would; join() re-raises."""
    failure = []

    def run():
        try:
            work()
        except BaseException as error:  # handed back to the test by join()
            failure.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()

    def join():
        thread.join(WAIT)
        assert not thread.is_alive(), "the other request never finished"
        if failure:
            raise failure[0]

    return join


def wins(league):
    return dict(
        Standing.objects.filter(league=league).values_list("player__user__first_name", "wins")
    )


def on_the_page(league):
    rows = json.loads(LeaguePage.objects.get(league=league).standings_json)["standings"]
    return {row["player"].split()[0]: row["wins"] for row in rows}


def test_l6_a_result_final_while_its_league_refreshes_waits_for_no_one_and_shows_after_it(
    table, league, monkeypatch
):
    ada, bo, cy, di = table
    first, second = match_between(league, ada, bo), match_between(league, cy, di)
    render = PausedRender(pauses={1})
    monkeypatch.setattr(refresh, "render_pages", render)

    join = in_a_thread(lambda: confirmed_game(first, winner=ada, loser=bo))
    assert render.paused.wait(WAIT)
    # The first refresh has rebuilt the standings and is rendering; the second result arrives.
    confirmed_game(second, winner=di, loser=cy)
    # It returned without waiting for the render (the other thread is still paused in it) and
    # left its league's refresh wanted, not done twice over.
    assert render.paused.is_set() and render.calls == 1
    assert RefreshWanted.objects.filter(league=league).exists()
    assert wins(league).get("Di", 0) == 0

    render.release()
    join()
    # The first request refreshed once more and took the second result with it.
    assert render.calls == 2
    assert wins(league) == {"Ada": 1, "Bo": 0, "Cy": 0, "Di": 1}
    assert on_the_page(league) == {"Ada": 1, "Bo": 0, "Cy": 0, "Di": 1}
    assert not RefreshWanted.objects.exists()


def test_l6_results_a_request_leaves_after_its_passes_are_refreshed_by_the_workers_sweep(
    table, league, monkeypatch
):
    ada, bo, cy, di = table
    games = [match_between(league, ada, bo), match_between(league, cy, di)]
    third = match_between(league, ada, cy)
    render = PausedRender(pauses={1, 2})
    monkeypatch.setattr(refresh, "render_pages", render)

    join = in_a_thread(lambda: confirmed_game(games[0], winner=ada, loser=bo))
    assert render.paused.wait(WAIT)
    confirmed_game(games[1], winner=di, loser=cy)  # taken by the request's second pass
    render.release()
    assert _second_pause(render)
    confirmed_game(third, winner=cy, loser=ada)  # after its last pass: left for the sweep
    render.release()
    join()
    assert render.calls == refresh.PASSES_IN_A_REQUEST
    assert wins(league).get("Cy", 0) == 0
    assert RefreshWanted.objects.filter(league=league).exists()

    assert refresh_wanted_leagues() == 1
    assert wins(league) == {"Ada": 1, "Bo": 0, "Cy": 1, "Di": 1}
    assert on_the_page(league) == {"Ada": 1, "Bo": 0, "Cy": 1, "Di": 1}
    assert not RefreshWanted.objects.exists()
    assert refresh_wanted_leagues() == 0  # nothing wanted: the sweep does nothing


def _second_pause(render):
    """The first pause was released: wait for the render to stop in the second."""
    for _ in range(WAIT * 10):
        if render.calls == 2 and render.paused.is_set():
            return True
        threading.Event().wait(0.1)
    return False


def test_l6_a_refresh_that_fails_leaves_its_league_wanted_and_its_lock_free(
    table, league, monkeypatch
):
    ada, bo, _, _ = table
    game = match_between(league, ada, bo)

    def broken(league_ids, now=None):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(refresh, "render_pages", broken)
    confirmed_game(game, winner=ada, loser=bo)  # saved: the failure is the league's (issue 45)
    assert RefreshWanted.objects.filter(league=league).exists()
    assert RefreshFailure.objects.get(league=league).step == "pages"

    monkeypatch.undo()
    assert refresh_wanted_leagues() == 0  # a failure of a moment ago waits a minute
    RefreshFailure.objects.update(failed_at=timezone.now() - timedelta(minutes=2))
    assert refresh_wanted_leagues() == 1  # the lock was let go: the sweep takes it
    assert not RefreshFailure.objects.exists()
    assert wins(league)["Ada"] == 1
    assert not RefreshWanted.objects.exists()
