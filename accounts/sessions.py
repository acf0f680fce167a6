"""The session engine (SESSION_ENGINE = "accounts.sessions"): Django's database sessions with
the signed-in user as a column, read with the session in one query.

Django reads the session, then the user, on every signed-in request: two round trips before a
page does any work (issue 18 measured the signed-in floor at a quarter of the floor). Here the
session row is read with its user, the user's profile and institution joined, and whether the
user holds each role, and `accounts.middleware.SessionUserMiddleware` takes that user when the session vouches for it as
Django would (same id, a configured backend, the user may sign in, the password hash matches);
anything else goes through Django's own `get_user`. Nothing is cached between requests, so a
changed password or a deactivated account counts at once, and no Redis is involved.

The query is the ORM's own (`select_related`), but the ORM spends about a millisecond writing
that four-table SELECT and assembling its objects, twice what the database takes to answer it,
on every signed-in request (and planning it, 0.2 ms more, is saved by PostgreSQL's prepared
statements, config/settings.py). So `SessionQuery` has the ORM write it once per process and keeps
its SQL and the ORM's recipe for turning a row into the session, user, profile and institution
objects; each request only runs it. The objects are the ones the ORM would have built (the same
`from_db` and related-object caches), and a schema change is picked up on the next start.
"""

import logging
from datetime import UTC, datetime

from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.core.exceptions import SuspiciousOperation
from django.db import connections
from django.db.models import Exists, OuterRef
from django.db.models.query import get_related_populators
from django.utils import timezone

from . import roles

# Whether the session's user holds each role, as EXISTS columns of the session's query: the
# navigation and every rights check ask (accounts.roles), and a query for the user's groups on
# each page took longer than the session's own. The roles are three fixed groups.
ROLE_FLAGS = {f"user_has_role_{index}": role for index, role in enumerate(roles.ROLES)}

# Stand-ins for the two parameters while the ORM writes the statement: found again in its
# parameters, they say where each request's values go.
_KEY_MARK = "session-key-placeholder"
_NOW_MARK = datetime(2000, 1, 1, tzinfo=UTC)


class SessionQuery:
    """The session row with its user, the user's profile, institution and roles, as the ORM
    writes and reads it, compiled once per database (see the module's docstring)."""

    def __init__(self, model, using: str):
        memberships = get_user_model().groups.through.objects
        queryset = (
            model.objects.using(using)
            .select_related("user__profile__institution")
            .annotate(
                **{
                    flag: Exists(memberships.filter(user_id=OuterRef("user_id"), group__name=role))
                    for flag, role in ROLE_FLAGS.items()
                }
            )
            .filter(session_key=_KEY_MARK, expire_date__gt=_NOW_MARK)
        )
        self.compiler = queryset.query.get_compiler(using=using)
        self.sql, marked = self.compiler.as_sql()
        adapted_now = connections[using].ops.adapt_datetimefield_value(_NOW_MARK)
        self.params = list(marked)
        (self.key_at,) = [at for at, value in enumerate(marked) if value == _KEY_MARK]
        (self.now_at,) = [at for at, value in enumerate(marked) if value == adapted_now]
        klass_info, select = self.compiler.klass_info, self.compiler.select
        fields = klass_info["select_fields"]
        self.own_columns = slice(fields[0], fields[-1] + 1)
        self.own_names = [column[0].target.attname for column in select[self.own_columns]]
        self.related = get_related_populators(klass_info, select, using)
        self.model, self.using = model, using

    def row(self, session_key: str, now):
        """The session object with its user (and theirs) loaded, or None."""
        connection = connections[self.using]
        params = list(self.params)
        params[self.key_at] = session_key
        params[self.now_at] = connection.ops.adapt_datetimefield_value(now)
        with connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            found = cursor.fetchone()
        if found is None:
            return None
        (converted,) = self.compiler.results_iter(results=[[found]])
        session = self.model.from_db(self.using, self.own_names, converted[self.own_columns])
        for populator in self.related:
            populator.populate(converted, session)
        for name, at in self.compiler.annotation_col_map.items():
            setattr(session, name, converted[at])
        if session.user is not None:
            # accounts.roles.in_group takes these rather than reading the user's groups.
            session.user._group_names = {
                role for flag, role in ROLE_FLAGS.items() if getattr(session, flag)
            }
        return session


_queries: dict[str, SessionQuery] = {}


class SessionStore(DatabaseSessionStore):
    loaded_user = None  # the user the session row named when it was read, if any

    @classmethod
    def get_model_class(cls):
        from .models import UserSession

        return UserSession

    def _get_session_from_db(self):
        using = self.model.objects.db
        if using not in _queries:
            _queries[using] = SessionQuery(self.model, using)
        try:
            row = _queries[using].row(self.session_key, timezone.now())
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
