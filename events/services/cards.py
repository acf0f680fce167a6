"""A table's score card at an event (E3): final at once. Its front desk, its director and the
volunteers the director invited enter it; the card service checks that under the table's lock."""

from events.rights import may_score
from matches import services as match_services


def card_enter(*, actor, match, **card):
    """``matches.services.card_enter`` with the event's scorers allowed (``rights.may_score``)."""
    return match_services.card_enter(
        actor=actor, match=match, may_enter=lambda user: may_score(user, match.league), **card
    )
