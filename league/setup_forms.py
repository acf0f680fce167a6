"""Setting up an event or a club by form instead of a hand-written file (issue 30): each
format's form (``Format.setup_form``) has every key of its settings file with its default, and
turns what was typed into the same file the upload and `create_event` read, so one check and
one saver serve all three. An event's lists (rounds, categories, assists) are typed one a line;
a line that cannot be read is named by its field and number. A club's nights are a first
night, a count and a spacing (``clubs.setup_form``)."""

from datetime import datetime

from django import forms

from core.forms import TextField, WebAddressField

from .models import ChallengeRule, EndOfGameRule, League, Lexicon

TIME_FORMATS = ("%H:%M", "%I:%M %p", "%I:%M%p", "%I %p")


class LineError(Exception):
    """A line of a list field that cannot be read: the form names the field and the line."""


def clock(text: str) -> str:
    """ "6:00 PM", "6 pm" or "18:00" as the file writes it: "18:00"."""
    cleaned = " ".join(text.upper().split())
    for pattern in TIME_FORMATS:
        try:
            return datetime.strptime(cleaned, pattern).strftime("%H:%M")
        except ValueError:
            continue
    raise LineError(f"{text!r} is not a time (6:00 PM or 18:00)")


def lines_of(form: forms.Form, field: str, read) -> list:
    """Each non-empty line of `field` read by `read(parts, number)`, its parts split on "|";
    a line that cannot be read becomes the field's error, naming the line."""
    items = []
    for number, line in enumerate((form.cleaned_data.get(field) or "").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            items.append(read([part.strip() for part in line.split("|")], len(items) + 1))
        except LineError as error:
            form.add_error(field, f"Line {number}: {error}.")
    return items


def whole(text: str, what: str) -> int:
    if not (text.isascii() and text.isdecimal() and len(text) < 9):
        raise LineError(f"{what} {text!r} is not a whole number")
    return int(text)


class SetupForm(forms.Form):
    """The keys every format's settings file shares, with the league's defaults."""

    season = forms.ModelChoiceField(label="Season", queryset=None)
    name = TextField(label="Name", max_length=League._meta.get_field("name").max_length)
    slug = WebAddressField(
        label="Address on the site (letters, digits and hyphens: /<campus>/leagues/<this>/)",
        max_length=50,
    )
    venue = TextField(label="Venue", required=False, max_length=200)
    public = forms.BooleanField(label="Anyone may see its pages", required=False, initial=True)
    campus_only = forms.BooleanField(label="Students only (no guests)", required=False)
    lexicon = forms.ChoiceField(label="Word list", choices=Lexicon.choices, initial=Lexicon.NWL2023)
    end_of_game_rule = forms.ChoiceField(
        label="End of game", choices=EndOfGameRule.choices, initial=EndOfGameRule.STANDARD
    )
    challenge_rule = forms.ChoiceField(
        label="Challenges", choices=ChallengeRule.choices, initial=ChallengeRule.LOSE_TURN
    )
    challenge_points = forms.TypedChoiceField(
        label="Points for a challenge that awards points",
        choices=[(5, "5"), (10, "10")],
        coerce=int,
        initial=10,
    )

    format_value = ""  # the format's League.format

    def __init__(self, *args, institution, **kwargs):
        super().__init__(*args, **kwargs)
        seasons = institution.seasons.order_by("-starts_on")
        self.fields["season"].queryset = seasons
        self.fields["season"].initial = seasons.values_list("pk", flat=True).first()  # the latest

    def settings_file(self) -> dict:
        """The settings file the form stands for (call after is_valid; its own keys added by
        the format's form)."""
        data = self.cleaned_data
        return {
            "format": self.format_value,
            **{
                key: data[key]
                for key in (
                    "name",
                    "slug",
                    "public",
                    "campus_only",
                    "lexicon",
                    "end_of_game_rule",
                    "challenge_rule",
                    "challenge_points",
                )
            },
            "venue": data["venue"] or None,
        }
