"""Every page, export and PDF speaks the institution's time (issue 30): the projector's
"Updated" in the campus's clock (not UTC), a results export with the campus's offset, PDFs
with the site's 8:00 PM (not 20:00), and lengths over an hour in hours and minutes. Links that
leave the site (mail, printed QR codes, calendar feeds) come from SITE_URL, never from the Host
a request came with."""

import csv
import io
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from core.clock import clock_time, duration_words
from events.round_clock import RoundClock
from league.models import League
from tests.support import FEST, at, confirmed_game, create_event, poppler, run, write


@pytest.fixture
def fest(season, tmp_path):
    data = {**FEST, "date": (season.starts_on + timedelta(days=10)).isoformat()}
    create_event(season, tmp_path, data, "fest.json")
    names = "".join(f"Entrant {letter},Competitive\n" for letter in "ABCD")
    run("import_entrants", write(tmp_path, "in.csv", "name,category\n" + names), "--league", "fest")
    run("pair_round", "--league", "fest", "--all-entrants", "--seed", "3")
    return League.objects.get(slug="fest")


def test_every_length_over_an_hour_reads_as_hours_and_minutes():
    assert duration_words(45) == "45 min"
    assert duration_words(60) == "1 h"
    assert duration_words(88) == "1 h 28 min"
    assert duration_words(1088) == "18 h 8 min"
    assert str(RoundClock("before", 1, 1088)) == "Starts in 18 h 8 min"
    assert str(RoundClock("period", 1, 12, round=2)) == "Round 2: 12 min left"


def test_e3_the_projectors_updated_time_is_the_campuss_clock_for_anyone(fest, client):
    tz = fest.season.institution.tz
    assert str(tz) != "UTC"

    page = client.get(reverse("event_projector_panel", args=[at("fest")])).content.decode()

    shown = re.search(r"Updated (\d{1,2}:\d\d [AP]M)", page).group(1)
    now = timezone.now()
    allowed = {clock_time(timezone.localtime(now + timedelta(minutes=m), tz)) for m in (-1, 0)}
    assert shown in allowed
    utc_shown = {clock_time(now.astimezone(UTC) + timedelta(minutes=m)) for m in (-1, 0)}
    assert shown not in utc_shown


def test_the_results_export_gives_the_moment_with_the_campuss_offset(
    client, director, match, league, player, opponent
):
    confirmed_game(match, winner=player, loser=opponent, scores=(400, 350))
    match.refresh_from_db()
    client.force_login(director.user)

    rows = list(
        csv.DictReader(
            io.StringIO(client.get(reverse("export_results", args=[league.slug])).content.decode())
        )
    )

    written = rows[0]["finalised_at"]
    local = timezone.localtime(match.finalised_at, league.season.institution.tz)
    assert written == local.isoformat(timespec="seconds")
    assert written.endswith(local.strftime("%z")[:3] + ":" + local.strftime("%z")[3:])
    assert datetime.fromisoformat(written) == match.finalised_at.replace(microsecond=0)


def test_e3_pdfs_write_times_as_the_site_does(fest, client, staff, tmp_path):
    client.force_login(staff.user)

    pairings = client.get(reverse("event_print", args=[at("fest"), 1, "pairings"]))
    cards = client.get(reverse("event_print", args=[at("fest"), 1, "cards"]))

    text = poppler("pdftotext", pairings.content, tmp_path)
    assert "starts 6:00 PM" in text and "18:00" not in text
    assert "6:00 PM" in poppler("pdftotext", cards.content, tmp_path)


def test_a_players_calendar_link_comes_from_site_url_not_the_host(client, player):
    client.force_login(player.user)

    with override_settings(SITE_URL="http://127.0.0.1:8011", ALLOWED_HOSTS=["*"]):
        page = client.get(reverse("profile"), HTTP_HOST="evil.example.org").content.decode()

    assert "http://127.0.0.1:8011/matches/calendar/" in page
    assert "evil.example.org" not in page
