"""The one settings module, read from the environment (README, "Settings").

With no environment at all it serves the zero-setup demo only when DEBUG is on: SQLite, Celery
tasks run in-process, e-mail printed to the console. With DEBUG off it refuses to start without a
SECRET_KEY and ALLOWED_HOSTS.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from .env import email_settings, env_bool, env_int, env_list

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set SECRET_KEY in the environment (a long random string), "
            "or DEBUG=true for local development only."
        )
    SECRET_KEY = "insecure-development-key-never-used-in-production-000000000000"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS is not set (comma-separated host names).")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "core.admin_site.PanelAdminConfig",  # django.contrib.admin, with the panel as its site
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "allauth",
    "allauth.account",
    # Campus sign-in (single sign-on): each institution's identity provider is an allauth app,
    # set up in the admin (accounts.CampusSignIn).
    "allauth.socialaccount",
    "allauth.socialaccount.providers.openid_connect",
    "allauth.socialaccount.providers.saml",
    "csp",
    "django_celery_beat",
    "post_office",
    "core",
    "accounts",
    "matches",
    "ratings",
    "league",
    "clubs",
    "events",
]

MIDDLEWARE = [
    # /health/ for the container's healthcheck, before the HTTPS redirect and the host check.
    "core.middleware.HealthCheckMiddleware",
    # A request whose database connection was lost: a read answered again, a write 503.
    "core.middleware.DatabaseLostMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Before CsrfViewMiddleware, which reads the body (core/middleware.py).
    "core.middleware.RequestBodyLimitMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # What a service said naming people is said to the request's reader (P1, P2).
    "accounts.naming.ReaderMiddleware",
    # Cache-Control on what belongs to a person (after the user is known).
    "core.middleware.PrivateResponsesMiddleware",
    # Signing out clears the scoring table's offline copies and cards from the device.
    "core.middleware.ClearDeviceAtSignOutMiddleware",
    "core.middleware.CampusTimeMiddleware",
    # X-Robots-Tag: noindex unless a page names nobody or its league opted in (P3).
    "core.middleware.NoIndexMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # After django-csp: the campus sign-in buttons' identity providers join form-action.
    "accounts.campus_csp.CampusFormsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "core.context_processors.frame",
                "accounts.context_processors.navigation",
            ],
        },
    },
    {
        # Only for templates rendered in bulk, asked for by name (``engines["jinja2"]``): a
        # league's standings table and the e-mails about matches (core/jinja.py says why).
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "core.jinja.environment"},
    },
]

# --- Database: DATABASE_URL (postgres://user:pass@host:5432/name); the demo uses SQLite.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        # Persistent connections: without them a one-query page was ~7x slower under gunicorn.
        conn_max_age=env_int("CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # PostgreSQL's JIT spent 1.5-2 s compiling the nightly standings aggregate, which then ran in
    # under one; the app's queries are short, so compiling them never pays for itself.
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c jit=off"
    if env_bool("DATABASE_PREPARED_STATEMENTS", True):
        # Parameters bound by the server, and a statement run five times on a connection is
        # prepared: the database then skips planning it. Planning was a third of a signed-in
        # page's database time (the session's four-table join took 0.2 ms to plan, 0.05 to
        # run; issue 18). Off for a PgBouncer in transaction mode, which cannot keep them.
        DATABASES["default"]["OPTIONS"].update(server_side_binding=True, prepare_threshold=5)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Users and django-allauth: e-mail login, verification mandatory, campus ID at signup.
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    # allauth's backend, loading the profile and institution with the user (accounts.backends);
    # the other two stay so that sessions they signed in keep working.
    "accounts.backends.ProfileAuthenticationBackend",
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_ADAPTER = "accounts.adapters.AccountAdapter"
ACCOUNT_FORMS = {
    "signup": "accounts.forms.CampusSignupForm",
    "add_email": "accounts.forms.CampusEmailChangeForm",
}
ACCOUNT_USER_MODEL_USERNAME_FIELD = None
# Campus sign-in: a student the campus vouches for is signed up at once, with the verified
# address and campus ID it sent (accounts.social). An address that already has an account here
# is joined to the campus identity only after its password is proven (allauth's own flow: log in,
# then connect), never by the address alone.
SOCIALACCOUNT_ADAPTER = "accounts.social.CampusSocialAccountAdapter"
SOCIALACCOUNT_AUTO_SIGNUP = True
SOCIALACCOUNT_EMAIL_AUTHENTICATION = False
SOCIALACCOUNT_EMAIL_REQUIRED = True
SOCIALACCOUNT_STORE_TOKENS = False
# A GET on a provider's button page shows a confirm step; the buttons post.
SOCIALACCOUNT_LOGIN_ON_GET = False
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
# One address per person, changed at /accounts/email/: the new one is pending until its link is
# followed, the old one stays the login and where mail goes until then, and is told afterwards.
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_EMAIL_NOTIFICATIONS = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Scrabble league] "
ACCOUNT_LOGOUT_ON_GET = False
ACCOUNT_SESSION_REMEMBER = None
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# allauth's rate limits (ten failed logins a minute, twenty signups) count per client address.
# Behind a reverse proxy every request comes from the proxy's address, so one campus would share
# one count and ten bad passwords from anyone would lock everyone out. TRUSTED_PROXY_COUNT is how
# many proxies of ours stand in front and append to X-Forwarded-For (1 behind one nginx or Caddy;
# docker-compose.yml sets 1); the client is read from that header's last untrusted entry. 0 (the
# default, nothing in front) ignores the header, which anyone can write. A proxy that puts the
# client in a header of its own instead (Cloudflare's CF-Connecting-IP) is named by
# TRUSTED_CLIENT_IP_HEADER.
ALLAUTH_TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
if ALLAUTH_TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT must be 0 or more.")
ALLAUTH_TRUSTED_CLIENT_IP_HEADER = os.environ.get("TRUSTED_CLIENT_IP_HEADER") or None

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# --- Request bodies: a larger one is refused (413) from its Content-Length, before it is read.
# A game record is at most 64 KB and every other form is small; the roster upload in the admin
# takes ROSTER_UPLOAD_MAX_BYTES: 8 MB is about 130,000 students and imported in about 15 s on
# this 2-core machine (1.8 s a megabyte), inside gunicorn's worker timeout (docker-compose.yml).
# A larger roster is imported with `manage.py import_roster`, which reads up to 50 MB.
REQUEST_BODY_MAX_BYTES = env_int("REQUEST_BODY_MAX_BYTES", 1024 * 1024)
ROSTER_UPLOAD_MAX_BYTES = env_int("ROSTER_UPLOAD_MAX_BYTES", 8 * 1024 * 1024)

# --- E-mail: EMAIL_URL (console:// by default; smtp://, smtp+tls://, smtp+ssl://).
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Scrabble league <league@example.edu>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Links in e-mail point here (no trailing slash).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# How e-mails name the site (allauth's "Hello from …!").
SITE_NAME = os.environ.get("SITE_NAME", "Intramural Scrabble")
globals().update(email_settings(os.environ.get("EMAIL_URL", "console://")))

# The outbox (django-post-office): mail is written in the transaction of the change it reports
# and sent by core.tasks.send_queued_mail, which beat starts every few seconds (below). Our own
# sender (core.tasks.send_due_mail) claims one message at a time with a row lock and reads the
# retry, order and log settings below; post_office's batch settings (BATCH_SIZE,
# THREADS_PER_PROCESS, LOCK_FILE_NAME) are not used.
POST_OFFICE = {
    # Never from the request: a dead broker must not fail it (the beat schedule sends instead).
    "CELERY_ENABLED": False,
    # A refused or failed delivery is tried again every 10 minutes, 12 times (two hours), then
    # kept as failed; the admin's "Requeue" sends it again.
    "MAX_RETRIES": 12,
    "RETRY_INTERVAL": timedelta(minutes=10),
    "SENDING_ORDER": ["-priority", "id"],  # oldest first
    "LOG_LEVEL": 1,  # a log row for each failure only, not for every message sent
}

# --- Celery: REDIS_URL is the broker. Without it (the demo) tasks run in-process.
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = REDIS_URL or "memory://"
# allauth's rate limits (login, signup, password reset) live in the cache: in the database, which
# every web worker shares and every request needs anyway, so a Redis outage cannot fail a login.
# `createcachetable` makes the table (compose runs it after migrate; so does `make run`).
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "django_cache",
    }
}
CELERY_RESULT_BACKEND = REDIS_URL or None
# Nothing reads a task's result (a caller that wants one asks with ignore_result=False): without
# this Redis kept one key per e-mail task, thousands of them.
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
# Several deployments (or test runs) may share one Redis: each names its own queue.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "celery")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_TASK_TIME_LIMIT = 10 * 60
CELERY_TASK_SOFT_TIME_LIMIT = 9 * 60
CELERY_TASK_ACKS_LATE = True
# A task whose pool child died (killed, out of memory) goes back to the queue instead of being
# acknowledged and lost: every task here is idempotent, so running it again is safe.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# A task taken by a worker that then died is handed out again after this many seconds (Redis has
# no other way to know). Kombu's default is an hour, after the nightly's morning; it must still
# outlast the longest task (the 10-minute time limit) and the longest countdown a retry schedules
# (send_email backs off up to 30 minutes), or Redis hands the waiting task to a second worker.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 35 * 60),
}
# A night's lease (league.nights): longer than a task may run, so a live night never loses it,
# and shorter than the visibility timeout, so a dead worker's night is free again when Celery
# hands its task to another.
NIGHTLY_LEASE_SECONDS = env_int("NIGHTLY_LEASE_SECONDS", CELERY_TASK_TIME_LIMIT + 5 * 60)
if NIGHTLY_LEASE_SECONDS >= CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]:
    raise ImproperlyConfigured(
        "NIGHTLY_LEASE_SECONDS must be shorter than CELERY_VISIBILITY_TIMEOUT, or a night whose "
        "worker died stays locked when its task comes back."
    )
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Beat copies these into its database schedule at start (the nightly runs are added per
# institution by league/schedules.py).
CELERY_BEAT_SCHEDULE = {
    # Every 10 seconds: send what the outbox holds. A tick nobody took within 10 seconds (the
    # worker down) is dropped, not piled up: the next one sends the same mail.
    "send-queued-mail": {
        "task": "core.tasks.send_queued_mail",
        "schedule": 10.0,
        "options": {"expires": 10},
    },
    # Every 30 seconds: count the players' score cards one other seat confirmed once their
    # round's time is up (events' S2).
    "settle-table-cards": {
        "task": "events.tasks.settle_table_cards",
        "schedule": 30.0,
        "options": {"expires": 30},
    },
    # Every 2 seconds: refresh the standings and pages of leagues whose results became final
    # while another refresh ran and that no request refreshed since (the end of a hall's burst
    # of cards), and render the pages of the events whose cards were counted since their last
    # render (they follow within seconds). Two queries when nothing is wanted.
    "refresh-wanted-leagues": {
        "task": "league.tasks.refresh_wanted_leagues",
        "schedule": 2.0,
        "options": {"expires": 2},
    },
    # 04:30 UTC daily: forget mail older than 90 days, sent or not.
    "cleanup-mail": {
        "task": "core.tasks.cleanup_mail",
        "schedule": crontab(hour=4, minute=30),
    },
}
CELERY_TIMEZONE = "UTC"

# --- Security: on by default whenever DEBUG is off (README lists the knobs).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = not DEBUG
# Sessions with their user as a column, so a person's sessions can be ended (accounts/sessions.py).
SESSION_ENGINE = "accounts.sessions"
CSRF_COOKIE_SECURE = not DEBUG
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# Content Security Policy (django-csp): scripts, styles, images and fonts only from this site's
# own static files, no inline script or style anywhere (the templates and Django's admin have
# none; tests/browser fail on any violation), nothing framed, forms posted only here. A name
# that slipped past escaping could still not run.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    }
}
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"answered_again": {"()": "core.middleware.AnsweredAgain"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # One line per task run is noise; failures still show.
    # WeasyPrint logs each layout step at INFO: only its warnings matter here.
    "loggers": {
        # A request whose database connection was lost is no server error: it was answered.
        "django.request": {"filters": ["answered_again"]},
        "celery.app.trace": {"level": "WARNING"},
        "weasyprint": {"level": "WARNING"},
        "weasyprint.progress": {"level": "WARNING"},
    },
}
