"""A club's set-up form (E4): the nights are a first night, a count and a spacing; by default
none falls on Christmas Day or New Year's Day: that night is left out, the run goes on at the
same spacing, so the club keeps its weekday and its number of nights."""

from datetime import date, timedelta

from django.urls import reverse

from clubs.setup_form import night_dates
from league.models import League, Round
from tests.support import SeasonFactory


def test_e4_weekly_nights_skip_christmas_and_new_years_day_and_keep_their_weekday_and_count():
    thursday = date(2025, 10, 30)

    nights = night_dates(thursday, 10, 7, skip_holidays=True)
    kept = night_dates(thursday, 10, 7, skip_holidays=False)

    assert date(2025, 12, 25) in kept and date(2026, 1, 1) in kept  # ten Thursdays on
    assert date(2025, 12, 25) not in nights and date(2026, 1, 1) not in nights
    assert len(nights) == 10 and {night.weekday() for night in nights} == {thursday.weekday()}
    assert nights[-2:] == [date(2026, 1, 8), date(2026, 1, 15)]
    assert night_dates(date(2025, 12, 25), 2, 1, skip_holidays=True) == [
        date(2025, 12, 26),
        date(2025, 12, 27),
    ]


def club_form(season, **changes):
    return {
        "season": season.pk,
        "name": "Winter Club",
        "slug": "winter-club",
        "first_night": "2025-10-30",
        "nights": "10",
        "days_apart": "7",
        "lexicon": "NWL2023",
        "end_of_game_rule": "standard",
        "challenge_rule": "club_bonus_to_challenger",
        "challenge_points": "10",
        **changes,
    }


def test_e4_the_club_form_leaves_out_the_holidays_by_default_and_keeps_them_when_unticked(
    client, director, institution
):
    winter = SeasonFactory(
        institution=institution,
        name="Winter 2025",
        starts_on=date(2025, 9, 1),
        ends_on=date(2026, 5, 1),
        registration_deadline=date(2025, 9, 15),
    )
    client.force_login(director.user)
    form_url = reverse("league_setup_form", args=["club"])

    page = client.get(form_url).content.decode()
    client.post(form_url, club_form(winter, skip_holidays="on"))
    client.post(form_url, club_form(winter, slug="all-weeks"))  # the box unticked

    box = page[page.index('<input type="checkbox" name="skip_holidays"') :]
    assert " checked>" in box[: box.index(">") + 1]  # ticked by default
    skipped = list(
        Round.objects.filter(league=League.objects.get(slug="winter-club"))
        .order_by("number")
        .values_list("play_by", flat=True)
    )
    every_week = list(
        Round.objects.filter(league=League.objects.get(slug="all-weeks"))
        .order_by("number")
        .values_list("play_by", flat=True)
    )
    assert every_week == [date(2025, 10, 30) + timedelta(days=7 * n) for n in range(10)]
    assert len(skipped) == 10
    assert not {(night.month, night.day) for night in skipped} & {(12, 25), (1, 1)}
    assert skipped[-1] == date(2026, 1, 15)
