"""Personas (healthchecks style): one who owns, one who may read, one who must be refused; and the
markers: `browser` (Chromium through Playwright) and `system` (other processes: a Celery worker,
gunicorn, a broker outage) are set by their modules, `pure` on every test that touches no
database, read from the fixtures it uses (``-m pure`` runs in seconds)."""

import os

import pytest

from accounts import roles
from tests.support import (
    InstitutionFactory,
    ProfileFactory,
    SeasonFactory,
    UserFactory,
    entrant,
    staff_member,
)

# Playwright's sync API runs an event loop; pytest-django's live server is fine with that.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


# A test that asks for one of these (or is marked django_db) reaches the database.
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "live_server",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
}


@pytest.hookimpl(trylast=True)  # after pytest-django has put the database tests first
def pytest_collection_modifyitems(items):
    for item in items:
        if item.get_closest_marker("django_db") is None and not (
            DATABASE_FIXTURES & set(item.fixturenames)
        ):
            item.add_marker(pytest.mark.pure)
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers > 1:
        items[:] = _long_ones_first_on_every_worker(items, workers)


def _weight(item) -> float:
    """A rough cost: a browser journey or another process most, a test on committed data (the
    database flushed after it) more than one rolled back; the readers of the seeded demo share
    its ten seconds."""
    if item.get_closest_marker("browser"):
        return 20
    if item.get_closest_marker("system"):
        return 10
    marker = item.get_closest_marker("django_db")
    if {"transactional_db", "live_server"} & set(item.fixturenames) or (
        marker is not None and marker.kwargs.get("transaction")
    ):
        return 3
    if "demo" in item.fixturenames:
        return 2
    return 0.1


def _long_ones_first_on_every_worker(items, workers):
    """xdist's worksteal hands each worker an equal slice of the collection, in order, and an idle
    worker takes the far end of another's queue. In pytest-django's order the long tests (the
    committed ones) sat together in the last slice, and a journey of a minute could start when
    the other worker had nothing left. Here each slice starts with its share of the long tests,
    longest first, so the run ends on short ones. The same order on every worker: only the
    collection decides it. Runs of one module stay together (a module's fixture is set up once)."""
    units = []  # consecutive items of one module, all long or all short
    for item in items:
        weight = _weight(item)
        long = weight >= 2
        if units and units[-1]["module"] == item.module and units[-1]["long"] == long:
            units[-1]["items"].append(item)
            units[-1]["weight"] += weight
        else:
            units.append({"module": item.module, "long": long, "items": [item], "weight": weight})
    slices = [{"weight": 0.0, "items": []} for _ in range(workers)]
    for unit in sorted((u for u in units if u["long"]), key=lambda u: -u["weight"]):
        lightest = min(slices, key=lambda s: s["weight"])
        lightest["weight"] += unit["weight"]
        lightest["items"] += unit["items"]
    short = [item for unit in units if not unit["long"] for item in unit["items"]]
    ordered, left = [], len(items)
    for index, part in enumerate(slices):
        size = left // (workers - index)  # as worksteal splits the collection
        fill = max(0, size - len(part["items"]))
        ordered += part["items"] + short[:fill]
        short = short[fill:]
        left -= size
    return ordered + short


@pytest.fixture(scope="session", autouse=True)
def close_stray_sessions(django_db_setup, django_db_blocker):
    """Threads of the live server and the race tests may leave a session open; end them so the
    test database is dropped at the end instead of lingering."""
    yield
    from django.db import connection

    if not connection.settings_dict["NAME"].startswith("test_"):
        return  # no test used the database: nothing was created
    with django_db_blocker.unblock():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )


@pytest.fixture(autouse=True)
def empty_cache():
    """allauth rate-limits e-mails and logins through the cache; no test inherits another's."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def institution(db):
    roles.sync_groups()
    return InstitutionFactory(
        slug="example-state", email_domains="example.edu", name="Example State University"
    )


@pytest.fixture
def other_institution(db):
    return InstitutionFactory(
        slug="elsewhere", email_domains="elsewhere.example.org", name="Elsewhere College"
    )


@pytest.fixture
def season(institution):
    return SeasonFactory(institution=institution, name="Fall 2026", slug="fall-2026")


@pytest.fixture
def player(institution):
    return ProfileFactory(
        institution=institution, user__first_name="Rowan", user__last_name="Pemberton"
    )


@pytest.fixture
def opponent(institution):
    return ProfileFactory(
        institution=institution, user__first_name="Sage", user__last_name="Okafor"
    )


@pytest.fixture
def outsider(other_institution):
    return ProfileFactory(institution=other_institution)


@pytest.fixture
def staff(institution):
    """Front-desk staff of the institution."""
    return staff_member(institution, roles.FRONT_DESK)


@pytest.fixture
def director(institution):
    return staff_member(institution, roles.DIRECTORS)


@pytest.fixture
def other_director(other_institution):
    return staff_member(other_institution, roles.DIRECTORS)


@pytest.fixture
def other_staff(other_institution):
    return staff_member(other_institution, roles.FRONT_DESK)


@pytest.fixture
def site_admin(db):
    return UserFactory(is_staff=True, is_superuser=True, email="root@example.org")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's Chromium: Playwright never downloads a browser here."""
    return {
        **browser_type_launch_args,
        "executable_path": "/usr/bin/chromium",
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture
def league(season):
    from tests.support import LeagueFactory

    return LeagueFactory(season=season, name="Tuesday League", slug="tuesday")


@pytest.fixture
def match(league, player, opponent, season):
    """An unscheduled match between two eligible players, due in a week; player sits first."""
    from tests.support import eligible, match_between

    eligible(player, season)
    eligible(opponent, season)
    return match_between(league, player, opponent)


@pytest.fixture
def race_match(transactional_db, match, player, opponent):
    """The `match` fixture committed for real, so that threads on their own database connections
    see it: (match, the player in seat 1, the opponent in seat 2)."""
    return match, player, opponent


@pytest.fixture
def table(league):
    """Four eligible entrants: Ada, Bo, Cy, Di."""
    return [
        entrant(league, first_name=name, last_name="Example") for name in ("Ada", "Bo", "Cy", "Di")
    ]
