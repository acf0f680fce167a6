"""One timed rating run (R1, R2) in a fresh process: every institution's ratings, from scratch
with `--from-scratch`, else only what changed; prints a JSON line with the wall time of the
rating alone, its SQL queries, the periods rated and the process's peak memory."""

import json
import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from accounts.models import Institution  # noqa: E402
from league.rating_runs import rate  # noqa: E402

queries = 0


def count(execute, sql, params, many, context):
    global queries
    queries += 1
    return execute(sql, params, many, context)


from_scratch = "--from-scratch" in sys.argv[1:]
periods = players = 0
with connection.execute_wrapper(count):
    start = time.perf_counter()
    for institution in Institution.objects.order_by("slug"):
        run = rate(institution, from_scratch=from_scratch)
        periods, players = periods + run.periods, players + run.players
    seconds = time.perf_counter() - start
print(
    json.dumps(
        {
            "seconds": round(seconds, 3),
            "queries": queries,
            "periods": periods,
            "players": players,
            "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        }
    )
)
