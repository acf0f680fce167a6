"""Rating an institution's games (R1, R2) from league, which knows the formats: an event is rated
as one period (its format's `one_rating_period`), every other league round by round, each
league's games at its weight (R3). The nightly job, `manage.py rate` and the workers' `rate_now`
call it; the computation is `ratings.services.rate_institution`."""

from datetime import datetime

from django.db.models import Exists, OuterRef

from accounts.models import Institution
from matches.models import FINAL_STATUSES, Match
from ratings.services import RatingRun, rate_institution

from . import formats
from .models import Entry, League, Round
from .refresh import refresh_leagues


def rate(
    institution: Institution,
    *,
    from_scratch: bool = False,
    now: datetime | None = None,
    pages: bool = True,
) -> RatingRun:
    """Rate what is ready (``ratings.services.rate_institution``), then render again the pages
    of every league that shows a player whose rating moved: standings.json and event.json give
    each player's rating now. `pages=False` leaves that to the caller (the nightly renders
    them with the rest)."""
    run = _rate(institution, from_scratch=from_scratch, now=now)
    if pages and run.changed:
        refresh_leagues(leagues_showing(run.changed), only_pages=True)
    return run


def leagues_showing(player_ids) -> list[int]:
    """The leagues whose pages name these players (their entries): one query."""
    return list(
        Entry.objects.filter(player_id__in=list(player_ids))
        .order_by()
        .values_list("league_id", flat=True)
        .distinct()
    )


def _rate(institution: Institution, *, from_scratch: bool, now: datetime | None) -> RatingRun:
    whole = League.objects.filter(
        season__institution=institution, format__in=formats.with_trait("one_rating_period")
    )
    # An event is one period: not ready while a round of it has no tables yet.
    not_ready = whole.filter(Exists(Round.objects.filter(league=OuterRef("pk"), matches=None)))
    weights = dict(
        League.objects.filter(season__institution=institution)
        .exclude(rating_weight=1)
        .values_list("pk", "rating_weight")
    )
    return rate_institution(
        institution,
        whole_leagues=list(whole.values_list("pk", flat=True)),
        not_ready=list(not_ready.values_list("pk", flat=True)),
        weights=weights,
        from_scratch=from_scratch,
        now=now,
    )


def finished_whole_periods(league_ids) -> list[tuple[int, int]]:
    """(institution, league) of each of these leagues rated as one period (an event) whose
    every match is final: rated at once, not at night (R2). One query."""
    open_match = Match.objects.filter(league=OuterRef("pk")).exclude(status__in=FINAL_STATUSES)
    unpaired = Round.objects.filter(league=OuterRef("pk"), matches=None)
    return list(
        League.objects.filter(
            pk__in=list(league_ids), format__in=formats.with_trait("one_rating_period")
        )
        .exclude(Exists(open_match))
        .exclude(Exists(unpaired))
        .values_list("season__institution_id", "pk")
    )
