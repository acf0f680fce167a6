"""The director's round actions (E3): pair or pair again, swap two players, close a round."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse

from core.actions import act_and_say, posted_from
from core.errors import DomainError
from core.values import clean_text
from events import services
from events.views.access import entry_from, round_of, staff_event_of
from league.models import League, Round

# --- Rounds: pairing, swaps, closing ----------------------------------------------------------


def _round_back(league: League, number: int) -> str:
    return reverse("event_round", args=[league.slug, number])


@login_required
@posted_from("event_round")
def event_pair(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    league = staff_event_of(request, slug, director=True)
    round_ = round_of(league, number)
    act_and_say(
        request,
        lambda: services.pair_event_round(
            actor=request.user, round=round_, repair=bool(request.POST.get("repair"))
        ),
        lambda result: (
            f"Round {number} paired: {len(result[0])} tables"
            + (f", {len(result[1])} bye" if result[1] else "")
            + f" (draw {Round.objects.get(pk=round_.pk).seed})."
        ),
    )
    return redirect(_round_back(league, number))


@login_required
@posted_from("event_round")
def event_swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    league = staff_event_of(request, slug, director=True)
    round_ = round_of(league, number)

    def act():
        first = entry_from(league, request.POST.get("first", "")).player
        second = entry_from(league, request.POST.get("second", "")).player
        warnings = services.swap_players(
            actor=request.user,
            round=round_,
            first=first,
            second=second,
            confirmed=bool(request.POST.get("confirmed")),
        )
        said = f"{first.name} and {second.name} swapped seats."
        return said + (f" Noted: {' '.join(warnings)}" if warnings else "")

    try:
        said = act()
    except services.SwapNeedsConfirming as warning:
        messages.warning(
            request,
            f"Not swapped yet: {warning.message} Tick “Swap anyway” to go ahead.",
        )
    except DomainError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, said)
    return redirect(_round_back(league, number))


@login_required
@posted_from("event_round")
def event_close(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    league = staff_event_of(request, slug, director=True)
    round_ = round_of(league, number)
    act_and_say(
        request,
        lambda: services.close_round(
            actor=request.user,
            round=round_,
            reason=clean_text(request.POST.get("reason"), what="The reason", max_length=300),
        ),
        lambda count: f"Round {number} closed: {count} tables without a card forfeited.",
    )
    return redirect(_round_back(league, number))


@login_required
@posted_from("event_round")
def event_start(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The director starts the round before its time: its tables take cards from now on."""
    league = staff_event_of(request, slug, director=True)
    round_ = round_of(league, number)
    act_and_say(
        request,
        lambda: services.round_start_early(actor=request.user, round=round_),
        lambda opened: (
            f"Round {number} has started: its {opened} tables take their cards now."
            if opened
            else f"Round {number} had begun already."
        ),
    )
    return redirect(_round_back(league, number))
