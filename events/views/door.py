"""The door (E3): check-in by scan, number or name, walk-ins, entrants leaving and coming back."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.campus_ids import campus_id_fits
from core.actions import act_and_say
from core.errors import DomainError
from core.forms import TextField
from events import selectors, services
from events.models import event_of_league
from events.views.access import entry_from, staff_event_of
from league.addresses import LeagueAddress
from league.door import back_with_search, entrant_scanned, scanned_key, searched
from league.models import League

# --- The door -----------------------------------------------------------------------------------


class WalkInForm(forms.Form):
    """A walk-in (or a correction): added to the event and checked in at once."""

    name = TextField(label="Name", max_length=300)
    category = forms.ChoiceField(label="Category")
    team = TextField(label="Team (optional)", required=False, max_length=120)
    email = forms.EmailField(
        label="E-mail (optional: only for results)", required=False, max_length=254
    )
    campus_id = TextField(label="Campus ID (students)", required=False, max_length=40)

    def __init__(self, *args, league: League, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["category"].choices = [(c.name, c.name) for c in league.categories.all()]


def _desk_context(request, league: League, walk_in: WalkInForm | None = None) -> dict:
    query = searched(request)
    desk = selectors.desk(league, query)
    return {
        "league": league,
        "query": query,
        "rows": desk.rows,
        "here_count": desk.here_count,
        "entrant_count": desk.entrant_count,
        "left_count": desk.left_count,
        "walk_in": walk_in or WalkInForm(league=league),
        "next_round": selectors.next_round(league),
        "drawable": selectors.round_still_drawable(league),
        # The players enter their own cards, each proving their seat with their slip (S4).
        "slips": event_of_league(league).self_entry,
    }


@login_required
def event_desk(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    """Check-in at the door: scan or type, search, walk-ins."""
    league = staff_event_of(request, address)
    return render(request, "events/desk.html", _desk_context(request, league))


def _desk_back(league: League, query="") -> str:
    return back_with_search(reverse("event_desk", args=[league]), query)


def _typed_a_name(league: League, key) -> str:
    """What was typed in the scan box when it names nobody and is neither a player number nor
    of the shape of a campus ID: a name, to search for. Empty otherwise (the check-in says
    what it is)."""
    try:
        found = entrant_scanned(league, key)
        _, number = scanned_key(key)
    except DomainError:
        return ""
    if found.entry is not None or found.outsider is not None or number is not None:
        return ""
    if not any(character.isalpha() for character in found.key):
        return ""  # "-1", "²": a number nobody has
    if campus_id_fits(found.key, league.season.institution.campus_id_pattern):
        return ""
    return found.key


@login_required
@require_POST
def event_check_in(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    league = staff_event_of(request, address)
    if not any(request.POST.get(flag) for flag in ("undo", "back", "leave")):
        name = _typed_a_name(league, request.POST.get("player", ""))
        if name:
            messages.warning(
                request,
                f"Nobody was checked in: “{name}” is not a player number or a campus ID, so it "
                "was looked up as a name. Check in whoever it is below.",
            )
            return redirect(_desk_back(league, name))

    def act():
        entry = entry_from(league, request.POST.get("player", ""))
        if request.POST.get("undo"):
            services.event_check_out(actor=request.user, league=league, entry=entry)
            return f"{entry.player.name} is no longer checked in."
        if request.POST.get("back"):
            services.entrant_return(actor=request.user, league=league, entry=entry)
            return f"{entry.player.name} is back: paired again from the next round."
        if request.POST.get("leave"):
            services.entrant_leave(actor=request.user, league=league, entry=entry)
            return f"{entry.player.name} has left: their scores stay, they are not paired again."
        arrived = services.event_arrive(actor=request.user, league=league, entry=entry)
        if arrived == "back":
            return (
                f"{entry.player.name} (number {entry.player_number}) had left and is back: "
                "paired again from the next round. If they came only to collect something, "
                "mark them as leaving again."
            )
        if arrived == "checked_in":
            return f"{entry.player.name} (number {entry.player_number}) is checked in."
        return f"{entry.player.name} was already checked in."

    act_and_say(request, act, lambda said: said)
    return redirect(_desk_back(league, request.POST.get("q", "")))


@login_required
@require_POST
def event_walk_in(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    league = staff_event_of(request, address)
    form = WalkInForm(request.POST, league=league)
    # A name already entered: the desk says "the same person" (their check-in button) or "a
    # namesake" (this form again, with namesake=1): nothing is added before it answers.
    namesake = request.POST.get("namesake") == "1"
    if form.is_valid():
        data = form.cleaned_data
        try:
            entry, _ = services.entrant_save(
                actor=request.user,
                league=league,
                details=services.EntrantDetails(
                    name=data["name"],
                    category=data["category"],
                    team=data["team"],
                    email=data["email"],
                    campus_id=data["campus_id"],
                ),
                check_in=True,
                name_only=services.NameOnly.NEW if namesake else services.NameOnly.ASK,
            )
        except services.SameName as asked:
            context = _desk_context(request, league, form)
            context["same_name"] = asked
            return render(request, "events/desk.html", context)
        except DomainError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request, f"{entry.player.name} is number {entry.player_number}, checked in."
            )
            return redirect(_desk_back(league))
    messages.error(request, "Nobody was added: see the form below.")
    return render(request, "events/desk.html", _desk_context(request, league, form))
