from django.apps import AppConfig

from accounts.roles import DIRECTORS


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "Leagues, standings and brackets"
    # What each role may do with league's models in the admin (accounts.roles.sync_groups).
    role_permissions = {
        DIRECTORS: {
            "league": ["view", "add", "change"],
            "entry": ["view", "add", "change"],
            "waitlistentry": ["view"],  # who waits, in order; places are given by the services
            "round": ["view", "change"],
        },
    }

    def ready(self):
        from . import receivers  # noqa: F401  (connects to matches' results_finalised)
