"""Querysets the ORM writes once per process, then only runs.

For the small queries every signed-in page runs (the session with its user and roles, the
season, an eligibility), the ORM can take longer to write the SQL than PostgreSQL, with the
statement prepared, takes to answer it; writing it once per process leaves only the answering.
A `CompiledQuery` is built from a function that returns the queryset for given values. The first time it runs on a database, the
ORM writes the SQL for stand-in values and the recipe for its objects; from then on each call
puts the real values where the stand-ins were, runs the SQL, and builds the objects exactly as
the ORM's own iteration does (`from_db`, `select_related`'s objects, annotations, converters).

Only what the ORM can write for any values fits: filters by equality or comparison on integers,
strings, dates and times, `select_related`, annotations, ordering and a fixed slice; not
`prefetch_related` (compile each relation's query on its own and hand the children to their
parents with `attach`), `values()`, or lists of varying length. A stand-in that the ORM rewrote
(`__contains` wraps it in %) is not found again, and the compile fails loudly.
"""

from collections.abc import Callable
from datetime import UTC, date, datetime

from django.db import connections
from django.db.models import Func, IntegerField, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.db.models.query import get_related_populators


def counted(queryset):
    """The rows of ``queryset`` counted in a subquery, for an annotation: COUNT(*) as a plain
    function, so the outer query is not grouped, and an index that holds the filtered columns
    is enough. A compiled query reads counts this way (it builds objects, not ``count()``)."""
    every_row = Func(template="COUNT(*)", output_field=IntegerField())
    return Coalesce(Subquery(queryset.order_by().annotate(count=every_row).values("count")), 0)


def _stand_in(kind: type, number: int):
    """A value of this kind no real row holds, distinct for each parameter."""
    if kind is int:
        return -(10**12) - number
    if kind is str:
        return f"compiled-query-stand-in-{number}"
    if kind is datetime:
        return datetime(1901, 1, 1 + number, tzinfo=UTC)
    if kind is date:
        return date(1901, 1, 1 + number)
    raise TypeError(f"a compiled query takes int, str, date or datetime values, not {kind}")


def _adapter(kind: type, ops):
    if kind is datetime:
        return ops.adapt_datetimefield_value
    if kind is date:
        return ops.adapt_datefield_value
    return lambda value: value


class _Statement:
    """The SQL of one queryset shape on one database, and how to turn its rows into objects."""

    def __init__(self, queryset: QuerySet, stand_ins: dict, kinds: dict, using: str):
        self.compiler = queryset.query.get_compiler(using=using)
        self.sql, params = self.compiler.as_sql()
        ops = connections[using].ops
        self.params = list(params)
        self.slots = {}
        for name, stand_in in stand_ins.items():
            adapt = _adapter(kinds[name], ops)
            slots = [at for at, value in enumerate(params) if value == adapt(stand_in)]
            if not slots:
                raise ValueError(f"the ORM rewrote the value {name!r}: it cannot be compiled")
            self.slots[name] = (slots, adapt)
        klass_info, select = self.compiler.klass_info, self.compiler.select
        fields = klass_info["select_fields"]
        self.model = klass_info["model"]
        self.own_columns = slice(fields[0], fields[-1] + 1)
        self.own_names = [column[0].target.attname for column in select[self.own_columns]]
        self.related = get_related_populators(klass_info, select, using)
        self.annotations = list(self.compiler.annotation_col_map.items())
        # Which columns need converting, and how, is the same for every run of the statement:
        # worked out once here, not on every run.
        columns = [column[0] for column in select[: self.compiler.col_count]]
        if self.compiler.has_composite_fields(columns):
            raise ValueError("a composite primary key cannot be compiled")
        self.converters = list(self.compiler.get_converters(columns).items())
        self.using = using

    def objects(self, values: dict) -> list:
        params = list(self.params)
        for name, (slots, adapt) in self.slots.items():
            for at in slots:
                params[at] = adapt(values[name])
        connection = connections[self.using]
        with connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            rows = cursor.fetchall()
        found = []
        for row in rows:
            if self.converters:  # as the ORM's own iteration converts a row
                row = list(row)
                for at, (converters, expression) in self.converters:
                    value = row[at]
                    for convert in converters:
                        value = convert(value, expression, connection)
                    row[at] = value
            obj = self.model.from_db(self.using, self.own_names, row[self.own_columns])
            for populator in self.related:
                populator.populate(row, obj)
            for name, at in self.annotations:
                setattr(obj, name, row[at])
            found.append(obj)
        return found


def _fits(value, kind: type) -> bool:
    # None would need IS NULL rather than = NULL, and a datetime is also a date: such values
    # go the ORM's own way.
    if kind in (date, datetime):
        return type(value) is kind
    return isinstance(value, kind) and not isinstance(value, bool)


class CompiledQuery:
    """``build(**values)`` returns the queryset; ``kinds`` names each value's type. The app has
    one database, so a statement is written once, for the database the queryset uses. Values
    named in ``shape`` change the SQL itself (a slice's offset is written into it, not passed):
    each of their combinations gets its own statement, the last MAX_SHAPES kept."""

    MAX_SHAPES = 64

    def __init__(self, build: Callable[..., QuerySet], shape: tuple[str, ...] = (), **kinds: type):
        self.build, self.kinds, self.shape = build, kinds, shape
        self._statements: dict[tuple, _Statement] = {}

    def all(self, **values) -> list:
        if values.keys() != {*self.kinds, *self.shape}:
            raise TypeError(f"expected the values {sorted(self.kinds)}, got {sorted(values)}")
        if not all(_fits(values[name], kind) for name, kind in self.kinds.items()):
            return list(self.build(**values))
        shape = tuple(values[name] for name in self.shape)
        statement = self._statements.get(shape)
        if statement is None:
            stand_ins = {
                name: _stand_in(kind, number)
                for number, (name, kind) in enumerate(self.kinds.items())
            }
            queryset = self.build(**stand_ins, **{name: values[name] for name in self.shape})
            statement = _Statement(queryset, stand_ins, self.kinds, queryset.db)
            if len(self._statements) >= self.MAX_SHAPES:
                self._statements.pop(next(iter(self._statements)))
            self._statements[shape] = statement
        return statement.objects({name: values[name] for name in self.kinds})

    def first(self, **values):
        found = self.all(**values)
        return found[0] if found else None


def attach(parents: list, relation: str, children: list, key: str) -> None:
    """Hand each parent its ``children`` (grouped by their ``key`` attribute, the parent's id)
    as its prefetched ``relation``, as ``prefetch_related`` does: ``parent.relation.all()``
    is then the list without a query, and each child knows its parent. For reading a page's
    whole object graph with compiled queries, which cannot prefetch themselves."""
    if not parents:
        return
    by_parent: dict = {}
    for child in children:
        by_parent.setdefault(getattr(child, key), []).append(child)
    descriptor = getattr(type(parents[0]), relation)
    back = descriptor.field  # the child's foreign key to the parent
    for parent in parents:
        own = by_parent.get(parent.pk, [])
        for child in own:
            back.set_cached_value(child, parent)
        # The manager's own queryset, so a later .filter() on the relation stays scoped to it.
        queryset = getattr(parent, relation).get_queryset()
        queryset._result_cache = own
        queryset._prefetch_done = True
        cache = parent.__dict__.setdefault("_prefetched_objects_cache", {})
        cache[back.remote_field.cache_name] = queryset
