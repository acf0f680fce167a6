from django.apps import AppConfig


class CoreConfig(AppConfig):
    """What every app shares and no app owns. It has no models and imports none of the others."""

    name = "core"
    verbose_name = "Shared pieces"
