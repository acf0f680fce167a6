"""The scoring table when the hall's Wi-Fi drops (issue 52): the page keeps the cards typed
offline on its device and sends them here, one at a time and in order, once it is online again;
the service worker that keeps the page loadable offline is served from the site's root so its
scope covers the event pages."""

from datetime import UTC, datetime

from django import forms
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from core.errors import DomainError
from events import selectors, services
from events.models import SentCard
from events.services.cards import RoundNotBegun
from events.views import table_cards
from events.views.access import event_of, round_of, scorer_event_of
from events.views.phone import keep_device, remember
from events.views.scoring import ScoreCardForm, _checked_card, _seat_labels, _seating
from league.addresses import LeagueAddress
from matches.models import Match
from matches.services import CardConflict

SIGNED_OUT = (
    "Your sign-in has ended. The cards stay on this device: sign in again on it and they are sent."
)
GONE = (
    "This event's scoring table is no longer open to you: the cards kept on this device for it "
    "were removed. Give the paper cards to the director."
)


class SentCardForm(forms.Form):
    """What the page adds to a card it kept: its key, the device's name for itself, and when
    the card was typed by the device's clock (milliseconds since 1970)."""

    key = forms.UUIDField()
    device = forms.CharField(max_length=40)
    typed_at = forms.IntegerField(min_value=0, max_value=10**14)

    def typed(self) -> datetime:
        return datetime.fromtimestamp(self.cleaned_data["typed_at"] / 1000, tz=UTC)


def _words(form: ScoreCardForm) -> str:
    """A refused card's errors as one sentence for the page's list."""
    said = []
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            said.append(f"{label}: {error}" if label and field != "table" else error)
    return " ".join(said) or "The card could not be read: type it again."


def _typed_scores(data) -> list[int]:
    scores = []
    for order in range(1, 5):
        value = (data.get(f"score_{order}") or "").strip()
        if value.lstrip("-").isdecimal() and len(value) < 6:
            scores.append(int(value))
    return scores


@require_POST
def event_scores_send(request: HttpRequest, address: LeagueAddress, number: int) -> HttpResponse:
    """One card the page kept while offline: counted once per key, whatever how often it is
    sent. Answers in JSON for the page's script: the outcome and, for a refusal, its reason."""
    if not request.user.is_authenticated:
        return JsonResponse({"signed_out": True, "reason": SIGNED_OUT}, status=401)
    try:
        league = scorer_event_of(request, address)
        round_ = round_of(league, number)
    except Http404:
        return JsonResponse({"gone": True, "reason": GONE}, status=403)
    sent_form = SentCardForm(request.POST)
    if not sent_form.is_valid():
        return JsonResponse(
            {"reason": "The page sent this card without its key: type it again."}, status=400
        )
    tables = selectors.scoring_tables(round_)
    numbers = selectors.player_numbers(league)
    labels = _seat_labels(_seating(tables, numbers), request.POST.get("table"))
    form = ScoreCardForm(request.POST, labels=labels)

    def enter(now) -> Match:
        checked = _checked_card(form, round_, numbers)
        if checked is None:
            raise services.CardRefused(_words(form))
        table, players, scores = checked
        try:
            return services.card_enter(
                actor=request.user,
                match=table,
                scores=scores,
                players=players,
                ended_by=form.cleaned_data["ended_by"],
                override_reason=form.cleaned_data["override_reason"],
                unusual_confirmed=True,  # the card is what the table signed
                before_start_confirmed=form.cleaned_data["before_start"],
                now=now,
            )
        except RoundNotBegun as early:
            raise services.CardRefused(
                f"{early.message.removesuffix(': enter this card anyway?')}: type the card "
                "again and say to enter it anyway."
            ) from early
        except CardConflict as conflict:
            raise services.CardRefused(
                f"{conflict.facts}. Nothing was entered: call the director over with the card."
            ) from conflict
        except Match.DoesNotExist as gone:
            raise services.CardRefused(
                f"Round {number} was paired again meanwhile: check table "
                f"{form.cleaned_data['table']}'s players and type the card again."
            ) from gone

    table_number = form.data.get("table", "")
    try:
        sent = services.card_send(
            actor=request.user,
            round=round_,
            key=sent_form.cleaned_data["key"],
            device=sent_form.cleaned_data["device"],
            typed_at=sent_form.typed(),
            table=int(table_number) if table_number.isdecimal() and len(table_number) < 4 else 0,
            scores=_typed_scores(request.POST),
            enter=enter,
        )
    except DomainError as error:
        return JsonResponse({"outcome": "refused", "reason": error.message})
    return JsonResponse(
        {"outcome": sent.outcome, "reason": sent.reason, "said": sent.get_outcome_display()}
    )


