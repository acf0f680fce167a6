"""A table's score card at an event (E3): final at once. Its front desk, its director and the
volunteers the director invited enter it; the card service checks that under the table's lock.
Where the players entered their own card (S1–S3), a typed card that agrees with their version
counts it, and one that differs from every version is a conflict only the director overrides."""

from django.db import transaction
from django.utils import timezone

from events.card_board import not_begun_words, round_begun
from events.rights import EventError, may_score
from events.services.card_settling import after_staff_card, pending_for_staff_card
from matches import services as match_services


class RoundNotBegun(EventError):
    """A card for a round whose time has not come: the scoring table asks once whether to
    enter it anyway (a card typed from paper comes after the game)."""


def card_enter(*, actor, match, now=None, before_start_confirmed: bool = False, **card):
    """``matches.services.card_enter`` with the event's scorers allowed (``rights.may_score``)
    and the players' own versions of the card taken into account. A card for a round that has
    not begun is refused unless `before_start_confirmed` ("enter this card anyway?")."""
    now = now or timezone.now()
    with transaction.atomic():
        match = match_services.lock(match)
        if not before_start_confirmed and not round_begun(match.league, match.round, now):
            raise RoundNotBegun(
                f"{not_begun_words(match.league, match.round)}: enter this card anyway?"
            )
        agreed = None
        if not match.is_final:
            agreed = pending_for_staff_card(
                match, card["scores"], overriding=bool((card.get("override_reason") or "").strip())
            )
        match = match_services.card_enter(
            actor=actor,
            match=match,
            may_enter=lambda user: may_score(user, match.league),
            now=now,
            **card,
        )
        after_staff_card(match, agreed, actor, now)
    return match
