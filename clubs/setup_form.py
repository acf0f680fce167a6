"""A club's set-up form (E4): its settings file's keys typed instead of written as JSON
(league.setup_forms), the nights as a first night and how many, a week apart by default."""

from datetime import timedelta

from django import forms

from league.models import ChallengeRule
from league.setup_forms import SetupForm

from .files import MAX_NIGHTS


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
    field_order = ["season", "name", "slug", "first_night", "nights", "days_apart", "venue"]

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
                {
                    "number": number,
                    "date": (
                        data["first_night"] + timedelta(days=data["days_apart"] * (number - 1))
                    ).isoformat(),
                }
                for number in range(1, data["nights"] + 1)
            ],
        }
