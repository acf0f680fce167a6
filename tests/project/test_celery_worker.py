"""Real parts: a Celery worker and beat, as docker-compose runs them, on a real Redis and the test
database. The worker runs the nightly pipeline; the mail it writes to the outbox is sent on beat's
next tick through Django's SMTP backend to a real SMTP server on loopback (aiosmtpd), where this
test reads it back. And the same with the broker stopped and started again (issue #13), a worker
killed mid-night, and a sender killed again and again mid-send (Trust on event day)."""

import os
import subprocess
import sys
import time
import uuid
from contextlib import contextmanager
from datetime import timedelta
from email import message_from_bytes, policy
from pathlib import Path
from signal import SIGKILL

import pytest
import redis
from aiosmtpd.controller import Controller
from django.conf import settings
from django.core.mail import EmailMessage
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from post_office.models import STATUS, Email

from config.celery import app
from core.tasks import queue_emails, send_queued_mail
from league.tasks import run_nightly_for_institution
from matches.models import MatchStatus, ResultReport
from tests.support import ROOT, SlowInbox, free_port, match_between

pytestmark = pytest.mark.system


def celery_env(broker_url: str, queue: str, smtp_port: int) -> dict:
    return {
        **{k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "DEBUG"}},
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": "worker-test-secret-key-0000000000000000000000000000",
        "ALLOWED_HOSTS": "localhost",
        "DATABASE_URL": "postgres://{USER}@{HOST}:{PORT}/{NAME}".format(**connection.settings_dict),
        "CONN_MAX_AGE": "0",
        "REDIS_URL": broker_url,
        "CELERY_QUEUE": queue,
        "EMAIL_URL": f"smtp://127.0.0.1:{smtp_port}",
    }


def celery(*args, env) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", *args, "--loglevel", "WARNING"],
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


@contextmanager
def deployment(broker_url: str, smtp_port: int):
    """A real `celery worker` and `celery beat`, as docker-compose runs them, on a queue of their
    own so that nothing else sharing this Redis can take their tasks. Yields the queue."""
    queue = f"test-{uuid.uuid4().hex[:10]}"
    env = celery_env(broker_url, queue, smtp_port)
    worker = celery(
        "worker",
        "--pool",
        "solo",
        "-Q",
        queue,
        "--without-heartbeat",
        "--without-mingle",
        "--without-gossip",
        env=env,
    )
    beat = celery("beat", env=env)
    previous = app.conf.task_always_eager, app.conf.broker_url
    app.conf.task_always_eager, app.conf.broker_url = False, broker_url
    app._pool = None
    try:
        yield queue
    finally:
        app.conf.task_always_eager, app.conf.broker_url = previous
        app._pool = None
        stop(beat)
        stop(worker)
        try:
            redis.Redis.from_url(broker_url).delete(queue)
        except redis.ConnectionError:
            pass


def wait_for(condition, seconds: float):
    """The condition's first true value within `seconds`, or its last false one."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if value := condition():
            return value
        time.sleep(0.2)
    return condition()


def test_l8_a_real_worker_runs_the_night_and_the_digest_arrives_over_smtp(
    transactional_db, smtp_inbox, match, institution, director
):
    day = match.deadline.astimezone(institution.tz).date() + timedelta(days=1)
    inbox, port = smtp_inbox

    with deployment(settings.CELERY_BROKER_URL, port) as queue:
        result = run_nightly_for_institution.apply_async(
            args=[institution.pk, day.isoformat()], queue=queue
        )
        # Beat's next tick (every 10 s) sends what the night wrote to the outbox.
        arrived = wait_for(
            lambda: any(director.user.email in e.rcpt_tos for e in inbox.messages), 90
        )

    assert arrived, [e.rcpt_tos for e in inbox.messages]
    match.refresh_from_db()
    assert match.status == MatchStatus.DOUBLE_FORFEIT
    digests = [e for e in inbox.messages if director.user.email in e.rcpt_tos]
    assert len(digests) == 1, [e.rcpt_tos for e in inbox.messages]
    message = message_from_bytes(digests[0].content, policy=policy.default)
    assert "Example State University: what needs you today" in message["Subject"]
    assert "DOUBLE FORFEITS RECORDED TONIGHT (1)" in message.get_body(("plain",)).get_content()
    assert "<h2" in message.get_body(("html",)).get_content()
    # Nobody reads a task's result, so none is stored (Redis held thousands of them).
    assert not redis.Redis.from_url(settings.CELERY_BROKER_URL).exists(
        f"celery-task-meta-{result.id}"
    )


@pytest.fixture
def private_redis(tmp_path):
    """A Redis server of this test's own, which it can stop and start again."""
    port = free_port()
    command = ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", ""]
    command += ["--appendonly", "no", "--dir", str(tmp_path)]
    server = {"process": None}

    def start():
        server["process"] = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        client = redis.Redis(port=port)
        assert wait_for(lambda: _answers(client), 10), "redis-server did not start"

    def down():
        stop(server["process"])

    start()
    yield f"redis://127.0.0.1:{port}/0", down, start
    down()


