"""The director's volunteers page (E3): invite by name and e-mail, print a log-in slip, take a
volunteer off."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone

from accounts.services import export_record
from core.errors import DomainError
from core.forms import TextField
from events import printables, rights, selectors, services
from events.models import event_of_league
from events.views.access import staff_event_of
from league.addresses import LeagueAddress
from league.models import League

# --- Volunteers ---------------------------------------------------------------------------------


class ScorerForm(forms.Form):
    name = TextField(label="Volunteer's name", max_length=150)
    email = forms.EmailField(
        label="Their e-mail address (the log-in link goes there)", max_length=254
    )


def _scorer_of(league: League, value: str):
    """The invitation a button names, or None for anything else (a made-up or garbled id)."""
    if not (value.isascii() and value.isdecimal() and len(value) < 19):
        return None
    return league.scorers.filter(pk=int(value)).first()


@login_required
def event_scorers(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    """The director invites the volunteers who may enter this event's cards (by name and
    address: each gets a one-time log-in link by e-mail), prints a link as a slip to hand over,
    or takes a volunteer off."""
    league = staff_event_of(request, address, director=True)
    form = ScorerForm(request.POST or None)
    if request.method == "POST":
        if "remove" in request.POST or "slip" in request.POST:
            scorer = _scorer_of(
                league, request.POST.get("remove") or request.POST.get("slip") or ""
            )
            if scorer is None:
                messages.error(request, "That volunteer is not on this event's list.")
            elif "remove" in request.POST:
                services.scorer_remove(actor=request.user, league=league, scorer=scorer)
                messages.success(request, f"{scorer.name} can no longer enter cards.")
            else:
                return _scorer_slip(request, league, scorer)
            return redirect(reverse("event_scorers", args=[address]))
        if form.is_valid():
            try:
                scorer = services.scorer_invite(
                    actor=request.user,
                    league=league,
                    name=form.cleaned_data["name"],
                    email=form.cleaned_data["email"],
                )
            except DomainError as error:
                form.add_error(None, error.message)
            else:
                messages.success(
                    request,
                    f"{scorer.name} is invited: a one-time log-in link is on its way to "
                    f"{scorer.email}. You can also print it on a slip below.",
                )
                return redirect(reverse("event_scorers", args=[address]))
    return render(
        request,
        "events/scorers.html",
        {
            "league": league,
            "form": form,
            "scorers": league.scorers.order_by("created_at", "pk"),
            "access_ends": services.scorer_access_ends(league),
        },
    )


def _scorer_slip(request: HttpRequest, league: League, scorer) -> HttpResponse:
    """A fresh log-in link for one volunteer, printed as a slip with its QR code (PDF)."""
    try:
        url = services.scorer_slip(actor=request.user, league=league, scorer=scorer)
    except DomainError as error:
        messages.error(request, error.message)
        return redirect(reverse("event_scorers", args=[league]))
    institution = league.season.institution
    slip = printables.PrintSlip(
        event=league.name,
        date=event_of_league(league).date,
        name=scorer.name,
        email=scorer.email,
        url=url,
        valid_until=timezone.localtime(services.scorer_access_ends(league), institution.tz),
    )
    with timezone.override(institution.tz):  # the slip's times in the campus's clock
        pdf = printables.sign_in_slip_pdf(slip)
    export_record(  # a volunteer's name and address on paper (P6)
        institution=institution,
        actor=request.user,
        what="volunteer-slip.pdf",
        subject=f"{scorer.name}, {league.name}",
        rows=1,
    )
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{league.slug}-volunteer-slip.pdf"'
    return response


def volunteer_home(request: HttpRequest) -> HttpResponse | None:
    """The home page of an event's volunteer scorer (league's home asks each format): the
    scoring table of the round whose cards are coming in, when they score one event today;
    otherwise their events, each with its scoring table (and assists, where it sells them).
    None for anyone who was never invited."""
    leagues = selectors.scoring_for(request.user)
    if not leagues:
        return None
    rows = []
    for league in leagues:
        open_now = rights.may_score(request.user, league)
        round_ = selectors.round_to_score(league) if open_now else None
        rows.append(
            {
                "league": league,
                "open": open_now,
                "round": round_,
                "assists": open_now and league.assist_items.exists(),
            }
        )
    in_play = [row for row in rows if row["round"] is not None]
    if len(in_play) == 1 and len([row for row in rows if row["open"]]) == 1:
        return redirect(reverse("event_scoring_now", args=[in_play[0]["league"]]))
    return render(request, "events/volunteer_home.html", {"rows": rows})
