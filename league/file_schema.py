"""The settings file of an event or a club, checked before anything reads it: one validation,
shared by the upload (/director/events/new/) and `create_event`, written as plain Python.

In order (``parse_league_file``): the size (at most 256 KB), the text (UTF-8, a byte-order mark
allowed), the nesting (at most 10 levels of lists and objects, counted before ``json.loads``,
whose recursion a 100,000-deep file would exhaust; a ``RecursionError`` is caught all the same),
the JSON (NaN, Infinity and integers of more than 100 digits refused). Then the shape
(``check_league_file``, which the readers ``event_files.read_event_file`` and
``club_files.read_club_file`` run first whatever gave them the data): each key's type, each
text's length (its column's, read from the models), slugs as Django slugs (ASCII, no spaces),
each number whole and in range, each list's length: at most 50 categories, 30 rounds of an
event, 10 periods a round, 50 assists, 100 club nights. Limits a real event never meets.

A problem is reported by its key path and the limit, for example
``categories[3].name: at most 60 characters (75 given)``; list positions count from 1, as a
director counts the entries of their file. The checks of meaning (two categories of one name,
a champion that is not one of the categories, a day outside the season) stay with the readers."""

import json
import re
from dataclasses import dataclass, field
from datetime import date, time

from core.errors import BadValue, DomainError
from core.values import clean_text, slug_problem

from . import formats
from .models import ChallengeRule, EndOfGameRule, League, Lexicon

MAX_BYTES = 256 * 1024
MAX_DEPTH = 10
MAX_DIGITS = 100  # int() of more is slow, of 4,300 refused; every range here is far shorter


class LeagueFileError(DomainError):
    pass


def column_length(model, name: str) -> int:
    return model._meta.get_field(name).max_length


# --- Reading the bytes --------------------------------------------------------------------------


