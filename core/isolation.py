"""Work that fails alone. What follows a saved write (refreshing a league's standings and pages,
rating, the nightly's steps for each league) runs in a transaction of its own, or a savepoint
inside the writer's, through ``attempt``: a failure there is logged with what it was about,
rolled back, and handed back in words, so the write before it stays saved and the other leagues
go on. The error itself goes to the log, never to a page.

A lost database connection is not such a failure: nothing more can be done on it, so it is
raised as it is (a page answers "not saved, try again", a task retries)."""

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import psycopg
from celery.exceptions import SoftTimeLimitExceeded
from django.db import DataError, IntegrityError, InterfaceError, OperationalError, connection

logger = logging.getLogger("failures")

T = TypeVar("T")

# Errors of values the database refused, and of the connection itself: Django's, and psycopg's
# own, which COPY raises unwrapped (core/copy.py).
REFUSED_VALUE = (DataError, IntegrityError, psycopg.DataError, psycopg.IntegrityError)
CONNECTION = (OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError)


@dataclass(frozen=True)
class Failure:
    """A step that failed, in words for the director: `step` names it ("standings",
    "forfeits"), `reason` says what went wrong without the error's own text."""

    step: str
    reason: str


# What each step stores, for the words of a value the database refused there.
STORED_BY_STEP = {
    "standings": "a total the standings could not store",
    "bracket": "a result the bracket could not store",
    "pages": "a page that could not be stored",
    "rating": "a rating that could not be stored",
}


def in_words(step: str, error: BaseException) -> str:
    """What went wrong, for a director: a value the database refused, or an error the log has."""
    if isinstance(error, REFUSED_VALUE):
        return STORED_BY_STEP.get(step, "a value the database could not store")
    return "an unexpected error (the server's log has it)"


class StepFailed(Exception):
    """Raised inside a piece of work to say which of its steps failed (``step``), keeping the
    error as its cause."""

    def __init__(self, step: str, error: BaseException):
        super().__init__(f"{step}: {error}")
        self.step = step
        self.error = error


def database_lost(error: BaseException) -> bool:
    """The connection, not the work, failed: the transaction around cannot go on (a savepoint
    that could not be rolled back), or the server is gone."""
    if connection.in_atomic_block and connection.needs_rollback:
        return True
    if isinstance(error, CONNECTION):
        return connection.connection is None or not connection.is_usable()
    return False


def attempt(
    step: str, work: Callable[[], T], *, about: str | Callable[[], str]
) -> tuple[T | None, Failure | None]:
    """Run `work`, which keeps all it writes in one transaction of its own (a savepoint when the
    caller is in one), and return (its result, None); when it fails, log the error with `about`
    (whose work it was, "campus: league-slug"; a callable is asked only then) and return (None,
    the failure in words). A task's time limit is no failure of the work: it is raised."""
    try:
        return work(), None
    except Exception as error:
        if isinstance(error, SoftTimeLimitExceeded) or database_lost(error):
            raise
        if isinstance(error, StepFailed):
            step, error = error.step, error.error
        about = about() if callable(about) else about
        logger.error("%s: %s failed", about, step, exc_info=error)
        return None, Failure(step, in_words(step, error))
