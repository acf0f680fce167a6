from django.apps import AppConfig

from accounts.roles import DIRECTORS


class EventsConfig(AppConfig):
    """One-day events (E3) and the team challenge (E5): the door, pairing, the scoring table,
    leaderboards, printables, teams and the assists ledger."""

    name = "events"
    verbose_name = "Events"
    # What each role may do with events' models in the admin (accounts.roles.sync_groups): the
    # players' own cards and the seat codes' attempts are read there, never changed (S3, S4).
    role_permissions = {DIRECTORS: {"tablecard": ["view"], "codeattempt": ["view"]}}

    def ready(self):
        from league import formats

        from . import receivers  # noqa: F401  (connects them)
        from .format import EVENT

        formats.register(EVENT)
