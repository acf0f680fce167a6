"""Assists sold for the charity at a team challenge (E5): recording a sale and voiding one (the
ledger is ``events.assist_ledger.ledger``). Money is whole cents; a sale copies the price in force, so a later price change never
touches it; a sale is never edited, only voided with a reason; every total is a query over the
sales, never a counter kept on the side.

The price in force: the item's first price during the first round's first period, its later
price from the second period or round on (004: "prices … increase after the first round").
"""

from django.db import transaction
from django.utils import timezone

from core.errors import DomainError
from events.assist_ledger import current_round, later_price_from, price_in_force
from events.models import AssistItem, AssistSale
from events.rights import lock_event, require_scorer
from league.models import Entry, League, Round
from league.refresh import refresh_leagues


class AssistError(DomainError):
    pass


def sale_record(
    *,
    actor,
    league: League,
    entry: Entry,
    item: AssistItem,
    quantity: int = 1,
    round: Round | None = None,
    now=None,
) -> AssistSale:
    """A volunteer sells `quantity` of `item` to an entrant at the price in force."""
    now = now or timezone.now()
    if isinstance(quantity, bool) or not isinstance(quantity, int) or quantity < 1:
        raise AssistError(f"Quantity {quantity!r}: a whole number, one or more.")
    if quantity > 100:
        raise AssistError(f"Quantity {quantity}: more than 100 at once is surely a slip.")
    with transaction.atomic():
        league = lock_event(league)
        require_scorer(actor, league, "record assists")
        if item.league_id != league.pk:
            raise AssistError(f"{item.name} is not sold at {league}.")
        if entry.league_id != league.pk:
            raise AssistError(f"{entry.player.name} is not in {league}.")
        if entry.withdrawn_at is not None:
            raise AssistError(f"{entry.player.name} has left {league}.")
        round_ = round or current_round(league)
        if round_ is None or round_.league_id != league.pk:
            raise AssistError(f"{league} has no such round.")
        sale = AssistSale.objects.create(
            league=league,
            item=item,
            entry=entry,
            round=round_,
            quantity=quantity,
            unit_cents=price_in_force(item, round_, now, later_price_from(league)),
            sold_by=actor,
            sold_at=now,
        )
        refresh_leagues([league.pk])  # the money raised is on the public leaderboard
        return sale


def sale_void(*, actor, sale: AssistSale, reason: str, now=None) -> AssistSale:
    """Take a sale back (a slip, a refund): kept, marked void with who, when and why."""
    now = now or timezone.now()
    reason = " ".join((reason or "").split())
    if not reason:
        raise AssistError("Say why the sale is voided: it stays in the ledger with the reason.")
    with transaction.atomic():
        league = lock_event(sale.league)
        require_scorer(actor, league, "record assists")
        sale = AssistSale.objects.select_for_update().get(pk=sale.pk)
        if sale.voided_at is not None:
            raise AssistError("That sale is already void.")
        sale.voided_at = now
        sale.voided_by = actor
        sale.void_reason = reason[:300]
        sale.save(update_fields=["voided_at", "voided_by", "void_reason"])
        refresh_leagues([league.pk])
        return sale
