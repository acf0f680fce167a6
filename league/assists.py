"""Assists sold for the charity at a team challenge (E5): recording a sale, voiding one, and the
ledger. Money is whole cents; a sale copies the price in force, so a later price change never
touches it; a sale is never edited, only voided with a reason; every total is a query over the
sales, never a counter kept on the side.

The price in force: the item's first price during the first round's first period, its later
price from the second period or round on (004: "prices … increase after the first round").
"""

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import F, Q, Sum
from django.utils import timezone

from accounts import roles
from core.errors import DomainError, NotAllowed

from .models import AssistItem, AssistSale, Entry, League, LeagueFormat, Round
from .refresh import refresh_leagues


class AssistError(DomainError):
    pass


def _lock(league: League) -> League:
    league = (
        League.objects.select_for_update(of=("self",))
        .select_related("season__institution")
        .get(pk=league.pk)
    )
    if league.format != LeagueFormat.EVENT:
        raise AssistError(f"{league} is not an event.")
    return league


def _require(actor, league: League) -> None:
    """The event's front desk, its director, and its volunteer scorers sell assists."""
    if actor is None or not roles.is_event_scorer_of(actor, league):
        raise NotAllowed("Only the event's staff and volunteers can record assists.")


def current_round(league: League) -> Round | None:
    """The round under way: the last paired one, else the first."""
    rounds = league.rounds.order_by("number")
    return rounds.filter(matches__isnull=False).order_by("-number").first() or rounds.first()


def later_price_from(league: League) -> datetime | None:
    """When the later prices start: the second period of round 1, else round 2's start."""
    rounds = list(league.rounds.order_by("number").prefetch_related("periods")[:2])
    if not rounds or league.event_date is None:
        return None
    tz = league.season.institution.tz
    first_periods = list(rounds[0].periods.all())
    if len(first_periods) > 1:
        return datetime.combine(league.event_date, first_periods[1].starts, tzinfo=tz)
    if len(rounds) > 1 and rounds[1].periods.all():
        return datetime.combine(league.event_date, rounds[1].periods.all()[0].starts, tzinfo=tz)
    return None


def price_in_force(item: AssistItem, round_: Round, now: datetime, later_from) -> int:
    if round_.number > 1 or (later_from is not None and now >= later_from):
        return item.later_cents
    return item.first_cents


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
        league = _lock(league)
        _require(actor, league)
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
        league = _lock(sale.league)
        _require(actor, league)
        sale = AssistSale.objects.select_for_update().get(pk=sale.pk)
        if sale.voided_at is not None:
            raise AssistError("That sale is already void.")
        sale.voided_at = now
        sale.voided_by = actor
        sale.void_reason = reason[:300]
        sale.save(update_fields=["voided_at", "voided_by", "void_reason"])
        refresh_leagues([league.pk])
        return sale


@dataclass
class Ledger:
    total_cents: int
    by_item: list[tuple[str, int, int]]  # (item, quantity, cents)
    by_team: list[tuple[str, int]]  # (team or "No team", cents), most first
    by_round: list[tuple[int, int]]  # (round number, cents)


LIVE = Q(voided_at__isnull=True)
CENTS = Sum(F("quantity") * F("unit_cents"))


def ledger(league: League) -> Ledger:
    """Money raised, by item, team and round: four aggregate queries, whatever the sales."""
    sales = AssistSale.objects.filter(LIVE, league=league)
    by_item = [
        (row["item__name"], row["sold"], row["cents"])
        for row in sales.values("item__name", "item__position")
        .annotate(sold=Sum("quantity"), cents=CENTS)
        .order_by("item__position", "item__name")
    ]
    by_team = [
        (row["entry__team__name"] or "No team", row["cents"])
        for row in sales.values("entry__team__name").annotate(cents=CENTS).order_by("-cents")
    ]
    by_round = [
        (row["round__number"], row["cents"])
        for row in sales.values("round__number").annotate(cents=CENTS).order_by("round__number")
    ]
    return Ledger(
        total_cents=sales.aggregate(cents=CENTS)["cents"] or 0,
        by_item=by_item,
        by_team=by_team,
        by_round=by_round,
    )


def money(cents: int) -> str:
    """12.5 dollars as "$12.50": whole cents in, never a float."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(int(cents)), 100)
    return f"{sign}${whole:,}.{part:02d}"
