"""Values a person or a file gives, read one way everywhere: whole numbers and text.

A whole number is ASCII digits with an optional sign, or a JSON integer, within a range the
caller names. ``str.isdigit()`` is not the test: ``"²".isdigit()`` is true and ``int("²")``
fails, and ``int()`` reads Arabic-Indic and other Unicode digits that nobody types into a box
asking for a table number. A number beyond the column's range is refused here with a message,
never sent to the database (which would answer with an error page).

Text is refused when it holds a character PostgreSQL cannot store or a person does not type:
NUL and the other control characters (tab and line breaks aside) and lone surrogates (a JSON
file may spell them ``\\ud800``). Django's form ``CharField`` already refuses NUL; these helpers
are for what a view reads straight from ``request.GET``/``request.POST``, and for files.

Each refusal is a ``BadValue`` (a ``DomainError``): its message names what was given and what
is wanted, for the page or the command to show as it is."""

import argparse
import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path

from .errors import BadValue

# PostgreSQL's smallint, integer and bigint, for callers that name a column's range.
SMALLINT_MAX = 2**15 - 1
INT_MAX = 2**31 - 1
BIGINT_MAX = 2**63 - 1
_WHOLE = re.compile(r"[+-]?[0-9]+")
_DIGITS_AT_MOST = 30  # longer is out of every range here, and never reaches int()
_UNWANTED = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")


def shown(value, limit: int = 40) -> str:
    """A value as a message quotes it: repr, cut short."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def whole_number(value, *, what: str, low: int, high: int) -> int:
    """`value` (text from a request or a file, or an int from JSON) as an int in low..high."""
    wanted = f"{what}: a whole number from {low} to {high}"
    if isinstance(value, bool):
        raise BadValue(f"{wanted}, not {shown(value)}.")
    if isinstance(value, int):
        number = value
    elif isinstance(value, str):
        text = value.strip()
        if not text:
            raise BadValue(f"{wanted}; nothing was given.")
        if not _WHOLE.fullmatch(text):
            raise BadValue(f"{wanted}, not {shown(value)}.")
        if len(text.lstrip("+-")) > _DIGITS_AT_MOST:
            raise BadValue(f"{wanted}; {shown(value)} is far beyond that.")
        number = int(text)
    else:
        raise BadValue(f"{wanted}, not {shown(value)}.")
    if not low <= number <= high:
        raise BadValue(f"{wanted}; {shown(number)} is outside that.")
    return number


def number_or_none(value, *, low: int = 0, high: int = INT_MAX) -> int | None:
    """The whole number `value` spells within low..high, or None: for a key that may be a
    number or something else (a search, a campus ID or a player number)."""
    try:
        return whole_number(value, what="", low=low, high=high)
    except BadValue:
        return None


def row_id(value, *, what: str) -> int:
    """The id a page's button or hidden field sent (a row's primary key), refused with a
    message naming `what` when it is not one."""
    number = number_or_none(value, low=1, high=BIGINT_MAX)
    if number is None:
        raise BadValue(f"{what} was not recognised: reload the page and try again.")
    return number


def clean_text(value, *, what: str, max_length: int, required: bool = False) -> str:
    """`value` stripped, refused when it is not text, holds a character that cannot be stored
    (NUL, other control characters, lone surrogates), runs over `max_length` or, when
    `required`, is empty."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise BadValue(f"{what}: text expected, not {shown(value)}.")
    if _UNWANTED.search(value):
        raise BadValue(
            f"{what} holds a control character (such as NUL) that cannot be stored: type it again."
        )
    value = value.strip()
    if len(value) > max_length:
        raise BadValue(f"{what}: at most {max_length} characters ({len(value)} given).")
    if required and not value:
        raise BadValue(f"{what}: give it; it cannot be empty.")
    return value


def read_bounded(path: str, *, max_bytes: int) -> bytes:
    """A file's bytes, refused when it cannot be read or is over `max_bytes` (read no further
    than that, so /dev/zero or a 10 GB file costs nothing)."""
    try:
        with Path(path).open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except ValueError:  # a path with a NUL byte in it
        raise BadValue(f"{shown(path)}: not a file name.") from None
    except IsADirectoryError:
        raise BadValue(f"{path}: a folder, not a file.") from None
    except OSError as error:
        raise BadValue(f"{path}: {error.strerror or 'cannot be read'}.") from None
    if len(data) > max_bytes:
        raise BadValue(
            f"{path}: more than {_size(max_bytes)}; a file here is at most {_size(max_bytes)}."
        )
    return data


def _size(count: int) -> str:
    if count >= 1024 * 1024:
        return f"{count // (1024 * 1024)} MB"
    return f"{count // 1024} KB"


def decoded(data: bytes, *, what: str = "the file") -> str:
    """A file's bytes as UTF-8 text (a byte-order mark allowed), refused naming the line of
    the first byte that is not UTF-8, or of a NUL byte (a binary file)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise BadValue(
            f"line {line}: {what} is not UTF-8 text (byte {data[error.start]:#04x}); save it "
            'as UTF-8 ("CSV UTF-8" in a spreadsheet).'
        ) from None
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise BadValue(f"line {line}: {what} holds a NUL byte: it is not a text file.")
    return text


def csv_rows(text: str) -> Iterator[tuple[int, list[str]]]:
    """A CSV text's rows with the line each begins on, blank rows left out. Strict: a quote
    opened and never closed is refused naming its line, not read as one long value."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    while True:
        line = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            if "unexpected end of data" in str(error):
                raise BadValue(f"line {line}: a quote opened here is never closed.") from None
            raise BadValue(f"line {line}: not readable as CSV ({error}).") from None
        if any(cell.strip() for cell in cells):
            yield line, cells


# --- Command-line arguments: a bad value is a usage error (exit 2) naming the range -----------


def whole_number_argument(low: int, high: int):
    """An argparse `type` for a whole number in low..high."""

    def read(text: str) -> int:
        try:
            return whole_number(text, what="give", low=low, high=high)
        except BadValue as error:
            raise argparse.ArgumentTypeError(error.message.removeprefix("give: ")) from None

    read.__name__ = "whole number"
    return read


_SLUG = re.compile(r"[-a-zA-Z0-9_]+")
SLUG_MAX = 50  # SlugField's default length, every slug's column here


def slug_problem(value) -> str | None:
    """Why `value` is not a slug (ASCII letters, digits, hyphens, underscores, at most 50), or
    None when it is one."""
    if not isinstance(value, str):
        return f"text expected, not {shown(value)}"
    if not value:
        return "give it; it cannot be empty"
    if len(value) > SLUG_MAX:
        return f"at most {SLUG_MAX} characters ({len(value)} given)"
    if not _SLUG.fullmatch(value):
        return (
            f"{shown(value)} has a character a slug cannot: use letters a-z, digits, hyphens "
            "and underscores (no spaces or accents)"
        )
    return None


def slug_argument(text: str) -> str:
    """An argparse `type` for a slug."""
    problem = slug_problem(text)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return text


slug_argument.__name__ = "slug"
