"""core.compiled (issue 18): a queryset the ORM writes once, run with new values, gives what the
ORM's own iteration gives, and refuses what it cannot compile."""

from datetime import date, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Season
from core.compiled import CompiledQuery
from tests.factories import LeagueFactory


def seasons_running(institution_id, on):
    return (
        Season.objects.select_related("institution")
        .filter(institution_id=institution_id, starts_on__lte=on, ends_on__gte=on)
        .order_by("-starts_on")
    )


RUNNING = CompiledQuery(seasons_running, institution_id=int, on=date)


def test_a_compiled_query_returns_the_orms_objects_for_each_new_value(season, institution):
    later = Season.objects.create(
        institution=institution,
        name="Later",
        slug="later",
        starts_on=season.ends_on + timedelta(days=10),
        ends_on=season.ends_on + timedelta(days=60),
        registration_deadline=season.ends_on + timedelta(days=12),
    )
    for day in (season.starts_on, later.starts_on, season.ends_on + timedelta(days=5)):
        expected = list(seasons_running(institution.pk, day))
        with CaptureQueriesContext(connection) as captured:
            found = RUNNING.all(institution_id=institution.pk, on=day)
            assert [each.institution.name for each in found] == [
                each.institution.name for each in expected
            ]
        assert found == expected and len(captured) == 1
    assert RUNNING.first(institution_id=institution.pk, on=later.starts_on) == later
    assert RUNNING.first(institution_id=-5, on=later.starts_on) is None


def test_a_value_of_another_kind_goes_the_orms_own_way(season, institution):
    """A datetime where a date was declared is not put in the compiled statement (None, which
    needs IS NULL, neither: the sessions' test covers it)."""
    moment = timezone.make_aware(datetime.combine(season.starts_on, datetime.min.time()))
    assert RUNNING.all(institution_id=institution.pk, on=moment) == [season]
    with pytest.raises(TypeError, match="expected the values"):
        RUNNING.all(institution_id=institution.pk)


def test_a_value_the_orm_rewrites_cannot_be_compiled(season):
    LeagueFactory(season=season, name="Rewritten")
    from league.models import League

    containing = CompiledQuery(lambda text: League.objects.filter(name__contains=text), text=str)
    with pytest.raises(ValueError, match="rewrote the value 'text'"):
        containing.all(text="Rewr")


def test_a_value_that_shapes_the_sql_gets_a_statement_of_its_own(season):
    """A slice's offset is written into the SQL: each page is its own statement."""
    from league.models import League

    for number in range(5):
        LeagueFactory(season=season, name=f"Paged {number}")
    page = CompiledQuery(
        lambda season_id, offset: League.objects.filter(season_id=season_id).order_by("name")[
            offset : offset + 2
        ],
        shape=("offset",),
        season_id=int,
    )
    names = [
        [league.name for league in page.all(season_id=season.pk, offset=offset)]
        for offset in (0, 2, 4, 0)
    ]
    assert names == [
        ["Paged 0", "Paged 1"],
        ["Paged 2", "Paged 3"],
        ["Paged 4"],
        ["Paged 0", "Paged 1"],
    ]
    assert len(page._statements) == 3
