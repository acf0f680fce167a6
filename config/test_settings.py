"""Test settings: the real settings with real PostgreSQL and Redis, and only what tests need."""

import hashlib
import os
from pathlib import Path

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production-0000000000000000")
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
# One database per checkout, so a fresh clone's CI run and a working tree never share one.
_checkout = hashlib.sha1(str(Path(__file__).resolve().parent.parent).encode()).hexdigest()[:8]
os.environ.setdefault("DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/league_{_checkout}")
# The Redis server is shared with whatever else runs here: the tests use their own database.
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/13")

from .settings import *  # noqa: E402,F403

# A fast hasher: Django's default costs ~0.27 s per password on this machine.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Tasks run in-process unless a test starts a real worker for them.
CELERY_TASK_ALWAYS_EAGER = True
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"  # noqa: F405
# Static files come straight from the finders: tests never run collectstatic.
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# Each test starts with an empty cache (allauth keeps its rate limits there).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405  (the live server thread must not keep sessions open)
