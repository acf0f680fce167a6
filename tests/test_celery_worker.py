"""Real parts: a Celery worker process on the real Redis runs the nightly pipeline against the
test database, and the digest it queues leaves through Django's SMTP backend to a real SMTP
server on loopback (aiosmtpd), where this test reads it back."""

import os
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from email import message_from_bytes, policy
from pathlib import Path
from signal import SIGKILL

import pytest
import redis
from aiosmtpd.controller import Controller
from django.conf import settings
from django.db import connection, transaction

from config.celery import app
from league.models import DigestLog
from league.tasks import run_nightly_for_institution
from matches.models import Match, MatchStatus
from tests.factories import new_match
from tests.test_email_smtp import Inbox, free_port

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def smtp_inbox():
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield inbox, controller.port
    controller.stop()


def start_worker(queue: str, smtp_port: int, *, pool: str = "solo", **env) -> subprocess.Popen:
    """A real `celery worker` on its own queue, so nothing else sharing this Redis takes its tasks."""
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "DEBUG"}},
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": "worker-test-secret-key-0000000000000000000000000000",
        "ALLOWED_HOSTS": "localhost",
        "DATABASE_URL": "postgres://{USER}@{HOST}:{PORT}/{NAME}".format(**connection.settings_dict),
        "CONN_MAX_AGE": "0",
        "REDIS_URL": settings.CELERY_BROKER_URL,
        "CELERY_QUEUE": queue,
        "EMAIL_URL": f"smtp://127.0.0.1:{smtp_port}",
        **env,
    }
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool",
            pool,
            "--concurrency",
            "1",
            "-Q",
            queue,
            "--without-heartbeat",
            "--without-mingle",
            "--without-gossip",
            "--loglevel",
            "WARNING",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture
def queue():
    """A queue of this test's own, its tasks sent to workers, not run in-process."""
    name = f"test-{uuid.uuid4().hex[:10]}"
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        yield name
    finally:
        app.conf.task_always_eager = previous
        redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(name)


@pytest.fixture
def worker(queue, smtp_inbox):
    process = start_worker(queue, smtp_inbox[1])
    yield queue
    stop(process)


def test_l8_a_real_worker_runs_the_night_and_the_digest_arrives_over_smtp(
    transactional_db, worker, smtp_inbox, match, institution, director
):
    day = match.deadline.astimezone(institution.tz).date() + timedelta(days=1)

    result = run_nightly_for_institution.apply_async(
        args=[institution.pk, day.isoformat()], queue=worker
    )
    line = result.get(timeout=90)

    assert line.startswith("forfeits=1 ") and "digests_sent=1" in line
    match.refresh_from_db()
    assert match.status == MatchStatus.DOUBLE_FORFEIT
    inbox, _ = smtp_inbox
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any(
        director.user.email in e.rcpt_tos for e in inbox.messages
    ):
        time.sleep(0.2)
    digests = [e for e in inbox.messages if director.user.email in e.rcpt_tos]
    assert len(digests) == 1, [e.rcpt_tos for e in inbox.messages]
    message = message_from_bytes(digests[0].content, policy=policy.default)
    assert "Example State University: what needs you today" in message["Subject"]
    assert "DOUBLE FORFEITS RECORDED TONIGHT (1)" in message.get_body(("plain",)).get_content()
    assert "<h2" in message.get_body(("html",)).get_content()


# --- A worker lost mid-night (L8) ------------------------------------------------------------------


def _wait_for(condition, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


def _someone_waits_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE wait_event_type = 'Lock' AND datname = current_database()"
        )
        return cursor.fetchone()[0] > 0


def _pool_child(pid: int) -> int:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    _wait_for(lambda: path.read_text().split(), "the pool's child", timeout=30)
    return int(path.read_text().split()[0])


@pytest.mark.parametrize("killed", ["worker", "pool child"])
def test_l8_a_worker_killed_mid_night_then_restarted_sends_the_nights_digest_and_no_notice_twice(
    killed, transactional_db, queue, smtp_inbox, match, league, institution, director
):
    inbox, port = smtp_inbox
    matches = [match] + [new_match(league) for _ in range(2)]  # all due with `match`
    players = {seat.player.user.email for m in matches for seat in m.seats.all()}
    day = match.deadline.astimezone(institution.tz).date()
    pool = "solo" if killed == "worker" else "prefork"
    env = {"CELERY_VISIBILITY_TIMEOUT": "2"}  # seconds, for the test; 35 minutes by default
    process = start_worker(queue, port, pool=pool, **env)
    try:
        with transaction.atomic():
            # The day's digest claimed and not committed: the worker's own claim waits behind
            # it, after the night's forfeits committed and before its digest.
            DigestLog.objects.create(institution=institution, day=day)
            result = run_nightly_for_institution.apply_async(
                args=[institution.pk, day.isoformat()], queue=queue
            )
            _wait_for(
                lambda: (
                    Match.objects.filter(status=MatchStatus.DOUBLE_FORFEIT).count() == 3
                    and _someone_waits_on_a_lock()
                ),
                "the worker to reach the digest",
            )
            os.kill(process.pid if killed == "worker" else _pool_child(process.pid), SIGKILL)
            transaction.set_rollback(True)
        if killed == "worker":
            process.wait(timeout=10)
            time.sleep(2.5)  # past the visibility timeout: Redis hands the task out again
            process = start_worker(queue, port, pool=pool, **env)
        line = result.get(timeout=90)

        assert line.startswith("forfeits=0 ") and "digests_sent=1" in line  # the rerun's own
        _wait_for(
            lambda: (
                players | {director.user.email} <= {to for e in inbox.messages for to in e.rcpt_tos}
            ),
            "the notices and the digest",
        )
        time.sleep(1)  # room for a duplicate to arrive
    finally:
        stop(process)
    received = [to for e in inbox.messages for to in e.rcpt_tos]
    assert sorted(received) == sorted([*players, director.user.email])  # each told once
    digest = next(e for e in inbox.messages if director.user.email in e.rcpt_tos)
    body = message_from_bytes(digest.content, policy=policy.default).get_body(("plain",))
    assert "DOUBLE FORFEITS RECORDED TONIGHT (3)" in body.get_content()
