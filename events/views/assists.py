"""Assists for the charity (E5): sell them at the tables, void a sale with a reason, the ledger."""

import re

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone

from core.actions import act_and_say
from core.errors import DomainError
from core.values import clean_text, row_id, whole_number
from events import assist_ledger, selectors
from events.models import AssistItem, AssistSale
from events.money import money
from events.services import assists
from events.views.access import scorer_event_of
from league.addresses import LeagueAddress
from league.models import Entry, League

# --- Assists for the charity (E5) -----------------------------------------------------------

TABLE_ANCHOR = re.compile(r"table-[0-9]{1,20}")


def _posted_row(post, key: str, model, league: League, what: str):
    """The row of this event that a button's hidden id names, or a message saying it is not."""
    row = model.objects.filter(pk=row_id(post.get(key), what=what), league=league).first()
    if row is None:
        raise DomainError(f"{what} is not one of {league}'s: reload the page and try again.")
    return row


@login_required
def event_assists(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    """Sell assists at the tables (item, quantity, in two taps), void a sale with a reason, and
    the ledger: the money raised by item, team and round."""
    league = scorer_event_of(request, address)
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
                return f"{sale.quantity} × {item.name} to {entry.player.name}: {money(sale.cents)}."

            act_and_say(request, sell, lambda said: said)
        at = post.get("at", "")
        # Back to the same table, still open, for the next sale there.
        anchor = f"?open={at}#{at}" if TABLE_ANCHOR.fullmatch(at) else ""
        return redirect(reverse("event_assists", args=[address]) + anchor)
    round_ = assist_ledger.current_round(league)
    tables = selectors.assist_tables(league, round_) if round_ is not None else []
    items = list(league.assist_items.all())
    later_from = assist_ledger.later_price_from(league)
    now = timezone.now()
    prices = [
        (
            item,
            assist_ledger.price_in_force(item, round_, now, later_from)
            if round_
            else item.first_cents,
        )
        for item in items
    ]
    return render(
        request,
        "events/assists.html",
        {
            "league": league,
            "round": round_,
            "tables": tables,
            "prices": prices,
            "ledger": assist_ledger.ledger(league),
            "open_table": request.GET.get("open", ""),
            "sales": selectors.recent_sales(league),
        },
    )