def parse_league_file(raw: bytes) -> dict:
    """The file's JSON object, or a LeagueFileError naming what is wrong with the file."""
    if len(raw) > MAX_BYTES:
        raise LeagueFileError(
            f"The file is over {MAX_BYTES // 1024} KB: a settings file is at most "
            f"{MAX_BYTES // 1024} KB (a large event's is under 10)."
        )
    if not raw.strip():
        raise LeagueFileError("The file is empty: it should hold the event's or club's settings.")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise LeagueFileError(
            f"Not UTF-8 text (byte {raw[error.start]:#04x} on line {line}): save the file as "
            "UTF-8 (it is JSON)."
        ) from None
    _check_depth(text)
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_int=_bounded_int)
    except json.JSONDecodeError as error:
        raise LeagueFileError(
            f"Not a JSON file (line {error.lineno}): {error.msg} at column {error.colno}."
        ) from None
    except _NotAllowed as error:
        raise LeagueFileError(f"Not a settings file: {error}.") from None
    except (RecursionError, ValueError):  # a deeper path than the count saw; the 4300-digit cap
        raise LeagueFileError("Not a settings file: nested or numbered beyond reading.") from None
    if not isinstance(data, dict):
        raise LeagueFileError("The file must hold one JSON object, {…}.")
    return data


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def _check_depth(text: str) -> None:
    """Refuse lists and objects nested deeper than MAX_DEPTH, before json.loads recurses."""
    depth = 0
    for match in _BRACKET.finditer(_STRING.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line = text.count("\n", 0, match.start()) + 1
                raise LeagueFileError(
                    f"Lists and objects nest more than {MAX_DEPTH} deep (line {line}): a settings "
                    "file needs five levels at most."
                )
        else:
            depth -= 1


class _NotAllowed(ValueError):
    pass


def _no_constant(name: str):
    raise _NotAllowed(f"{name} is not a number a setting can have")


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise _NotAllowed(f"a number of {len(digits)} digits (at most {MAX_DIGITS})")
    return int(digits)


# --- The schema ---------------------------------------------------------------------------------


def _json(value, limit: int = 40) -> str:
    """A value as the file spells it (null, true, "text"), cut short, for a message."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Node:
    meaning = ""  # what the key holds, for the message when it is missing

    def check(self, value, path: str) -> None:  # pragma: no cover - each kind has its own
        raise NotImplementedError


@dataclass(frozen=True)
class Text(Node):
    max_length: int
    required: bool = False

    def check(self, value, path):
        try:
            clean_text(value, what=path, max_length=self.max_length, required=self.required)
        except BadValue as error:
            raise LeagueFileError(error.message) from None


@dataclass(frozen=True)
class Slug(Node):
    def check(self, value, path):
        problem = slug_problem(value)
        if problem:
            raise LeagueFileError(f"{path}: {problem}.")


@dataclass(frozen=True)
class Whole(Node):
    low: int
    high: int

    def check(self, value, path):
        wanted = f"{path}: a whole number from {self.low} to {self.high}"
        if isinstance(value, bool) or not isinstance(value, int):
            raise LeagueFileError(f"{wanted}, not {_json(value)}.")
        if not self.low <= value <= self.high:
            raise LeagueFileError(f"{wanted}; {_json(value)} is outside that.")


@dataclass(frozen=True)
class Share(Node):
    """A number from `low` to `high`, whole or not (a weight)."""

    low: float
    high: float

    def check(self, value, path):
        wanted = f"{path}: a number from {self.low} to {self.high}"
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise LeagueFileError(f"{wanted}, not {_json(value)}.")
        if not self.low <= value <= self.high:
            raise LeagueFileError(f"{wanted}; {_json(value)} is outside that.")


@dataclass(frozen=True)
class OneOf(Node):
    values: tuple

    def check(self, value, path):
        if not any(type(value) is type(v) and value == v for v in self.values):
            choices = ", ".join(str(v) for v in self.values)
            raise LeagueFileError(f"{path}: {_json(value)} is not one of {choices}.")


@dataclass(frozen=True)
class Flag(Node):
    def check(self, value, path):
        if not isinstance(value, bool):
            raise LeagueFileError(f"{path}: true or false, not {_json(value)}.")


_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_CLOCK = re.compile(r"[0-9]{2}:[0-9]{2}")


@dataclass(frozen=True)
class Day(Node):
    what: str

    @property
    def meaning(self):
        return f'{self.what}, "YYYY-MM-DD"'

    def check(self, value, path):
        try:
            if isinstance(value, str) and _DAY.fullmatch(value):
                date.fromisoformat(value)
                return
        except ValueError:
            pass
        raise LeagueFileError(f"{path}: {self.meaning}, not {_json(value)}.")


@dataclass(frozen=True)
class Clock(Node):
    def check(self, value, path):
        try:
            if isinstance(value, str) and _CLOCK.fullmatch(value):
                time.fromisoformat(value)
                return
        except ValueError:
            pass
        raise LeagueFileError(f'{path}: give "starts" as HH:MM (24-hour), not {_json(value)}.')


@dataclass(frozen=True)
class Nullable(Node):
    inner: Node

    def check(self, value, path):
        if value is not None:
            self.inner.check(value, path)


@dataclass(frozen=True)
class ListOf(Node):
    item: Node
    noun: str
    max_items: int
    min_items: int = 0

    def check(self, value, path):
        if not isinstance(value, list):
            raise LeagueFileError(f"{path}: a list of {self.noun}, [...], not {_json(value)}.")
        if len(value) > self.max_items:
            raise LeagueFileError(
                f"{path}: at most {self.max_items} {self.noun} ({len(value)} given)."
            )
        if len(value) < self.min_items:
            raise LeagueFileError(f"{path}: give at least {self.min_items} of its {self.noun}.")
        for index, item in enumerate(value, start=1):
            self.item.check(item, f"{path}[{index}]")


@dataclass(frozen=True)
class Obj(Node):
    keys: dict
    required: frozenset = field(default_factory=frozenset)

    def check(self, value, path):
        where = path or "The file"
        if not isinstance(value, dict):
            raise LeagueFileError(f"{where}: an object, {{...}}, not {_json(value)}.")
        unknown = sorted(set(value) - set(self.keys))
        if unknown:
            names = ", ".join(_json(name, 30) for name in unknown[:5])
            raise LeagueFileError(f"{where}: unknown keys {names}.")
        for key in sorted(self.required):
            if value.get(key) is None:
                meaning = self.keys[key].meaning
                raise LeagueFileError(
                    f"{_join(path, key)}: {meaning}; it is missing."
                    if meaning
                    else f"{_join(path, key)} is required."
                )
        for key, node in self.keys.items():
            if key in value:
                node.check(value[key], _join(path, key))


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def choices_of(model_choices) -> OneOf:
    return OneOf(tuple(model_choices.values))


NAME = Text(column_length(League, "name"), required=True)
COMMON = {
    "name": NAME,
    "slug": Slug(),
    "venue": Nullable(Text(column_length(League, "venue"))),
    "public": Flag(),
    "public_names": Nullable(OneOf(("full", "short", "number"))),  # P1: null = the institution's
    "search_engines": Flag(),  # P3
    "campus_only": Flag(),
    "lexicon": choices_of(Lexicon),
    "end_of_game_rule": choices_of(EndOfGameRule),
    "challenge_rule": choices_of(ChallengeRule),
    "challenge_points": OneOf((5, 10)),
    "rating_weight": Share(0.1, 1),  # R3
}


def check_league_file(data) -> None:
    """Refuse, naming the key and its limit, a file whose shape is not its format's: the keys
    every format shares (``COMMON``), the format's own (``league.formats``: its `file_keys`),
    and another format's keys checked like theirs and ignored (an exported event edited into a
    club may carry them)."""
    if not isinstance(data, dict):
        raise LeagueFileError("The file must hold one JSON object, {…}.")
    kind = data.get("format")
    spec = formats.of(kind) if isinstance(kind, str) else None
    if spec is None or spec.file_keys is None:
        known = " or ".join(f'"{each.value}"' for each in formats.registered() if each.file_keys)
        raise LeagueFileError(f"format: {_json(kind)} is not {known}.")
    others = {
        key: node
        for each in formats.registered()
        if each.value != kind and each.file_keys
        for key, node in each.file_keys.items()
        if key not in spec.file_keys
    }
    shape = Obj(
        {**COMMON, **others, **spec.file_keys, "format": OneOf((kind,))},
        frozenset({"name", "slug"}) | spec.file_required,
    )
    shape.check(data, "")
