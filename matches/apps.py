from django.apps import AppConfig

from accounts.roles import DIRECTORS


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = "Matches and results"
    # What each role may do with matches' models in the admin (accounts.roles.sync_groups).
    role_permissions = {
        DIRECTORS: {
            "match": ["view", "change"],
            "seat": ["view"],
            "dispute": ["view", "change"],
            "contactissue": ["view", "change"],
            "auditevent": ["view"],
            "resultreport": ["view"],
        },
    }
