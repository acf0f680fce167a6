"""An event's entrants (E3): who a row of a file, a walk-in or a student's entry is (a student by
campus ID or e-mail, else a guest where the event is open to guests), and saving them with their
category, team and player number."""

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone

from accounts.campus_ids import normalize_campus_id
from accounts.models import GUEST_NAME_MAX, PlayerProfile
from core.errors import NotAllowed
from core.values import shown
from events.models import Entrant, EventCategory, Team, event_of_league
from events.rights import (
    EMAIL_MAX,
    PLAYER_NUMBER_MAX,
    TEAM_NAME_MAX,
    EventError,
    lock_event,
    require,
)
from events.selectors import has_played
from events.services.door import check_in_entry
from events.services.slips import slip_mail
from league.models import Entry, League
from league.refresh import refresh_leagues
from league.services import enter, number_entries
from league.services.entrants import (
    entries_named,
    entry_found,
    guest_renamed,
    number_holder,
    person_to_enter,
)

# --- Entrants -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class EntrantDetails:
    """One entrant as staff type them or a CSV row gives them (import_entrants)."""

    name: str = ""
    category: str = ""
    team: str = ""
    player_number: int | None = None
    email: str = ""
    campus_id: str = ""


SAME_NAME_SHOWN = 20  # the entrants of one name the door offers to check in at most


def _category(league: League, name: str) -> EventCategory:
    categories = list(league.categories.order_by("position", "id"))
    if not categories:
        raise EventError(f"{league} has no categories.")
    if not name.strip():
        return categories[0]
    found = next((c for c in categories if c.name.casefold() == name.strip().casefold()), None)
    if found is None:
        raise EventError(
            f"No category {shown(name.strip())}: the categories are "
            f"{', '.join(c.name for c in categories)}."
        )
    return found


def _team(league: League, name: str, entry: Entry | None) -> Team | None:
    name = " ".join(name.split())
    if not name:
        return None
    team = Team.objects.filter(league=league, name__iexact=name).first()
    if team is None:
        return Team.objects.create(league=league, name=name)
    members = team.entrants.filter(entry__withdrawn_at__isnull=True)
    if entry is not None:
        members = members.exclude(entry=entry)
    team_size = event_of_league(league).team_size
    if team_size and members.count() >= team_size:
        raise EventError(f"{team.name} already has {team_size} members, the event's team size.")
    return team


def existing_entry(league: League, details: EntrantDetails) -> Entry | None:
    """The entry the (cleaned) details already name, if any; reads, never writes."""
    return entry_found(
        league,
        player_number=details.player_number,
        email=details.email,
        campus_id=details.campus_id,
        name=details.name,
        error=EventError,
    )


def _person(league: League, details: EntrantDetails) -> PlayerProfile:
    return person_to_enter(
        league,
        name=details.name,
        email=details.email,
        campus_id=details.campus_id,
        error=EventError,
    )


def clean_details(details: EntrantDetails) -> EntrantDetails:
    """Whitespace tidied, e-mail lower-cased and checked, the campus ID in its stored form."""
    name = " ".join((details.name or "").split())
    email = (details.email or "").strip().lower()
    if len(name) > GUEST_NAME_MAX:
        raise EventError(
            f"A name is at most {GUEST_NAME_MAX} characters ({len(name)} given): shorten it."
        )
    if len(email) > EMAIL_MAX:
        raise EventError(
            f"An e-mail address is at most {EMAIL_MAX} characters ({len(email)} given)."
        )
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise EventError(f"{email!r} is not an e-mail address.") from None
    team = " ".join((details.team or "").split())
    if len(team) > TEAM_NAME_MAX:
        raise EventError(
            f"A team's name is at most {TEAM_NAME_MAX} characters ({len(team)} given)."
        )
    number = details.player_number
    if number is not None and not 1 <= number <= PLAYER_NUMBER_MAX:
        raise EventError(f"Player number {number}: a whole number from 1 to {PLAYER_NUMBER_MAX}.")
    campus_id = normalize_campus_id(details.campus_id) if details.campus_id else ""
    return EntrantDetails(
        name=name,
        category=(details.category or "").strip(),
        team=team,
        player_number=number,
        email=email,
        campus_id=campus_id,
    )


class NameOnly:
    """What an entrant given by name alone (no number, e-mail or campus ID) is, when the event
    already has an entrant of that name: the same person (a file's row: the event's only
    entrant with that name), a question for the desk (a walk-in), or a namesake (the desk's
    answer: a new entrant)."""

    SAME = "same"
    ASK = "ask"
    NEW = "new"


class SameName(EventError):
    """A walk-in given by name alone has the name of entrants already in: the desk says whether
    they are one of them or a namesake. Nothing was saved."""

    def __init__(self, name: str, entries: list[Entry]):
        self.name, self.entries = name, entries
        super().__init__(f"{name} is already entered: the same person, or a namesake?")


def _by_name_alone(details: EntrantDetails) -> bool:
    return bool(
        details.name
        and details.player_number is None
        and not details.email
        and not details.campus_id
    )


