"""The whole night of every campus, shared by Celery workers: real `celery worker` processes on
a queue of their own, one `run_nightly_for_institution` task per institution sent at once (as
if every campus's 02:00 fell together: the worst night), timed until every campus's night has
finished. Also checked: each campus's night ran once and left its lease, and no campus has two
digests for it.

Run by `run.py --ten-times` on a fresh copy of a template; on its own:
`python benchmarks/night_workers.py DATABASE WORKERS`.
"""

import subprocess
import sys
import time
import uuid

import psycopg
from harness import PY, ROOT, SERVER, env, say

NIGHT_TIMEOUT = 3600


def progress(text: str) -> None:
    sys.stderr.write(text)
    sys.stderr.flush()


def start_worker(database: str, queue: str, number: int) -> subprocess.Popen:
    """One worker process running one task at a time, as compose's worker service does."""
    return subprocess.Popen(
        [PY, "-m", "celery", "-A", "config", "worker", "--pool", "solo", "-Q", queue]
        + ["-n", f"night{number}@%h", "--without-heartbeat", "--without-mingle"]
        + ["--without-gossip", "--loglevel", "WARNING"],
        cwd=ROOT,
        env={**env(database), "CELERY_QUEUE": queue},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


SEND = """
from accounts.models import Institution
from league.tasks import run_nightly_for_institution
for pk in Institution.objects.order_by("slug").values_list("pk", flat=True):
    run_nightly_for_institution.apply_async(args=[pk], queue="{queue}")
"""


def whole_night(database: str, workers: int) -> dict:
    queue = f"bench-night-{uuid.uuid4().hex[:8]}"
    processes = [start_worker(database, queue, n) for n in range(workers)]
    try:
        with psycopg.connect(SERVER + database, autocommit=True) as db:
            campuses = db.execute("SELECT count(*) FROM accounts_institution").fetchone()[0]
            time.sleep(3)  # the workers connect to the broker
            start = time.perf_counter()
            subprocess.run(
                [PY, "manage.py", "shell", "-c", SEND.replace("{queue}", queue)],
                cwd=ROOT,
                env={**env(database), "CELERY_QUEUE": queue},
                check=True,
            )
            deadline = time.monotonic() + NIGHT_TIMEOUT
            done = shown = 0
            while time.monotonic() < deadline:
                done = db.execute(
                    "SELECT count(*) FROM league_nightlyrun WHERE finished_at IS NOT NULL"
                ).fetchone()[0]
                if done >= campuses:
                    break
                if done != shown:
                    progress(f"\r  {workers} worker(s): {done}/{campuses} nights finished")
                    shown = done
                time.sleep(0.5)
            seconds = time.perf_counter() - start
            say(f"\r  {workers} worker(s): {done}/{campuses} nights in {seconds:.0f} s")
            twice = db.execute(
                "SELECT count(*) FROM (SELECT institution_id, day FROM league_nightlyrun "
                "GROUP BY 1, 2 HAVING count(*) > 1) AS twice"
            ).fetchone()[0]
            leased = db.execute(
                "SELECT count(*) FROM league_nightlyrun WHERE leased_by <> ''"
            ).fetchone()[0]
            digests = db.execute(
                "SELECT count(*) FROM (SELECT institution_id, day FROM league_digestlog "
                "GROUP BY 1, 2 HAVING count(*) > 1) AS twice"
            ).fetchone()[0]
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
    return {
        "workers": workers,
        "campuses": campuses,
        "finished": done,
        "seconds": seconds,
        "per_minute": done / seconds * 60,
        "run_twice": twice,
        "leases_left": leased,
        "digests_twice": digests,
    }


if __name__ == "__main__":
    print(whole_night(sys.argv[1], int(sys.argv[2])))
