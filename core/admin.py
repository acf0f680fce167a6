"""The base class of every admin here: a director sees and changes only their own institution's
rows, and picks only among them in drop-downs; site admins see everything.

Core knows no app's models. Each admin says how its rows reach their institution
(`institution_path`), each app's admin module adds its models to INSTITUTION_PATHS, and the
signed-in user tells their own institution (`user.institution`, a property of accounts' User)."""

from django.contrib import admin

# How to reach the institution from each model a form may offer in a drop-down. Each app's
# admin module adds its own models.
INSTITUTION_PATHS: dict[type, str] = {}


class InstitutionScopedAdmin(admin.ModelAdmin):
    """Rows, and the choices in every drop-down, limited to the director's institution."""

    institution_path = "institution_id"

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        institution = request.user.institution
        if institution is None:
            return queryset.none()
        return queryset.filter(**{self.institution_path: institution.pk})

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        path = INSTITUTION_PATHS.get(db_field.related_model)
        if path and not request.user.is_superuser:
            kwargs["queryset"] = db_field.related_model._default_manager.filter(
                **{path: getattr(request.user.institution, "pk", None)}
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)
