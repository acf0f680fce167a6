"""Forms speak from the acting player's side ("your score", "Sam's score"), one field per seat
for the scores; ``by_seat`` hands the services their values in seat order."""

import base64
from datetime import datetime

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone

from core.forms import WholeNumberField
from core.zones import zone_short

from .game_records import MAX_RECORD_BYTES
from .models import GameEnd
from .results import MAX_SCORE, MIN_SCORE

SCORE = {"min_value": MIN_SCORE, "max_value": MAX_SCORE}


def not_a_score(value: int, whose: str = "") -> str:
    """A score out of range in a score card's words: "4020 for Seat 1: Ada Quill (7) is not a
    Scrabble score: a score is from −100 to 1500." `whose` names the seat as its page does."""
    low = f"{MIN_SCORE}".replace("-", "\u2212")
    for_whom = f" for {whose}" if whose else ""
    return f"{value}{for_whom} is not a Scrabble score: a score is from {low} to {MAX_SCORE}."


class ScoreField(WholeNumberField):
    """A seat's final score on a score card (G1): a whole number from MIN_SCORE to MAX_SCORE,
    refused in the card's words (``not_a_score``), naming the seat as the page does: the form
    sets `whose` to the seat's label (a name only through the naming path, P2)."""

    def __init__(self, *, whose: str = "", **kwargs):
        super().__init__(**kwargs)
        self.whose = whose
        self.widget.attrs.update({"min": MIN_SCORE, "max": MAX_SCORE})

    def validate(self, value):
        super().validate(value)
        if value is not None and not MIN_SCORE <= value <= MAX_SCORE:
            raise ValidationError(not_a_score(value, self.whose), code="not_a_score")


def seat_labels(seats, me) -> list[tuple[int, str]]:
    """(seat order, how the form names that seat's player) for each seat, "Your" for `me`."""
    return [
        (
            seat.order,
            "Your" if seat == me else f"{seat.player.name or 'Seat ' + str(seat.order)}'s",
        )
        for seat in seats
    ]


def _add_seat_fields(form, seats, me, make) -> list[str]:
    """One field per seat and per kind, from ``make(order, whose)``, a dict of name → field."""
    names = []
    for order, whose in seat_labels(seats, me):
        for name, field in make(order, whose).items():
            form.fields[name] = field
            names.append(name)
    return names


def in_zone(value: datetime | None, tz):
    """The wall-clock time a person typed, read in the institution's time zone. Django's form
    field has already attached the server's zone (UTC), so the clock time is kept and the zone
    replaced."""
    if value is None:
        return None
    return timezone.make_aware(value.replace(tzinfo=None), tz)


class LocalDateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


class ProposalForm(forms.Form):
    time_1 = forms.DateTimeField(label="First choice", widget=LocalDateTimeInput())
    time_2 = forms.DateTimeField(
        label="Second choice (optional)", required=False, widget=LocalDateTimeInput()
    )
    time_3 = forms.DateTimeField(
        label="Third choice (optional)", required=False, widget=LocalDateTimeInput()
    )

    def __init__(self, *args, tz, **kwargs):
        super().__init__(*args, **kwargs)
        self.tz = tz

    def times(self) -> list[datetime]:
        return [
            in_zone(self.cleaned_data[f"time_{i}"], self.tz)
            for i in (1, 2, 3)
            if self.cleaned_data.get(f"time_{i}")
        ]


class AcceptForm(forms.Form):
    starts_at = forms.ChoiceField(label="Time", widget=forms.RadioSelect)

    def __init__(self, *args, proposal, tz, **kwargs):
        super().__init__(*args, **kwargs)
        self.by_key = {t.starts_at.isoformat(): t.starts_at for t in proposal.times.all()}
        zone = zone_short(tz)
        self.fields["starts_at"].choices = [
            (key, f"{timezone.localtime(moment, tz).strftime('%a %b %-d, %-I:%M %p')} {zone}")
            for key, moment in self.by_key.items()
        ]

    def chosen(self) -> datetime:
        return self.by_key[self.cleaned_data["starts_at"]]


class EquipmentForm(forms.Form):
    description = forms.CharField(
        label="Dictionary or board you propose instead",
        max_length=200,
        help_text="It holds once every player agrees; until then the league's dictionary applies.",
    )


class ContactIssueForm(forms.Form):
    attempts = forms.CharField(
        label="How you tried to reach your opponent",
        min_length=10,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="When and how you tried: e-mails, texts, calls. The director decides the match.",
    )


