from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "Leagues, standings and brackets"

    def ready(self):
        from . import receivers  # noqa: F401  (connects to matches' results_finalised)
