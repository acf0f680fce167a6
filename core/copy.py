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


def copy_instances(instances: Sequence) -> None:
    """Insert these unsaved instances of one model, as ``bulk_create`` does (each learns its
    primary key, field defaults and ``auto_now`` applied), with COPY on PostgreSQL: the keys are
    drawn from the table's sequence first. ``bulk_create`` sends PostgreSQL arrays, and psycopg
    quotes long text inside an array in Python: a night's 2,600 notices took twice as long."""
    if not instances:
        return
    model = type(instances[0])
    if connection.vendor != "postgresql":
        model.objects.bulk_create(instances)
        return
    meta = model._meta
    fields = meta.concrete_fields
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [meta.db_table, meta.pk.column, len(instances)],
        )
        for instance, (key,) in zip(instances, cursor.fetchall(), strict=True):
            setattr(instance, meta.pk.attname, key)
        columns = ", ".join(connection.ops.quote_name(field.column) for field in fields)
        with cursor.cursor.copy(f"COPY {meta.db_table} ({columns}) FROM STDIN") as copy:
            for instance in instances:
                copy.write_row(
                    [
                        field.get_db_prep_save(field.pre_save(instance, True), connection)
                        for field in fields
                    ]
                )
                instance._state.adding, instance._state.db = False, connection.alias
