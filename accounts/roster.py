"""Reading the registrar's roster CSV: plain data in, plain data out, no database.

A roster has a header line naming its columns. `campus_id` (or `student_id`, `campus id`, `id`)
is required; `first_name`, `last_name` and `email` are kept when present; `withhold` (or
`directory_opt_out`, `ferpa_hold`, `confidential`: yes/no, y/n, true/false, 1/0, x or empty) says
the student withholds their directory information (P2); other columns are ignored. A problem with the file as a whole raises RosterFileError naming the line; a problem
with one row rejects that row with its line number and reason. A student named twice (the same
campus ID, or the same e-mail under another campus ID) keeps the first line; the later one is
rejected as already on that line.
"""

import codecs
import csv
import io
import re
from dataclasses import dataclass, field

from .campus_ids import campus_id_fits, normalize_campus_id
from .errors import RosterFileError

CAMPUS_ID_HEADERS = {"campus_id", "student_id", "campusid", "studentid", "id", "campus_id_number"}
OPTIONAL_HEADERS = {"first_name", "last_name", "email", "withhold"}
YES = {"yes", "y", "true", "1", "x"}
NO = {"no", "n", "false", "0", ""}
HEADER_ALIASES = {
    "withhold_name": "withhold",
    "withheld": "withhold",
    "directory_opt_out": "withhold",
    "directory_hold": "withhold",
    "ferpa": "withhold",
    "ferpa_hold": "withhold",
    "confidential": "withhold",
    "no_release": "withhold",
    "first": "first_name",
    "firstname": "first_name",
    "given_name": "first_name",
    "last": "last_name",
    "lastname": "last_name",
    "surname": "last_name",
    "family_name": "last_name",
    "e_mail": "email",
    "email_address": "email",
}
MAX_BYTES = 50 * 1024 * 1024
# Codecs Python knows that are no file's character set: they read Python string escapes or
# internationalised domain names, or refuse everything ("undefined").
NOT_FILE_ENCODINGS = {"undefined", "punycode", "idna", "unicode-escape", "raw-unicode-escape"}
# RosterEntry.email's length (an EmailField, as RFC 5321 allows): longer would fail the insert.
EMAIL_MAX_LENGTH = 254


@dataclass(frozen=True)
class RosterRow:
    line: int
    campus_id: str
    first_name: str = ""
    last_name: str = ""
    email: str = ""
    withholds_name: bool | None = None  # None: the file has no withhold column


@dataclass
class ParsedRoster:
    rows: list[RosterRow] = field(default_factory=list)
    rejected: list[tuple[int, str]] = field(default_factory=list)


def _normalise_header(name: str) -> str:
    key = re.sub(r"[\s\-.]+", "_", name.strip().lower()).strip("_")
    return HEADER_ALIASES.get(key, key)


def decode_roster(data: bytes, encoding: str = "utf-8") -> str:
    if len(data) > MAX_BYTES:
        raise RosterFileError(f"The file is larger than {MAX_BYTES // (1024 * 1024)} MB.")
    try:
        codec = codecs.lookup(encoding).name
    except (LookupError, ValueError):  # ValueError: a name with a NUL in it
        raise RosterFileError(f"{encoding!r} is not an encoding Python knows.") from None
    if codec in NOT_FILE_ENCODINGS:
        raise RosterFileError(
            f"{encoding!r} is not an encoding files are saved in: use utf-8, or the one the "
            "registrar names (for example latin-1)."
        )
    if codec == "utf-8":
        codec = "utf-8-sig"  # Excel's "CSV UTF-8" starts with a byte-order mark.
    try:
        return data.decode(codec)
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise RosterFileError(
            f"this is not {encoding.removesuffix('-sig').upper()} text (byte {data[error.start]:#04x}). "
            "Save the roster as CSV UTF-8, or name its encoding (for example latin-1).",
            line=line,
        ) from None
    except LookupError:  # a codec that is not for text, such as rot13 or base64
        raise RosterFileError(f"{encoding!r} is not a text encoding.") from None
    except (UnicodeError, ValueError) as error:  # whatever else a codec may raise
        raise RosterFileError(f"the file cannot be read as {encoding} ({error}).") from None


