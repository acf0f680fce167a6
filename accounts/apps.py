from django.apps import AppConfig
from django.db.models.signals import post_migrate


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts and eligibility"

    def ready(self):
        from . import roles

        # Groups need the permissions rows, which Django creates after migrating.
        post_migrate.connect(roles.sync_groups_after_migrate, sender=self)
