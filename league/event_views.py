"""An event's pages (E3): public (the event, a round's pairings, a table, the leaderboard, the
projector, event.json) when the event is public, and for its staff the door (check-in and
walk-ins), the scoring table, pairing and closing rounds, the printables and the volunteers.

Thin views: each POST calls one service in ``league.events`` or ``matches.services``; each page
reads the event through ``events.event_state`` in a fixed number of queries."""

import json
import re

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from accounts import roles
from accounts.models import PlayerProfile
from core.errors import DomainError
from core.forms import TextField, WholeNumberField
from core.values import INT_MAX, clean_text, number_or_none, row_id, shown, whole_number
from matches import services as match_services
from matches.forms import SCORE
from matches.models import GameEnd, Match, MatchStatus

from . import events
from .club_views import act_and_say
from .door import back_with_search, scanned_key, search_filter, searched
from .event_pages import rounds_view
from .models import AssistItem, AssistSale, CheckIn, Entry, League, LeagueFormat, Round
from .pages import layout, render_pages
from .selectors import can_see_league, league_page_row
from .wordlists import two_letter_words

NUMBER = {"min_value": 1, "max_value": 99999}  # a player number (events.clean_details)


def _event(request: HttpRequest, slug: str) -> League:
    league = get_object_or_404(
        League.objects.select_related("season__institution"), slug=slug, format=LeagueFormat.EVENT
    )
    if not can_see_league(request.user, league):
        raise Http404
    return league


def _staff_event(request: HttpRequest, slug: str, *, director: bool = False) -> League:
    league = get_object_or_404(
        League.objects.select_related("season__institution"), slug=slug, format=LeagueFormat.EVENT
    )
    institution = league.season.institution
    allowed = (
        roles.is_director_of(request.user, institution)
        if director
        else roles.is_front_desk_of(request.user, institution)
    )
    if not allowed:
        raise Http404
    return league


def _scorer_event(request: HttpRequest, slug: str) -> League:
    league = get_object_or_404(
        League.objects.select_related("season__institution"), slug=slug, format=LeagueFormat.EVENT
    )
    if not roles.is_event_scorer_of(request.user, league):
        raise Http404
    return league


def _round(league: League, number: int) -> Round:
    return get_object_or_404(
        Round.objects.prefetch_related("periods"), league=league, number=number
    )


def event_home(request: HttpRequest, league: League) -> HttpResponse:
    """The event's page (``/leagues/<slug>/`` for an event)."""
    state = events.event_state(league)
    institution = league.season.institution
    rounds = rounds_view(state)
    return render(
        request,
        "league/event/home.html",
        {
            "league": league,
            "state": state,
            "rounds": rounds,
            "next_round": next((r for r in rounds if r["status"] != "complete"), None),
            "categories": list(league.categories.all()),
            "entrants": [e for e in state.entries if e.withdrawn_at is None],
            "is_staff": roles.is_front_desk_of(request.user, institution),
            "is_director": roles.is_director_of(request.user, institution),
            "is_scorer": roles.is_event_scorer_of(request.user, league),
            "my_entry": _my_entry(request, state),
            "can_join": request.user.is_authenticated
            and roles.institution_of(request.user) == institution
            and league.registration_open()
            and not any(
                e.player.user_id == request.user.pk and e.withdrawn_at is None
                for e in state.entries
            ),
        },
    )


def _my_entry(request, state: events.EventState):
    if not request.user.is_authenticated:
        return None
    return next((e for e in state.entries if e.player.user_id == request.user.pk), None)


def _event_page(request: HttpRequest, slug: str, part: str) -> tuple[str, str]:
    """The event's name and its stored leaderboard or event.json (one query for a public
    event). A private event's are for its institution's front desk and directors only (the
    contract's event.json); one rendered by older templates is rendered again first."""
    row = league_page_row(slug, part)
    if row is None or row.layout != layout():
        league = get_object_or_404(League, slug=slug, format=LeagueFormat.EVENT)
        render_pages([league.pk])
        row = league_page_row(slug, part)
    if not row.content:
        raise Http404  # a league that is not an event
    if not row.public:
        league = League.objects.select_related("season__institution").get(pk=row.league_id)
        if not roles.is_front_desk_of(request.user, league.season.institution):
            raise Http404
    return row.name, row.content


