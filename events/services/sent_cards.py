"""A card a scoring table's page sent from its device (issue 52), counted once however often it
is sent. The page gives every typed card a key; the first send of a key claims it (an insert the
key's unique index lets through once: a second send racing it waits on the index until the first
commits, then reads its answer), enters the card inside the same transaction and keeps the
answer on the claim. Any later send of the key hears that answer and changes nothing."""

from collections.abc import Callable
from uuid import UUID

from django.db import transaction
from django.utils import timezone

from core.errors import DomainError
from events.models import SentCard
from events.rights import EventError, may_score


class CardRefused(EventError):
    """The card could not be entered as typed: its reason goes back to the page."""


def card_send(
    *,
    actor,
    round,
    key: UUID,
    device: str,
    typed_at,
    table: int,
    scores: list[int],
    enter: Callable,
    now=None,
) -> SentCard:
    """Enter a card sent by a device, once per key. `enter(now)` enters it (the card service,
    which checks the actor's rights and the table's seating under the table's lock) and
    returns the table; a refusal it raises is kept with the card. Returns the card's row with
    its outcome: counted, the same as the table already had, or refused with the reason."""
    now = now or timezone.now()
    with transaction.atomic():
        if not may_score(actor, round.league):
            raise EventError("Only the event's staff and scorers can enter its score cards.")
        SentCard.objects.bulk_create(
            [
                SentCard(
                    key=key,
                    round=round,
                    table=table,
                    sent_by=actor,
                    device=device,
                    scores=scores,
                    typed_at=typed_at,
                    arrived_at=now,
                )
            ],
            ignore_conflicts=True,
        )
        sent = SentCard.objects.select_for_update().get(key=key)
        if sent.sent_by_id != actor.pk or sent.round_id != round.pk:
            raise EventError("This card's key belongs to another card: type the card again.")
        if sent.outcome:
            return sent  # sent before: the same answer, nothing changed
        try:
            with transaction.atomic():
                match = enter(now)
        except DomainError as refusal:
            sent.outcome, sent.reason = SentCard.Outcome.REFUSED, refusal.message[:600]
        else:
            counted = match.finalised_at == now
            sent.outcome = SentCard.Outcome.COUNTED if counted else SentCard.Outcome.SAME
        sent.save(update_fields=["outcome", "reason"])
    return sent


def table_send(
    *,
    user,
    round,
    key: UUID,
    kind: str,
    device: str,
    typed_at,
    table: int,
    scores: list[int],
    act: Callable,
    now=None,
):
    """A table's card or a confirmation a player's phone kept offline and sent (issue 52),
    acted on once per key. `act(now)` is the table-card service (which proves the seat and
    locks the table) and returns the table's card; a refusal it raises is kept with the send,
    after any code attempt it kept. Returns the send's row and, on its first arrival, the
    card (None when the key was sent before: the same answer, nothing changed)."""
    now = now or timezone.now()
    sender = user if getattr(user, "is_authenticated", False) else None
    with transaction.atomic():
        SentCard.objects.bulk_create(
            [
                SentCard(
                    key=key,
                    kind=kind,
                    round=round,
                    table=table,
                    sent_by=sender,
                    device=device,
                    scores=scores,
                    typed_at=typed_at,
                    arrived_at=now,
                )
            ],
            ignore_conflicts=True,
        )
        sent = SentCard.objects.select_for_update().get(key=key)
        if (sent.kind, sent.round_id, sent.table, sent.sent_by_id) != (
            kind,
            round.pk,
            table,
            getattr(sender, "pk", None),
        ):
            raise EventError("This card's key belongs to another card: enter it again.")
        if sent.outcome:
            return sent, None  # sent before: the same answer, nothing changed
        card = None
        try:
            card = act(now)
        except DomainError as refusal:
            sent.outcome, sent.reason = SentCard.Outcome.REFUSED, str(refusal.message)[:600]
        else:
            counted = card.state == card.State.COUNTED
            sent.outcome = SentCard.Outcome.COUNTED if counted else SentCard.Outcome.SAVED
        sent.save(update_fields=["outcome", "reason"])
    return sent, card