class ReportForm(forms.Form):
    """Every seat's final score (and optionally its score before unplayed tiles and tiles left),
    how the game ended and an optional game record."""

    ended_by = forms.ChoiceField(
        label="How the game ended", choices=GameEnd.choices, initial=GameEnd.WENT_OUT
    )
    discrepancy_turn = forms.IntegerField(
        label="Turn of a discrepancy you marked (optional)",
        min_value=1,
        max_value=100,
        required=False,
    )
    discrepancy_note = forms.CharField(
        label="What happened (optional)", max_length=500, required=False
    )
    unusual_confirmed = forms.BooleanField(
        label="Yes, really: these unusual scores are right", required=False
    )
    game_record = forms.FileField(
        label="Game record, a GCG file (optional)",
        required=False,
        help_text="Exported from Woogles, Quackle or a scorekeeping app. Your scores are checked "
        "against it, and the match page shows the game move by move.",
        widget=forms.ClearableFileInput(attrs={"accept": ".gcg,text/plain"}),
    )

    played_earlier = forms.BooleanField(label="We played earlier than agreed", required=False)

    # A browser never fills a file input in again: when the form comes back with an error, the
    # record it was sent with travels in this hidden field instead (base64, to keep its bytes).
    game_record_kept = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, seats, me=None, scheduled_later: str = "", **kwargs):
        """``scheduled_later``: the agreed time, worded, when it is still to come; the form then
        asks whether the game was played earlier."""
        super().__init__(*args, **kwargs)
        self.orders = [seat.order for seat in seats]
        if scheduled_later:
            self.fields["played_earlier"].help_text = (
                f"The match is scheduled for {scheduled_later}. Tick this if you have already "
                "played: the others then have their full time to confirm from now."
            )
        else:
            del self.fields["played_earlier"]
        scores = _add_seat_fields(
            self,
            seats,
            me,
            lambda order, whose: {
                f"score_{order}": forms.IntegerField(label=f"{whose} final score", **SCORE)
            },
        )
        details = _add_seat_fields(
            self,
            seats,
            me,
            lambda order, whose: {
                f"pre_{order}": forms.IntegerField(
                    label=f"{whose} score before unplayed tiles (optional)",
                    required=False,
                    **SCORE,
                ),
                f"tiles_{order}": forms.CharField(
                    label=f"{whose} tiles left (optional)", max_length=7, required=False
                ),
            },
        )
        self.order_fields([*scores, "ended_by", *details])
        self.detail_names = {*details, "discrepancy_turn", "discrepancy_note", "game_record"}
        if not self.is_bound:
            # "Yes, really" matters only once the scores came back as unusual.
            self.detail_names.add("unusual_confirmed")

    def main_fields(self):
        """What every report needs: the final scores and how the game ended."""
        return [field for field in self.visible_fields() if field.name not in self.detail_names]

    def detail_fields(self):
        """The optional rest, behind "More details" on the match page."""
        return [field for field in self.visible_fields() if field.name in self.detail_names]

    def details_open(self) -> bool:
        """Show the details when one of them was filled in or has an error."""
        if not self.is_bound:
            return False
        return any(
            field.errors or (field.name != "game_record" and field.value() not in (None, ""))
            for field in self.detail_fields()
        ) or bool(self.data.get("game_record_kept"))

    def clean_game_record(self) -> bytes | None:
        upload = self.cleaned_data.get("game_record")
        if not upload:
            return self._kept_record()
        if upload.size > MAX_RECORD_BYTES:
            raise forms.ValidationError(
                f"The file is {upload.size // 1024} KB; a game record is a few KB. "
                "Is it the right file?"
            )
        record = upload.read()
        self._keep(record, upload.name)
        return record

    def _kept_record(self) -> bytes | None:
        kept = self.data.get("game_record_kept", "")
        if not kept:
            return None
        try:
            record = base64.b64decode(kept, validate=True)
        except ValueError:
            raise forms.ValidationError(
                "The game record kept with this form was damaged: attach the file again."
            ) from None
        self._keep(record, "Your game record")
        return record

    def _keep(self, record: bytes, name: str) -> None:
        self.data = self.data.copy()
        self.data["game_record_kept"] = base64.b64encode(record).decode()
        note = f"{name} is kept with this form: attach a file only to replace it."
        # The bound field copied the help text when cleaning began.
        self["game_record"].help_text = note

    def by_seat(self) -> dict:
        """The form's values as the service's seat-ordered arguments."""
        data = self.cleaned_data
        return {
            "scores": [data[f"score_{order}"] for order in self.orders],
            "pre_adjustment": [data[f"pre_{order}"] for order in self.orders],
            "tiles_left": [data[f"tiles_{order}"] for order in self.orders],
            "ended_by": data["ended_by"],
            "discrepancy_turn": data["discrepancy_turn"],
            "discrepancy_note": data["discrepancy_note"],
            "unusual_confirmed": data["unusual_confirmed"],
            "game_record": data["game_record"],
            "played_earlier": data.get("played_earlier", False),
        }


class DisputeForm(forms.Form):
    turn = forms.IntegerField(
        label="Turn where the discrepancy happened (optional)",
        min_value=1,
        max_value=100,
        required=False,
    )
    move = forms.TypedChoiceField(
        label="The move in the game record you disagree with (optional)",
        coerce=int,
        empty_value=None,
        required=False,
    )
    note = forms.CharField(
        label="What you disagree with", max_length=2000, widget=forms.Textarea(attrs={"rows": 3})
    )

    def __init__(self, *args, seats, me=None, moves=(), **kwargs):
        """``moves`` lists the report's game record, when it has one; otherwise no move field."""
        super().__init__(*args, **kwargs)
        self.orders = [seat.order for seat in seats]
        scores = _add_seat_fields(
            self,
            seats,
            me,
            lambda order, whose: {
                f"score_{order}": forms.IntegerField(
                    label=f"{whose} final score, as you recorded it", **SCORE
                )
            },
        )
        at_turn = _add_seat_fields(
            self,
            seats,
            me,
            lambda order, whose: {
                f"at_turn_{order}": forms.IntegerField(
                    label=f"{whose} score at that turn (optional)", required=False, **SCORE
                )
            },
        )
        if moves:
            self.fields["move"].choices = [("", "—")] + [
                (move.number, f"{move.number}. {move.nickname}: {move.summary} {move.change:+d}")
                for move in moves
            ]
        else:
            del self.fields["move"]
        self.order_fields([*scores, "turn", *at_turn, "move", "note"])

    def by_seat(self) -> dict:
        data = self.cleaned_data
        return {
            "scores": [data[f"score_{order}"] for order in self.orders],
            "scores_at_turn": [data[f"at_turn_{order}"] for order in self.orders],
            "turn": data["turn"],
            "move": data.get("move"),
            "note": data["note"],
        }
