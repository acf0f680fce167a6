"""One timed run of the nightly pipeline in a fresh process; prints a JSON line with the wall
time of the pipeline alone (and of its rating step within it), its SQL query count and the
process's peak memory."""

import json
import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from celery import current_app  # noqa: E402
from django.db import connection  # noqa: E402

import league.nightly  # noqa: E402
from league.nightly import run_nightly  # noqa: E402

queries = 0
rating_seconds = 0.0
rate = league.nightly.rate


def timed_rate(*args, **kwargs):
    """The night's rating step (R2), timed apart so the table can set it beside the rest."""
    global rating_seconds
    began = time.perf_counter()
    try:
        return rate(*args, **kwargs)
    finally:
        rating_seconds += time.perf_counter() - began


league.nightly.rate = timed_rate


def count(execute, sql, params, many, context):
    global queries
    queries += 1
    return execute(sql, params, many, context)


# The nightly job runs in a Celery worker, whose broker connection is up before the job starts.
# Open it here too, so the first e-mail queued is not timed importing and connecting kombu's
# Redis transport (about a second, which dominated the small size's time).
with current_app.connection_for_write() as broker:
    broker.ensure_connection(max_retries=1)

with connection.execute_wrapper(count):
    start = time.perf_counter()
    summary = run_nightly()
    seconds = time.perf_counter() - start
print(
    json.dumps(
        {
            "seconds": round(seconds, 3),
            "rating_seconds": round(rating_seconds, 3),
            "queries": queries,
            "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "summary": summary.line(),
        }
    )
)
