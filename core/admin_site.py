"""The admin site of the directors' panel: Django's, with the list of apps built only where a
page shows it (the index, an app's index, the side navigation). Building it checks the user's
permission on every registered model: on the dispute queue, which hides the navigation, it was
a sixth of the page's time (issue 34).

Every model admin registered with it, the libraries' too, refuses a list action posted with a
row id that is no id (``ActionsCheckIds``): Django's own reads it into the query and answers 500.
And each of its forms, its inlines' too, shows an error on a field the form does not show as an
error of the whole form (``FormsShowEveryError``): Django's answers 500."""

from django.contrib import messages
from django.contrib.admin import AdminSite, ModelAdmin, helpers
from django.contrib.admin.apps import AdminConfig
from django.core.exceptions import ValidationError
from django.utils.functional import SimpleLazyObject

from .forms import every_error_shown


class ActionsCheckIds:
    """A list action's selected rows are checked as ids of the model before any query reads
    them: one that is not (``abc``, ``1.5``, a number past the column's range) refuses the
    action with the admin's message, and nothing changes."""

    def response_action(self, request, queryset):
        key = self.model._meta.pk
        for value in request.POST.getlist(helpers.ACTION_CHECKBOX_NAME):
            try:
                key.run_validators(key.to_python(value))
            except ValidationError:
                self.message_user(
                    request,
                    "The rows selected are not rows of this list: no action was taken. "
                    "Select them again from the list.",
                    messages.WARNING,
                )
                return None  # the list again, with the message
        return super().response_action(request, queryset)


class FormsShowEveryError:
    """The admin's forms with ``core.forms.EveryErrorShown``: a model's clean() may check a field
    a form leaves out or shows read-only (an institution's e-mail domains, which only a site
    admin changes), and its error is then the whole form's."""

    def __init__(self, model, admin_site):
        super().__init__(model, admin_site)
        self.form = every_error_shown(self.form)
        if hasattr(self, "add_form"):  # the users' admin adds through a form of its own
            self.add_form = every_error_shown(self.add_form)

    def get_inline_instances(self, request, obj=None):
        inlines = super().get_inline_instances(request, obj)
        for inline in inlines:
            inline.form = every_error_shown(inline.form)
        return inlines


class DirectorsPanel(AdminSite):
    site_header = "Intramural Scrabble: director's panel"
    site_title = "Scrabble league admin"
    index_title = "Your institution"

    def register(self, model_or_iterable, admin_class=None, **options):
        admin_class = admin_class or ModelAdmin
        if not issubclass(admin_class, ActionsCheckIds):
            admin_class = type(
                admin_class.__name__,
                (ActionsCheckIds, FormsShowEveryError, admin_class),
                {"__module__": admin_class.__module__, "__qualname__": admin_class.__qualname__},
            )
        super().register(model_or_iterable, admin_class, **options)

    def get_app_list(self, request, app_label=None):
        build = super().get_app_list
        return SimpleLazyObject(lambda: build(request, app_label))


class PanelAdminConfig(AdminConfig):
    """``django.contrib.admin`` in INSTALLED_APPS, with the panel as ``admin.site``."""

    default_site = "core.admin_site.DirectorsPanel"