def offline_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, from the site's root: its scope is every page under it, and it
    acts only on the scoring tables' pages (static/… could not reach them). It names nobody."""
    response = render(
        request, "events/offline-worker.js", content_type="application/javascript; charset=utf-8"
    )
    response["Cache-Control"] = "no-cache"
    return response


TABLE_GONE = (
    "This table's page is no longer open to this phone: what it kept for the table was "
    "removed. Give your card to the scoring table."
)


class TableSendForm(SentCardForm):
    """What a table's page adds to a card or confirmation it kept: which of the two it is, and
    the table (its match) the page showed, so a table paired again meanwhile is refused."""

    kind = forms.ChoiceField(
        choices=[(SentCard.Kind.TABLE_CARD, "card"), (SentCard.Kind.TABLE_CONFIRM, "confirm")]
    )
    match = forms.IntegerField(min_value=1)


@require_POST
def event_table_send(
    request: HttpRequest, address: LeagueAddress, number: int, table: int
) -> HttpResponse:
    """A table's card or a confirmation a player's phone kept offline (issue 52), acted on once
    per key however often it is sent, through the table-card service: the seat proved by the
    login or a slip this phone remembers (S4), as when it is sent from the page's form.
    Answers in JSON: the outcome and, for a refusal, its reason."""
    try:
        league = event_of(request, address)
        round_ = round_of(league, number)
    except Http404:
        return JsonResponse({"gone": True, "reason": TABLE_GONE}, status=403)
    sent_form = TableSendForm(request.POST)
    if not sent_form.is_valid():
        return JsonResponse(
            {"reason": "The page sent this without its key: enter it again."}, status=400
        )
    kind = sent_form.cleaned_data["kind"]
    found = selectors.table_seats(round_, table)
    match, seats = found if found is not None else (None, [])
    _, names_here = table_cards._naming(request, league, seats)
    plain_seats = [seat for seat, _ in seats]
    form_class = table_cards.TableCardForm if kind == "card" else table_cards.ConfirmForm
    form = form_class(
        request.POST, seats=plain_seats, labels=table_cards.seat_labels(seats, names_here)
    )
    valid = form.is_valid()
    proof = table_cards._proof(request, form) if valid else None

    def act(now):
        if match is None or match.pk != sent_form.cleaned_data["match"]:
            raise services.CardRefused(
                f"Round {number} was paired again meanwhile: the players at table {table} "
                "changed since this page was loaded. Find your table on the round's page."
            )
        if not valid:
            raise services.CardRefused(_words(form))
        try:
            if kind == "card":
                return services.table_card_enter(
                    match=match,
                    proof=proof,
                    scores=form.scores(),
                    ended_by=form.cleaned_data["ended_by"],
                    unusual_confirmed=form.cleaned_data["unusual_confirmed"],
                    now=now,
                )
            return services.table_card_confirm(
                match=match, card_id=form.cleaned_data["card"], proof=proof, now=now
            )
        except Match.DoesNotExist as gone:
            raise services.CardRefused(
                f"Round {number} was paired again meanwhile: find your table on the round's page."
            ) from gone

    try:
        sent, card = services.table_send(
            user=request.user,
            round=round_,
            key=sent_form.cleaned_data["key"],
            kind=kind,
            device=sent_form.cleaned_data["device"],
            typed_at=sent_form.typed(),
            table=table,
            scores=_typed_scores(request.POST) if kind == "card" else [],
            act=act,
        )
    except DomainError as error:
        return JsonResponse({"outcome": "refused", "reason": str(error.message)})
    said = (
        table_cards._after_card(card, plain_seats)
        if card is not None
        else sent.get_outcome_display()
    )
    response = JsonResponse({"outcome": sent.outcome, "reason": sent.reason, "said": said})
    if card is not None and proof is not None and proof.code:
        slip = services.live_slip(code=proof.code)  # a slip's code typed: the phone knows it now
        if slip is not None:
            remember(request, response, slip)
    return keep_device(request, response)
