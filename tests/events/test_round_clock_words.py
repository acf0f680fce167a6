"""A round's time left in words (E3, E5, issue 48): a round of one period is the round ("Round 2:
44 min left") on its page, the event's page, the projector and the score sheet; "period" only
where a round has several."""

import re
from datetime import date, datetime, time, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from events.round_clock import round_clock
from tests.support import FEST, at, create_event, run, write


def test_e3_e5_the_round_clock_names_the_round_and_a_period_only_where_there_are_several():
    from zoneinfo import ZoneInfo

    tz = ZoneInfo("America/Chicago")
    day = date(2026, 11, 28)
    at = datetime(2026, 11, 28, 19, 1, tzinfo=tz)

    one = round_clock(day, [(time(19, 0), 45)], tz, at, number=2)
    two = round_clock(day, [(time(19, 0), 30), (time(19, 45), 30)], tz, at, 1)

    assert str(one) == "Round 2: 44 min left"
    assert str(two) == "Round 1, period 1 of 2: 29 min left"


@pytest.fixture
def fest_in_play(season, tmp_path):
    """An event today whose round 1 (one period of 45 minutes) began a minute ago."""
    tz = season.institution.tz
    now = timezone.localtime(timezone.now(), tz)
    begun = now - timedelta(minutes=1)
    starts = begun.time() if begun.date() == now.date() else time(0, 0)
    data = {
        **FEST,
        "date": now.date().isoformat(),
        "rounds": [{"number": 1, "periods": [{"starts": f"{starts:%H:%M}", "minutes": 45}]}],
    }
    create_event(season, tmp_path, data, "fest.json")
    run(
        "import_entrants",
        write(tmp_path, "in.csv", "name,category\nAda Quill,Competitive\nBo Vance,Competitive\n"),
        "--league",
        "fest",
    )
    run("pair_round", "--league", "fest", "--all-entrants")


def test_e3_the_round_page_and_projector_say_the_rounds_time_left_not_a_period(
    client, fest_in_play
):
    for url in (
        reverse("event_round", args=[at("fest"), 1]),
        reverse("event_projector_panel", args=[at("fest")]),
        reverse("league_detail", args=[at("fest")]),
    ):
        page = client.get(url).content.decode()
        assert re.search(r"Round 1: 4\d min left", page), url
        assert "Period 1" not in page, url


def test_e3_a_one_period_rounds_score_sheet_says_when_it_starts_not_period_1(tmp_path):
    from events.printables import PrintRound, score_sheets_pdf
    from tests.events.test_printables import sample_round
    from tests.support import poppler

    sheet = sample_round(tables=1)
    sheet = PrintRound(**{**sheet.__dict__, "periods": (("18:00", 45),)})  # as the page gives it
    text = poppler("pdftotext", score_sheets_pdf(sheet, "letter"), tmp_path)

    assert "starts 18:00 (45 min)" in text and "period 1" not in text.lower()
