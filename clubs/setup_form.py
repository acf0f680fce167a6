"""A club's set-up form (E4): its settings file's keys typed instead of written as JSON
(league.setup_forms), the nights as a first night and how many, a week apart by default, none
on Christmas Day or New Year's Day unless the director says so."""

from datetime import date, timedelta

from django import forms

from league.models import ChallengeRule
from league.setup_forms import SetupForm

from .files import MAX_NIGHTS

# (month, day): the days a campus club does not meet unless its director says it does.
HOLIDAYS = {(12, 25): "Christmas Day", (1, 1): "New Year's Day"}


def night_dates(first: date, count: int, days_apart: int, *, skip_holidays: bool) -> list[date]:
    """`count` nights from `first`, `days_apart` days apart. A night falling on a holiday is
    skipped and the run goes on at the same spacing, so the club keeps its weekday and its
    number of nights: a Thursday club whose tenth Thursday is Christmas Day meets the Thursday
    after New Year's Day instead (both holidays fall on the same weekday)."""
    nights: list[date] = []
    day = first
    while len(nights) < count:
        if not (skip_holidays and (day.month, day.day) in HOLIDAYS):
            nights.append(day)
        day += timedelta(days=days_apart)
    return nights


class ClubSetupForm(SetupForm):
    format_value = "club"

    first_night = forms.DateField(
        label="The first night", widget=forms.DateInput(attrs={"type": "date"})
    )
    nights = forms.IntegerField(
        label="How many nights", min_value=1, max_value=MAX_NIGHTS, initial=10
    )
    days_apart = forms.IntegerField(
        label="Days between nights", min_value=1, max_value=31, initial=7
    )
    skip_holidays = forms.BooleanField(
        label="No night on Dec 25 or Jan 1",
        help_text=(
            "A night that would fall on Christmas Day or New Year's Day is left out and the "
            "nights go on at the same spacing, as many as asked for. Untick if the club meets "
            "on those days."
        ),
        required=False,
        initial=True,
    )
    rating_weight = forms.TypedChoiceField(
        label="In ratings, the club's games count",
        choices=[
            (1.0, "In full"),
            (0.5, "Half"),
            (round(1 / 3, 4), "A third (as NASPA counts a club tournament)"),
        ],
        coerce=float,
        initial=1.0,
        required=False,
        empty_value=1.0,
    )
    field_order = [
        "season",
        "name",
        "slug",
        "first_night",
        "nights",
        "days_apart",
        "skip_holidays",
        "venue",
    ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A club's challenge rule defaults to the bonus to the challenger (003 rule 9, G5).
        self.fields["challenge_rule"].initial = ChallengeRule.CLUB_BONUS_TO_CHALLENGER

    def settings_file(self) -> dict:
        data = self.cleaned_data
        return {
            **super().settings_file(),
            "rating_weight": data["rating_weight"],
            "rounds": [
                {"number": number, "date": day.isoformat()}
                for number, day in enumerate(
                    night_dates(
                        data["first_night"],
                        data["nights"],
                        data["days_apart"],
                        skip_holidays=data["skip_holidays"],
                    ),
                    start=1,
                )
            ],
        }
