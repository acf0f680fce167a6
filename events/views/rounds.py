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
from league.addresses import LeagueAddress
from league.models import League

# --- Rounds: pairing, swaps, closing ----------------------------------------------------------


def _round_back(league: League, number: int) -> str:
    return reverse("event_round", args=[league, number])


def _count(count: int, one: str, many: str = "") -> str:
    """ "1 table", "2 tables"."""
    return f"{count} {one if count == 1 else many or one + 's'}"


def _paired_words(number: int, paired: services.RoundPaired, again: bool) -> str:
    """What the director is told once a round is paired, or paired again: its tables and byes,
    who it took in since the first draw, who it no longer seats because they left."""
    said = f"Round {number} {'paired again' if again else 'paired'}: " + _count(
        len(paired.tables), "table"
    )
    if paired.byes:
        said += ", " + _count(len(paired.byes), "bye")
    said += "."
    if paired.taken_in:
        said += f" Seated since the last draw: {services.entrants_named(paired.taken_in)}."
    if paired.left_out:
        said += f" No longer seated (left the event): {services.entrants_named(paired.left_out)}."
    return said


@login_required
@posted_from("event_round")
def event_pair(request: HttpRequest, address: LeagueAddress, number: int) -> HttpResponse:
    league = staff_event_of(request, address, director=True)
    round_ = round_of(league, number)
    again = bool(request.POST.get("repair"))
    try:
        paired = services.pair_event_round(actor=request.user, round=round_, repair=again)
    except services.AlreadyPaired as refusal:
        # "Pair again" pressed without its box: nothing is drawn, and the page says so.
        messages.warning(
            request,
            f"{refusal.message} To draw it again, tick “Draw the round again” and press "
            "Pair again.",
        )
    except DomainError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _paired_words(number, paired, again))
    return redirect(_round_back(league, number))


@login_required
@posted_from("event_round")
def event_swap(request: HttpRequest, address: LeagueAddress, number: int) -> HttpResponse:
    league = staff_event_of(request, address, director=True)
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
def event_close(request: HttpRequest, address: LeagueAddress, number: int) -> HttpResponse:
    league = staff_event_of(request, address, director=True)
    round_ = round_of(league, number)
    act_and_say(
        request,
        lambda: services.close_round(
            actor=request.user,
            round=round_,
            reason=clean_text(request.POST.get("reason"), what="The reason", max_length=300),
        ),
        lambda count: f"Round {number} closed: {_count(count, 'table')} without a card forfeited.",
    )
    return redirect(_round_back(league, number))


@login_required
@posted_from("event_round")
def event_start(request: HttpRequest, address: LeagueAddress, number: int) -> HttpResponse:
    """The director starts the round before its time: its tables take cards from now on."""
    league = staff_event_of(request, address, director=True)
    round_ = round_of(league, number)
    act_and_say(
        request,
        lambda: services.round_start_early(actor=request.user, round=round_),
        lambda opened: (
            f"Round {number} has started: "
            + (
                "its table takes its card now."
                if opened == 1
                else f"its {opened} tables take their cards now."
            )
            if opened
            else f"Round {number} had begun already."
        ),
    )
    return redirect(_round_back(league, number))
