"""Who may do what at an event (E3): the locks and rights every event service starts with."""

from accounts import roles
from accounts.models import PlayerProfile
from core.errors import DomainError, NotAllowed
from events.models import Team, event_of_league
from league.entrants_file import PLAYER_NUMBER_MAX as PLAYER_NUMBER_MAX
from league.models import League, LeagueFormat
from league.services import lock_league, require_staff


class EventError(DomainError):
    pass


# The columns' lengths: longer would fail the insert (PlayerProfile.email, Team.name); the
# player number's bound is every format's (league.entrants_file).
EMAIL_MAX = PlayerProfile._meta.get_field("email").max_length
TEAM_NAME_MAX = Team._meta.get_field("name").max_length


# --- Locks and rights ---------------------------------------------------------------------------


def lock_event(league: League) -> League:
    """The event's row, locked: a check-in, a pairing and a swap of one event happen one after
    another."""
    return lock_league(league, format=LeagueFormat.EVENT, error=EventError)


def require(actor, league: League, *, staff: bool = False, as_system: bool = False) -> None:
    """The director; with `staff`, the front desk too (check-in, walk-ins)."""
    require_staff(actor, league, front_desk=staff, as_system=as_system)


def may_score(user, league: League) -> bool:
    """May enter an event's score cards (E3): its institution's front desk and directors, and
    the volunteers the director invited to this event, until the day after it."""
    if roles.is_front_desk_of(user, league.season.institution):
        return True
    if not user.is_authenticated or event_of_league(league).date is None:
        return False
    if (league.season.institution.today() - event_of_league(league).date).days > 1:
        return False
    return league.scorers.filter(user=user).exists()


def require_scorer(actor, league: League, what: str) -> None:
    """The event's front desk, its director and its volunteer scorers: they enter cards and
    sell assists."""
    if actor is None or not may_score(actor, league):
        raise NotAllowed(f"Only the event's staff and volunteers can {what}.")
