"""Nothing assumes one process (issue 34): two gunicorn instances, two Celery workers and beat,
real processes against one PostgreSQL and one Redis, as a deployment grown to two web hosts
runs. A session made on one instance serves the other; failed logins on both count toward one
limit; a report made on one and confirmed on the other shows on both instances' standings; and
each e-mail it causes leaves the shared outbox once, whichever worker claims it."""

import json
import re
import subprocess
import sys
import uuid
from http.client import HTTPConnection
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connection
from post_office.models import STATUS, Email

from config.celery import app
from matches.models import MatchStatus, ResultReport
from tests.project.test_celery_worker import celery, celery_env, stop, wait_for
from tests.support import PASSWORD, ROOT, eligible_student, free_port, gunicorn

pytestmark = pytest.mark.system


class Browser:
    """Just enough of a browser for these pages: cookies kept by hand (the production settings
    mark them Secure, and the requests say they came through the TLS proxy), the CSRF token
    sent back as Django wants it."""

    def __init__(self):
        self.cookies: dict[str, str] = {}

    def request(self, port: int, method: str, path: str, form: dict | None = None):
        connection = HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {
            "Host": "127.0.0.1",
            "X-Forwarded-Proto": "https",
            "Referer": "https://127.0.0.1/",
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
        }
        body = None
        if form is not None:
            form = {"csrfmiddlewaretoken": self.cookies.get("csrftoken", ""), **form}
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        text = response.read().decode()
        connection.close()
        return response.status, text

    def log_in(self, port: int, email: str, password: str):
        self.request(port, "GET", "/accounts/login/")  # the CSRF cookie
        return self.request(
            port, "POST", "/accounts/login/", {"login": email, "password": password}
        )


def standings_of(browser: Browser, port: int, slug: str) -> list[tuple[str, float]]:
    status, text = browser.request(port, "GET", f"/example-state/leagues/{slug}/standings.json")
    assert status == 200, text[:300]
    return [(row["player"], row["wins"]) for row in json.loads(text)["standings"]]


def test_two_web_instances_and_two_workers_share_sessions_limits_pages_and_the_outbox(
    transactional_db, smtp_inbox, match, league, player, opponent, tmp_path
):
    cy = eligible_student(league.season)
    hasher = PBKDF2PasswordHasher()  # the production settings' (the tests' own is MD5)
    for person in (player, opponent, cy):
        person.user.password = hasher.encode(PASSWORD, hasher.salt(), iterations=1000)
        person.user.save(update_fields=["password"])
    inbox, smtp_port = smtp_inbox
    queue = f"test-{uuid.uuid4().hex[:10]}"
    env = {
        **celery_env(settings.CELERY_BROKER_URL, queue, smtp_port),
        "ALLOWED_HOSTS": "127.0.0.1",
        "CONN_MAX_AGE": "60",
    }
    # As the image's build and compose's one-shot `migrate` do: the static files' manifest the
    # production settings serve from, and the cache table the rate limits are kept in.
    for step in (["collectstatic", "--noinput", "-v", "0"], ["createcachetable"]):
        subprocess.run([sys.executable, "manage.py", *step], cwd=ROOT, env=env, check=True)
    one, two = free_port(), free_port()
    processes = [gunicorn(port, env, tmp_path / f"web-{port}.log") for port in (one, two)]
    worker_args = ["worker", "--pool", "solo", "-Q", queue, "--without-heartbeat"]
    processes += [celery(*worker_args, "-n", f"w{n}@%h", env=env) for n in range(2)]
    processes.append(celery("beat", env=env))
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        # A session made on one instance serves the other (sessions in PostgreSQL).
        ada = Browser()
        status, _ = ada.log_in(one, player.user.email, PASSWORD)
        assert status == 302
        status, page = ada.request(two, "GET", "/profile/")
        assert status == 200 and player.user.email in page

        # Failed logins on both instances count toward one limit (allauth's, in the shared
        # cache): five wrong passwords, then even the right one is refused for a while.
        stranger = Browser()
        for port in (one, two, one, two, one):
            status, page = stranger.log_in(port, cy.user.email, "wrong-password")
            assert status == 200
        status, page = stranger.log_in(two, cy.user.email, PASSWORD)
        assert status != 302 and re.search(r"too many failed login attempts", page, re.I)

        # Reported on one instance, confirmed on the other: both serve the new standings.
        status, _ = ada.request(
            one,
            "POST",
            f"/matches/{match.pk}/report/",
            {"score_1": 400, "score_2": 350, "ended_by": "went_out"},
        )
        assert status == 302
        bo = Browser()
        assert bo.log_in(two, opponent.user.email, PASSWORD)[0] == 302
        report = ResultReport.objects.get(match=match)
        status, _ = bo.request(two, "POST", f"/matches/{match.pk}/confirm/{report.pk}/", {})
        assert status == 302
        first, second = standings_of(ada, one, league.slug), standings_of(bo, two, league.slug)
        assert first == second and sum(wins for _, wins in first) == 1

        # Each e-mail the report and its confirmation put in the shared outbox arrives once,
        # whichever of the two workers claimed it (beat starts the sending every 10 s).
        sent = Email.objects.all()
        assert wait_for(lambda: sent.exclude(status=STATUS.sent).count() == 0, 90)
        assert wait_for(lambda: len(inbox.messages) >= sent.count(), 30)
    finally:
        app.conf.task_always_eager = previous
        for process in processes:
            stop(process)
        with connection.cursor() as cursor:  # the rate limits' rows: no other test's business
            cursor.execute("DROP TABLE IF EXISTS django_cache")

    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED
    assert sent.count() >= 2  # "confirm, please" to Bo, "confirmed" to Ada
    assert len(inbox.messages) == sent.count()  # none twice
    told = {address for message in inbox.messages for address in message.rcpt_tos}
    assert {player.user.email, opponent.user.email} <= told
