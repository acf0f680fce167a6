"""One truth across features (issue 46): every write that changes what a stored page or feed
shows leaves it fresh, whoever wrote it. Each documented command and each director action is run
on the demo, then every stored page and feed (``LeaguePage``: the standings, bracket and event
pages and their JSON, for members and the public) is compared with a fresh render of it: equal.
A command's pages are fresh when it exits; a web write's once its commit's work has run."""

import pytest
from django.test import TestCase
from django.urls import reverse
from django.utils import timezone

from accounts.models import Institution, PlayerProfile
from league.models import League, LeaguePage
from league.pages import PAGE_COLUMNS, rendered_pages
from matches.models import Match, MatchStatus
from matches.services import Ruling, rule
from ratings.models import PlayerRating
from tests.support import run, write


def stale_pages() -> list[str]:
    """Each stored page that differs from a fresh render of it, as "league: column"."""
    stale = []
    pages = {page.league_id: page for page in LeaguePage.objects.select_related("league")}
    fresh = {}
    for page in pages.values():
        (fresh[page.league_id],) = rendered_pages([page.league_id], page.rendered_at)
    for league_id, page in pages.items():
        for column, value in zip(PAGE_COLUMNS, fresh[league_id][1:], strict=True):
            if column not in ("rendered_at", "layout") and getattr(page, column) != value:
                stale.append(f"{page.league.slug}: {column}")
    return stale


@pytest.fixture
def committed():
    """What a commit runs after it (the pages' refresh, a worker's rating), run as it would."""
    return lambda: TestCase.captureOnCommitCallbacks(execute=True)


@pytest.fixture
def fresh_demo(demo, db):
    assert stale_pages() == [], "the demo's pages were stale before the test"
    return Institution.objects.get(slug="example-state")


def director(institution):
    return PlayerProfile.objects.get(user__email="director@example.edu").user


def test_r2_the_rate_command_leaves_every_page_fresh(fresh_demo, committed):
    with committed():
        run("rate", "--from-scratch")
    assert PlayerRating.objects.exists()
    assert stale_pages() == []


def test_r5_import_ratings_leaves_every_page_fresh(fresh_demo, tmp_path, committed):
    players = PlayerProfile.objects.filter(institution=fresh_demo).exclude(campus_id="")
    lines = "".join(f"{p.campus_id},{1500 + 10 * i}\n" for i, p in enumerate(players[:8]))
    path = write(tmp_path, "known.csv", "campus_id,rating\n" + lines)
    with committed():
        run("import_ratings", path, "--institution", fresh_demo.slug)
    assert stale_pages() == []


def test_r5_the_ratings_import_page_leaves_every_page_fresh(fresh_demo, client, committed):
    client.force_login(director(fresh_demo))
    players = PlayerProfile.objects.filter(institution=fresh_demo).exclude(campus_id="")
    lines = "".join(f"{p.campus_id},{1600 + 10 * i}\n" for i, p in enumerate(players[:5]))
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("known.csv", ("campus_id,rating\n" + lines).encode())
    with committed():
        answer = client.post(reverse("ratings_import"), {"file": upload})
    assert answer.status_code in (200, 302)
    assert stale_pages() == []


def test_l9_a_ruling_then_rate_leaves_every_page_fresh(fresh_demo, committed):
    match = Match.objects.filter(status=MatchStatus.CONFIRMED, league__format="league").first()
    scores = [seat.score for seat in match.seats.order_by("order")]
    with committed():
        rule(
            actor=director(fresh_demo),
            match=match,
            ruling=Ruling.AMEND,
            reason="The card was misread.",
            scores=[scores[1] + 100, scores[1]],
        )
    assert stale_pages() == []
    with committed():
        run("rate")
    assert stale_pages() == []


def test_p1_the_public_name_setting_leaves_every_page_fresh(fresh_demo, committed):
    with committed():
        fresh_demo.public_names = "number"
        fresh_demo.save()
    assert stale_pages() == []
    league = League.objects.filter(season__institution=fresh_demo).first()
    with committed():
        league.public_names = "short"
        league.save()
    assert stale_pages() == []


