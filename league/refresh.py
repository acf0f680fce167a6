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

from collections.abc import Collection
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from core.isolation import Failure, StepFailed, attempt
from core.raw import placeholders
from matches.models import Seat

from . import formats
from .models import League, PagesWanted, RefreshFailure, RefreshWanted
from .pages import render_pages
from .playoffs import brackets_advance, build_ready_brackets
from .standings import count_results, rank_standings, rebuild_standings


@dataclass
class Refreshed:
    standings_rebuilt: int = 0
    brackets_advanced: int = 0
    brackets_built: int = 0
    # Leagues whose refresh failed (league id -> the failure in words): the others' went through.
    failed: dict[int, Failure] = field(default_factory=dict)

    def __iadd__(self, other: "Refreshed") -> "Refreshed":
        self.standings_rebuilt += other.standings_rebuilt
        self.brackets_advanced += other.brackets_advanced
        self.brackets_built += other.brackets_built
        self.failed.update(other.failed)
        return self


def refresh_leagues(
    league_ids,
    *,
    now: datetime | None = None,
    today: date | None = None,
    build_brackets: bool = False,
    failing: Collection[int] | None = None,
    only_pages: bool = False,
) -> Refreshed:
    """Rebuild these leagues' standings as of `now`, advance their brackets, draw the brackets
    of those ready for one when `build_brackets` (the nightly job, which gives `today`), then
    render their pages. `today` defaults to each institution's own.

    Each league fails alone: all are refreshed at once, and if that fails, each on its own, so
    one league's failure (logged, kept as a ``RefreshFailure``, the league left wanted for the
    sweep) leaves the others refreshed and never fails the write that asked. `failing`: which
    of them are known to have a ``RefreshFailure`` to clear (None: not known, one query).
    `only_pages`: render the pages alone (a name changed, nothing they are computed from)."""
    ids = sorted(set(league_ids))
    if not ids:
        return Refreshed()
    if build_brackets and today is None:
        raise ValueError("Drawing brackets needs the day they are drawn on.")
    now = now or timezone.now()  # the standings' update time is the pages' too
    steps = (now, today, build_brackets, only_pages)
    done = _refresh_alone(ids, *steps)
    if done.failed and len(ids) > 1:  # together they failed: which of them?
        done = Refreshed()
        for league_id in ids:
            done += _refresh_alone([league_id], *steps)
    if done.failed:
        _note_failures(done.failed, now)
    worked = [league_id for league_id in ids if league_id not in done.failed]
    if not only_pages and (failing is None or set(failing) & set(worked)):
        RefreshFailure.objects.filter(league_id__in=worked).delete()
    return done


def render_after_commit(league_ids) -> None:
    """Render these leagues' pages once the transaction commits (a name or a league's details
    changed: nothing their tables are computed from), each league failing alone. `league_ids`
    may be a callable, asked after the commit."""

    def render():
        ids = league_ids() if callable(league_ids) else league_ids
        refresh_leagues(ids, only_pages=True)

    transaction.on_commit(render, robust=True)


def _refresh_alone(ids, now, today, build_brackets, only_pages) -> Refreshed:
    """These leagues refreshed in one transaction (a savepoint in a writer's), or none of them:
    a failure comes back in words, under the league's id when it is one league."""

    def refresh() -> Refreshed:
        done = Refreshed()
        with transaction.atomic():
            if not only_pages:
                with _step("standings"):
                    done.standings_rebuilt = rebuild_standings(ids, now=now)
                with _step("bracket"):
                    done.brackets_advanced = brackets_advance(league_ids=ids, today=today)
                    if build_brackets:
                        done.brackets_built = build_ready_brackets(league_ids=ids, today=today)
            with _step("pages"):
                render_pages(ids, now=now)
        return done

    def about() -> str:
        return _about(ids) if len(ids) == 1 else f"{len(ids)} leagues together"

    done, failure = attempt("refresh", refresh, about=about)
    return done if failure is None else Refreshed(failed=dict.fromkeys(ids, failure))


@contextmanager
def _step(name: str):
    try:
        yield
    except Exception as error:
        raise StepFailed(name, error) from error


def _about(ids) -> str:
    league = League.objects.filter(pk=ids[0]).values_list("season__institution__slug", "slug")
    return ": ".join(league.first() or ("?", str(ids[0])))


