from django.apps import AppConfig

from .integers import register_checked_integers


class CoreConfig(AppConfig):
    """What every app shares and no app owns. It has no models and imports none of the others."""

    name = "core"
    verbose_name = "Shared pieces"

    def ready(self):
        # Before any connection opens: integers out of their column's range raise, never wrap.
        register_checked_integers()