def csv_lines(reader, width: int):
    """A CSV file's lines after its header as (line number, cells, problem), blank lines left
    out: a line that cannot be read as CSV stops the file (RosterFileError naming it); a line of
    another width than the header's comes with its problem ("" when none). The roster's and
    every other file read by line (ratings.rating_file) read it so."""
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise RosterFileError(f"not readable as CSV ({error}).", line=reader.line_num) from None
        if not any(cell.strip() for cell in cells):
            continue
        problem = ""
        if len(cells) != width:
            problem = f"expected {width} fields as in the header, found {len(cells)}"
        yield reader.line_num, cells, problem


def parse_roster(text: str, campus_id_pattern: str, campus_id_hint: str = "") -> ParsedRoster:
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise RosterFileError("the file contains a NUL byte: it is not a CSV text file.", line=line)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, None)
        while header is not None and not any(cell.strip() for cell in header):
            header = next(reader, None)
    except csv.Error as error:
        raise RosterFileError(f"not readable as CSV ({error}).", line=reader.line_num) from None
    if header is None:
        raise RosterFileError(
            "The roster is empty: it needs a header line and one row per student."
        )
    header_line = reader.line_num
    columns = [_normalise_header(name) for name in header]
    id_columns = [i for i, name in enumerate(columns) if name in CAMPUS_ID_HEADERS]
    if not id_columns:
        found = ", ".join(name for name in header if name.strip()) or "nothing"
        raise RosterFileError(
            f"the header has no campus_id column (found: {found}). "
            "The first line must name the columns, e.g. campus_id,first_name,last_name,email.",
            line=header_line,
        )
    if len(id_columns) > 1:
        raise RosterFileError("the header names more than one campus ID column.", line=header_line)
    id_index = id_columns[0]
    optional = {name: columns.index(name) for name in OPTIONAL_HEADERS if name in columns}

    parsed = ParsedRoster()
    first_seen: dict[str, int] = {}  # by campus ID
    line_of_email: dict[str, int] = {}  # by the address ignoring case
    for line, cells, problem in csv_lines(reader, len(header)):
        if problem:
            parsed.rejected.append((line, problem))
            continue
        campus_id = normalize_campus_id(cells[id_index])
        if not campus_id:
            parsed.rejected.append((line, "the campus ID is empty"))
            continue
        if not campus_id_fits(campus_id, campus_id_pattern):
            shape = f" ({campus_id_hint})" if campus_id_hint else ""
            parsed.rejected.append(
                (line, f"campus ID {campus_id!r} is not in the institution's format{shape}")
            )
            continue
        if campus_id in first_seen:
            parsed.rejected.append(
                (line, f"campus ID {campus_id} is already on line {first_seen[campus_id]}")
            )
            continue
        values = {name: cells[index].strip() for name, index in optional.items()}
        email = values.get("email", "")
        if len(email) > EMAIL_MAX_LENGTH:
            parsed.rejected.append(
                (line, f"the e-mail address is longer than {EMAIL_MAX_LENGTH} characters")
            )
            continue
        if email and not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", email):
            parsed.rejected.append((line, f"e-mail {email!r} is not an e-mail address"))
            continue
        withhold = values.get("withhold")
        if withhold is not None and withhold.lower() not in YES | NO:
            parsed.rejected.append(
                (line, f"withhold {withhold!r} is not yes or no (empty means no)")
            )
            continue
        # The same address under a second campus ID is one student named twice (a slip of the
        # registrar's): the first line stands, as for the same campus ID twice.
        address = email.lower()
        if address and address in line_of_email:
            parsed.rejected.append(
                (line, f"e-mail {email} is already on line {line_of_email[address]}")
            )
            continue
        # Only a kept line is one a later line can repeat.
        first_seen[campus_id] = line
        if address:
            line_of_email[address] = line
        parsed.rows.append(
            RosterRow(
                line=line,
                campus_id=campus_id,
                first_name=values.get("first_name", "")[:150],
                last_name=values.get("last_name", "")[:150],
                email=email,
                withholds_name=None if withhold is None else withhold.lower() in YES,
            )
        )
    return parsed
