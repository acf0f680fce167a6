"""What follows a change to what a league's tables are computed from: its standings, then its
bracket, then its stored pages, in one transaction, so that ``LeaguePage`` is never stale and is
rendered once, after both have changed.

A result made final by a player's request refreshes through ``refresh_when_free``: at a hall's
burst of cards the refreshes of one event would otherwise run one after another, each holding
the league's lock for the whole rebuild and render, and the cards wait in line behind them.

The steps store what they compute and render nothing (``standings.rebuild_standings``,
``playoffs.brackets_advance``, ``playoffs.build_ready_brackets``); ``pages.render_pages``
renders. The callers: the result receiver and an edit of a league's forfeit spreads
(``receivers.py``), the nightly job (``nightly.py``), entries joining and withdrawing
(``services.py``), the demo's seeding.
"""

from dataclasses import dataclass
from datetime import date, datetime

from django.db import connection, transaction
from django.utils import timezone

from .models import RefreshWanted
from .pages import render_pages
from .playoffs import brackets_advance, build_ready_brackets
from .standings import rebuild_standings


@dataclass
class Refreshed:
    standings_rebuilt: int = 0
    brackets_advanced: int = 0
    brackets_built: int = 0


def refresh_leagues(
    league_ids,
    *,
    now: datetime | None = None,
    today: date | None = None,
    build_brackets: bool = False,
) -> Refreshed:
    """Rebuild these leagues' standings as of `now`, advance their brackets, draw the brackets
    of those ready for one when `build_brackets` (the nightly job, which gives `today`), then
    render their pages. `today` defaults to each institution's own."""
    ids = sorted(set(league_ids))
    if not ids:
        return Refreshed()
    if build_brackets and today is None:
        raise ValueError("Drawing brackets needs the day they are drawn on.")
    now = now or timezone.now()  # the standings' update time is the pages' too
    with transaction.atomic():
        done = Refreshed(standings_rebuilt=rebuild_standings(ids, now=now))
        done.brackets_advanced = brackets_advance(league_ids=ids, today=today)
        if build_brackets:
            done.brackets_built = build_ready_brackets(league_ids=ids, today=today)
        render_pages(ids, now=now)
    return done


# The first key of a refresh's advisory lock; the second is the league's id. The row lock of
# ``rebuild_standings`` cannot serve: the nightly job holds it too, and never looks for the
# refreshes wanted meanwhile.
REFRESH_LOCK = 19538

# A request refreshes at most this many times: its own result, then whatever became final
# while it rendered. What comes after waits for the next result's request or the worker's
# sweep (``league.tasks.refresh_wanted_leagues``), so no player waits for a whole burst.
PASSES_IN_A_REQUEST = 2


def refresh_when_free(
    league_ids, *, mark: bool = True, passes: int | None = PASSES_IN_A_REQUEST
) -> list[int]:
    """Refresh these leagues now, unless another process is refreshing one of them: then leave
    that one wanted (``RefreshWanted``) and return at once, because the refresh in progress
    takes what is wanted when it is done. So a hall's burst of results costs each league a
    refresh every so often, not one for each result, and no result waits for the others'.

    Refreshes at most `passes` times (None: until nothing is wanted); returns the leagues left
    wanted. Without PostgreSQL (the SQLite demo, one process) it refreshes in place.
    ``mark=False`` refreshes only what is already wanted."""
    ids = sorted(set(league_ids))
    if not ids:
        return []
    if connection.vendor != "postgresql":
        refresh_leagues(ids)
        return []
    if mark:
        _want(ids)
    held = [league_id for league_id in ids if _lock(league_id)]
    try:
        done = 0
        while held and (passes is None or done < passes):
            wanted = _take(held)
            if not wanted:
                break
            try:
                refresh_leagues(wanted)
            except BaseException:
                _want(wanted)
                raise
            done += 1
    finally:
        for league_id in held:
            _unlock(league_id)
    return sorted(
        RefreshWanted.objects.filter(league_id__in=held).values_list("league_id", flat=True)
    )


def _want(league_ids) -> None:
    RefreshWanted.objects.bulk_create(
        [RefreshWanted(league_id=league_id) for league_id in league_ids], ignore_conflicts=True
    )


def _take(league_ids) -> list[int]:
    """The refreshes wanted of these leagues, deleted before the rebuild reads anything and in
    a transaction of their own, so a result committed during the rebuild leaves a new row."""
    with transaction.atomic():
        wanted = list(
            RefreshWanted.objects.select_for_update()
            .filter(league_id__in=league_ids)
            .values_list("league_id", flat=True)
        )
        RefreshWanted.objects.filter(league_id__in=wanted).delete()
    return wanted


def _lock(league_id: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [REFRESH_LOCK, league_id])
        return cursor.fetchone()[0]


def _unlock(league_id: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [REFRESH_LOCK, league_id])