def _note_failures(failed: dict[int, Failure], now: datetime) -> None:
    """Keep each failure (since its first, until a refresh works) and leave the league wanted, so
    the sweep tries again; in the writer's transaction, which stays saved."""
    since = dict(
        RefreshFailure.objects.filter(league_id__in=list(failed)).values_list("league_id", "since")
    )
    RefreshFailure.objects.bulk_create(
        [
            RefreshFailure(
                league_id=league_id,
                step=failure.step,
                reason=failure.reason,
                since=since.get(league_id, now),
                failed_at=now,
            )
            for league_id, failure in failed.items()
        ],
        update_conflicts=True,
        unique_fields=["league"],
        update_fields=["step", "reason", "failed_at"],
    )
    _want(list(failed))


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
        done, taking = 0, held
        while taking and (passes is None or done < passes):
            wanted = _take(taking)
            if not wanted:
                break
            try:
                refreshed = refresh_leagues(wanted)
            except BaseException:
                _want(wanted)
                raise
            # A league that failed is wanted again, for the sweep: not again in this loop.
            taking = [league_id for league_id in taking if league_id not in refreshed.failed]
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
    a statement of their own, so a result committed during the rebuild leaves a new row; and
    their pages wanted (``count_cards``), which the refresh renders with the rest."""
    ids = placeholders(len(league_ids))
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH pages AS (DELETE FROM {PagesWanted._meta.db_table} "
            f"WHERE league_id IN ({ids}) RETURNING league_id), "
            f"whole AS (DELETE FROM {RefreshWanted._meta.db_table} "
            f"WHERE league_id IN ({ids}) RETURNING league_id) "
            "SELECT league_id FROM pages UNION SELECT league_id FROM whole",
            [*league_ids, *league_ids],
        )
        return sorted(league_id for (league_id,) in cursor.fetchall())


# --- A card counted as it lands ---------------------------------------------------------------


def count_cards(league_ids, match_ids) -> list[int]:
    """Results made final for the first time in these matches (cards counted, not corrections),
    in leagues whose format counts them as they land (``formats.Format.counts_as_it_lands``, an
    event): each league's rows of the cards' players computed again (``standings.count_results``,
    a fixed number of queries whatever the size of the event), its pages marked wanted
    (``PagesWanted``) for beat's sweep, which ranks the rows again and renders the pages within
    seconds, once for every card counted meanwhile (``render_wanted_pages``); where tasks run
    in-process (the demo, the tests: no worker) they are rendered at once. The standings' lock is held for the rows alone, never
    for a render, so the cards of a hall's burst wait for each other's few rows, not for pages.

    An update that fails is logged and kept as a ``RefreshFailure``, its league left wanted for
    a full refresh by the sweep, as a failed refresh is. Returns the leagues left to refresh
    whole (``refresh_when_free``): the others of `league_ids`. Without PostgreSQL (the SQLite
    demo) every league is refreshed whole."""
    ids = sorted(set(league_ids))
    if not match_ids or connection.vendor != "postgresql":
        return ids
    players: dict[int, set[int]] = {}
    formats_of = {}
    for league_id, format_value, player_id in Seat.objects.filter(
        match_id__in=list(match_ids), match__league_id__in=ids
    ).values_list("match__league_id", "match__league__format", "player_id"):
        formats_of[league_id] = format_value
        players.setdefault(league_id, set()).add(player_id)
    counted = [
        league_id
        for league_id in ids
        if league_id in formats_of and formats.of(formats_of[league_id]).counts_as_it_lands
    ]
    now = timezone.now()
    for league_id in counted:

        def count(league_id=league_id):
            with transaction.atomic():
                with _step("standings"):
                    count_results(league_id, players[league_id], now=now)
                _want_pages([league_id])

        _, failure = attempt(
            "refresh", count, about=lambda league_id=league_id: _about([league_id])
        )
        if failure is not None:
            _note_failures({league_id: failure}, now)
    if settings.CELERY_TASK_ALWAYS_EAGER:  # no worker to sweep: the pages follow now
        render_wanted_pages(counted)
    return [league_id for league_id in ids if league_id not in counted]


def render_wanted_pages(league_ids=None) -> list[int]:
    """Rank and render the pages wanted (``PagesWanted``) of these leagues (None: of every
    league) whose refresh lock is free, until none is wanted: a burst's cards counted meanwhile
    share a ranking and a render. A league being refreshed or rendered by another process is
    left to it. Returns the leagues rendered."""
    if league_ids is None:
        league_ids = PagesWanted.objects.values_list("league_id", flat=True)
    ids = sorted(set(league_ids))
    if not ids or connection.vendor != "postgresql":
        return []
    held = [league_id for league_id in ids if _lock(league_id)]
    rendered: set[int] = set()
    try:
        taking = held
        while taking:
            wanted = _take_pages(taking)
            if not wanted:
                break
            try:
                done = _rank_and_render(wanted)
            except BaseException:
                _want_pages(wanted)
                raise
            rendered |= set(wanted)
            # A render that failed left its league wanted whole, for the sweep.
            taking = [league_id for league_id in taking if league_id not in done.failed]
    finally:
        for league_id in held:
            _unlock(league_id)
    return sorted(rendered)


def _rank_and_render(league_ids) -> Refreshed:
    """The ranks the cards counted since the last render moved (``standings.rank_standings``,
    each league in a short transaction of its own under its lock: a card being counted waits
    for the ranks, never for the render), then the pages, each league failing alone."""
    now = timezone.now()
    failed = {}
    for league_id in league_ids:

        def rank(league_id=league_id):
            with _step("standings"):
                rank_standings(league_id)

        _, failure = attempt("refresh", rank, about=lambda league_id=league_id: _about([league_id]))
        if failure is not None:
            failed[league_id] = failure
    if failed:
        _note_failures(failed, now)
    done = refresh_leagues([i for i in league_ids if i not in failed], only_pages=True)
    done.failed.update(failed)
    return done


def _want_pages(league_ids) -> None:
    PagesWanted.objects.bulk_create(
        [PagesWanted(league_id=league_id) for league_id in league_ids], ignore_conflicts=True
    )


def _take_pages(league_ids) -> list[int]:
    """As ``_take``: the marks deleted before the render reads, so a card counted during the
    render leaves a new one."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {PagesWanted._meta.db_table} "
            f"WHERE league_id IN ({placeholders(len(league_ids))}) RETURNING league_id",
            list(league_ids),
        )
        return sorted(league_id for (league_id,) in cursor.fetchall())


def _lock(league_id: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [REFRESH_LOCK, league_id])
        return cursor.fetchone()[0]


def _unlock(league_id: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [REFRESH_LOCK, league_id])
