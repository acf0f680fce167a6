"""Values in and out of hand-written SQL, read the same on PostgreSQL and on SQLite (the demo of
`make run`): the few pages whose queries the ORM would take longer to write than the database
takes to answer are plain SQL, and must serve the demo too."""

from datetime import UTC, datetime

from django.db import connection
from django.utils.dateparse import parse_datetime


def placeholders(count: int) -> str:
    """``count`` parameters for an SQL list: ``%s, %s, %s``."""
    return ", ".join(["%s"] * count)


def sql_list(values) -> str:
    """Values of the code's own (a status registry's, never a person's) as an SQL list of
    literals; an empty list matches nothing. Literals, not parameters, so PostgreSQL can match
    them against a partial index's condition in every plan of a prepared statement."""
    return ", ".join(f"'{value}'" for value in values) or "NULL"


def moment_param(value: datetime):
    """A datetime as a parameter: SQLite compares the text Django stores."""
    return connection.ops.adapt_datetimefield_value(value)


def moment(value):
    """A datetime column: PostgreSQL gives it aware; SQLite naive or as text, in UTC."""
    if isinstance(value, str):
        value = parse_datetime(value)
    if value is not None and value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value
