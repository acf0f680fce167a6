"""`seed_demo` at other sizes (public contract): the options, their refusals, the bulk path of
the benchmarks, and the demo committed for real as a worker would see it. Each test seeds its
own; tests/project/test_seed_demo.py reads one default demo."""

import pytest
from django.core.management import CommandError, call_command
from django.forms.models import model_to_dict
from django.urls import reverse

from accounts.models import Eligibility, PlayerProfile
from tests.support import run


def test_the_demo_has_students_in_each_eligibility_state(db):
    run("seed_demo", "--players", "14", "--leagues", "0")
    assert PlayerProfile.objects.exclude(campus_id="").count() == 14
    statuses = set(Eligibility.objects.values_list("status", flat=True))
    assert statuses == {"eligible", "ineligible"}
    assert Eligibility.objects.count() < 14  # the others are pending


def test_a_too_small_demo_is_refused(db):
    with pytest.raises(CommandError, match="--players: a whole number from 4 to 200000"):
        call_command("seed_demo", "--players", "2")


def test_a_league_needs_enough_students(db):
    with pytest.raises(CommandError, match="eight eligible students"):
        call_command("seed_demo", "--players", "6")


def test_the_scale_path_bulk_makes_leagues_in_every_state_for_the_night(db):
    from league.models import League, Standing
    from league.nightly import run_nightly
    from matches.models import AuditEvent, Match

    run("seed_demo", "--players", "120", "--leagues", "4", "--matches", "300")
    # The four asked for, and the league the demo keeps open to join.
    assert League.objects.exclude(format__in=["club", "event"]).count() == 4 + 1
    assert Match.objects.count() >= 300
    statuses = set(Match.objects.values_list("status", flat=True))
    assert {
        "confirmed",
        "reported",
        "disputed",
        "resolved",
        "forfeit",
        "double_forfeit",
        "unscheduled",
    } <= statuses
    assert Standing.objects.filter(league__slug="league-2").exists()
    # The bulk path creates through the one match service too: one "created" event a match.
    created = AuditEvent.objects.filter(action="created").count()
    assert created == Match.objects.count()
    summary = run_nightly()
    assert (
        summary.forfeits > 0 and summary.auto_confirmed > 0 and summary.standings_rebuilt == 8
    )  # four leagues, the open one, the club and the two events


def test_negative_sizes_are_refused(db):
    with pytest.raises(CommandError, match="--matches: a whole number from 0 to 2000000"):
        call_command("seed_demo", "--matches", "-1")


def test_the_demo_mails_nobody_even_through_a_worker(transactional_db):
    """Its addresses are made up. A worker in another process sends what the outbox holds, and
    no setting of this process reaches it: the demo's messages are written already expired."""
    from django.core import mail
    from post_office.models import Email

    from core.tasks import send_queued_mail

    run("seed_demo")  # committed for real, as a worker would see it
    send_queued_mail.run()

    assert Email.objects.filter(expires_at__isnull=False).count() > 5  # proposals, reports, ...
    assert not Email.objects.filter(expires_at__isnull=True).exists()
    assert not mail.outbox


def test_campuses_beside_the_demo_are_institutions_of_their_own(db, client):
    """`--campuses`: the many-campus deployment of the benchmark's ten-times size, each campus
    with its own domain (overlapping neither the demo's nor another campus's, as the
    institutions' rule asks), director, students and leagues, each rated and its night
    runnable; each director saves their institution's form in the admin."""
    from accounts.models import Institution, User
    from league.models import League, Standing
    from league.nightly import run_nightly
    from ratings.models import RatingPeriod

    run(
        "seed_demo", "--players", "14", "--leagues", "0", "--campuses", "2",
        "--campus-players", "40", "--campus-leagues", "2", "--campus-matches", "60",
    )  # fmt: skip
    campuses = Institution.objects.filter(slug__startswith="campus-").order_by("slug")
    assert [c.slug for c in campuses] == ["campus-001", "campus-002"]
    assert {c.email_domains for c in campuses} == {"campus001.example", "campus002.example"}
    for institution in Institution.objects.all():
        institution.full_clean()  # no domain overlaps another institution's
    for campus in campuses:
        students = PlayerProfile.objects.filter(institution=campus).exclude(campus_id="")
        assert students.count() == 40
        assert {p.user.email.split("@")[1] for p in students} == {campus.email_domains}
        assert User.objects.filter(
            email=f"director@{campus.email_domains}", groups__name="Directors"
        ).exists()
        client.force_login(User.objects.get(email=f"director@{campus.email_domains}"))
        saved = client.post(
            reverse("admin:accounts_institution_change", args=[campus.pk]),
            {
                **model_to_dict(campus, exclude=["id", "email_domains"]),
                "default_venue": "Student Center, Games Room B",
            },
        )
        assert saved.status_code == 302, saved.content.decode()
        leagues = League.objects.filter(season__institution=campus)
        assert [league.name for league in leagues.order_by("name")] == ["League 1", "League 2"]
        assert Standing.objects.filter(league__in=leagues).exists()
        assert RatingPeriod.objects.filter(institution=campus).exists()
    # Running it again adds nothing; every campus's night runs.
    run(
        "seed_demo", "--players", "14", "--leagues", "0", "--campuses", "2",
        "--campus-players", "40",
    )  # fmt: skip
    assert Institution.objects.count() == 3
    assert run_nightly().standings_rebuilt >= 4
