"""The base class of every admin here: a director sees and changes only their own institution's
rows, and picks only among them in drop-downs and filter sidebars; site admins see everything.

Core knows no app's models. Each admin says how its rows reach their institution
(`institution_path`), each app's admin module adds its models to INSTITUTION_PATHS, and the
signed-in user tells their own institution (`user.institution`, a property of accounts' User)."""

from django.contrib import admin
from django.contrib.admin.utils import get_fields_from_path
from django.core.exceptions import ValidationError
from django.db import models

from .forms import SLUG_INVALID

# How to reach the institution from each model a form may offer in a drop-down. Each app's
# admin module adds its own models.
INSTITUTION_PATHS: dict[type, str] = {}


def _scope(request, model) -> dict | None:
    """The filter that keeps `model`'s rows to the signed-in director's institution, or None when
    nothing needs keeping out (a site admin, or a model no institution owns)."""
    path = INSTITUTION_PATHS.get(model)
    if path is None or request.user.is_superuser:
        return None
    return {path: getattr(request.user.institution, "pk", None)}


class InstitutionScopedRelatedFilter(admin.RelatedFieldListFilter):
    """A sidebar filter on a relation that lists only the director's institution's rows: Django's
    own lists every row of the related table, other institutions' seasons and leagues included."""

    def field_choices(self, field, request, model_admin):
        scope = _scope(request, field.related_model)
        if scope is None:
            return super().field_choices(field, request, model_admin)
        ordering = self.field_admin_ordering(field, request, model_admin)
        return field.get_choices(include_blank=False, ordering=ordering, limit_choices_to=scope)


class InstitutionScopedAdmin(admin.ModelAdmin):
    """Rows, and the choices in every drop-down and filter, limited to the director's institution."""

    institution_path = "institution_id"
    # "12 results (560 total)" costs a second COUNT over the institution's rows on every page of
    # a filtered list; the filtered count alone is enough to work a queue.
    show_full_result_count = False

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        institution = request.user.institution
        if institution is None:
            return queryset.none()
        return queryset.filter(**{self.institution_path: institution.pk})

    def get_list_filter(self, request):
        """Each filter named by a relation ("season", "report__match__league") becomes the
        scoped one, so no admin has to remember to ask for it."""
        return [
            (item, InstitutionScopedRelatedFilter)
            if isinstance(item, str) and get_fields_from_path(self.model, item)[-1].is_relation
            else item
            for item in super().get_list_filter(request)
        ]

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if isinstance(db_field, models.SlugField):
            # Django's "Enter a valid “slug”…" means nothing to a director.
            kwargs.setdefault("error_messages", {"invalid": SLUG_INVALID})
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        scope = _scope(request, db_field.related_model)
        if scope is not None:
            kwargs["queryset"] = db_field.related_model._default_manager.filter(**scope)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_changeform_initial_data(self, request):
        """An add form's initial values come from the query string (the pending queue links the
        eligibility ruling with ?profile=<pk>). One for an autocomplete field that is no id is
        left out: its widget would look it up as given, a ValueError (a 500)."""
        initial = super().get_changeform_initial_data(request)
        for name in self.get_autocomplete_fields(request):
            if name in initial:
                try:
                    self.model._meta.get_field(name).target_field.to_python(initial[name])
                except ValidationError:
                    del initial[name]
        return initial


class ReadOnlyAdminMixin:
    """A record the admin shows and never edits (logs, histories, audit trails): what changes it
    goes through a service, elsewhere. Put it before the admin class in the bases."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
