"""Many rows into one table at once: PostgreSQL's COPY, where ``bulk_create`` spends most of
its time preparing each row's values in Python (the standings' 20,000 rows × 17 values took
2 s that way, COPY a sixth of it). The SQLite demo of ``make run`` has no COPY: there it is
``bulk_create``."""

from collections.abc import Iterable, Sequence

from django.db import connection


def copy_rows(model, columns: Sequence[str], rows: Iterable[Sequence]) -> None:
    """Insert `rows`, each a sequence of values in the order of `columns` (column names: a
    foreign key's ends in _id)."""
    if connection.vendor != "postgresql":
        model.objects.bulk_create(
            [model(**dict(zip(columns, row, strict=True))) for row in rows], batch_size=500
        )
        return
    with connection.cursor() as cursor:
        with cursor.cursor.copy(
            f"COPY {model._meta.db_table} ({', '.join(columns)}) FROM STDIN"
        ) as copy:
            for row in rows:
                copy.write_row(row)