def event_leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    name, content = _event_page(request, slug, "event_html")
    return render(
        request, "league/page.html", {"title": f"{name}: leaderboard", "content": content}
    )


def event_projector(request: HttpRequest, slug: str) -> HttpResponse:
    """Large type for the hall's screen; ``table_timer``-style plain JS reloads the panel."""
    league = _event(request, slug)
    return render(request, "league/event/projector.html", _projector_context(league))


def event_projector_panel(request: HttpRequest, slug: str) -> HttpResponse:
    league = _event(request, slug)
    return render(request, "league/event/_projector_panel.html", _projector_context(league))


def _projector_context(league: League) -> dict:
    state = events.event_state(league)
    rounds = rounds_view(state)
    current = next((r for r in reversed(rounds) if r["status"] != "unpaired"), None)
    from .assists import ledger

    return {
        "league": league,
        "board": state.board,
        "ledger": ledger(league),
        "top": state.board.rows[:10],
        "current": current,
        "now": timezone.now(),
    }


def event_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round's pairings: by table, and by name (what goes on the wall)."""
    league = _event(request, slug)
    state = events.event_state(league)
    view = next((r for r in rounds_view(state) if r["round"].number == number), None)
    if view is None:
        raise Http404
    by_name = sorted(
        (
            (entry.player.name.casefold(), entry, match)
            for match, seats in view["tables"] + view["byes"]
            for _, entry in seats
            if entry is not None
        ),
        key=lambda row: row[0],
    )
    institution = league.season.institution
    return render(
        request,
        "league/event/round.html",
        {
            "league": league,
            "view": view,
            "by_name": [(entry, match) for _, entry, match in by_name],
            "is_staff": roles.is_front_desk_of(request.user, institution),
            "is_director": roles.is_director_of(request.user, institution),
            "is_scorer": roles.is_event_scorer_of(request.user, league),
        },
    )