def _answers(client) -> bool:
    try:
        return client.ping()
    except redis.ConnectionError:
        return False


def test_l6_l8_with_the_broker_down_requests_and_the_night_succeed_and_the_mail_arrives_once_it_is_back(
    transactional_db,
    smtp_inbox,
    private_redis,
    match,
    league,
    player,
    opponent,
    institution,
    director,
):
    """The fault test of issue #13, with real processes: Redis stops under a running worker and
    beat; a report, its confirmation and the night all succeed; Redis starts again and every
    message arrives, once. Prints how long after the broker came back the last one arrived."""
    broker_url, broker_down, broker_up = private_redis
    inbox, port = smtp_inbox
    late = match_between(league, player, opponent, play_by=match.deadline.date())
    day = late.deadline.astimezone(institution.tz).date() + timedelta(days=1)
    client = Client()

    with deployment(broker_url, port):
        time.sleep(3)  # the worker and beat connect
        broker_down()
        client.force_login(player.user)
        reported = client.post(
            reverse("match_report", args=[match.pk]),
            {"score_1": 400, "score_2": 350, "ended_by": "went_out"},
        )
        client.force_login(opponent.user)
        report = ResultReport.objects.get(match=match)
        confirmed = client.post(reverse("match_confirm", args=[match.pk, report.pk]))
        call_command("run_nightly", "--today", day.isoformat(), stdout=None)
        waiting = Email.objects.filter(status=STATUS.queued).count()
        time.sleep(5)  # the outage goes on; nothing can be sent
        lost_nothing_yet = not inbox.messages
        broker_up()
        back = time.monotonic()
        arrived = wait_for(lambda: len(inbox.messages) >= waiting, 120)
        delay = time.monotonic() - back

    assert (reported.status_code, confirmed.status_code) == (302, 302)
    assert waiting >= 4 and lost_nothing_yet  # confirm-please, confirmed, two forfeits, digest
    assert arrived, f"{len(inbox.messages)} of {waiting} arrived"
    assert len(inbox.messages) == waiting  # each once
    assert not Email.objects.exclude(status=STATUS.sent).exists()
    told = {address for e in inbox.messages for address in e.rcpt_tos}
    assert {player.user.email, opponent.user.email, director.user.email} <= told
    print(f"\nmail delay after the broker came back: {delay:.1f} s for {waiting} messages")


# --- A worker lost mid-night (L8) ------------------------------------------------------------------


def _someone_waits_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE wait_event_type = 'Lock' AND datname = current_database()"
        )
        return cursor.fetchone()[0] > 0


def _pool_child(pid: int) -> int:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    assert wait_for(lambda: path.read_text().split(), 30), "the pool's child did not start"
    return int(path.read_text().split()[0])


@pytest.mark.parametrize("killed", ["worker", "pool child"])
def test_l8_a_worker_killed_mid_night_then_restarted_sends_the_nights_digest_and_no_notice_twice(
    killed, transactional_db, smtp_inbox, match, league, institution, director
):
    """The worker dies after the night's forfeits committed and before its digest; the task goes
    back to the queue (a lost worker's after the visibility timeout, a lost pool child's at once),
    and the rerun's digest still lists the night's three forfeits. Each player's notice is in the
    outbox once (written with the forfeits), and so is the digest."""
    from league.models import DigestLog, NightlyRun
    from matches.models import Match
    from tests.support import new_match

    _, port = smtp_inbox
    matches = [match] + [new_match(league) for _ in range(2)]  # all due with `match`
    players = sorted(seat.player.user.email for m in matches for seat in m.seats.all())
    day = match.deadline.astimezone(institution.tz).date()
    pool = "solo" if killed == "worker" else "prefork"
    queue = f"test-{uuid.uuid4().hex[:10]}"
    # Seconds, for the test (35 minutes by default): Redis hands a lost worker's task out again.
    env = {
        **celery_env(settings.CELERY_BROKER_URL, queue, port),
        "CELERY_VISIBILITY_TIMEOUT": "2",
        "NIGHTLY_LEASE_SECONDS": "1",  # the dead worker's night is free when its task comes back
    }
    worker_args = ["worker", "--pool", pool, "--concurrency", "1", "-Q", queue]
    worker_args += ["--without-heartbeat", "--without-mingle", "--without-gossip"]
    process = celery(*worker_args, env=env)
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        with transaction.atomic():
            # The day's digest claimed and not committed: the worker's own claim waits behind
            # it, after the night's forfeits committed and before its digest.
            DigestLog.objects.create(institution=institution, day=day)
            run_nightly_for_institution.apply_async(
                args=[institution.pk, day.isoformat()], queue=queue
            )
            assert wait_for(
                lambda: (
                    Match.objects.filter(status=MatchStatus.DOUBLE_FORFEIT).count() == 3
                    and _someone_waits_on_a_lock()
                ),
                60,
            ), "the worker did not reach the digest"
            os.kill(process.pid if killed == "worker" else _pool_child(process.pid), SIGKILL)
            transaction.set_rollback(True)
        if killed == "worker":
            process.wait(timeout=10)
            time.sleep(2.5)  # past the visibility timeout
            process = celery(*worker_args, env=env)
        finished = NightlyRun.objects.filter(
            institution=institution, day=day, finished_at__isnull=False
        )
        assert wait_for(finished.exists, 90), "the task did not come back"
    finally:
        app.conf.task_always_eager = previous
        stop(process)
        redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(queue)

    outbox = list(Email.objects.all())
    notices = sorted(e.to[0] for e in outbox if "Double forfeit ·" in e.subject)
    assert notices == players  # each told once
    digests = [e for e in outbox if director.user.email in e.to]
    assert len(digests) == 1
    assert "DOUBLE FORFEITS RECORDED TONIGHT (3)" in digests[0].message


