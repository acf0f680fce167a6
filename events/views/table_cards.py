"""A table's page (the score card's QR code) with the players' own card (S1–S4), the scoring
table's "count this version" (S3) and the director's switch for a round (S5)."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone

from core.actions import posted_from
from core.errors import DomainError
from events import card_board, selectors
from events.models import EntrantSlip, TableCard
from events.services import card_settling, live_slip, table_cards
from events.views.access import event_of, round_of, scorer_event_of, staff_event_of
from events.views.phone import device_of, keep_device, remember, remembered_tokens
from league.addresses import LeagueAddress
from league.names import STAFF, NamesAt, name_style
from league.wordlists import list_note, two_letter_words
from matches.forms import ScoreField
from matches.models import GameEnd, Match, MatchStatus
from matches.services import UnusualScores


class SeatForm(forms.Form):
    """Which seat is acting (S4): a signed-in player's login, or a slip this phone remembers,
    proves it; a slip's code typed here does too (and the phone remembers it from then on).
    `labels` name each seat as the page does: seat, number and name set apart (P2)."""

    seat = forms.TypedChoiceField(label="Your seat", coerce=int, empty_value=None, required=False)
    code = forms.CharField(
        label="Your slip's code, if this phone does not know you yet",
        required=False,
        max_length=20,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )

    def __init__(self, *args, seats=(), labels=None, **kwargs):
        super().__init__(*args, **kwargs)
        labels = labels or {seat.order: f"Seat {seat.order}" for seat in seats}
        self.labels = labels
        self.fields["seat"].choices = [("", "Choose your seat")] + [
            (seat.order, labels[seat.order]) for seat in seats
        ]


class TableCardForm(SeatForm):
    """The table's card from a phone: every seat's final score and how the game ended (G1,
    G2, G3), with the match report's "yes, really" for an unusual score."""

    score_1 = ScoreField(label="Seat 1 score")
    score_2 = ScoreField(label="Seat 2 score")
    score_3 = ScoreField(label="Seat 3 score", required=False)
    score_4 = ScoreField(label="Seat 4 score", required=False)
    ended_by = forms.ChoiceField(
        label="How the game ended", choices=GameEnd.choices, initial=GameEnd.WENT_OUT
    )
    unusual_confirmed = forms.BooleanField(
        label="Yes, really: these unusual scores are right", required=False
    )

    def __init__(self, *args, seats=(), labels=None, **kwargs):
        super().__init__(*args, seats=seats, labels=labels, **kwargs)
        for seat in seats:
            self.fields[f"score_{seat.order}"].required = True
            self.fields[f"score_{seat.order}"].label = self.labels[seat.order]
            self.fields[f"score_{seat.order}"].whose = self.labels[seat.order]
        for order in range(len(seats) + 1, 5):
            del self.fields[f"score_{order}"]

    def first_bad_score(self) -> str:
        """The first score refused (its field's name), where the page puts the focus."""
        errors = self.errors if self.is_bound else {}
        return next(
            (name for name in self.fields if name.startswith("score_") and name in errors), ""
        )

    def scores(self) -> list[int]:
        return [
            self.cleaned_data[name]
            for name in ("score_1", "score_2", "score_3", "score_4")
            if name in self.fields
        ]


class ConfirmForm(SeatForm):
    card = forms.IntegerField(widget=forms.HiddenInput)


def seat_labels(seats, names: NamesAt) -> dict[int, str]:
    """Each seat as the table's page names it: "Seat 2 · No. 7 · Ada Quill", the seat, the
    player number and the name set apart (the name as the reader may read it, P2)."""
    labels = {}
    for seat, entry in seats:
        number = f" · No. {entry.player_number}" if entry and entry.player_number else ""
        labels[seat.order] = f"Seat {seat.order}{number} · {names.of(seat.player)}"
    return labels


def _proof(request: HttpRequest, form: SeatForm) -> table_cards.SeatProof:
    return table_cards.SeatProof(
        user=request.user,
        slips=tuple(remembered_tokens(request)),
        order=form.cleaned_data.get("seat"),
        code=form.cleaned_data.get("code") or "",
        device=device_of(request),
    )


def _naming(request: HttpRequest, league, seats) -> tuple[object, NamesAt]:
    """The reader's own seat at this table (by their login), and how the page names the
    table's players: as given to the players at the table and to staff, else as the reader
    may read them (P2), each by their player number here when shown by number."""
    me = getattr(request.user, "profile", None) if request.user.is_authenticated else None
    my_seat = next((seat for seat, _ in seats if me is not None and seat.player_id == me.pk), None)
    style = STAFF if my_seat else name_style(request.user, league)
    return my_seat, NamesAt(style, {seat.player_id: e.player_number for seat, e in seats if e})


