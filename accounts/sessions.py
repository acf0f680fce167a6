"""The session engine (SESSION_ENGINE = "accounts.sessions"): Django's database sessions with the
signed-in user as a column, so a person's sessions can be found and ended: forgetting them
(accounts/services/forgetting.py) signs them out everywhere, and their personal data lists when
each session ends (league/personal_data.py).

Reading a session is Django's own; Django's AuthenticationMiddleware then reads the user
(accounts/backends.py). An earlier version read the user with the session in one compiled
query and checked the session as Django's `get_user` does: at ten times the data no page went
over 100 ms at p99 without it, so it went (issue 34, docs/performance.md).
"""

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore

from .models import UserSession


class SessionStore(DatabaseSessionStore):
    @classmethod
    def get_model_class(cls):
        return UserSession

    def create_model_instance(self, data):
        row = super().create_model_instance(data)
        try:
            row.user_id = int(data[SESSION_KEY])
        except (KeyError, TypeError, ValueError):
            row.user_id = None
        return row
