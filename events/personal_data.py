"""An entrant's and a volunteer's own rows of events for their download (``league.personal_data``,
issue 31, P6): the format registry's ``personal_data`` hook."""

from django.db.models import F, Q

from events.models import AssistSale, CardConfirmation, Entrant, EventScorer, TableCard


def personal_rows(user, profile, when) -> dict:
    """A person's own rows of events for their download (``league.personal_data``, issue 31):
    their category and team at each event, the assists sold to them (E5), and the invitations
    to score (to their account or their address), the table cards they entered or confirmed.
    Five queries; `when` writes a time."""
    return {
        "event_entries": [
            {"event": event, "category": category, "team": team}
            for event, category, team in Entrant.objects.filter(entry__player=profile)
            .order_by("entry__joined_at", "pk")
            .values_list("entry__league__name", "category__name", "team__name")
        ],
        "assists_bought": [
            {
                **row,
                "sold_at": when(row["sold_at"]),
                "voided_at": when(row["voided_at"]),
            }
            for row in AssistSale.objects.filter(entry__player=profile)
            .order_by("sold_at", "pk")
            .values(
                "quantity",
                "unit_cents",
                "sold_at",
                "voided_at",
                "void_reason",
                event=F("league__name"),
                assist=F("item__name"),
                round_number=F("round__number"),
            )
        ],
        "volunteer_invitations": [
            {
                "event": row["league__name"],
                "name": row["name"],
                "email": row["email"],
                "invited_at": when(row["created_at"]),
            }
            for row in EventScorer.objects.filter(Q(user=user) | Q(email__iexact=user.email))
            .order_by("created_at", "pk")
            .values("league__name", "name", "email", "created_at")
        ],
        # The cards they entered or confirmed at their tables by their login (S1, S2).
        "table_cards_entered": [
            {**row, "entered_at": when(row.pop("entered_at"))}
            for row in TableCard.objects.filter(entered_by=user)
            .order_by("entered_at", "pk")
            .values(
                "scores",
                "ended_by",
                "state",
                "entered_at",
                event=F("match__league__name"),
                round_number=F("match__round__number"),
                table=F("match__table"),
            )
        ],
        "table_cards_confirmed": [
            {**row, "at": when(row.pop("at"))}
            for row in CardConfirmation.objects.filter(user=user)
            .order_by("at", "pk")
            .values(
                "at",
                scores=F("card__scores"),
                event=F("card__match__league__name"),
                round_number=F("card__match__round__number"),
                table=F("card__match__table"),
            )
        ],
    }
