"""Who acts on a league, for the services of every format: the lock on the league's row that
makes one change wait for another, and the director's or the front desk's right."""

from accounts import roles
from core.errors import DomainError, NotAllowed

from ..models import League


def lock_league(league: League, *, format: str | None = None, error=DomainError) -> League:
    """The league's row, locked for this transaction, with its season and institution; with
    `format`, refused (`error`) when the league is another format's."""
    locked = (
        League.objects.select_for_update(of=("self",))
        .select_related("season__institution")
        .get(pk=league.pk)
    )
    if format is not None and locked.format != format:
        raise error(f"{locked} is not {'an' if format[0] in 'aeiou' else 'a'} {format}.")
    return locked


def require_staff(
    actor, league: League, *, front_desk: bool = False, as_system: bool = False
) -> None:
    """The league's director; with `front_desk`, its front desk too. A command acts as the site
    (`as_system`), and only then may `actor` be None."""
    if actor is None:
        if as_system:
            return
        raise NotAllowed("Sign in first.")
    institution = league.season.institution
    if front_desk:
        if not roles.is_front_desk_of(actor, institution):
            raise NotAllowed(f"Only the staff of {league} can do that.")
    elif not roles.is_director_of(actor, institution):
        raise NotAllowed(f"Only the director of {league} can do that.")
