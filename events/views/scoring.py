"""The scoring table (E3): type a table's card, Enter, the next card. A card lands only on the
players it names."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone

from accounts import roles
from core.errors import DomainError
from core.forms import TextField, WholeNumberField
from events import selectors, services
from events.card_board import card_board, self_entry_open
from events.models import event_of_league
from events.services.card_settling import settle_due_cards
from events.services.cards import RoundNotBegun
from events.views.access import NUMBER, round_of, scorer_event_of
from league.addresses import LeagueAddress
from league.models import League, Round
from league.names import STAFF, NamesAt
from matches.forms import ScoreField
from matches.models import GameEnd, Match
from matches.services import CardConflict

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
    score_1 = ScoreField(label="Seat 1 score")
    number_2 = WholeNumberField(label="Seat 2 player number", required=False, **NUMBER)
    score_2 = ScoreField(label="Seat 2 score")
    number_3 = WholeNumberField(label="Seat 3 player number", required=False, **NUMBER)
    score_3 = ScoreField(label="Seat 3 score", required=False)
    number_4 = WholeNumberField(label="Seat 4 player number", required=False, **NUMBER)
    score_4 = ScoreField(label="Seat 4 score", required=False)
    ended_by = forms.ChoiceField(
        label="How the game ended", choices=GameEnd.choices, initial=GameEnd.WENT_OUT
    )
    override_reason = TextField(
        label="Reason to replace the table's result",
        required=False,
        max_length=300,
    )
    before_start = forms.BooleanField(
        label="Yes, enter it anyway: the round has not begun", required=False
    )

    def __init__(self, *args, labels: dict[int, str] | None = None, **kwargs):
        """`labels`: each seat as the page names it, for a score's refusal to name it too."""
        super().__init__(*args, **kwargs)
        for order, label in (labels or {}).items():
            self.fields[f"score_{order}"].whose = label

    # The fields in the page's order: focus goes to the first one with an error.
    FOCUS_ORDER = (
        "table",
        *(name for order in range(1, 5) for name in (f"number_{order}", f"score_{order}")),
        "ended_by",
        "override_reason",
    )

    def first_error(self) -> str:
        """The name of the first field with an error, in the page's order; the table's when
        none has one (a new card, or a refusal of the whole card)."""
        errors = self.errors if self.is_bound else {}
        return next((name for name in self.FOCUS_ORDER if name in errors), "table")

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
    if selectors.numbers_required(round_):
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


def _checked_card(
    form: ScoreCardForm, round_: Round, numbers: dict[int, int]
) -> tuple[Match, list[int], list[int]] | None:
    """The card's table, its players and its scores in seat order, once the form is valid and
    the card fits who sits at the table; None with the form's errors otherwise."""
    if not form.is_valid():
        return None
    table = selectors.scoring_table(round_, form.cleaned_data["table"])
    if table is None:
        form.add_error("table", f"Round {round_.number} has no table {form.cleaned_data['table']}.")
        return None
    card = _card_for_seats(form, table, round_, numbers)
    return None if card is None else (table, *card)


def _seating(tables, numbers: dict[int, int]) -> dict[str, dict]:
    """Who sits at each table (seat order), named as staff read names (P2), and its scores once
    final: the page's labels, its script's and a refused card's."""
    names = NamesAt(STAFF, numbers)
    return {
        str(match.table): {
            "seats": [
                {
                    "id": seat.player_id,
                    "name": names.of(seat.player),
                    "number": numbers.get(seat.player_id),
                }
                for seat in match.seats.all()
            ],
            "scores": [seat.score for seat in match.seats.all()] if match.is_final else None,
        }
        for match in tables
    }


def _seat_labels(seating: dict[str, dict], table) -> dict[int, str]:
    """Each seat of the table typed as the page labels it ("Seat 1: Ada Quill (7)"); none for
    a table the round has not."""
    shown = seating.get(str(table).strip()) if table is not None else None
    if not shown:
        return {}
    return {
        order: f"Seat {order}: {person['name']} ({person['number']})"
        for order, person in enumerate(shown["seats"], start=1)
    }


