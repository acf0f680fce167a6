"""Which names a reader of a league's pages sees (privacy rules P1–P2, ``accounts.privacy``).

A page asks ``name_style(user, league)`` once and names every player with it, through
``PlayerProfile.name_in`` or the ``shown`` template filter (``core/templatetags/names.py``); a
page of a club or an event asks ``names_at``, which adds each entrant's player number: someone
shown by number is shown there by the number on their card, not the institution's:
- the league's staff (its institution's front desk and directors, site admins): names as given,
  withheld ones included (``STAFF``);
- members (signed in at the league's institution): full names, withheld students as numbers;
- everyone else: the league's public style (full, first name and last initial, or numbers).
"""

from dataclasses import dataclass, field

from accounts import privacy, roles

STAFF = ""  # no style: the name as given (``PlayerProfile.name``)


def is_member(user, institution_id: int) -> bool:
    """Signed in at this institution, or a site admin: reads names as members do (P1)."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    profile = getattr(user, "profile", None)
    return profile is not None and profile.institution_id == institution_id


def name_style(user, league) -> str:
    institution = league.season.institution
    if roles.is_front_desk_of(user, institution):
        return STAFF
    if is_member(user, institution.pk):  # site admins were staff above
        return privacy.FULL
    return league.names_in_public


@dataclass(frozen=True)
class NamesAt:
    """How a page of a club or an event names its entrants: the reader's style, and each
    entrant's player number there (profile id -> number), which they go by when shown by number
    (P2). The ``shown`` filter takes it where a page of a league takes the style alone."""

    style: str
    numbers: dict[int, int] = field(default_factory=dict)

    def of(self, player) -> str:
        return player.name_in(self.style, self.numbers.get(player.pk))


def names_at(user, league, numbers: dict[int, int]) -> NamesAt:
    """`numbers`: the league's entrants' player numbers by profile id (the page has read its
    entries already)."""
    return NamesAt(name_style(user, league), numbers)
