"""Every ruling of the director, one form and one view: on a dispute, on a can't-reach report,
or on any match. The form asks for a reason and whatever the decision needs; the view calls
`services.rule` once."""

from django import forms
from django.contrib import messages
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.http import url_has_allowed_host_and_scheme

from core.errors import DomainError

from .. import services
from ..forms import SCORE, in_zone
from ..models import AuditEvent, Match, Seat


class RulingForm(forms.Form):
    """One ruling: the decision, the reason, and what the decision needs (every seat's amended
    score and, to break a tie (G2), its score before unplayed tiles; the seats that forfeit; a
    new deadline)."""

    ruling = forms.ChoiceField(label="Decision", widget=forms.RadioSelect)
    reason = forms.CharField(
        label="Reason (required; every player sees it)", widget=forms.Textarea(attrs={"rows": 3})
    )
    new_deadline = forms.DateTimeField(
        label="New deadline",
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text="In the institution's time zone.",
    )

    def __init__(self, *args, rulings, seats, tz, **kwargs):
        super().__init__(*args, **kwargs)
        self.tz = tz
        self.orders = [seat.order for seat in seats]
        self.fields["ruling"].choices = [(ruling.value, ruling.label) for ruling in rulings]
        for seat in seats:
            name = seat.player.name
            self.fields[f"score_{seat.order}"] = forms.IntegerField(
                label=f"Amended score, {name}", required=False, **SCORE
            )
            self.fields[f"pre_{seat.order}"] = forms.IntegerField(
                label=f"{name}'s score before unplayed tiles (breaks a tie, optional)",
                required=False,
                **SCORE,
            )
        for seat in seats:
            self.fields[f"forfeit_{seat.order}"] = forms.BooleanField(
                label=f"{seat.player.name} forfeits", required=False
            )
        self.order_fields(["ruling", "reason"])

    def clean_new_deadline(self):
        return in_zone(self.cleaned_data.get("new_deadline"), self.tz)

    def ruling_arguments(self) -> dict:
        """The cleaned form as `services.rule`'s keyword arguments."""
        data = self.cleaned_data
        scores = [data.get(f"score_{order}") for order in self.orders]
        pre = [data.get(f"pre_{order}") for order in self.orders]
        return {
            "ruling": data["ruling"],
            "reason": data["reason"],
            "new_deadline": data["new_deadline"],
            "scores": scores if any(score is not None for score in scores) else [],
            "pre_adjustment": pre if any(value is not None for value in pre) else [],
            "forfeiting": [order for order in self.orders if data.get(f"forfeit_{order}")],
        }


def ruling_view(
    model_admin, request, *, match, title, back, dispute=None, contact_issue=None, extra=None
):
    """The ruling form for a match, its dispute or its can't-reach report: one form, one service
    call (`services.rule`). Afterwards, back where the director came from when the link said
    so (`?next=`, a path of this site: the dispute queue), else to `back`."""
    came_from = request.GET.get("next", "")
    if came_from and url_has_allowed_host_and_scheme(came_from, allowed_hosts=None):
        back = came_from
    match = Match.objects.select_related("league__season__institution", "round").get(pk=match.pk)
    seats = list(Seat.objects.filter(match=match).select_related("player__user").order_by("order"))
    tz = match.league.season.institution.tz
    rulings = services.RULINGS_ON[services.ruling_on(dispute, contact_issue)]
    form = RulingForm(request.POST or None, rulings=rulings, seats=seats, tz=tz)
    if request.method == "POST" and form.is_valid():
        try:
            services.rule(
                actor=request.user,
                match=match,
                dispute=dispute,
                contact_issue=contact_issue,
                **form.ruling_arguments(),
            )
        except DomainError as error:
            form.add_error(None, error.message)
        else:
            model_admin.message_user(
                request, "Decision recorded; every player has been e-mailed.", messages.SUCCESS
            )
            return redirect(back)
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.model._meta,
        "title": title,
        "match": match,
        "seats": seats,
        "form": form,
        "tz": tz,
        "events": AuditEvent.objects.filter(match=match).select_related("actor"),
        **(extra or {}),
    }
    return TemplateResponse(request, "admin/matches/ruling.html", context)
