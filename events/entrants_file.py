"""An event's entrants file (the Public contract's `import_entrants`, E3): read the CSV, report
bad rows by line, and save the good ones through ``events.entrant_save``.

Columns: `name` (required), `category` (matched ignoring case; empty = the first), `team`
(created on first mention), `player_number` (empty = the next free number, in file order),
`email`, `campus_id` (links the student with that campus ID). A person already entered (same
player number, else e-mail, else campus ID, else the league's only entrant with that name) is
updated, not duplicated; two rows with the same name and nothing else to tell them apart are
refused by line. The same file twice changes nothing: `created=0 updated=0`."""

from dataclasses import dataclass, field

from django.db import transaction

from core.errors import BadValue, DomainError, RowsRejected
from core.values import csv_rows, decoded, whole_number
from events.rights import PLAYER_NUMBER_MAX
from events.services.entrants import EntrantDetails, Saved, entrant_save
from league.models import League
from league.refresh import refresh_leagues

COLUMNS = ("name", "category", "team", "player_number", "email", "campus_id")
MAX_BYTES = 5 * 1024 * 1024  # some 60,000 entrants: far beyond any event


class EntrantsFileError(DomainError):
    pass


class EntrantsRejected(RowsRejected):
    """--strict: the file had bad rows, so nothing was saved."""


@dataclass
class EntrantsResult:
    entrants: int = 0
    created: int = 0
    updated: int = 0
    rejected: list[tuple[int, str]] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"entrants={self.entrants} created={self.created} updated={self.updated} "
            f"refused={len(self.rejected)}"
        )


def parse_entrants(data: bytes) -> tuple[list[tuple[int, EntrantDetails]], list[tuple[int, str]]]:
    """Rows by line number, and the lines refused with the reason."""
    if len(data) > MAX_BYTES:
        raise EntrantsFileError(f"the file is over {MAX_BYTES // (1024 * 1024)} MB.")
    try:
        records = csv_rows(decoded(data))
        header_line, header = next(records, (1, []))
        header = [name.strip().lower() for name in header]
        if "name" not in header:
            found = ", ".join(name for name in header if name) or "nothing"
            raise EntrantsFileError(
                f"line {header_line}: the header has no name column (found: {found}); name the "
                f"columns, e.g. {','.join(COLUMNS)}."
            )
        unknown = [name for name in header if name and name not in COLUMNS]
        if unknown:
            raise EntrantsFileError(
                f"line {header_line}: unknown columns {', '.join(unknown)} "
                f"(known: {', '.join(COLUMNS)})."
            )
        rows, rejected = [], []
        for line, cells in records:
            if len(cells) > len(header):
                rejected.append((line, f"more fields than the header's {len(header)}"))
                continue
            values = {key: value.strip() for key, value in zip(header, cells, strict=False) if key}
            row = _row(values)
            if isinstance(row, str):
                rejected.append((line, row))
            else:
                rows.append((line, row))
    except BadValue as error:
        raise EntrantsFileError(error.message) from None
    return _without_namesakes(rows, rejected)


def _without_namesakes(rows, rejected):
    """Rows with nothing but a name stand for the league's entrant of that name; two such rows
    of the same name in one file could be one person or two, so both are refused."""
    lines_of: dict[str, list[int]] = {}
    for line, details in rows:
        if details.player_number is None and not details.email and not details.campus_id:
            key = " ".join(details.name.split()).casefold()
            lines_of.setdefault(key, []).append(line)
    clashing = {}
    for lines in lines_of.values():
        if len(lines) > 1:
            for line in lines:
                clashing[line] = [other for other in lines if other != line]
    kept = []
    for line, details in rows:
        if line in clashing:
            others = ", ".join(map(str, clashing[line]))
            rejected.append(
                (
                    line,
                    f"{details.name} is also on line {others}: namesakes need a player number or "
                    "an e-mail to tell them apart",
                )
            )
        else:
            kept.append((line, details))
    return kept, rejected


def _row(values: dict[str, str]) -> EntrantDetails | str:
    """One row's entrant, or why it is refused."""
    if not values.get("name") and not values.get("campus_id"):
        return "the name is empty"
    number = values.get("player_number") or ""
    if number:
        try:
            number = whole_number(number, what="player_number", low=1, high=PLAYER_NUMBER_MAX)
        except BadValue as error:
            return error.message.removesuffix(".")
    return EntrantDetails(
        name=values.get("name", ""),
        category=values.get("category", ""),
        team=values.get("team", ""),
        player_number=number or None,
        email=values.get("email", ""),
        campus_id=values.get("campus_id", ""),
    )


def entrants_import(
    *, actor, league: League, data: bytes, strict: bool = False, as_system: bool = False
) -> EntrantsResult:
    """Save every good row (each on its own: a refused row changes nothing); with `strict`,
    any bad row refuses the whole file."""
    rows, rejected = parse_entrants(data)
    result = EntrantsResult(rejected=list(rejected))
    with transaction.atomic():
        for line, details in rows:
            try:
                with transaction.atomic():
                    _, saved = entrant_save(
                        actor=actor,
                        league=league,
                        details=details,
                        as_system=as_system,
                        refresh=False,
                    )
            except DomainError as error:
                result.rejected.append((line, error.message))
                continue
            result.entrants += 1
            result.created += saved == Saved.CREATED
            result.updated += saved == Saved.UPDATED
        result.rejected.sort()
        if result.entrants:
            refresh_leagues([league.pk])
        if strict and result.rejected:
            raise EntrantsRejected(
                f"{len(result.rejected)} bad rows: nothing was imported (--strict).",
                result.rejected,
            )
    return result
