"""Integers that do not fit their column raise instead of wrapping.

Django hands psycopg each integer field's value typed for its column (``Int2``, ``Int4``,
``Int8``), and psycopg's compiled dumpers for those types cut an out-of-range value to the
type's width without a word: with the server-side binding the settings turn on, a
``pre_adjustment`` of 99999999999 was stored as 1215752191, and 70000 in a small-integer
column as 4464. The dumpers registered here check the range first and raise PostgreSQL's own
"out of range" error (a ``DataError``, as the database raises for an untyped value), whatever
wrote the value: a form, a command, a service, a plain ``save()`` or ``update()``.

Forms and files still check every number they take against the column's range themselves, so
people get a message naming the field; this is the floor under them, so a value that slips past
a check fails loudly instead of becoming a different number."""

import psycopg
from psycopg import errors
from psycopg.adapt import Dumper
from psycopg.pq import Format
from psycopg.types import numeric

# The ranges of PostgreSQL's smallint, integer and bigint.
SMALLINT = (-(2**15), 2**15 - 1)
INTEGER = (-(2**31), 2**31 - 1)
BIGINT = (-(2**63), 2**63 - 1)


def _checked(value: int, kind: str, low: int, high: int) -> int:
    value = int(value)
    if not low <= value <= high:
        raise errors.NumericValueOutOfRange(
            f"{value} is out of range for type {kind} ({low} to {high})"
        )
    return value


class _CheckedTextDumper(Dumper):
    format = Format.TEXT
    kind, low, high = "", 0, 0

    def dump(self, obj) -> bytes:
        return str(_checked(obj, self.kind, self.low, self.high)).encode()

    def quote(self, obj) -> bytes:
        value = self.dump(obj)
        return value if obj >= 0 else b" " + value


class SmallintDumper(_CheckedTextDumper):
    oid = psycopg.postgres.types["int2"].oid
    kind, (low, high) = "smallint", SMALLINT


class IntegerDumper(_CheckedTextDumper):
    oid = psycopg.postgres.types["int4"].oid
    kind, (low, high) = "integer", INTEGER


class BigintDumper(_CheckedTextDumper):
    oid = psycopg.postgres.types["int8"].oid
    kind, (low, high) = "bigint", BIGINT


class _CheckedBinaryDumper(Dumper):
    format = Format.BINARY
    kind, low, high, size = "", 0, 0, 0

    def dump(self, obj) -> bytes:
        return _checked(obj, self.kind, self.low, self.high).to_bytes(self.size, "big", signed=True)


class SmallintBinaryDumper(_CheckedBinaryDumper):
    oid = SmallintDumper.oid
    kind, (low, high), size = "smallint", SMALLINT, 2


class IntegerBinaryDumper(_CheckedBinaryDumper):
    oid = IntegerDumper.oid
    kind, (low, high), size = "integer", INTEGER, 4


class BigintBinaryDumper(_CheckedBinaryDumper):
    oid = BigintDumper.oid
    kind, (low, high), size = "bigint", BIGINT, 8


def register_checked_integers(adapters=None) -> None:
    """Use the checked dumpers for every connection opened from now on (psycopg's global
    adapters map, which each new connection copies)."""
    adapters = adapters or psycopg.adapters
    for python_type, text, binary in (
        (numeric.Int2, SmallintDumper, SmallintBinaryDumper),
        (numeric.Int4, IntegerDumper, IntegerBinaryDumper),
        (numeric.Int8, BigintDumper, BigintBinaryDumper),
    ):
        adapters.register_dumper(python_type, text)
        adapters.register_dumper(python_type, binary)
