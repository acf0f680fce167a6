"""The admin site of the directors' panel: Django's, with the list of apps built only where a
page shows it (the index, an app's index, the side navigation). Building it checks the user's
permission on every registered model: on the dispute queue, which hides the navigation, it was
a sixth of the page's time (issue 34)."""

from django.contrib.admin import AdminSite
from django.contrib.admin.apps import AdminConfig
from django.utils.functional import SimpleLazyObject


class DirectorsPanel(AdminSite):
    site_header = "Intramural Scrabble: director's panel"
    site_title = "Scrabble league admin"
    index_title = "Your institution"

    def get_app_list(self, request, app_label=None):
        build = super().get_app_list
        return SimpleLazyObject(lambda: build(request, app_label))


class PanelAdminConfig(AdminConfig):
    """``django.contrib.admin`` in INSTALLED_APPS, with the panel as ``admin.site``."""

    default_site = "core.admin_site.DirectorsPanel"
