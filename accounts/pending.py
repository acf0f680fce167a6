"""How many of a season's students wait for an eligibility decision (L10), as the director's
dashboard shows it: kept by PostgreSQL's triggers as rows of changes (``PendingStudentsChange``,
migration ``0009_pending_students_count``), so reading it is a sum over a handful of rows instead
of counting a campus's students (94 ms at 60,000 of them). SQLite, the one-process demo, has no
triggers: there the count is taken live."""

from django.db import connection
from django.db.models import Subquery, Sum
from django.db.models.functions import Coalesce

from core.compiled import counted

from .models import PendingStudentsChange
from .selectors import pending_students


def maintained() -> bool:
    return connection.vendor == "postgresql"


def pending_students_count(institution_id: int, season_id: int):
    """An expression for an annotation: the season's pending students. In a compiled query the
    ids are the query's parameters."""
    if not maintained():
        return counted(pending_students(institution_id, season_id))
    return Coalesce(
        Subquery(
            PendingStudentsChange.objects.filter(season_id=season_id)
            .values("season_id")
            .annotate(total=Sum("change"))
            .values("total")
        ),
        0,
    )


def pending_total(institution_id: int, season_id: int | None) -> int:
    """The season's pending students, as a number (the digest's count)."""
    if season_id is None:
        return 0
    if not maintained():
        return pending_students(institution_id, season_id).count()
    total = PendingStudentsChange.objects.filter(season_id=season_id).aggregate(
        total=Sum("change")
    )["total"]
    return total or 0


def pending_fold(institution_id: int) -> int:
    """Each season's rows of the institution folded into one (the nightly job), so the sum stays
    a handful of rows. One statement, so the rows it deletes are exactly the rows it sums: a
    change committed meanwhile keeps its own row. Returns the rows removed."""
    if not maintained():
        return 0
    with connection.cursor() as cursor:
        cursor.execute(
            """
            WITH gone AS (
              DELETE FROM accounts_pendingstudentschange c USING accounts_season s
              WHERE c.season_id = s.id AND s.institution_id = %s
              RETURNING c.season_id, c.change
            ), folded AS (
              INSERT INTO accounts_pendingstudentschange (season_id, change)
              SELECT season_id, sum(change) FROM gone GROUP BY season_id
              RETURNING 1
            )
            SELECT (SELECT count(*) FROM gone) - (SELECT count(*) FROM folded)
            """,
            [institution_id],
        )
        return cursor.fetchone()[0]


def pending_recount(season_ids) -> None:
    """Whole counts for these seasons in place of their rows (after data was changed behind the
    triggers' back, such as a restore of one table)."""
    if maintained():
        with connection.cursor() as cursor:
            cursor.execute("SELECT accounts_pending_recount(%s::bigint[])", [list(season_ids)])