def event_table(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """A table's page (the score card's QR code): who sits where, the turn timing and the
    timer, the two-letter words (G10), the scores once entered."""
    league = _event(request, slug)
    round_ = _round(league, number)
    match = get_object_or_404(
        Match.objects.prefetch_related("seats__player__user"), round=round_, table=table
    )
    entries = {
        entry.player_id: entry
        for entry in Entry.objects.filter(
            league=league, player__in=[seat.player_id for seat in match.seats.all()]
        ).select_related("category", "team")
    }
    seats = [(seat, entries.get(seat.player_id)) for seat in match.seats.all()]
    seconds = max(
        (e.category.turn_seconds or 0 for _, e in seats if e and e.category_id), default=0
    )
    names = ",".join(seat.player.name.replace(",", " ") for seat, _ in seats)
    return render(
        request,
        "league/event/table.html",
        {
            "league": league,
            "round": round_,
            "match": match,
            "seats": seats,
            "turn_seconds": seconds,
            "turn_label": f"{seconds // 60}:{seconds % 60:02d}",
            "timer_query": {
                "seconds": seconds,
                "players": len(seats),
                "table": table,
                "names": names,
            },
            "words": two_letter_words(),
        },
    )


def event_json(request: HttpRequest, slug: str) -> HttpResponse:
    """The contract's event.json for campus websites, as stored (``event_pages``)."""
    return HttpResponse(
        _event_page(request, slug, "event_json")[1], content_type="application/json"
    )


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
    entries = Entry.objects.filter(league=league).select_related("player__user", "category", "team")
    if query is None:
        entries = entries.none()
    elif query:
        entries = entries.filter(search_filter(query))
    here = set(CheckIn.objects.filter(round__league=league).values_list("entry_id", flat=True))
    seated = set(
        Entry.objects.filter(league=league, player__seats__match__league=league).values_list(
            "pk", flat=True
        )
    )
    rows = [
        {"entry": entry, "here": entry.pk in here, "seated": entry.pk in seated}
        for entry in entries.order_by("player_number", "id")
    ]
    return {
        "league": league,
        "query": query,
        "rows": rows,
        "here_count": len(here),
        "entrant_count": Entry.objects.filter(league=league, withdrawn_at__isnull=True).count(),
        "walk_in": walk_in or WalkInForm(league=league),
        "next_round": events.next_round(league),
    }


@login_required
def event_desk(request: HttpRequest, slug: str) -> HttpResponse:
    """Check-in at the door: scan or type, search, walk-ins."""
    league = _staff_event(request, slug)
    return render(request, "league/event/desk.html", _desk_context(request, league))


def _entry_from(league: League, key) -> Entry:
    key, number = scanned_key(key)
    entries = Entry.objects.filter(league=league).select_related("player__user")
    entry = entries.filter(player__campus_id=key).first()
    if entry is None and number is not None:
        entry = entries.filter(player_number=number).first()
    if entry is None:
        profile = PlayerProfile.objects.filter(
            institution=league.season.institution, campus_id=key
        ).first()
        if profile is not None:
            raise DomainError(f"{profile.name} is not entered in {league}: add them below.")
        raise DomainError(f"No entrant has the number or campus ID {key!r}.")
    return entry


def _desk_back(league: League, query="") -> str:
    return back_with_search(reverse("event_desk", args=[league.slug]), query)


@login_required
@require_POST
def event_check_in(request: HttpRequest, slug: str) -> HttpResponse:
    league = _staff_event(request, slug)

    def act():
        entry = _entry_from(league, request.POST.get("player", ""))
        if request.POST.get("undo"):
            events.event_check_out(actor=request.user, league=league, entry=entry)
            return f"{entry.player.name} is no longer checked in."
        if request.POST.get("back"):
            events.entrant_return(actor=request.user, league=league, entry=entry)
            return f"{entry.player.name} is back: paired again from the next round."
        if request.POST.get("leave"):
            events.entrant_leave(actor=request.user, league=league, entry=entry)
            return f"{entry.player.name} has left: their scores stay, they are not paired again."
        if events.event_check_in(actor=request.user, league=league, entry=entry):
            return f"{entry.player.name} (number {entry.player_number}) is checked in."
        return f"{entry.player.name} was already checked in."

    act_and_say(request, act, lambda said: said)
    return redirect(_desk_back(league, request.POST.get("q", "")))


@login_required
@require_POST
def event_walk_in(request: HttpRequest, slug: str) -> HttpResponse:
    league = _staff_event(request, slug)
    form = WalkInForm(request.POST, league=league)
    if form.is_valid():
        data = form.cleaned_data
        try:
            entry, _ = events.entrant_save(
                actor=request.user,
                league=league,
                details=events.EntrantDetails(
                    name=data["name"],
                    category=data["category"],
                    team=data["team"],
                    email=data["email"],
                    campus_id=data["campus_id"],
                ),
                check_in=True,
            )
        except DomainError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request, f"{entry.player.name} is number {entry.player_number}, checked in."
            )
            return redirect(_desk_back(league))
    messages.error(request, "Nobody was added: see the form below.")
    return render(request, "league/event/desk.html", _desk_context(request, league, form))


# --- Rounds: pairing, swaps, closing ----------------------------------------------------------


def _round_back(league: League, number: int) -> str:
    return reverse("event_round", args=[league.slug, number])


