"""An event's set-up form (E3, E5): every key of its settings file, with its defaults, typed
instead of written as JSON (league.setup_forms)."""

from django import forms

from league.setup_forms import LineError, SetupForm, clock, lines_of, whole
from ratings.bands import rating_bands

from .files import DEFAULT_CATEGORY, DEFAULT_ROUNDS
from .models import FirstRound, ShortTeam


def _dollars(text: str, what: str) -> int:
    """ "5", "5.00" or "$5.50" as whole cents."""
    cleaned = text.replace("$", "").strip()
    dollars, _, cents = cleaned.partition(".")
    if not dollars.isdecimal() or (cents and not (cents.isdecimal() and len(cents) <= 2)):
        raise LineError(f"{what} {text!r} is not an amount in dollars (5 or 5.50)")
    if len(dollars) > 6:
        raise LineError(f"{what} {text!r} is too large")
    return int(dollars) * 100 + int(cents.ljust(2, "0") or 0)


class EventSetupForm(SetupForm):
    format_value = "event"

    date = forms.DateField(label="The event's day", widget=forms.DateInput(attrs={"type": "date"}))
    rounds = forms.CharField(
        label="Rounds: one a line, its periods' start and minutes (“6:00 PM 45”; two periods: "
        "“6:30 PM 30 | 7:30 PM 30”); a round after midnight falls on the next day",
        widget=forms.Textarea(attrs={"rows": 4}),
        initial="\n".join(
            " | ".join(f"{starts:%-I:%M %p} {minutes}" for starts, minutes in periods)
            for _, periods in DEFAULT_ROUNDS
        ),
    )
    categories = forms.CharField(
        label="Categories: one a line, “name | pairing group | seconds a turn” (no seconds: "
        "untimed; no group: its own)",
        widget=forms.Textarea(attrs={"rows": 3}),
        initial=f"{DEFAULT_CATEGORY} | {DEFAULT_CATEGORY} |",
    )
    champion_category = forms.CharField(
        label="The category whose winner is the champion (optional)", required=False, max_length=60
    )
    seats_per_table = forms.TypedChoiceField(
        label="Seats a table", choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int, initial=2
    )
    team_size = forms.IntegerField(
        label="Players a team (team events only)", required=False, min_value=2, max_value=8
    )
    short_team = forms.ChoiceField(
        label="A team short of players", choices=ShortTeam.choices, initial=ShortTeam.SUM
    )
    self_entry = forms.BooleanField(
        label="Players enter their own table's card from its page (the scoring table then sees "
        "only what needs a person)",
        required=False,
        initial=False,
    )
    first_round = forms.ChoiceField(
        label="Round 1 within each pairing group",
        choices=FirstRound.choices,
        initial=FirstRound.RANDOM,
        required=False,
    )
    assists = forms.CharField(
        label="Assists sold at the tables: one a line, “name | first price | later price” "
        "in dollars (optional)",
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
    )
    field_order = ["season", "name", "slug", "date", "venue", "rounds", "categories"]

    def __init__(self, *args, institution, **kwargs):
        super().__init__(*args, institution=institution, **kwargs)
        bands = rating_bands(institution)
        if bands:
            # R4: categories by rating, suggested from the players rated here so far.
            lines = "; ".join(
                f"“Division {letter} | Division {letter} |” for {_band_words(low, high)}"
                for letter, (low, high) in zip("ABCDE", bands, strict=False)
            )
            self.fields["categories"].help_text = (
                f"By rating at {institution.name}, bands of about equal size: {lines}. The "
                "scoring table puts each entrant in a category at the door."
            )

    def settings_file(self) -> dict:
        data = self.cleaned_data
        rounds = lines_of(self, "rounds", _round)
        categories = lines_of(self, "categories", _category)
        assists = lines_of(self, "assists", _assist)
        return {
            **super().settings_file(),
            "date": data["date"].isoformat(),
            "rounds": rounds,
            "categories": categories,
            "champion_category": data["champion_category"] or None,
            "seats_per_table": data["seats_per_table"],
            "team_size": data["team_size"],
            "short_team": data["short_team"],
            "self_entry": data["self_entry"],
            "first_round": data["first_round"] or FirstRound.RANDOM.value,
            "assists": assists,
        }


def _band_words(low: int | None, high: int | None) -> str:
    if high is None:
        return f"{low} and up"
    if low is None:
        return f"below {high + 1}"
    return f"{low}–{high}"


def _round(parts: list[str], number: int) -> dict:
    periods = []
    for part in parts:
        starts, _, minutes = part.rpartition(" ")
        if not starts:
            raise LineError(f"{part!r} needs a start and its minutes (6:00 PM 45)")
        periods.append({"starts": clock(starts), "minutes": whole(minutes, "Minutes")})
    return {"number": number, "periods": periods}


def _category(parts: list[str], _number: int) -> dict:
    name, group, seconds = (parts + ["", ""])[:3]
    if not name:
        raise LineError("a category needs its name")
    return {
        "name": name,
        "pairing_group": group or None,
        "turn_seconds": whole(seconds, "Seconds a turn") if seconds else None,
    }


def _assist(parts: list[str], _number: int) -> dict:
    name, first, later = (parts + ["", ""])[:3]
    if not name or not first:
        raise LineError("an assist needs its name and its price")
    first_cents = _dollars(first, "The first price")
    return {
        "name": name,
        "first_cents": first_cents,
        "later_cents": _dollars(later, "The later price") if later else first_cents,
    }
