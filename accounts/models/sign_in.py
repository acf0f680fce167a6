"""Being signed in: the session row with its user, and one-time sign-in links."""

from importlib import import_module

from django.conf import settings
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models
from django.utils import timezone


class UserSession(AbstractBaseSession):
    """A session with its user as a column (accounts/sessions.py): reading the session reads the
    signed-in user, their profile and institution in the same query, one round trip where
    Django's sessions take two. Revoking stays server-side: delete the row."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        db_table = "accounts_session"

    @classmethod
    def get_session_store_class(cls):
        """The configured engine's store (what `get_decoded` decodes with), found as Django's
        SessionMiddleware finds it: the store reads this model, so the model names no store."""
        return import_module(settings.SESSION_ENGINE).SessionStore


class SignInLink(models.Model):
    """A one-time sign-in link (a volunteer's invitation): whoever follows it is signed in as
    `user` once, before `expires_at`, and their address counts as verified (the link reached
    it, or the director handed it to them on a slip). Only a hash of the secret is kept."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sign_in_links"
    )
    token_hash = models.CharField(max_length=64, unique=True)
    next_path = models.CharField(
        max_length=200, blank=True, help_text="Where the link leads once signed in."
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "used_at"], name="sign_in_link_user_unused")]

    def __str__(self):
        return f"Sign-in link for {self.user} until {self.expires_at:%Y-%m-%d %H:%M}"
