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
        from accounts import picked
        from ratings import history

        from . import (
            formats,
            receivers,  # noqa: F401  (connects to matches' results_finalised)
        )
        from .views import doors

        # The rating history names a period as its format does ("night 4" of a club): ratings
        # sits below league and cannot ask the formats itself.
        history.round_word = lambda format_value: formats.of(format_value).round_name
        # The front desk's page shows an event's door on its day: accounts sits below league
        # and cannot ask the formats itself.
        picked.todays_doors = doors.todays_doors