# --- A sender killed mid-send (Trust on event day) -------------------------------------------------


def _sending_child(worker: int, smtp_port: int) -> int | None:
    """A pool child of this worker with a connection open to the SMTP server: one sending now
    (a sender keeps its SMTP connection for the whole run)."""
    connected = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[2] == f"0100007F:{smtp_port:04X}" and fields[3] == "01":  # ESTABLISHED
            connected.add(f"socket:[{fields[9]}]")
    children = Path(f"/proc/{worker}/task/{worker}/children").read_text().split()
    for child in children:
        try:
            fds = [os.readlink(f) for f in Path(f"/proc/{child}/fd").iterdir()]
        except FileNotFoundError:
            continue  # gone meanwhile
        if connected.intersection(fds):
            return int(child)
    return None


def test_a_sender_killed_again_and_again_mid_send_delivers_everything_repeating_at_most_one_message_a_crash(
    transactional_db,
):
    """600 queued and a pool child killed mid-batch used to repeat 88 and 75 messages: the outbox
    marked a batch sent only after all of it. Here a real worker with two pool children sends a
    few hundred messages to a real SMTP server, and four times a child is killed while it sends;
    the worker forks a new one, the killed tick goes back to the queue, and beat's ticks (every
    second here, every 10 s in production) go on. Every message arrives, and each crash repeats
    at most the one message in flight. Prints how long it took."""
    started = time.monotonic()
    total, crashes = 300, 4
    inbox = SlowInbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    queue = f"test-{uuid.uuid4().hex[:10]}"
    env = celery_env(settings.CELERY_BROKER_URL, queue, controller.port)
    worker_args = ["worker", "--pool", "prefork", "--concurrency", "2", "-Q", queue]
    worker_args += ["--without-heartbeat", "--without-mingle", "--without-gossip"]
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False  # queued for the worker, not sent in this process
    worker = None
    arrived_at_each_crash: list[int] = []
    try:
        queue_emails(
            EmailMessage(f"Table {i}", "Your table", to=[f"entrant{i:03d}@example.edu"])
            for i in range(total)
        )
        worker = celery(*worker_args, env=env)
        last_tick = 0.0

        def tick() -> None:
            nonlocal last_tick
            if time.monotonic() - last_tick >= 1:
                send_queued_mail.apply_async(queue=queue, expires=10)
                last_tick = time.monotonic()

        def arrived() -> set[str]:
            return {e.rcpt_tos[0] for e in inbox.messages}

        for crash in range(1, crashes + 1):
            threshold = total * crash // (crashes + 1)

            def sending_past_threshold(threshold=threshold) -> int | None:
                tick()
                if len(inbox.messages) >= threshold:
                    return _sending_child(worker.pid, controller.port)
                return None

            child = wait_for(sending_past_threshold, 20)
            assert child, f"{len(arrived())} arrived and no pool child sending"
            os.kill(child, SIGKILL)
            arrived_at_each_crash.append(len(arrived()))

        def all_sent() -> bool:
            tick()
            return (
                len(arrived()) == total and not Email.objects.exclude(status=STATUS.sent).exists()
            )

        finished = wait_for(all_sent, 20)
    finally:
        app.conf.task_always_eager = previous
        if worker is not None:
            stop(worker)
        controller.stop()
        redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(queue)

    addresses = [e.rcpt_tos[0] for e in inbox.messages]
    repeats = len(addresses) - len(set(addresses))
    print(
        f"\n{total} messages, a sender killed after {arrived_at_each_crash} had arrived:"
        f" {repeats} repeated, {time.monotonic() - started:.1f} s"
    )
    assert max(arrived_at_each_crash) < total  # each crash came mid-send
    assert finished, f"{len(set(addresses))} of {total} arrived"
    assert repeats <= crashes, f"{repeats} messages arrived twice after {crashes} crashes"
