"""Small readers for settings that come from the environment; a bad value stops the start."""

import os
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean: use true or false.")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number.") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def email_settings(url: str) -> dict:
    """Django e-mail settings from one URL.

    console://              print messages (the demo's default)
    smtp://user:pass@host:25         plain SMTP
    smtp+tls://user:pass@host:587    STARTTLS
    smtp+ssl://user:pass@host:465    implicit TLS
    A `?from=` query sets DEFAULT_FROM_EMAIL.
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    query = parse_qs(parts.query)
    settings = {}
    if "from" in query:
        settings["DEFAULT_FROM_EMAIL"] = query["from"][0]
    if scheme == "console":
        settings["EMAIL_BACKEND"] = "django.core.mail.backends.console.EmailBackend"
        return settings
    if scheme == "locmem":
        settings["EMAIL_BACKEND"] = "django.core.mail.backends.locmem.EmailBackend"
        return settings
    if scheme not in {"smtp", "smtp+tls", "smtp+ssl"}:
        raise ImproperlyConfigured(
            f"EMAIL_URL scheme {scheme!r} is not one of console, smtp, smtp+tls, smtp+ssl."
        )
    if not parts.hostname:
        raise ImproperlyConfigured("EMAIL_URL names no host.")
    settings.update(
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST=parts.hostname,
        EMAIL_PORT=parts.port or {"smtp": 25, "smtp+tls": 587, "smtp+ssl": 465}[scheme],
        EMAIL_HOST_USER=unquote(parts.username or ""),
        EMAIL_HOST_PASSWORD=unquote(parts.password or ""),
        EMAIL_USE_TLS=scheme == "smtp+tls",
        EMAIL_USE_SSL=scheme == "smtp+ssl",
        EMAIL_TIMEOUT=10,
    )
    return settings
