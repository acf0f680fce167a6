"""The demo's events are scheduled around the moment it is made, whatever the local hour
(issue 30): at 01:38 the Fest's round 1 was "complete" with results dated later that day and
round 2 "started in 1033 min". Now round 1 has ended before that moment with its cards in,
round 2 is paired and starts soon after, and nothing final is dated in the future; a round
after midnight falls on the next day (events.files.round_days)."""

import random
from datetime import datetime, time, timedelta

import pytest

from events import demo
from events.models import AssistSale
from events.selectors import round_starts
from matches.models import FINAL_STATUSES, Match


@pytest.mark.parametrize("hour", [time(0, 0), time(1, 38), time(9, 5), time(23, 55)])
def test_e3_e5_the_demo_events_are_scheduled_around_the_moment_whatever_the_hour(
    institution, season, director, staff, hour
):
    tz = institution.tz
    now = datetime.combine(institution.today(), hour, tzinfo=tz)

    fest = demo.make_event(
        institution, season, director.user, staff.user, random.Random(1), "pw", now=now
    )
    challenge = demo.make_challenge(
        institution, season, director.user, staff.user, random.Random(2), now=now
    )

    for league in (fest, challenge):
        first, second = league.rounds.order_by("number")[:2]
        tables = Match.objects.filter(round=first)
        assert tables.exists() and all(t.status in FINAL_STATUSES for t in tables)
        assert max(t.finalised_at for t in tables) <= now, league
        if league == fest:  # the Fest's round 2 is paired; the challenge's waits for the draw
            assert Match.objects.filter(round=second).exists()
        starts = round_starts(league, second)
        assert now < starts <= now + timedelta(minutes=30), (league, starts)
        ends_first = round_starts(league, first) + timedelta(
            minutes=sum(p.minutes for p in first.periods.all())
        )
        assert ends_first <= now, league
    sales = AssistSale.objects.filter(league=challenge)
    assert sales.exists() and max(sale.sold_at for sale in sales) <= now
    assert len({sale.unit_cents > sale.item.first_cents for sale in sales}) == 2  # both tiers


def test_e3_a_round_that_starts_earlier_than_the_one_before_falls_on_the_next_day():
    from datetime import date

    from events.files import round_days

    day = date(2026, 11, 26)
    rounds = [
        (1, [(time(22, 0), 30), (time(22, 40), 30)]),
        (2, [(time(23, 30), 45)]),
        (3, [(time(0, 30), 45)]),
        (4, [(time(1, 30), 45)]),
    ]

    assert round_days(day, rounds) == {
        1: day,
        2: day,
        3: date(2026, 11, 27),
        4: date(2026, 11, 27),
    }
