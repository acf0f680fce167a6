"""Reading a file of known ratings (R5): plain data in, plain data out, no database.

A header line names the columns: `rating` is required (also `naspa_rating`), and a `campus_id`
column (the roster's names for it) or an `email` column, or both: on a line with both, the
campus ID decides. `deviation` (also `rd`) is optional. Other columns are ignored. A problem
with the file as a whole raises RosterFileError naming the line; a problem with one line
refuses that line with its number and the reason, as the roster does. A key already on an
earlier line refuses the later line (the first stands); the same player under the other key is
found once the keys are looked up (ratings.imports)."""

import csv
import io
import re
from dataclasses import dataclass, field

from accounts.campus_ids import normalize_campus_id
from accounts.errors import RosterFileError
from accounts.roster import CAMPUS_ID_HEADERS, EMAIL_MAX_LENGTH, csv_lines

LOWEST, HIGHEST = 100, 3000  # NASPA's ratings run from about 300 to about 2300
# An imported rating is a settled one unless the file says how unsure it is (ours): NASPA's
# ratings come from many rated games; 100 is well below the provisional line (175).
IMPORTED_DEVIATION = 100.0
LOWEST_DEVIATION, HIGHEST_DEVIATION = 30, 350
HEADERS = {
    "rating": "rating",
    "naspa_rating": "rating",
    "deviation": "deviation",
    "rd": "deviation",
    "email": "email",
    "e_mail": "email",
    "email_address": "email",
    **{name: "campus_id" for name in CAMPUS_ID_HEADERS},
}
MAX_BYTES = 5 * 1024 * 1024


@dataclass(frozen=True)
class RatingRow:
    line: int
    campus_id: str  # normalised; "" where the line names the player by e-mail
    email: str  # lower case
    rating: float
    deviation: float


@dataclass
class ParsedRatings:
    rows: list[RatingRow] = field(default_factory=list)
    refused: list[tuple[int, str]] = field(default_factory=list)


def _column(name: str) -> str:
    key = re.sub(r"[\s\-.]+", "_", name.strip().lower()).strip("_")
    return HEADERS.get(key, "")


def _number(text: str, what: str, low: float, high: float) -> float:
    try:
        value = float(text.replace(",", ""))
    except ValueError:
        raise ValueError(f"{what} {text!r} is not a number") from None
    if not low <= value <= high:
        raise ValueError(f"{what} {text} is outside {low}–{high}")
    return value


def parse_ratings(text: str) -> ParsedRatings:
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise RosterFileError("the file contains a NUL byte: it is not a CSV text file.", line=line)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, None)
    except csv.Error as error:
        raise RosterFileError(f"not readable as CSV ({error}).", line=reader.line_num) from None
    if header is None:
        raise RosterFileError("The file is empty: it needs a header line and one row a player.")
    columns = [_column(name) for name in header]
    found = ", ".join(name for name in header if name.strip()) or "nothing"
    for needed in ("rating",):
        if columns.count(needed) != 1:
            raise RosterFileError(
                f"the header needs one {needed} column (found: {found}); "
                "for example campus_id,rating or email,rating.",
                line=reader.line_num,
            )
    if "campus_id" not in columns and "email" not in columns:
        raise RosterFileError(
            f"the header has neither a campus_id nor an email column (found: {found}).",
            line=reader.line_num,
        )
    where = {name: columns.index(name) for name in set(columns) - {""}}
    parsed, seen = ParsedRatings(), {}
    for line, cells, problem in csv_lines(reader, len(header)):
        if problem:
            parsed.refused.append((line, problem))
            continue
        try:
            row = _row(line, {name: cells[index].strip() for name, index in where.items()})
        except ValueError as refusal:
            parsed.refused.append((line, str(refusal)))
            continue
        who = f"campus ID {row.campus_id}" if row.campus_id else f"e-mail {row.email}"
        if who in seen:
            parsed.refused.append((line, f"{who} is already on line {seen[who]}"))
            continue
        seen[who] = line
        parsed.rows.append(row)
    return parsed


def _row(line: int, values: dict[str, str]) -> RatingRow:
    campus_id = normalize_campus_id(values.get("campus_id", ""))
    email = values.get("email", "").lower()
    if not campus_id and not email:
        raise ValueError("the line has neither a campus ID nor an e-mail address")
    if not campus_id and (
        len(email) > EMAIL_MAX_LENGTH or not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", email)
    ):
        raise ValueError(f"e-mail {email!r} is not an e-mail address")
    rating = _number(values["rating"], "rating", LOWEST, HIGHEST)
    deviation = values.get("deviation", "")
    return RatingRow(
        line=line,
        campus_id=campus_id,
        email="" if campus_id else email,
        rating=rating,
        deviation=(
            _number(deviation, "deviation", LOWEST_DEVIATION, HIGHEST_DEVIATION)
            if deviation
            else IMPORTED_DEVIATION
        ),
    )