@login_required
@require_POST
def event_pair(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    league = _staff_event(request, slug, director=True)
    round_ = _round(league, number)
    act_and_say(
        request,
        lambda: events.pair_event_round(
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
@require_POST
def event_swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    league = _staff_event(request, slug, director=True)
    round_ = _round(league, number)

    def act():
        first = _entry_from(league, request.POST.get("first", "")).player
        second = _entry_from(league, request.POST.get("second", "")).player
        warnings = events.swap_players(
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
    except events.SwapNeedsConfirming as warning:
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
@require_POST
def event_close(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    league = _staff_event(request, slug, director=True)
    round_ = _round(league, number)
    act_and_say(
        request,
        lambda: events.close_round(
            actor=request.user,
            round=round_,
            reason=clean_text(request.POST.get("reason"), what="The reason", max_length=300),
        ),
        lambda count: f"Round {number} closed: {count} tables without a card forfeited.",
    )
    return redirect(_round_back(league, number))


# --- The scoring table ------------------------------------------------------------------------


class ScoreCardForm(forms.Form):
    """A table's card in a few keystrokes: the table number, then each seat's score; after a
    re-pairing of a printed round, each seat's player number before its score."""

    table = WholeNumberField(label="Table", min_value=1, max_value=999)
    # The players the page showed for the table (their profile ids in seat order, set by
    # scores.js as the table number is typed): a card checked against one seating never lands
    # on another (a re-pairing or a swap in between).
    seen = forms.CharField(required=False, max_length=100, widget=forms.HiddenInput)
    number_1 = WholeNumberField(label="Seat 1 player number", required=False, **NUMBER)
    score_1 = WholeNumberField(label="Seat 1 score", **SCORE)
    number_2 = WholeNumberField(label="Seat 2 player number", required=False, **NUMBER)
    score_2 = WholeNumberField(label="Seat 2 score", **SCORE)
    number_3 = WholeNumberField(label="Seat 3 player number", required=False, **NUMBER)
    score_3 = WholeNumberField(label="Seat 3 score", required=False, **SCORE)
    number_4 = WholeNumberField(label="Seat 4 player number", required=False, **NUMBER)
    score_4 = WholeNumberField(label="Seat 4 score", required=False, **SCORE)
    ended_by = forms.ChoiceField(
        label="How the game ended", choices=GameEnd.choices, initial=GameEnd.WENT_OUT
    )
    override_reason = TextField(
        label="Reason to replace a different card (director only)",
        required=False,
        max_length=300,
    )

    def scores(self) -> list[int]:
        values = [self.cleaned_data.get(f"score_{order}") for order in range(1, 5)]
        return [value for value in values if value is not None]

    def seat_rows(self) -> list[tuple[int, forms.BoundField, forms.BoundField]]:
        """Each seat's order, player number field and score field, for the template."""
        return [(order, self[f"number_{order}"], self[f"score_{order}"]) for order in range(1, 5)]

    def numbers(self) -> list[int | None]:
        return [self.cleaned_data.get(f"number_{order}") for order in range(1, 5)]

    def seen_players(self) -> list[int] | None:
        """The seating the page showed, or None when it sent none (no script) or garbled it."""
        parts = self.cleaned_data.get("seen", "").split(",")
        if not all(part.isascii() and part.isdecimal() and len(part) < 19 for part in parts):
            return None
        return [int(part) for part in parts]


def _seated_words(seats, numbers) -> str:
    return " and ".join(f"{seat.player.name} ({numbers.get(seat.player_id)})" for seat in seats)


def _card_for_seats(
    form: ScoreCardForm, table: Match, round_: Round, numbers: dict[int, int]
) -> tuple[list[int], list[int]] | None:
    """The card's players (profile ids) and scores, both in the table's seat order, after
    checking the card against who sits there now; None with the form's error when it does not
    fit. After a re-pairing or a swap of a round whose cards were printed, the players'
    numbers typed from the card decide; otherwise the seating the page showed does."""
    seats = list(table.seats.all())
    scores = form.scores()
    current = [seat.player_id for seat in seats]
    if len(scores) != len(seats):
        return current, scores  # the service names the seat count
    if round_.seating_changed_after_print:
        typed = form.numbers()[: len(seats)]
        if any(number is None for number in typed):
            form.add_error(
                None,
                f"Round {round_.number} was paired again after its cards were printed: type "
                "each seat's player number from the card, beside its score.",
            )
            return None
        player_of = {number: player for player, number in numbers.items()}
        if sorted(typed) != sorted(numbers.get(player) for player in current):
            form.add_error(
                None,
                f"This card names players {', '.join(map(str, typed))}, but table "
                f"{table.table} seats {_seated_words(seats, numbers)}: it was printed before "
                f"round {round_.number} was paired again. Nothing was entered: give the card "
                "to the director.",
            )
            return None
        by_player = {player_of[number]: score for number, score in zip(typed, scores, strict=True)}
        return current, [by_player[player] for player in current]
    seen = form.seen_players()
    if seen is None:
        form.add_error(
            None,
            f"Check the card's names first: table {table.table} seats "
            f"{_seated_words(seats, numbers)}. If the card names them, enter it again.",
        )
        return None
    if seen != current:
        form.add_error(
            None,
            f"Table {table.table}'s players changed since this page was loaded (the round was "
            f"paired again, or players swapped): it now seats {_seated_words(seats, numbers)}. "
            "Nothing was entered. If the card names them, enter it again.",
        )
        return None
    return seen, scores


def _scoring_context(league: League, round_: Round, form: ScoreCardForm | None = None) -> dict:
    tables = list(
        Match.objects.filter(round=round_)
        .exclude(status=MatchStatus.BYE)
        .order_by("table")
        .prefetch_related("seats__player__user")
    )
    numbers = dict(Entry.objects.filter(league=league).values_list("player_id", "player_number"))
    seating = {
        str(match.table): {
            "seats": [
                {
                    "id": seat.player_id,
                    "name": seat.player.name,
                    "number": numbers.get(seat.player_id),
                }
                for seat in match.seats.all()
            ],
            "scores": [seat.score for seat in match.seats.all()] if match.is_final else None,
        }
        for match in tables
    }
    entered = sum(1 for match in tables if match.is_final)
    return {
        "league": league,
        "round": round_,
        "form": form or ScoreCardForm(),
        "tables": tables,
        "seating": seating,
        "numbers_required": round_.seating_changed_after_print,
        "entered": entered,
        "waiting": [match for match in tables if not match.is_final],
        "numbers": numbers,
    }


@login_required
def event_scores(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The scoring table's page: type a card, Enter, next card."""
    league = _scorer_event(request, slug)
    round_ = _round(league, number)
    if request.method != "POST":
        return render(request, "league/event/scores.html", _scoring_context(league, round_))
    form = ScoreCardForm(request.POST)
    if form.is_valid():
        table = (
            Match.objects.filter(round=round_, table=form.cleaned_data["table"])
            .exclude(status=MatchStatus.BYE)
            .prefetch_related("seats__player__user")
            .first()
        )
        numbers = dict(
            Entry.objects.filter(league=league).values_list("player_id", "player_number")
        )
        card = None
        if table is None:
            form.add_error("table", f"Round {number} has no table {form.cleaned_data['table']}.")
        else:
            card = _card_for_seats(form, table, round_, numbers)
        if card is not None:
            players, scores = card
            try:
                match_services.card_enter(
                    actor=request.user,
                    match=table,
                    scores=scores,
                    players=players,
                    ended_by=form.cleaned_data["ended_by"],
                    override_reason=form.cleaned_data["override_reason"],
                    unusual_confirmed=True,  # the card is what the table signed
                )
            except DomainError as error:
                form.add_error(None, error.message)
            except Match.DoesNotExist:
                form.add_error(
                    None,
                    f"Round {number} was just paired again: check table "
                    f"{form.cleaned_data['table']}'s players and enter the card again.",
                )
            else:
                messages.success(
                    request,
                    f"Table {table.table}: {'–'.join(map(str, scores))} entered.",
                )
                return redirect(reverse("event_scores", args=[league.slug, number]))
    return render(
        request, "league/event/scores.html", _scoring_context(league, round_, form), status=200
    )


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
def event_scorers(request: HttpRequest, slug: str) -> HttpResponse:
    """The director invites the volunteers who may enter this event's cards (by name and
    address: each gets a one-time log-in link by e-mail), prints a link as a slip to hand over,
    or takes a volunteer off."""
    league = _staff_event(request, slug, director=True)
    form = ScorerForm(request.POST or None)
    if request.method == "POST":
        if "remove" in request.POST or "slip" in request.POST:
            scorer = _scorer_of(
                league, request.POST.get("remove") or request.POST.get("slip") or ""
            )
            if scorer is None:
                messages.error(request, "That volunteer is not on this event's list.")
            elif "remove" in request.POST:
                events.scorer_remove(actor=request.user, league=league, scorer=scorer)
                messages.success(request, f"{scorer.name} can no longer enter cards.")
            else:
                return _scorer_slip(request, league, scorer)
            return redirect(reverse("event_scorers", args=[slug]))
        if form.is_valid():
            try:
                scorer = events.scorer_invite(
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
                return redirect(reverse("event_scorers", args=[slug]))
    return render(
        request,
        "league/event/scorers.html",
        {
            "league": league,
            "form": form,
            "scorers": league.scorers.order_by("created_at", "pk"),
            "access_ends": events.scorer_access_ends(league),
        },
    )


def _scorer_slip(request: HttpRequest, league: League, scorer) -> HttpResponse:
    """A fresh log-in link for one volunteer, printed as a slip with its QR code (PDF)."""
    from . import printables

    try:
        url = events.scorer_slip(actor=request.user, league=league, scorer=scorer)
    except DomainError as error:
        messages.error(request, error.message)
        return redirect(reverse("event_scorers", args=[league.slug]))
    institution = league.season.institution
    slip = printables.PrintSlip(
        event=league.name,
        date=league.event_date,
        name=scorer.name,
        email=scorer.email,
        url=url,
        valid_until=timezone.localtime(events.scorer_access_ends(league), institution.tz),
    )
    with timezone.override(institution.tz):  # the slip's times in the campus's clock
        pdf = printables.sign_in_slip_pdf(slip)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{league.slug}-volunteer-slip.pdf"'
    return response


# --- Printables ---------------------------------------------------------------------------------


@login_required
def event_print(request: HttpRequest, slug: str, number: int, kind: str) -> HttpResponse:
    """The round's pairings (wall sheets) or its table score cards as a PDF (E3, G10)."""
    from . import printables

    league = _staff_event(request, slug)
    if kind not in ("pairings", "cards", "sheets"):
        raise Http404
    paper = request.GET.get("paper", "letter")
    if paper not in printables.PAPER:
        paper = "letter"
    if kind in ("cards", "sheets"):
        # Recorded before the seating is read: a re-pairing after this moment is one the cards
        # in the hall may not show, and the scoring table then asks for players' numbers.
        round_ = Round.objects.filter(league=league, number=number).first()
        if round_ is not None and Match.objects.filter(round=round_).exists():
            events.cards_printed(actor=request.user, round=round_)
    state = events.event_state(league)
    view = next((r for r in rounds_view(state) if r["round"].number == number), None)
    if view is None or not view["tables"]:
        raise Http404

    def seat_of(seat, entry):
        return printables.PrintSeat(
            seat=seat.order,
            name=seat.player.name,
            number=entry.player_number if entry else None,
            category=entry.category.name if entry and entry.category_id else "",
            team=entry.team.name if entry and entry.team_id else "",
        )

    def seconds(seats):
        return (
            max((e.category.turn_seconds or 0 for _, e in seats if e and e.category_id), default=0)
            or None
        )

    first = view["periods"][0] if view["periods"] else None
    sheet = printables.PrintRound(
        event=league.name,
        venue=league.venue,
        date=league.event_date,
        round=number,
        starts=first.starts.strftime("%H:%M") if first else "",
        minutes=sum(period.minutes for period in view["periods"]),
        tables=tuple(
            printables.PrintTable(
                number=match.table,
                seats=tuple(seat_of(seat, entry) for seat, entry in seats),
                url=request.build_absolute_uri(
                    reverse("event_table", args=[league.slug, number, match.table])
                ),
                turn_seconds=seconds(seats),
            )
            for match, seats in view["tables"]
        ),
        byes=tuple(seat_of(*seats[0]) for _, seats in view["byes"]),
        two_letter_words=tuple(two_letter_words()),
        two_letter_caption=TWO_LETTER_CAPTION,
        periods=tuple((p.starts.strftime("%H:%M"), p.minutes) for p in view["periods"]),
        end_of_game=END_OF_GAME_WORDS.get(league.end_of_game_rule, ""),
    )
    render_pdf = {
        "pairings": printables.pairings_pdf,
        "cards": printables.score_cards_pdf,
        "sheets": printables.score_sheets_pdf,
    }[kind]
    response = HttpResponse(render_pdf(sheet, paper), content_type="application/pdf")
    response["Content-Disposition"] = (
        f'inline; filename="{league.slug}-round-{number}-{kind}-{paper}.pdf"'
    )
    return response


# What each end-of-game rule (G1) means, printed on the score sheet for the table to apply.
END_OF_GAME_WORDS = {
    "standard": "each player loses the value of their own unplayed tiles; the player who went "
    "out gains the others' total.",
    "north_american": "the player who went out gains twice the others' unplayed tiles; nobody "
    "loses their own.",
    "out_bonus": "the player who goes out gains the value of all the others' unplayed tiles; "
    "nobody loses their own; when time is up, nothing is added or taken away.",
    "none": "no adjustment for unplayed tiles.",
}

TWO_LETTER_CAPTION = (
    "Two-letter words (G10) of the ENABLE list (public domain). The tournament lists add a few "
    "(QI, ZA, OK and others): when in doubt, ask a word judge."
)


# --- The table timer (G8, G3) -----------------------------------------------------------------


def table_timer(request: HttpRequest, slug: str) -> HttpResponse:
    """A phone or tablet at the table times each turn (G8): `seconds` per turn (0: untimed,
    turns only counted), `players` 2 to 4, optional `table` and `names`. Everything runs in the
    page once loaded, so a dropped Wi-Fi stops nothing."""
    league = get_object_or_404(League.objects.select_related("season__institution"), slug=slug)
    if not can_see_league(request.user, league):
        raise Http404
    default = league.turn_time_seconds or 150
    problems = []
    seconds = number_or_none(request.GET.get("seconds", default), low=0, high=INT_MAX)
    if seconds is None:
        seconds, problems = default, [f"{shown(request.GET['seconds'])} is not a number of seconds"]
    if seconds != 0 and not 30 <= seconds <= 600:
        problems.append(f"{seconds} seconds is outside 30–600")
        seconds = default
    players = number_or_none(request.GET.get("players", 2), low=2, high=4)
    if players is None:
        problems.append("a table has 2 to 4 players")
        players = 2
    names = [name.strip()[:40] for name in request.GET.get("names", "").split(",")]
    names = [name or f"Player {i}" for i, name in enumerate((names + [""] * 4)[:players], 1)]
    table = number_or_none(request.GET.get("table", ""), low=1, high=999)
    return render(
        request,
        "league/table_timer.html",
        {
            "league": league,
            "seconds": seconds,
            "label": f"{seconds // 60}:{seconds % 60:02d}",
            "names": names,
            "table": table or "",
            "problems": problems,
        },
    )


# --- Setting up from the settings file --------------------------------------------------------


class SettingsFileForm(forms.Form):
    season = forms.ModelChoiceField(label="Season", queryset=None)
    file = forms.FileField(label="Settings file (JSON, as create_event reads it)")
    update = forms.BooleanField(
        label="Change the existing event or club of that slug", required=False
    )

    def __init__(self, *args, institution, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["season"].queryset = institution.seasons.order_by("-starts_on")


@login_required
def event_setup(request: HttpRequest) -> HttpResponse:
    """The director sets up an event or a club from its settings file (the same file
    `create_event` reads and `settings.json` gives back), e.g. last year's, re-dated."""
    institution = roles.institution_of(request.user)
    if institution is None or not roles.is_director_of(request.user, institution):
        raise Http404
    form = SettingsFileForm(request.POST or None, request.FILES or None, institution=institution)
    if request.method == "POST" and form.is_valid():
        from .event_files import league_file_save
        from .file_schema import MAX_BYTES, parse_league_file

        upload = form.cleaned_data["file"]
        try:
            # Read no further than the limit: the file's declared size is the sender's word.
            league, changed = league_file_save(
                actor=request.user,
                season=form.cleaned_data["season"],
                data=parse_league_file(upload.read(MAX_BYTES + 1)),
                update=form.cleaned_data["update"],
            )
        except DomainError as error:
            form.add_error("file", error.message)
        else:
            messages.success(request, f"{league.name} {'saved' if changed else 'is unchanged'}.")
            return redirect(league)
    return render(request, "league/event/setup.html", {"form": form})


@login_required
def event_settings_file(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's (or club's) settings file to save for next year."""
    from .club_files import export_club_file
    from .event_files import export_event_file

    league = get_object_or_404(League.objects.select_related("season__institution"), slug=slug)
    if not roles.is_director_of(request.user, league.season.institution):
        raise Http404
    if league.format == LeagueFormat.EVENT:
        document = export_event_file(league)
    elif league.format == LeagueFormat.CLUB:
        document = export_club_file(league)
    else:
        raise Http404
    response = HttpResponse(json.dumps(document, indent=2), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{league.slug}.json"'
    return response


# --- Assists for the charity (E5) -----------------------------------------------------------

TABLE_ANCHOR = re.compile(r"table-[0-9]{1,20}")


def _posted_row(post, key: str, model, league: League, what: str):
    """The row of this event that a button's hidden id names, or a message saying it is not."""
    row = model.objects.filter(pk=row_id(post.get(key), what=what), league=league).first()
    if row is None:
        raise DomainError(f"{what} is not one of {league}'s: reload the page and try again.")
    return row


@login_required
def event_assists(request: HttpRequest, slug: str) -> HttpResponse:
    """Sell assists at the tables (item, quantity, in two taps), void a sale with a reason, and
    the ledger: the money raised by item, team and round."""
    from . import assists

    league = _scorer_event(request, slug)
    if request.method == "POST":
        post = request.POST
        if "void" in post:

            def void():
                sale = _posted_row(post, "void", AssistSale, league, "That sale")
                reason = clean_text(post.get("reason"), what="The reason", max_length=300)
                return assists.sale_void(actor=request.user, sale=sale, reason=reason)

            act_and_say(
                request,
                void,
                lambda voided: f"Sale voided: {voided.quantity} × {voided.item.name}.",
            )
        else:

            def sell():
                entry = _posted_row(post, "entry", Entry, league, "The entrant")
                item = _posted_row(post, "item", AssistItem, league, "The item")
                quantity = whole_number(post.get("quantity", "1"), what="Quantity", low=1, high=100)
                sale = assists.sale_record(
                    actor=request.user, league=league, entry=entry, item=item, quantity=quantity
                )
                return (
                    f"{sale.quantity} × {item.name} to {entry.player.name}: "
                    f"{assists.money(sale.cents)}."
                )

            act_and_say(request, sell, lambda said: said)
        at = post.get("at", "")
        # Back to the same table, still open, for the next sale there.
        anchor = f"?open={at}#{at}" if TABLE_ANCHOR.fullmatch(at) else ""
        return redirect(reverse("event_assists", args=[slug]) + anchor)
    round_ = assists.current_round(league)
    tables = []
    if round_ is not None:
        entries = {
            entry.player_id: entry
            for entry in Entry.objects.filter(league=league).select_related("player__user", "team")
        }
        for match in (
            Match.objects.filter(round=round_)
            .order_by("table", "id")
            .prefetch_related("seats__player__user")
        ):
            anchor = f"table-{match.table or match.pk}"
            tables.append(
                (match, [entries.get(seat.player_id) for seat in match.seats.all()], anchor)
            )
    items = list(league.assist_items.all())
    later_from = assists.later_price_from(league)
    now = timezone.now()
    prices = [
        (
            item,
            assists.price_in_force(item, round_, now, later_from) if round_ else item.first_cents,
        )
        for item in items
    ]
    return render(
        request,
        "league/event/assists.html",
        {
            "league": league,
            "round": round_,
            "tables": tables,
            "prices": prices,
            "ledger": assists.ledger(league),
            "open_table": request.GET.get("open", ""),
            "sales": AssistSale.objects.filter(league=league)
            .select_related("item", "entry__player__user", "round")
            .order_by("-sold_at", "-id")[:30],
        },
    )