class Saved:
    """What ``entrant_save`` did with the details it was given."""

    CREATED = "created"
    UPDATED = "updated"
    UNCHANGED = "unchanged"


def entrant_save(
    *,
    actor,
    league: League,
    details: EntrantDetails,
    check_in: bool = False,
    now=None,
    as_system: bool = False,
    refresh: bool = True,
    name_only: str = NameOnly.SAME,
) -> tuple[Entry, str]:
    """Add an entrant (a student by campus ID or e-mail, else a guest where the event is open to
    guests), or update the one already entered (same player number, else e-mail, else campus
    ID, else the only entrant with that name): category, team, number and a guest's name. The
    front desk or the director; with `check_in`, they are checked in at once (a walk-in).
    Details of a name alone that is already entered are read as `name_only` says (``NameOnly``:
    the door asks, raising ``SameName`` before anything is saved).
    Returns the entry and what was done (``Saved``): the same details twice change nothing."""
    details = clean_details(details)
    now = now or timezone.now()
    with transaction.atomic():
        league = lock_event(league)
        require(actor, league, staff=True, as_system=as_system)
        if name_only != NameOnly.SAME and _by_name_alone(details):
            entry = None  # a namesake, unless the desk is asked first
            if name_only == NameOnly.ASK:
                named = list(
                    entries_named(league, details.name).select_related("entrant__category")[
                        :SAME_NAME_SHOWN
                    ]
                )
                if named:
                    raise SameName(details.name, named)
        else:
            entry = existing_entry(league, details)
        created = entry is None
        changed = False
        category = _category(league, details.category)
        if entry is None:
            player = _person(league, details)
            entry = Entry.objects.filter(league=league, player=player).first()
            if entry is None or entry.withdrawn_at is not None:
                changed = entry is not None
                created = entry is None
                entry = enter(league, player, by_director=True, refresh=refresh)
            else:
                created = False
        elif entry.withdrawn_at is not None:
            entry = enter(league, entry.player, by_director=True, refresh=refresh)
            changed = True
        entrant = entrant_of(entry)
        wanted_team = " ".join(details.team.split())
        if (
            entrant.team_id
            and wanted_team
            and wanted_team.casefold() != entrant.team.name.casefold()
        ):
            raise EventError(
                f"{entry.player.name} is in team {entrant.team.name}: a player belongs to one team."
            )
        team = _team(league, details.team, entry) if details.team else entrant.team
        if details.player_number is not None and entry.player_number != details.player_number:
            taken = number_holder(league, details.player_number, besides=entry)
            if taken is not None:
                raise EventError(f"Player number {details.player_number} is {taken.player.name}'s.")
            if entry.player_number is not None and has_played(entry):
                raise EventError(
                    f"{entry.player.name} has played as number {entry.player_number}: "
                    "it stays theirs for the evening."
                )
            entry.player_number = details.player_number
            changed = True
        if entrant.category_id != category.pk or entrant.team_id != (team.pk if team else None):
            changed = True
            entrant.category, entrant.team = category, team
            entrant.save(update_fields=["category", "team"])
        entry.save(update_fields=["player_number"])
        changed = guest_renamed(entry.player, details.name) or changed
        if entry.player_number is None:
            number_entries(league)
            entry.refresh_from_db(fields=["player_number"])
        if check_in:
            check_in_entry(league, entry, actor, now)
        if entry.player_number is not None:
            slip_mail(entry, now)  # their own slip, to enter their cards with (S4)
        if refresh:  # the leaderboard lists every entrant; an import refreshes once at its end
            refresh_leagues([league.pk])
    if created:
        return entry, Saved.CREATED
    return entry, Saved.UPDATED if changed else Saved.UNCHANGED


def entrant_of(entry: Entry) -> Entrant:
    """The event's row of this entry (its category and team), made when missing."""
    entrant, _ = Entrant.objects.select_related("category", "team").get_or_create(entry=entry)
    return entrant


def event_join(*, actor, league: League, category: str = "") -> Entry:
    """A student enters the event online, like a league (L10 holds), in the category they
    choose (the first when none). Joining again changes their category before they play."""
    player = PlayerProfile.objects.filter(user=actor).select_related("institution", "user").first()
    if player is None or player.institution_id != league.season.institution_id:
        raise NotAllowed("Only students of the event's institution can enter it online.")
    with transaction.atomic():
        league = lock_event(league)
        chosen = _category(league, category)
        entry = Entry.objects.filter(league=league, player=player).first()
        if entry is None or entry.withdrawn_at is not None:
            entry = enter(league, player)
        elif has_played(entry):
            raise EventError(f"You are already in {league} and have played: ask the desk.")
        entrant = entrant_of(entry)
        entrant.category = chosen
        entrant.save(update_fields=["category"])
        entry.refresh_from_db(fields=["player_number"])
        if entry.player_number is not None:
            slip_mail(entry)  # their own slip, to enter their cards with (S4)
        refresh_leagues([league.pk])
        return entry
