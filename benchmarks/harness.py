"""The benchmark's harness: a PostgreSQL server on loopback, `manage.py` run against one of its
databases, and the large data set built once as a template database that every timed run copies.

Used by `run.py` and `profile_pages.py`, which run as scripts from this folder.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
SERVER = "postgres://postgres@127.0.0.1:5432/"
RUN_DB = "bench_run"
BASE_ENV = {
    "SECRET_KEY": "benchmark-only-secret-key-0000000000000000000000000000",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "DEBUG": "false",
    "SECURE_SSL_REDIRECT": "false",
    "REDIS_URL": "redis://127.0.0.1:6379/11",
    "CELERY_QUEUE": f"bench-{os.getpid()}",  # e-mail is queued, never delivered, during the run
    "EMAIL_URL": "console://",
    "CONN_MAX_AGE": "60",
}


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def admin(sql: str, database: str = "postgres") -> None:
    with psycopg.connect(SERVER + database, autocommit=True) as connection:
        connection.execute(sql)


def exists(name: str) -> bool:
    with psycopg.connect(SERVER + "postgres", autocommit=True) as connection:
        return (
            connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
            is not None
        )


def env(database: str, settings: str = "config.settings") -> dict:
    return {
        **os.environ,
        **BASE_ENV,
        "DATABASE_URL": SERVER + database,
        "DJANGO_SETTINGS_MODULE": settings,
    }


def manage(
    database: str, *args: str, capture: bool = False, settings: str = "config.settings"
) -> str:
    result = subprocess.run(
        [PY, "manage.py", *args],
        cwd=ROOT,
        env=env(database, settings),
        check=True,
        text=True,
        stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
        timeout=1800,
    )
    return result.stdout if capture else ""


def drop(name: str) -> None:
    admin(
        f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}' AND pid <> pg_backend_pid()"
    )
    admin(f'DROP DATABASE IF EXISTS "{name}"')


# Bumped when seed_demo makes different data at the same sizes (v2: the club, issue 14; v3: the
# Scrabble Fest, issue 15; v4: the campuses on campus001.example, …, no longer under the demo's
# example.edu), so an old template is rebuilt rather than migrated.
DATA_VERSION = "v4"


# Ten times the default size: one campus of 60,000 students (the largest universities') and 100
# of 2,000, each campus with 15 leagues and about 15,000 matches (seed_demo's defaults): 260,000
# students, 2,000 leagues, 2,000,000 matches.
TEN_TIMES = {"players": 60000, "leagues": 500, "matches": 500000, "campuses": 100}
TEN_TIMES_SIZE = (60000 + 100 * 2000, 500 + 100 * 15, 500000 + 100 * 15000)  # the table's row


def template(players: int, leagues: int, matches: int, rebuild: bool, campuses: int = 0) -> str:
    name = f"bench_tpl_{DATA_VERSION}_{players}_{leagues}_{matches}"
    if campuses:
        name += f"_c{campuses}"
    if exists(name) and not rebuild:
        say(f"reusing template {name} (migrating it to this checkout's schema, rating it)")
        manage(name, "migrate", "--noinput")
        manage(name, "rate")  # as a site's nights leave it (R2); nothing to do once rated
        return name
    drop(name)
    admin(f'CREATE DATABASE "{name}"')
    say(f"building {name}: migrate, then seed_demo (progress below)")
    start = time.perf_counter()
    try:
        manage(name, "migrate", "--noinput")
        subprocess.run(
            [PY, "manage.py", "seed_demo", "--players", str(players), "--leagues", str(leagues)]
            + ["--matches", str(matches), "--campuses", str(campuses)],
            cwd=ROOT,
            env=env(name),
            check=True,
            stdout=subprocess.DEVNULL,
            timeout=7200,
        )
        manage(name, "rate")
    except BaseException:
        drop(name)  # half built: the next run would reuse it as if whole
        raise
    say(f"built {name} in {time.perf_counter() - start:.0f} s")
    return name


def fresh_copy(template_name: str) -> str:
    drop(RUN_DB)
    admin(f'CREATE DATABASE "{RUN_DB}" TEMPLATE "{template_name}"')
    return RUN_DB
