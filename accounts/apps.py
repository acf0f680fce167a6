from django.apps import AppConfig
from django.db.models.signals import post_migrate

from . import roles
from .roles import DIRECTORS, FRONT_DESK


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts and eligibility"
    # What each role may do with accounts' models in the admin (roles.sync_groups).
    role_permissions = {
        FRONT_DESK: {
            "playerprofile": ["view"],
            "eligibility": ["view"],
            "idcheck": ["view", "add"],
            "checkout": ["view"],
            "equipmentitem": ["view"],
        },
        DIRECTORS: {
            "institution": ["view", "change"],
            "user": ["view", "change"],
            "playerprofile": ["view", "change"],
            "season": ["view", "add", "change", "delete"],
            "rosterentry": ["view", "add", "change", "delete"],
            "idcheck": ["view", "add"],
            "eligibility": ["view", "add", "change"],
            "eligibilityevent": ["view"],
            "equipmentitem": ["view", "add", "change"],
            "checkout": ["view"],
            "dataexport": ["view"],
        },
    }

    def ready(self):
        # Groups need the permission rows, which Django creates for each app once it is migrated,
        # in INSTALLED_APPS order. Syncing after each app that declares role permissions leaves
        # the last sync with all of them (syncing after accounts alone left a fresh database's
        # directors without league's and matches' permissions).
        for app_config in self.apps.get_app_configs():
            if hasattr(app_config, "role_permissions"):
                post_migrate.connect(roles.sync_groups_after_migrate, sender=app_config)
