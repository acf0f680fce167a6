"""An entrants file, whatever the format (the Public contract's `import_entrants`): read the
CSV, refuse bad rows by line, and save the good ones one at a time through the format's own
saver. An event's file (E3) has categories and teams; a club's member list (E4) has neither.

Rows with nothing but a name stand for the league's entrant of that name, so the same file
twice changes nothing; two such rows with one name could be one person or two, so both are
refused by line. One person named twice is refused on the later line, the first standing: by the
same player number, e-mail or campus ID as it is read, and by two keys of one person (a campus ID
on one line, the same student's e-mail on another) as it is saved."""

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import transaction

from accounts.campus_ids import normalize_campus_id
from core.errors import BadValue, DomainError, RowsRejected
from core.values import csv_rows, decoded, whole_number
from league.models import League
from league.refresh import refresh_leagues

PLAYER_NUMBER_MAX = 99999


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


def read_rows(
    data: bytes, *, columns: tuple[str, ...], max_bytes: int, build: Callable
) -> tuple[list[tuple[int, object]], list[tuple[int, str]]]:
    """The file's rows by line number, each made by `build(values)` from its cells by column
    (the player number already a whole number), and the lines refused with the reason. A
    header without a `name` column, or with a column not in `columns`, refuses the file."""
    if len(data) > max_bytes:
        raise EntrantsFileError(f"the file is over {max_bytes // (1024 * 1024)} MB.")
    try:
        records = csv_rows(decoded(data))
        header_line, header = next(records, (1, []))
        header = [name.strip().lower() for name in header]
        if "name" not in header:
            found = ", ".join(name for name in header if name) or "nothing"
            raise EntrantsFileError(
                f"line {header_line}: the header has no name column (found: {found}); name the "
                f"columns, e.g. {','.join(columns)}."
            )
        unknown = [name for name in header if name and name not in columns]
        if unknown:
            raise EntrantsFileError(
                f"line {header_line}: unknown columns {', '.join(unknown)} "
                f"(known: {', '.join(columns)})."
            )
        rows, rejected = [], []
        for line, cells in records:
            if len(cells) > len(header):
                rejected.append((line, f"more fields than the header's {len(header)}"))
                continue
            values = {key: value.strip() for key, value in zip(header, cells, strict=False) if key}
            row = _row(values, build)
            if isinstance(row, str):
                rejected.append((line, row))
            else:
                rows.append((line, row))
    except BadValue as error:
        raise EntrantsFileError(error.message) from None
    return _without_repeated_keys(*_without_namesakes(rows, rejected))


def _row(values: dict[str, str], build: Callable):
    """One row's entrant, or why it is refused."""
    if not values.get("name") and not values.get("campus_id"):
        return "the name is empty"
    number = values.get("player_number") or ""
    if number:
        try:
            number = whole_number(number, what="player_number", low=1, high=PLAYER_NUMBER_MAX)
        except BadValue as error:
            return error.message.removesuffix(".")
    return build({**values, "player_number": number or None})


def _without_namesakes(rows, rejected):
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


def _without_repeated_keys(rows, rejected):
    """A player number, e-mail or campus ID already on a kept line names that line's person
    again: the later line is refused, whatever else it says."""
    line_of: dict[tuple[str, object], int] = {}
    kept = []
    for line, details in rows:
        keys = [
            ("player number", details.player_number),
            ("e-mail", (details.email or "").lower()),
            ("campus ID", normalize_campus_id(details.campus_id)),
        ]
        keys = [key for key in keys if key[1]]
        repeated = next((key for key in keys if key in line_of), None)
        if repeated is not None:
            what, value = repeated
            shown = details.email if what == "e-mail" else value
            rejected.append((line, f"{what} {shown} is already on line {line_of[repeated]}"))
            continue
        line_of.update(dict.fromkeys(keys, line))
        kept.append((line, details))
    return kept, rejected


def import_rows(
    *, league: League, rows, rejected, find: Callable, save: Callable, strict: bool = False
) -> EntrantsResult:
    """Save every good row with `save(details) -> (entry, "created" | "updated" |
    "unchanged")`, each on its own (a refused row changes nothing). A row whose person an
    earlier row saved (by another key: a campus ID, then the same student's e-mail) is refused:
    before saving when `find(details)`, the league's entry the row already names, says so, and
    undone when only the save tells. With `strict`, any bad row refuses the file."""
    result = EntrantsResult(rejected=list(rejected))
    first_of_entry: dict[int, tuple[int, str]] = {}  # entry id: (line, the person's name)
    with transaction.atomic():
        for line, details in rows:
            try:
                with transaction.atomic():
                    # Found first, so the reason is this and not what the save would trip on
                    # (the first line's team, say).
                    entry = find(details)
                    if entry is None or entry.pk not in first_of_entry:
                        entry, saved = save(details)
                    if entry.pk in first_of_entry:
                        first, name = first_of_entry[entry.pk]
                        raise DomainError(f"{name} is already on line {first}")
            except DomainError as error:
                result.rejected.append((line, error.message))
                continue
            first_of_entry[entry.pk] = (line, entry.player.name)
            result.entrants += 1
            result.created += saved == "created"
            result.updated += saved == "updated"
        result.rejected.sort()
        if result.entrants:
            refresh_leagues([league.pk])
        if strict and result.rejected:
            raise EntrantsRejected(
                f"{len(result.rejected)} bad rows: nothing was imported (--strict).",
                result.rejected,
            )
    return result
