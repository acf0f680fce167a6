"""Where a signed-in page's time goes, in-process: SQL, template rendering, the rest.

    python benchmarks/profile_pages.py DATABASE [--requests 40] [--top 12] [--only NAME]
        [--sql] [--plans]

DATABASE is a copy of a bench template (`make bench` builds `bench_tpl_…`; copy it with
`CREATE DATABASE probe TEMPLATE bench_tpl_…`, then `manage.py run_nightly` and `VACUUM
(ANALYZE)` it as `make bench` does before its pages, and drop the copy after: the setup writes a
game record and sessions). It runs with the bench's production settings (DEBUG off, so templates are
compiled once, as under gunicorn), picks the same people and pages as `make bench`, and for each
page prints the mean time of a request through Django's whole handler (middleware included), the
part spent waiting on SQL, the part inside template rendering, and, with --top, the functions
that took the most time in a profile of those requests (by cumulative time; `PROFILE_SORT=tottime`
sorts by each function's own time). No server, no wrk: this explains a bench row, it does not
replace one. With --plans, each SELECT a page runs is explained as PostgreSQL ran it (EXPLAIN
ANALYZE, BUFFERS): which index served it, how many rows it read (docs/performance.md).
"""

import argparse
import cProfile
import io
import os
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database")
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--top", type=int, default=0, help="print this many functions per page")
    parser.add_argument("--only", default="", help="only the pages whose name contains this")
    parser.add_argument("--sql", action="store_true", help="print each page's statements, timed")
    parser.add_argument(
        "--plans", action="store_true", help="print each SELECT's plan (EXPLAIN ANALYZE)"
    )
    options = parser.parse_args()

    from harness import BASE_ENV, SERVER, manage  # noqa: PLC0415
    from pages import SETUP_LOAD  # noqa: PLC0415

    os.environ.update(BASE_ENV)
    os.environ["DATABASE_URL"] = SERVER + options.database
    os.environ["DJANGO_SETTINGS_MODULE"] = "benchmarks.settings"
    manage(options.database, "collectstatic", "--noinput")

    import django  # noqa: PLC0415

    django.setup()
    from django.db import connection  # noqa: PLC0415
    from django.template.backends import django as django_templates  # noqa: PLC0415
    from django.test import Client  # noqa: PLC0415

    setup: dict = {}
    exec(SETUP_LOAD, setup)  # the bench's own choice of people and pages (prints its JSON)
    spent = {"sql": 0.0, "render": 0.0, "sql in render": 0.0}
    rendering_now = [False]

    def timed_sql(execute, sql, params, many, context):
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            took = time.perf_counter() - start
            spent["sql"] += took
            if rendering_now[0]:
                spent["sql in render"] += took

    render = django_templates.Template.render

    def timed_render(self, *args, **kwargs):
        if rendering_now[0]:  # an include or a form's widget: inside the outer render's time
            return render(self, *args, **kwargs)
        start = time.perf_counter()
        rendering_now[0] = True
        try:
            return render(self, *args, **kwargs)
        finally:
            rendering_now[0] = False
            spent["render"] += time.perf_counter() - start

    n = options.requests
    print(f"{'page':28} {'ms':>7} {'sql ms':>7} {'render ms':>9} {'other ms':>8}  queries")
    for name, path, who in setup["pages"]:
        if options.only not in name:
            continue
        client = Client(HTTP_HOST="127.0.0.1", headers={"X-Forwarded-Proto": "https"})
        client.force_login(setup["users"][who])
        for _ in range(3):
            client.get(path)
        start = time.perf_counter()
        for _ in range(n):
            response = client.get(path)
        wall = time.perf_counter() - start  # timed bare: the timers below cost time themselves
        assert response.status_code == 200, (path, response.status_code)
        spent.update({"sql": 0.0, "render": 0.0, "sql in render": 0.0})
        django_templates.Template.render = timed_render
        try:
            with connection.execute_wrapper(timed_sql):
                for _ in range(n):
                    client.get(path)
        finally:
            django_templates.Template.render = render
        sql = spent["sql"]
        # Rendering without the SQL a template's lazy queryset ran (counted as SQL); "other" is
        # the rest: middleware, the view's Python, forms, the test client.
        rendering = spent["render"] - spent["sql in render"]
        other = max(wall - sql - rendering, 0.0)
        print(
            f"{name:28} {wall / n * 1000:7.1f} {sql / n * 1000:7.1f} {rendering / n * 1000:9.1f}"
            f" {other / n * 1000:8.1f}  {setup['queries'].get(name, '')}"
        )
        if options.sql:
            statements = []

            def each_statement(execute, sql, params, many, context, statements=statements):
                start = time.perf_counter()
                try:
                    return execute(sql, params, many, context)
                finally:
                    statements.append((time.perf_counter() - start, sql))

            with connection.execute_wrapper(each_statement):
                client.get(path)
            for took, sql in statements:
                print(f"    {took * 1000:6.2f} ms  {sql[:160]}")
        if options.plans:
            print_plans(connection, client, path)
        if options.top:
            profile = cProfile.Profile()
            profile.enable()
            for _ in range(n):
                client.get(path)
            profile.disable()
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats(
                os.environ.get("PROFILE_SORT", "cumulative")
            ).print_stats(options.top)
            print("\n".join(out.getvalue().splitlines()[6:]))
    return 0


def print_plans(connection, client, path: str) -> None:
    """Each SELECT of one request to `path`, with the plan PostgreSQL ran it by."""
    statements = []

    def each_statement(execute, sql, params, many, context):
        statements.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(each_statement):
        client.get(path)
    for sql, params in statements:
        if not sql.lstrip().upper().startswith(("SELECT", "WITH")):
            continue
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) {sql}", params)
            plan = [row[0] for row in cursor.fetchall()]
        print(f"\n    {sql[:300]}{' …' if len(sql) > 300 else ''}")
        print("\n".join(f"      {line}" for line in plan))


if __name__ == "__main__":
    sys.exit(main())
