"""Which names a reader of a league's pages sees (privacy rules P1–P2): ``name_style``, from
``accounts.naming`` (the one path every name takes to a reader), and for the pages of a club or
an event, ``NamesAt``.

A page asks ``name_style(user, league)`` once and names every player with it, through
``PlayerProfile.name_in`` or the ``shown`` template filter (``core/templatetags/names.py``); a
page of a club or an event names through ``NamesAt``, which adds each entrant's player number: someone
shown by number is shown there by the number on their card, not the institution's.
"""

from dataclasses import dataclass, field

from accounts.naming import STAFF, is_member, name_style

__all__ = ["STAFF", "NamesAt", "is_member", "name_style"]


@dataclass(frozen=True)
class NamesAt:
    """How a page of a club or an event names its entrants: the reader's style, and each
    entrant's player number there (profile id -> number), which they go by when shown by number
    (P2). The ``shown`` filter takes it where a page of a league takes the style alone."""

    style: str
    numbers: dict[int, int] = field(default_factory=dict)

    def of(self, player) -> str:
        return player.name_in(self.style, self.numbers.get(player.pk))
