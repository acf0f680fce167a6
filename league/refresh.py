"""What follows a change to what a league's tables are computed from: its standings, then its
bracket, then its stored pages, in one transaction, so that ``LeaguePage`` is never stale and is
rendered once, after both have changed.

The steps store what they compute and render nothing (``standings.rebuild_standings``,
``playoffs.brackets_advance``, ``playoffs.build_ready_brackets``); ``pages.render_pages``
renders. The callers: the result receiver and an edit of a league's forfeit spreads
(``receivers.py``), the nightly job (``nightly.py``), entries joining and withdrawing
(``services.py``), the demo's seeding.
"""

from dataclasses import dataclass
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone

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
