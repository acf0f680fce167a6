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


def upsert_rows(model, columns: Sequence[str], rows: Iterable[Sequence], key: str) -> None:
    """Insert `rows` (as ``copy_rows``), each replacing the row of the same `key` (a unique
    column among `columns`) where there is one. On PostgreSQL the rows are copied into a
    temporary table first and moved in one INSERT … ON CONFLICT: ``bulk_create`` with
    ``update_conflicts`` spent half a second of the night preparing 15,000 ratings' values."""
    if connection.vendor != "postgresql":
        model.objects.bulk_create(
            [model(**dict(zip(columns, row, strict=True))) for row in rows],
            update_conflicts=True,
            unique_fields=[key],
            update_fields=[column for column in columns if column != key],
            batch_size=500,
        )
        return
    table, listed = model._meta.db_table, ", ".join(columns)
    updates = ", ".join(f"{column} = EXCLUDED.{column}" for column in columns if column != key)
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMPORARY TABLE upserted AS SELECT {listed} FROM {table} WITH NO DATA"
        )
        try:
            with cursor.cursor.copy(f"COPY upserted ({listed}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            cursor.execute(
                f"INSERT INTO {table} ({listed}) SELECT {listed} FROM upserted "
                f"ON CONFLICT ({key}) DO UPDATE SET {updates}"
            )
        finally:
            cursor.execute("DROP TABLE upserted")
