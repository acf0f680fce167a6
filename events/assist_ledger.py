"""Reading an event's assists (E5): the round under way, the price in force, and the ledger of
money raised."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import F, Q, Sum

from events.models import AssistItem, AssistSale, event_of_league
from league.models import League, Round


def current_round(league: League) -> Round | None:
    """The round under way: the last paired one, else the first."""
    rounds = league.rounds.order_by("number")
    return rounds.filter(matches__isnull=False).order_by("-number").first() or rounds.first()


def later_price_from(league: League) -> datetime | None:
    """When the later prices start: the second period of round 1, else round 2's start."""
    rounds = list(league.rounds.order_by("number").prefetch_related("periods")[:2])
    if not rounds or event_of_league(league).date is None:
        return None
    tz = league.season.institution.tz
    first_periods = list(rounds[0].periods.all())
    if len(first_periods) > 1:
        return datetime.combine(rounds[0].play_by, first_periods[1].starts, tzinfo=tz)
    if len(rounds) > 1 and rounds[1].periods.all():
        return datetime.combine(rounds[1].play_by, rounds[1].periods.all()[0].starts, tzinfo=tz)
    return None


def price_in_force(item: AssistItem, round_: Round, now: datetime, later_from) -> int:
    if round_.number > 1 or (later_from is not None and now >= later_from):
        return item.later_cents
    return item.first_cents


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
        (row["entry__entrant__team__name"] or "No team", row["cents"])
        for row in sales.values("entry__entrant__team__name")
        .annotate(cents=CENTS)
        .order_by("-cents")
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