def _scoring_context(
    league: League,
    round_: Round,
    form: ScoreCardForm | None = None,
    *,
    is_director: bool,
) -> dict:
    tables = selectors.scoring_tables(round_)
    numbers = selectors.player_numbers(league)
    seating = _seating(tables, numbers)
    entered = sum(1 for match in tables if match.is_final)
    # Where the players enter their own cards (S1), the page shows only what needs a person.
    self_entry = event_of_league(league).self_entry
    board = card_board(league, round_, tables, timezone.now()) if self_entry else None
    form = form or ScoreCardForm()
    # A card that comes back with an error keeps its table's names and seats without waiting
    # for the script (which draws the same as the table number is typed).
    shown = seating.get(str(form["table"].value()).strip()) if form.is_bound else None
    labels = _seat_labels(seating, form["table"].value()) if form.is_bound else {}
    seat_rows = [
        {
            "order": order,
            "number": number,
            "score": score,
            "label": labels.get(order, score.label),
            "hidden": (order > len(shown["seats"])) if shown else order > 2,
        }
        for order, number, score in form.seat_rows()
    ]
    return {
        "league": league,
        "round": round_,
        "form": form,
        "focus": form.first_error(),
        "seat_rows": seat_rows,
        "shown": shown,
        "is_director": is_director,
        "tables": tables,
        "seating": seating,
        "numbers_required": selectors.numbers_required(round_),
        "entered": entered,
        "waiting": [match for match in tables if not match.is_final],
        "numbers": numbers,
        "names": STAFF,  # staff read names as given (P2)
        "self_entry": self_entry,
        "self_entry_open": self_entry and self_entry_open(league, round_),
        "board": board,
        "late_cards": selectors.late_cards(round_) if is_director else [],
    }


@login_required
def event_scoring_now(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    """The scoring table at the round whose cards are coming in (a volunteer's link leads
    here); before round 1 is paired, the event's page says when it will be."""
    league = scorer_event_of(request, address)
    round_ = selectors.round_to_score(league)
    if round_ is None:
        messages.info(request, "No round is paired yet: the scoring table opens with round 1.")
        return redirect(league.get_absolute_url())
    return redirect(reverse("event_scores", args=[league, round_.number]))


@login_required
def event_scores(request: HttpRequest, address: LeagueAddress, number: int) -> HttpResponse:
    """The scoring table's page: type a card, Enter, next card."""
    league = scorer_event_of(request, address)
    round_ = round_of(league, number)
    is_director = roles.is_director_of(request.user, league.season.institution)
    if request.method != "POST":
        # The cards another seat confirmed count once the round's time is up (S2), even if no
        # worker has come round yet.
        settle_due_cards(round_)
        return render(
            request,
            "events/scores.html",
            _scoring_context(league, round_, is_director=is_director),
        )
    tables = selectors.scoring_tables(round_)
    numbers = selectors.player_numbers(league)
    # A score refused names its seat as the page does (the table typed, before it is read).
    labels = _seat_labels(_seating(tables, numbers), request.POST.get("table"))
    form = ScoreCardForm(request.POST, labels=labels)
    checked = _checked_card(form, round_, numbers)
    if checked is not None:
        table, players, scores = checked
        try:
            services.card_enter(
                actor=request.user,
                match=table,
                scores=scores,
                players=players,
                ended_by=form.cleaned_data["ended_by"],
                override_reason=form.cleaned_data["override_reason"],
                unusual_confirmed=True,  # the card is what the table signed
                before_start_confirmed=form.cleaned_data["before_start"],
            )
        except RoundNotBegun as early:
            form.add_error(None, early.message)
            form.ask_before_start = True
        except CardConflict as conflict:
            form.add_error(
                None,
                f"{conflict.facts}. "
                + (
                    "To replace it, give the reason under “How it ended, or a correction” "
                    "and enter the card again."
                    if is_director
                    else "Nothing was entered: only the director can replace a result, "
                    "so call them over with the card."
                ),
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
            return redirect(reverse("event_scores", args=[league, number]))
    return render(
        request,
        "events/scores.html",
        # Read again: a card refused as the round was paired again shows the new seating.
        _scoring_context(league, round_, form, is_director=is_director),
    )