def _table(league, number: int, table: int) -> tuple[Match, list]:
    """The table's match and its seats with their entries (404 for a table the round has
    not)."""
    round_ = round_of(league, number)
    found = selectors.table_seats(round_, table)
    if found is None:
        raise Http404
    return found


def _back(league, number: int, table: int, anchor: str = "card") -> str:
    return reverse("event_table", args=[league, number, table]) + f"#{anchor}"


def _paired_again(request: HttpRequest, league, number: int) -> HttpResponse:
    messages.error(
        request,
        f"Round {number} was just paired again: nothing was entered. Find your new table below.",
    )
    return redirect(reverse("event_round", args=[league, number]))


def _after_card(card: TableCard, seats) -> str:
    if card.state == TableCard.State.COUNTED:
        return "The card counts: thank you."
    confirmed = {each.seat_order for each in card.confirmations.all()}
    waiting = [seat.order for seat in seats if seat.order not in confirmed | {card.seat_order}]
    return (
        f"Saved. Waiting for seat{'s' if len(waiting) > 1 else ''} "
        f"{', '.join(map(str, waiting))} to confirm it."
    )


def known_seats(request: HttpRequest, league, seats, my_seat) -> list:
    """The seats this phone may act for: the reader's own (their login), and those of the
    entrants whose slips it remembers (S4)."""
    players = {seat.player_id: seat for seat, _ in seats}
    remembered = EntrantSlip.objects.filter(
        token__in=remembered_tokens(request),
        revoked_at=None,
        entry__league=league,
        entry__player_id__in=list(players),
    ).values_list("entry__player_id", flat=True)
    known = {players[player].order: players[player] for player in remembered}
    if my_seat is not None:
        known[my_seat.order] = my_seat
    return [known[order] for order in sorted(known)]


def event_table(
    request: HttpRequest,
    address: LeagueAddress,
    number: int,
    table: int,
    *,
    card_form: TableCardForm | None = None,
    confirm_form: ConfirmForm | None = None,
) -> HttpResponse:
    """A table's page: who sits where, the turn timing and the timer, the two-letter words
    (G10), the scores once entered; while the players enter their own card (S1), the card's
    versions, "confirm" for each and "enter our card". A refusal of a form sent from it is
    said at the top of the card's section, whatever version or table the form named."""
    league = event_of(request, address)
    round_ = round_of(league, number)
    match, seats = _table(league, number, table)
    my_seat, names_here = _naming(request, league, seats)
    seconds = max(
        (e.entrant.category.turn_seconds or 0 for _, e in seats if e and e.entrant.category_id),
        default=0,
    )
    names = ",".join(names_here.of(seat.player).replace(",", " ") for seat, _ in seats)
    labels = seat_labels(seats, names_here)
    for seat, _ in seats:
        seat.label = labels[seat.order]  # what the page's templates call the seat
    context = {
        "league": league,
        "round": round_,
        "names": names_here,
        "match": match,
        "seats": seats,
        "labels": labels,
        "turn_seconds": seconds,
        "turn_label": f"{seconds // 60}:{seconds % 60:02d}",
        "timer_query": {"seconds": seconds, "players": len(seats), "table": table, "names": names},
        "words": two_letter_words(),
        "words_note": list_note(league.get_lexicon_display(), ask="a word judge"),
        "self_entry": False,
    }
    sent = next((form for form in (card_form, confirm_form) if form is not None), None)
    refusals = list(sent.non_field_errors()) if sent is not None else []
    plain_seats = [seat for seat, _ in seats]
    if match.status != MatchStatus.BYE and card_board.self_entry_open(league, round_):
        device_of(request)
        known = known_seats(request, league, seats, my_seat)
        initial = {"seat": known[0].order} if len(known) == 1 else {}
        versions = card_board.table_versions(match, plain_seats)
        # Each version with the seats this phone may confirm it for: those it knows among the
        # seats still to confirm; a phone that knows nobody is offered them all (and a code).
        version_rows = [
            (
                version,
                [seat for seat in version.confirmable if seat in known]
                if known
                else version.confirmable,
            )
            for version in versions
        ]
        context.update(
            {
                "self_entry": True,
                "my_seat": my_seat,
                "known": known,
                "plain_seats": plain_seats,
                "time_up": card_board.round_time_up(league, round_, timezone.now()),
                "versions": versions,
                "version_rows": version_rows,
                "refusals": refusals,
                "card_sent": sent is card_form and card_form is not None,
                "card_form": card_form
                or TableCardForm(
                    seats=plain_seats,
                    labels=labels,
                    initial=initial or {"seat": match.scorekeeper},
                ),
                "confirm_form": ConfirmForm(seats=plain_seats, labels=labels, initial=initial),
                "scorekeeper": next(
                    (seat for seat in plain_seats if seat.order == match.scorekeeper), None
                ),
            }
        )
    else:
        # A card sent just as self-entry closed: the page has no form to show its answer in.
        for refusal in refusals:
            messages.error(request, refusal)
    return keep_device(request, render(request, "events/table.html", context))


