"""The session engine (SESSION_ENGINE = "accounts.sessions"): Django's database sessions with
the signed-in user as a column, read with the session in one query.

Django reads the session, then the user, on every signed-in request: two round trips before a
page does any work. Here the session row is read with its user, the user's profile and
institution joined, and whether the user holds each role, and
`accounts.middleware.SessionUserMiddleware` takes that user when the session vouches for it as
Django would (same id, a configured backend, the user may sign in, the password hash matches);
anything else goes through Django's own `get_user`. Nothing is cached between requests, so a
changed password or a deactivated account counts at once, and no Redis is involved.

The query is the ORM's own (`select_related`), but writing that four-table SELECT takes the ORM
longer than the database takes to answer it, on every signed-in request: it is a
`core.compiled.CompiledQuery`, written once per process and only run after (and PostgreSQL's
prepared statements, config/settings.py, save planning it).
"""

import logging
from datetime import datetime

from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.core.exceptions import SuspiciousOperation
from django.db.models import Exists, OuterRef
from django.utils import timezone

from core.compiled import CompiledQuery

from . import roles
from .models import UserSession

# Whether the session's user holds each role, as EXISTS columns of the session's query: the
# navigation and every rights check ask (accounts.roles), and a query for the user's groups on
# each page took longer than the session's own. The roles are three fixed groups.
ROLE_FLAGS = {f"user_has_role_{index}": role for index, role in enumerate(roles.ROLES)}


def _session_with_user(key: str, now: datetime):
    memberships = get_user_model().groups.through.objects
    return (
        UserSession.objects.select_related("user__profile__institution")
        .annotate(
            **{
                flag: Exists(memberships.filter(user_id=OuterRef("user_id"), group__name=role))
                for flag, role in ROLE_FLAGS.items()
            }
        )
        .filter(session_key=key, expire_date__gt=now)
    )


SESSION_WITH_USER = CompiledQuery(_session_with_user, key=str, now=datetime)


def session_with_user(key: str, now: datetime):
    """The session object with its user, the user's profile, institution and roles, or None."""
    session = SESSION_WITH_USER.first(key=key, now=now)
    if session is not None and session.user is not None:
        # accounts.roles.in_group takes these rather than reading the user's groups.
        session.user._group_names = {
            role for flag, role in ROLE_FLAGS.items() if getattr(session, flag)
        }
    return session


class SessionStore(DatabaseSessionStore):
    loaded_user = None  # the user the session row named when it was read, if any

    @classmethod
    def get_model_class(cls):
        return UserSession

    def _get_session_from_db(self):
        try:
            row = session_with_user(self.session_key, timezone.now())
            if row is None:
                raise self.model.DoesNotExist
        except (self.model.DoesNotExist, SuspiciousOperation) as error:
            if isinstance(error, SuspiciousOperation):
                logger = logging.getLogger(f"django.security.{error.__class__.__name__}")
                logger.warning(str(error))
            self._session_key = None
            return None
        self.loaded_user = row.user
        return row

    def create_model_instance(self, data):
        row = super().create_model_instance(data)
        try:
            row.user_id = int(data[SESSION_KEY])
        except (KeyError, TypeError, ValueError):
            row.user_id = None
        return row
