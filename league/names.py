"""Which names a reader of a league's pages sees (privacy rules P1–P2, ``accounts.privacy``).

A page asks ``name_style(user, league)`` once and names every player with it, through
``PlayerProfile.name_in`` or the ``shown`` template filter (``core/templatetags/names.py``):
- the league's staff (its institution's front desk and directors, site admins): names as given,
  withheld ones included (``STAFF``);
- members (signed in at the league's institution): full names, withheld students as numbers;
- everyone else: the league's public style (full, first name and last initial, or numbers).
"""

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
