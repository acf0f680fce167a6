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

import pytest
import redis
from aiosmtpd.controller import Controller
from django.conf import settings
from django.db import connection

from config.celery import app
from league.tasks import run_nightly_for_institution
from matches.models import MatchStatus
from tests.test_email_smtp import Inbox, free_port

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def smtp_inbox():
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield inbox, controller.port
    controller.stop()


@pytest.fixture
def worker(smtp_inbox):
    """A real `celery worker` on its own queue, so nothing else sharing this Redis can take its tasks."""
    queue = f"test-{uuid.uuid4().hex[:10]}"
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "DEBUG"}},
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": "worker-test-secret-key-0000000000000000000000000000",
        "ALLOWED_HOSTS": "localhost",
        "DATABASE_URL": "postgres://{USER}@{HOST}:{PORT}/{NAME}".format(**connection.settings_dict),
        "CONN_MAX_AGE": "0",
        "REDIS_URL": settings.CELERY_BROKER_URL,
        "CELERY_QUEUE": queue,
        "EMAIL_URL": f"smtp://127.0.0.1:{smtp_inbox[1]}",
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool",
            "solo",
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
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        yield queue
    finally:
        app.conf.task_always_eager = previous
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(queue)


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
