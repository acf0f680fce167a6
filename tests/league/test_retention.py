"""Retention (P5): the nightly erases guests' addresses and volunteers' accounts some days after
their event, and a past season's personal data some years after it ended; the digest says how
many; a second run changes nothing."""

import json
from datetime import date, timedelta

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import IdCheck, PlayerProfile, RosterEntry, User
from events import services as events
from league.nightly import run_for_institution
from league.retention import retention_apply
from tests.support import (
    FEST,
    LeagueFactory,
    SeasonFactory,
    confirmed_game,
    entrant,
    match_between,
    run,
    write,
)

TODAY = timezone.now().date()  # the events below are dated around it


def _fest(season, tmp_path, *, slug, day):
    data = {**FEST, "slug": slug, "date": day.isoformat()}
    path = write(tmp_path, f"{slug}.json", json.dumps(data))
    run("create_event", path, "--institution", season.institution.slug, "--season", season.slug)
    from league.models import League

    return League.objects.get(slug=slug)


def _guest(league, director, name, email):
    details = events.EntrantDetails(name=name, category="Competitive", email=email)
    return events.entrant_save(actor=director.user, league=league, details=details)[0].player


@pytest.fixture
def year(institution):
    """A season around TODAY."""
    return SeasonFactory(
        institution=institution,
        starts_on=TODAY - timedelta(days=80),
        ends_on=TODAY + timedelta(days=20),
        registration_deadline=TODAY - timedelta(days=70),
    )


@pytest.fixture
def fests(year, director, tmp_path):
    """An event 40 days ago and one next week (the institution keeps guests' data 30 days)."""
    past = _fest(year, tmp_path, slug="fest-past", day=TODAY - timedelta(days=40))
    soon = _fest(year, tmp_path, slug="fest-soon", day=TODAY + timedelta(days=7))
    return past, soon


def _erase(institution, day=TODAY):
    return retention_apply(institution=institution, today=day, now=timezone.now())


def test_p5_a_guests_address_goes_30_days_after_their_last_event_not_before(
    institution, fests, director
):
    past, soon = fests
    gone = _guest(past, director, "Ima Visitor", "ima@example.org")
    staying = _guest(past, director, "Una Back", "una@example.org")
    _guest(soon, director, "Una Back", "una@example.org")  # the same guest, coming again

    erased = _erase(institution)

    gone.refresh_from_db()
    staying.refresh_from_db()
    assert (gone.email, gone.display_name) == ("", "Ima Visitor")  # the name stays on results
    assert staying.email == "una@example.org"
    assert erased.guest_addresses == 1
    assert _erase(institution).guest_addresses == 0
    assert _erase(institution, TODAY - timedelta(days=40)).guest_addresses == 0


def test_p5_a_volunteers_account_is_forgotten_after_their_event(institution, fests, director):
    past, soon = fests
    before_it = timezone.now() - timedelta(days=45)
    old = events.scorer_invite(
        actor=director.user,
        league=past,
        name="Vic Volunteer",
        email="vic@example.edu",
        now=before_it,
    )
    new = events.scorer_invite(
        actor=director.user, league=soon, name="Nia Helper", email="nia@example.edu"
    )

    assert _erase(institution).volunteer_accounts == 1

    old.refresh_from_db()
    new.refresh_from_db()
    assert old.user.profile.erased_at is not None and not old.user.is_active
    assert "vic" not in old.email and old.name == "Former volunteer"
    assert new.user.profile.erased_at is None and new.email == "nia@example.edu"
    assert _erase(institution).volunteer_accounts == 0


def test_p5_a_past_seasons_records_and_students_go_after_three_years_their_results_stay(
    institution, year, director
):
    old = SeasonFactory(
        institution=institution,
        starts_on=date(2022, 9, 1),
        ends_on=date(2022, 12, 15),
        registration_deadline=date(2022, 9, 10),
    )
    league = LeagueFactory(season=old)
    leaver = entrant(league, first_name="Lee", last_name="Gone")
    stayer = entrant(league, first_name="Sam", last_name="Stays")
    current = entrant(LeagueFactory(season=year))  # a student of this year only
    back = entrant(league, first_name="Bea", last_name="Back")  # logged in this week
    long_ago = timezone.now() - timedelta(days=4 * 365)
    User.objects.filter(pk__in=[leaver.user_id, stayer.user_id, back.user_id]).update(
        date_joined=long_ago, last_login=long_ago
    )
    User.objects.filter(pk=back.user_id).update(last_login=timezone.now())
    year_league = LeagueFactory(season=year)
    year_league.entries.create(player=stayer)
    confirmed_game(match_between(league, leaver, stayer), winner=leaver, loser=stayer)
    RosterEntry.objects.create(season=old, campus_id=stayer.campus_id)
    IdCheck.objects.create(profile=stayer, season=old, checked_by=director.user)
    before = list(league.standings.order_by("rank").values("player_id", "wins", "spread"))

    erased = _erase(institution)

    assert erased.past_students == 1
    assert erased.season_records >= 2
    leaver.refresh_from_db()
    stayer.refresh_from_db()
    current.refresh_from_db()
    back.refresh_from_db()
    assert leaver.erased_at is not None and stayer.erased_at is None
    assert current.erased_at is None and back.erased_at is None
    assert director.user.profile.erased_at is None  # staff are never a past season's student
    assert not RosterEntry.objects.filter(season=old).exists()
    assert not IdCheck.objects.filter(season=old).exists()
    after = list(league.standings.order_by("rank").values("player_id", "wins", "spread"))
    assert after == before
    again = _erase(institution)
    assert not again.any


def test_p5_the_digest_says_what_was_erased_and_a_second_run_erases_nothing(
    institution, fests, director, django_capture_on_commit_callbacks
):
    past, _ = fests
    _guest(past, director, "Ima Visitor", "ima@example.org")
    _guest(past, director, "Oz Guest", "oz@example.org")
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        run_for_institution(institution=institution, today=TODAY)

    digest = next(m for m in mail.outbox if "what needs you today" in m.subject)
    assert "erased tonight under the retention settings: 2 guests' e-mail addresses" in (
        digest.body
    )
    with django_capture_on_commit_callbacks(execute=True):
        run_for_institution(institution=institution, today=TODAY)
    from league.models import NightlyRun

    assert NightlyRun.objects.get(institution=institution, day=TODAY).erased["guest_addresses"] == 2


def test_p5_retention_runs_in_the_same_number_of_queries_for_few_and_many(
    institution, fests, director
):
    past, _ = fests

    def queries_for(count, start):
        for n in range(start, start + count):
            _guest(past, director, f"Guest {n}", f"guest{n}@example.org")
        with CaptureQueriesContext(connection) as captured:
            erased = _erase(institution)
        assert erased.guest_addresses == count
        return len(captured)

    assert queries_for(2, 0) == queries_for(12, 100)
    assert PlayerProfile.objects.filter(user=None).exclude(email="").count() == 0


def test_p5_s4_slip_code_attempts_go_with_the_guests_addresses(institution, fests, director):
    """The attempts keep a device cookie's id: they are erased once their event is past the
    guests' 30 days, and those of a later event stay."""
    from events.models import CodeAttempt
    from tests.support import ProfileFactory, table_of

    past, soon = fests
    for league in (past, soon):
        players = [ProfileFactory(institution=institution) for _ in range(2)]
        match = table_of(league, players)
        CodeAttempt.objects.create(
            league=league, match=match, device="d" * 20, ok=False, action="confirm"
        )
    _erase(institution)
    assert list(CodeAttempt.objects.values_list("league", flat=True)) == [soon.pk]
