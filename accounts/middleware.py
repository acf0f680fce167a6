"""Who is signed in, from the user the session read with itself (accounts/sessions.py)."""

from django.conf import settings
from django.contrib import auth
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject


def _session_user(request):
    """The user the session row was read with, when the session vouches for them exactly as
    Django's `auth.get_user` checks it; None sends the request down Django's own path."""
    session = request.session
    try:
        user_id = session[SESSION_KEY]  # reads the session (and its user) if not read yet
        backend_path = session[BACKEND_SESSION_KEY]
    except KeyError:
        return None
    user = getattr(session, "loaded_user", None)
    if user is None or str(user.pk) != str(user_id):
        return None
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return None
    backend = auth.load_backend(backend_path)
    can_sign_in = getattr(backend, "user_can_authenticate", None)
    if can_sign_in is not None and not can_sign_in(user):
        return None
    session_hash = session.get(HASH_SESSION_KEY)
    if not session_hash or not constant_time_compare(session_hash, user.get_session_auth_hash()):
        return None  # Django's path also tries the fallback secrets, then flushes
    return user


def _user(request):
    if not hasattr(request, "_cached_user"):
        request._cached_user = _session_user(request) or auth.get_user(request)
    return request._cached_user


class SessionUserMiddleware(AuthenticationMiddleware):
    """Django's AuthenticationMiddleware, taking the user from the session's own query."""

    def process_request(self, request):
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: _user(request))
