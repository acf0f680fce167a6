"""core.compiled (issue 18): a queryset the ORM writes once, run with new values, gives what the
ORM's own iteration gives, and refuses what it cannot compile."""

from datetime import date, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Season
from core.compiled import CompiledQuery
from tests.support import LeagueFactory


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


def test_the_match_pages_compiled_reads_give_what_the_orms_prefetch_gives(match, player):
    """matches.selectors.match_for_page reads with compiled queries and core.compiled.attach:
    the same objects, relations and order as prefetch_related, and a filter on an attached
    relation is still scoped to its parent."""
    from datetime import timedelta as delta

    from matches.selectors import match_for_page
    from matches.services import proposal_create
    from tests.support import new_match, open_dispute

    soon = timezone.now() + delta(days=1)
    proposal_create(actor=player.user, match=match, times=[soon + delta(hours=2), soon])
    open_dispute(match)
    new_match(match.league)  # another match's seats, which a filter must not reach

    page = match_for_page(match.pk)
    emails = [seat.player.user.email for seat in match.seats.order_by("order")]
    events = list(match.audit_events.all())
    assert events
    proposals = [match.proposals.get(status="open").pk]
    with CaptureQueriesContext(connection) as captured:
        assert [seat.player.user.email for seat in page.seats.all()] == emails
        assert list(page.audit_events.all()) == events
        assert list(page.contact_issues.all()) == []
        assert [p.pk for p in page.open_proposals] == proposals
        assert [t.starts_at for t in page.open_proposals[0].times.all()] == [
            soon,
            soon + delta(hours=2),
        ]
        (report,) = page.all_reports
        assert page.live_reports == [report]
        assert report.score_list() == [420, 380]
        assert [d.scores for d in report.disputes.all()] == [[400, 410]]
        assert report.match is page and page.seats.all()[0].match is page
    assert len(captured) == 0, [each["sql"] for each in captured]
    assert list(page.seats.filter(order=1)) == [page.seats.all()[0]]
    assert match_for_page(-1) is None
