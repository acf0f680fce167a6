"""An event's entrants file (the Public contract's `import_entrants`, E3): read the CSV, report
bad rows by line, and save the good ones through ``events.entrant_save``.

Columns: `name` (required), `category` (matched ignoring case; empty = the first), `team`
(created on first mention), `player_number` (empty = the next free number, in file order),
`email`, `campus_id` (links the student with that campus ID). A person already entered (same
player number, else e-mail, else campus ID, else the league's only entrant with that name) is
updated, not duplicated; two rows with the same name and nothing else to tell them apart are
refused by line, and one person on two lines (by one key or two) keeps the first, the later
refused. The same file twice changes nothing: `created=0 updated=0`."""

from events.services.entrants import EntrantDetails, clean_details, entrant_save, existing_entry
from league.entrants_file import (
    EntrantsFileError,
    EntrantsRejected,
    EntrantsResult,
    import_rows,
    read_rows,
)
from league.models import League

COLUMNS = ("name", "category", "team", "player_number", "email", "campus_id")
MAX_BYTES = 5 * 1024 * 1024  # some 60,000 entrants: far beyond any event

__all__ = ["EntrantsFileError", "EntrantsRejected", "EntrantsResult", "entrants_import"]


def _details(values: dict) -> EntrantDetails:
    return EntrantDetails(
        name=values.get("name", ""),
        category=values.get("category", ""),
        team=values.get("team", ""),
        player_number=values["player_number"],
        email=values.get("email", ""),
        campus_id=values.get("campus_id", ""),
    )


def parse_entrants(data: bytes) -> tuple[list[tuple[int, EntrantDetails]], list[tuple[int, str]]]:
    """Rows by line number, and the lines refused with the reason."""
    return read_rows(data, columns=COLUMNS, max_bytes=MAX_BYTES, build=_details)


def entrants_import(
    *, actor, league: League, data: bytes, strict: bool = False, as_system: bool = False
) -> EntrantsResult:
    """Save every good row (each on its own: a refused row changes nothing); with `strict`,
    any bad row refuses the whole file."""
    rows, rejected = parse_entrants(data)

    def find(details: EntrantDetails):
        return existing_entry(league, clean_details(details))

    def save(details: EntrantDetails):
        return entrant_save(
            actor=actor, league=league, details=details, as_system=as_system, refresh=False
        )

    return import_rows(
        league=league, rows=rows, rejected=rejected, find=find, save=save, strict=strict
    )
