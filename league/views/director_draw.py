"""The director draws a league's round robin from its page (/director/leagues/<slug>/draw/, where a GET is sent back to that page),
as the admin did: the first play-by date, then a page showing the rounds it will make (each
round's play-by date, the byes), then the draw itself (``league.services`` ·
``draw_preview``, ``rounds_generate``). Others get 404."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from core.actions import posted_from
from core.errors import DomainError

from ..services import draw_preview, rounds_generate
from .director import _own_league


class DrawForm(forms.Form):
    first_play_by = forms.DateField(
        label="Round 1's play-by date (the rounds follow, one per round length)",
        widget=forms.DateInput(attrs={"type": "date"}),
    )


@login_required
@posted_from("director_league")  # where the draw is started
def league_draw(request: HttpRequest, slug: str) -> HttpResponse:
    """Without `confirm`: the rounds the draw will make. With it: the draw."""
    league = _own_league(request, slug)
    back = reverse("director_league", args=[league.slug])
    form = DrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give round 1's play-by date: nothing was drawn.")
        return redirect(back)
    first = form.cleaned_data["first_play_by"]
    try:
        if request.POST.get("confirm"):
            rounds = rounds_generate(actor=request.user, league=league, first_play_by=first)
        else:
            plan = draw_preview(actor=request.user, league=league, first_play_by=first)
    except DomainError as error:
        messages.error(request, f"Nothing was drawn: {error.message}")
        return redirect(back)
    if request.POST.get("confirm"):
        messages.success(
            request,
            f"{len(rounds)} rounds drawn, play by {rounds[0].play_by:%a %b %-d} to "
            f"{rounds[-1].play_by:%a %b %-d}: the players see their matches now.",
        )
        return redirect(back)
    return render(
        request,
        "league/director_draw_confirm.html",
        {
            "league": league,
            "form": form,
            "plan": plan,
            "rounds": list(zip(plan.play_by, plan.schedule, strict=True)),
        },
    )
