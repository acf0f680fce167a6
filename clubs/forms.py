"""The club night's forms (E4): a table's score card, a guest, the next night's date."""

from django import forms

from core.forms import TextField, WholeNumberField
from matches.forms import SCORE
from matches.models import GameEnd, Match


class CardForm(forms.Form):
    """A table's score card: every seat's final score, as written on the card (final at once)."""

    ended_by = forms.ChoiceField(
        label="How the game ended", choices=GameEnd.choices, initial=GameEnd.WENT_OUT
    )
    override_reason = TextField(
        label="Reason to replace a different result (only then)", required=False, max_length=300
    )

    def __init__(self, *args, table: Match, **kwargs):
        super().__init__(*args, prefix=f"table-{table.pk}", **kwargs)
        self.orders = []
        for seat in table.seats.all():
            self.orders.append(seat.order)
            self.fields[f"score_{seat.order}"] = WholeNumberField(label=seat.player.name, **SCORE)
        # The players this form named when the page was drawn, so a card typed against them
        # never lands on others (a re-seat in between).
        self.fields["seen"] = forms.CharField(
            widget=forms.HiddenInput,
            initial=",".join(str(seat.player_id) for seat in table.seats.all()),
            max_length=100,
            required=False,
        )
        self.order_fields([f"score_{order}" for order in self.orders])

    def scores(self) -> list[int]:
        return [self.cleaned_data[f"score_{order}"] for order in self.orders]

    def seen_players(self) -> list[int]:
        parts = self.cleaned_data["seen"].split(",")
        if not all(part.isascii() and part.isdecimal() and len(part) < 19 for part in parts):
            return []
        return [int(part) for part in parts]


class GuestForm(forms.Form):
    """A visitor without a campus ID (E4): added to the club and checked in at once. The name's
    length is the service's to refuse, with a message, never cut short here."""

    name = TextField(label="Guest's name")
    email = forms.EmailField(
        label="E-mail (optional: only for their results)", required=False, max_length=254
    )


class NightForm(forms.Form):
    on = forms.DateField(
        label="Date of the next night", widget=forms.DateInput(attrs={"type": "date"})
    )