def entered_student(institution):
    return (
        PlayerProfile.objects.filter(institution=institution, entries__isnull=False)
        .exclude(campus_id="")
        .order_by("pk")
        .first()
    )


def test_p2_a_name_change_and_withholding_from_the_profile_leave_every_page_fresh(
    fresh_demo, client, committed
):
    student = entered_student(fresh_demo)
    client.force_login(student.user)
    with committed():
        client.post(reverse("profile_name"), {"first_name": "Renamed", "last_name": "Person"})
    assert PlayerProfile.objects.get(pk=student.pk).user.first_name == "Renamed"
    assert stale_pages() == []
    with committed():
        client.post(reverse("profile_privacy"), {"withhold": "1"})
    assert PlayerProfile.objects.get(pk=student.pk).withholds_name
    assert stale_pages() == []


def test_p2_the_registrars_withholding_in_a_roster_leaves_every_page_fresh(
    fresh_demo, tmp_path, committed
):
    student = entered_student(fresh_demo)
    season = student.entries.first().league.season
    path = write(tmp_path, "roster.csv", f"campus_id,withhold\n{student.campus_id},yes\n")
    with committed():
        run("import_roster", path, "--institution", fresh_demo.slug, "--season", season.slug)
    assert PlayerProfile.objects.get(pk=student.pk).registrar_withholds
    assert stale_pages() == []


def test_p1_a_guests_name_changed_in_the_admin_leaves_every_page_fresh(
    fresh_demo, client, committed
):
    guest = PlayerProfile.objects.filter(user__isnull=True, entries__isnull=False).first()
    guest.display_name = "Renamed Guest"
    with committed():
        guest.save()
    assert stale_pages() == []


def test_p4_forgetting_leaves_every_page_fresh(fresh_demo, client, committed):
    student = entered_student(fresh_demo)
    client.force_login(student.user)
    with committed():
        client.post(reverse("profile_forget"), {"confirm": student.user.email})
    assert PlayerProfile.objects.get(pk=student.pk).erased_at is not None
    assert stale_pages() == []


def test_l9_a_withdrawal_by_the_director_leaves_every_page_fresh(fresh_demo, committed):
    from league.models import Entry
    from league.services import entry_withdraw

    entry = Entry.objects.filter(
        league__format="league", league__season__institution=fresh_demo, withdrawn_at=None
    ).first()
    with committed():
        entry_withdraw(actor=director(fresh_demo), entry=entry, reason="Moved away.")
    assert stale_pages() == []


def test_the_nightly_leaves_every_page_fresh(fresh_demo, committed):
    with committed():
        run("run_nightly")
    assert stale_pages() == []


def test_p5_retention_forgetting_past_students_leaves_every_page_fresh(fresh_demo, committed):
    from datetime import timedelta

    from league.pages import render_pages
    from tests.support import LeagueFactory, SeasonFactory, confirmed_game, match_between

    today = fresh_demo.today()
    old = SeasonFactory(
        institution=fresh_demo,
        slug="long-ago",
        starts_on=today - timedelta(days=6 * 365),
        ends_on=today - timedelta(days=5 * 365),
        registration_deadline=today - timedelta(days=6 * 365),
    )
    league = LeagueFactory(season=old, name="Long Ago League", slug="long-ago-league")
    from league.models import Entry
    from tests.support import eligible_student

    first, second = eligible_student(old), eligible_student(old)
    for player in (first, second):
        Entry.objects.create(league=league, player=player)
        # Not about since that season: retention's to forget (P5).
        player.user.date_joined = timezone.now() - timedelta(days=6 * 365)
        player.user.save(update_fields=["date_joined"])
    with committed():
        confirmed_game(match_between(league, first, second), winner=first, loser=second)
        render_pages([league.pk])
    with committed():
        run("run_nightly")
    first.refresh_from_db()
    assert first.erased_at is not None  # retention (P5) forgot them
    assert stale_pages() == []