def _at_the_table(request, address, number, table, form_class, act, form_name) -> HttpResponse:
    """A seat's action on the table's page: the service's answer as the page's message, or
    the table's page again with the refusal said at the top of its card's section (the form
    as it was sent, every seat's player named)."""
    league = event_of(request, address)
    match, seats = _table(league, number, table)
    _, names_here = _naming(request, league, seats)
    plain_seats = [seat for seat, _ in seats]
    form = form_class(request.POST, seats=plain_seats, labels=seat_labels(seats, names_here))
    if form.is_valid():
        proof = _proof(request, form)
        try:
            card = act(match, form, proof)
        except UnusualScores as unusual:
            form.add_error(None, unusual.message)
            form.ask_unusual = True
        except DomainError as error:
            form.add_error(None, error.message)
        except Match.DoesNotExist:
            return _paired_again(request, league, number)
        else:
            messages.success(request, _after_card(card, plain_seats))
            response = redirect(_back(league, number, table))
            if proof.code:  # a slip's code typed here: this phone knows its entrant now
                slip = live_slip(code=proof.code)
                if slip is not None:
                    remember(request, response, slip)
            return keep_device(request, response)
    else:
        form.add_error(None, "Nothing was entered: see below.")
    return event_table(request, address, number, table, **{form_name: form})


@posted_from("event_table")
def event_table_card(
    request: HttpRequest, address: LeagueAddress, number: int, table: int
) -> HttpResponse:
    """A seat enters the table's card (S1, S3)."""

    def enter(match, form, proof):
        return table_cards.table_card_enter(
            match=match,
            proof=proof,
            scores=form.scores(),
            ended_by=form.cleaned_data["ended_by"],
            unusual_confirmed=form.cleaned_data["unusual_confirmed"],
        )

    return _at_the_table(request, address, number, table, TableCardForm, enter, "card_form")


@posted_from("event_table")
def event_table_confirm(
    request: HttpRequest, address: LeagueAddress, number: int, table: int
) -> HttpResponse:
    """A seat confirms the version it was shown (S2)."""

    def confirm(match, form, proof):
        return table_cards.table_card_confirm(
            match=match, card_id=form.cleaned_data["card"], proof=proof
        )

    return _at_the_table(request, address, number, table, ConfirmForm, confirm, "confirm_form")


@login_required
@posted_from("event_scores", "address", "number")
def event_table_count(
    request: HttpRequest, address: LeagueAddress, number: int, table: int
) -> HttpResponse:
    """The scoring table counts one version of a table's card (S3)."""
    league = scorer_event_of(request, address)
    match, _ = _table(league, number, table)
    try:
        card_id = int(request.POST.get("card", ""))
    except ValueError:
        card_id = 0
    try:
        card = card_settling.table_card_count(actor=request.user, match=match, card_id=card_id)
    except DomainError as error:
        messages.error(request, f"Table {table}: {error.message}")
    else:
        messages.success(request, f"Table {table}: {'–'.join(map(str, card.scores))} counted.")
    return redirect(reverse("event_scores", args=[league, number]) + "#needs-a-person")


@login_required
@posted_from("event_scores")
def event_self_entry(request: HttpRequest, address: LeagueAddress, number: int) -> HttpResponse:
    """The director closes self-entry for the round, or opens it again (S5)."""
    league = staff_event_of(request, address, director=True)
    round_ = round_of(league, number)
    closed = request.POST.get("closed") != "no"
    try:
        card_settling.self_entry_close(actor=request.user, round=round_, closed=closed)
    except DomainError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            f"Round {number}: players {'no longer enter' if closed else 'enter'} their own "
            "cards at their tables.",
        )
    return redirect(reverse("event_scores", args=[league, number]))
