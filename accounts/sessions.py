"""The session engine (SESSION_ENGINE = "accounts.sessions"): Django's database sessions with
the signed-in user as a column, read with the session in one query.

Django reads the session, then the user, on every signed-in request: two round trips before a
page does any work (issue 18 measured the signed-in floor at a quarter of the floor). Here the
session row is read with its user, the user's profile and institution joined, and
`accounts.middleware.SessionUserMiddleware` takes that user when the session vouches for it as
Django would (same id, a configured backend, the user may sign in, the password hash matches);
anything else goes through Django's own `get_user`. Nothing is cached between requests, so a
changed password or a deactivated account counts at once, and no Redis is involved.
"""

import logging

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.core.exceptions import SuspiciousOperation
from django.utils import timezone


class SessionStore(DatabaseSessionStore):
    loaded_user = None  # the user the session row named when it was read, if any

    @classmethod
    def get_model_class(cls):
        from .models import UserSession

        return UserSession

    def _get_session_from_db(self):
        try:
            row = self.model.objects.select_related("user__profile__institution").get(
                session_key=self.session_key, expire_date__gt=timezone.now()
            )
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
