"""A club's member list (E4), imported as an event's entrants are (the Public contract's
`import_entrants`): columns `name`, `player_number`, `email`, `campus_id`. Students come by
campus ID (or their e-mail); anyone else is a guest, where the club is open to visitors. A
member already in (same player number, else e-mail, else campus ID, else the club's only member
with that name) is updated, not doubled, so the same list twice changes nothing; one member on
two lines keeps the first, the later refused (league.entrants_file)."""

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction

from accounts.campus_ids import normalize_campus_id
from accounts.models import GUEST_NAME_MAX
from league.entrants_file import (
    PLAYER_NUMBER_MAX,
    EntrantsResult,
    import_rows,
    read_rows,
)
from league.models import Entry, League, LeagueFormat
from league.services import enter, lock_league, number_entries, require_staff
from league.services.entrants import entry_found, guest_renamed, number_holder, person_to_enter

from .services import ClubError

COLUMNS = ("name", "player_number", "email", "campus_id")
MAX_BYTES = 2 * 1024 * 1024  # some 25,000 members: far beyond any club


@dataclass(frozen=True)
class MemberDetails:
    name: str = ""
    player_number: int | None = None
    email: str = ""
    campus_id: str = ""


def _clean(details: MemberDetails) -> MemberDetails:
    name = " ".join((details.name or "").split())
    email = (details.email or "").strip().lower()
    if len(name) > GUEST_NAME_MAX:
        raise ClubError(
            f"A name is at most {GUEST_NAME_MAX} characters ({len(name)} given): shorten it."
        )
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise ClubError(f"{email!r} is not an e-mail address.") from None
    number = details.player_number
    if number is not None and not 1 <= number <= PLAYER_NUMBER_MAX:
        raise ClubError(f"Player number {number}: a whole number from 1 to {PLAYER_NUMBER_MAX}.")
    campus_id = normalize_campus_id(details.campus_id) if details.campus_id else ""
    return MemberDetails(name=name, player_number=number, email=email, campus_id=campus_id)


def _member_found(league: League, details: MemberDetails) -> Entry | None:
    """The club's entry the (cleaned) details already name, if any; reads, never writes."""
    return entry_found(
        league,
        player_number=details.player_number,
        email=details.email,
        campus_id=details.campus_id,
        name=details.name,
        error=ClubError,
    )


def member_save(
    *, actor, league: League, details: MemberDetails, as_system: bool = False
) -> tuple[Entry, str]:
    """Add a member to the club, or update the one already in (their player number, a guest's
    name). The club's director or front desk; returns the entry and "created", "updated" or
    "unchanged"."""
    details = _clean(details)
    with transaction.atomic():
        league = lock_league(league, format=LeagueFormat.CLUB, error=ClubError)
        require_staff(actor, league, front_desk=True, as_system=as_system)
        entry = _member_found(league, details)
        created = changed = False
        if entry is None:
            player = person_to_enter(
                league,
                name=details.name,
                email=details.email,
                campus_id=details.campus_id,
                error=ClubError,
            )
            entry = Entry.objects.filter(league=league, player=player).first()
            created = entry is None
            changed = entry is not None and entry.withdrawn_at is not None
            if created or changed:
                entry = enter(league, player, by_director=True, refresh=False)
        elif entry.withdrawn_at is not None:
            entry = enter(league, entry.player, by_director=True, refresh=False)
            changed = True
        if details.player_number is not None and entry.player_number != details.player_number:
            taken = number_holder(league, details.player_number, besides=entry)
            if taken is not None:
                raise ClubError(f"Player number {details.player_number} is {taken.player.name}'s.")
            entry.player_number = details.player_number
            entry.save(update_fields=["player_number"])
            changed = True
        changed = guest_renamed(entry.player, details.name) or changed
        if entry.player_number is None:
            number_entries(league)
            entry.refresh_from_db(fields=["player_number"])
    return entry, "created" if created else "updated" if changed else "unchanged"


def _details(values: dict) -> MemberDetails:
    return MemberDetails(
        name=values.get("name", ""),
        player_number=values["player_number"],
        email=values.get("email", ""),
        campus_id=values.get("campus_id", ""),
    )


def members_import(
    *, actor, league: League, data: bytes, strict: bool = False, as_system: bool = False
) -> EntrantsResult:
    """Every good row of the member list saved on its own (a refused row changes nothing);
    with `strict`, any bad row refuses the whole file."""
    rows, rejected = read_rows(data, columns=COLUMNS, max_bytes=MAX_BYTES, build=_details)

    def find(details: MemberDetails):
        return _member_found(league, _clean(details))

    def save(details: MemberDetails):
        return member_save(actor=actor, league=league, details=details, as_system=as_system)

    return import_rows(
        league=league, rows=rows, rejected=rejected, find=find, save=save, strict=strict
    )
