"""Rating an institution's games (R1, R2) from league, which knows the formats: an event is rated
as one period (its format's `one_rating_period`), every other league round by round. The nightly
job and `manage.py rate` call it; the computation is `ratings.services.rate_institution`."""

from datetime import datetime

from accounts.models import Institution
from ratings.services import RatingRun, rate_institution

from . import formats
from .models import League


def rate(
    institution: Institution, *, from_scratch: bool = False, now: datetime | None = None
) -> RatingRun:
    whole = League.objects.filter(
        season__institution=institution, format__in=formats.with_trait("one_rating_period")
    ).values_list("pk", flat=True)
    return rate_institution(
        institution, whole_leagues=list(whole), from_scratch=from_scratch, now=now
    )
