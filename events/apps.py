from django.apps import AppConfig


class EventsConfig(AppConfig):
    """One-day events (E3) and the team challenge (E5): the door, pairing, the scoring table,
    leaderboards, printables, teams and the assists ledger."""

    name = "events"
    verbose_name = "Events"

    def ready(self):
        from league import formats

        from . import receivers  # noqa: F401  (connects them)
        from .format import EVENT

        formats.register(EVENT)
