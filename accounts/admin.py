"""The director's home. Every admin here is scoped: a director sees and changes only their own
institution's rows (site admins see all), and writes go through the services."""

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from core.admin import INSTITUTION_PATHS, InstitutionScopedAdmin
from core.errors import DomainError
from core.middleware import request_body_limit

from . import roles
from .errors import RosterFileError
from .forms import CampusIdAdminForm
from .models import (
    Checkout,
    Eligibility,
    EligibilityEvent,
    EquipmentItem,
    IdCheck,
    Institution,
    PlayerProfile,
    RosterEntry,
    Season,
    User,
)
from .services import RosterRejected, eligibility_rule, role_grant, role_revoke, roster_import

# The drop-downs of every scoped admin offer only the director's institution's rows of these.
INSTITUTION_PATHS.update(
    {
        Institution: "pk",
        Season: "institution_id",
        PlayerProfile: "institution_id",
        User: "profile__institution_id",
    }
)


@admin.register(Institution)
class InstitutionAdmin(InstitutionScopedAdmin):
    institution_path = "pk"
    list_display = ["name", "slug", "email_domains", "campus_id_hint", "timezone"]
    prepopulated_fields = {"slug": ["name"]}

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if not request.user.is_superuser:
            # A domain decides whose students sign up where: a director adding another
            # institution's domain would capture its signups.
            fields.append("email_domains")
        return fields


class PlayerProfileInline(admin.StackedInline):
    model = PlayerProfile
    form = CampusIdAdminForm
    can_delete = False
    fk_name = "user"
    exclude = ["display_name", "email"]  # a guest's fields: a user's name and address are above

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "institution" and not request.user.is_superuser:
            kwargs["queryset"] = Institution.objects.filter(
                pk=roles.institution_of(request.user).pk
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(User)
class UserAdmin(InstitutionScopedAdmin, DjangoUserAdmin):
    institution_path = "profile__institution_id"
    ordering = ["last_name", "first_name"]
    list_display = ["email", "first_name", "last_name", "campus_id", "roles", "is_active"]
    list_filter = ["groups", "is_active", "is_staff"]
    search_fields = ["email", "first_name", "last_name", "profile__campus_id"]
    list_select_related = ["profile"]
    inlines = [PlayerProfileInline]
    actions = ["grant_front_desk", "revoke_front_desk", "grant_director", "revoke_director"]
    fieldsets = (
        (None, {"fields": ("email", "password")}),
        ("Name", {"fields": ("first_name", "last_name")}),
        ("Access", {"fields": ("is_active", "is_staff", "is_superuser", "groups")}),
        ("Dates", {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": ("email", "first_name", "last_name", "password1", "password2"),
            },
        ),
    )
    readonly_fields = ["last_login", "date_joined"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("groups")

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if not request.user.is_superuser:
            # Roles change only through the actions below, which check who may grant what.
            fields += ["is_staff", "is_superuser", "groups"]
        return fields

    @admin.display(description="Campus ID")
    def campus_id(self, user):
        profile = getattr(user, "profile", None)
        return profile.campus_id if profile else ""

    @admin.display(description="Roles")
    def roles(self, user):
        return ", ".join(group.name for group in user.groups.all())

    def _apply(self, request, queryset, change, role, done):
        for user in queryset:
            try:
                change(actor=request.user, user=user, role=role)
            except DomainError as error:
                self.message_user(request, f"{user}: {error.message}", messages.ERROR)
                return
        self.message_user(request, f"{queryset.count()} {done}.", messages.SUCCESS)

    @admin.action(description="Give the front-desk role")
    def grant_front_desk(self, request, queryset):
        self._apply(request, queryset, role_grant, "front_desk", "users now staff the front desk")

    @admin.action(description="Take away the front-desk role")
    def revoke_front_desk(self, request, queryset):
        self._apply(
            request, queryset, role_revoke, "front_desk", "users no longer staff the front desk"
        )

    @admin.action(description="Make director (site admins only)")
    def grant_director(self, request, queryset):
        self._apply(request, queryset, role_grant, "director", "users are now directors")

    @admin.action(description="Remove director role (site admins only)")
    def revoke_director(self, request, queryset):
        self._apply(request, queryset, role_revoke, "director", "users are no longer directors")


class PendingThisSeasonFilter(admin.SimpleListFilter):
    """The director dashboard's "students pending eligibility" queue (L10)."""

    title = "eligibility this season"
    parameter_name = "eligibility"

    def lookups(self, request, model_admin):
        return [("pending", "Pending")]

    def queryset(self, request, queryset):
        if self.value() != "pending":
            return queryset
        from .selectors import current_season, pending_students

        institution = roles.institution_of(request.user)
        season = current_season(institution) if institution else None
        return queryset.filter(pk__in=pending_students(institution, season).values("pk"))


@admin.register(PlayerProfile)
class PlayerProfileAdmin(InstitutionScopedAdmin):
    form = CampusIdAdminForm
    list_display = ["name", "campus_id", "institution", "is_guest", "rule_eligibility"]
    list_select_related = ["user", "institution"]
    list_filter = [PendingThisSeasonFilter]
    search_fields = [
        "campus_id",
        "user__email",
        "user__first_name",
        "user__last_name",
        "display_name",
        "email",
    ]
    raw_id_fields = ["user"]

    @admin.display(description="Name", ordering="user__last_name")
    def name(self, profile):
        return profile.name

    @admin.display(description="Guest", boolean=True)
    def is_guest(self, profile):
        return profile.is_guest

    @admin.display(description="Eligibility")
    def rule_eligibility(self, profile):
        """A ruling form with the student filled in (the season is chosen on the form)."""
        return format_html(
            '<a href="{}?profile={}">Rule on eligibility</a>',
            reverse("admin:accounts_eligibility_add"),
            profile.pk,
        )


class RosterUploadForm(forms.Form):
    file = forms.FileField(
        label="Roster CSV",
        help_text="A header line with campus_id (first_name, last_name, email optional).",
    )
    encoding = forms.CharField(
        initial="utf-8", help_text="utf-8 unless the registrar says otherwise (e.g. latin-1)."
    )
    strict = forms.BooleanField(required=False, label="Refuse the whole file if any row is bad")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        limit = settings.ROSTER_UPLOAD_MAX_BYTES
        if upload.size > limit:
            raise forms.ValidationError(
                f"The file is {upload.size / 2**20:.1f} MB; the upload takes at most "
                f"{limit / 2**20:.1f} MB. Import a larger roster on the server with "
                "python manage.py import_roster."
            )
        return upload


@admin.register(Season)
class SeasonAdmin(InstitutionScopedAdmin):
    list_display = [
        "name",
        "institution",
        "starts_on",
        "ends_on",
        "registration_deadline",
        "roster_size",
    ]
    list_filter = ["institution"]
    prepopulated_fields = {"slug": ["name"]}
    actions = ["import_roster_action"]

    @admin.display(description="Roster")
    def roster_size(self, season):
        return season.roster_entries.count()

    def get_urls(self):
        return [
            path(
                "<int:season_id>/import-roster/",
                self.admin_site.admin_view(self.import_roster_view),
                name="accounts_season_import_roster",
            )
        ] + super().get_urls()

    @admin.action(description="Import the registrar's roster (CSV) for this season")
    def import_roster_action(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(
                request, "Pick exactly one season to import a roster into.", messages.WARNING
            )
            return None
        return redirect("admin:accounts_season_import_roster", season_id=queryset.get().pk)

    # The file and the form's other fields (a few hundred bytes); the form then checks the file.
    @request_body_limit(lambda: settings.ROSTER_UPLOAD_MAX_BYTES + 64 * 1024)
    def import_roster_view(self, request, season_id):
        season = get_object_or_404(self.get_queryset(request), pk=season_id)
        if not request.user.has_perm("accounts.add_rosterentry"):
            raise PermissionDenied
        result = None
        form = RosterUploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            try:
                result = roster_import(
                    actor=request.user,
                    season=season,
                    data=form.cleaned_data["file"].read(),
                    encoding=form.cleaned_data["encoding"],
                    strict=form.cleaned_data["strict"],
                )
                self.message_user(request, result.summary(), messages.SUCCESS)
            except RosterRejected as error:
                form.add_error("file", error.message)
                result = error
            except (RosterFileError, DomainError) as error:
                form.add_error("file", error.message)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "season": season,
            "form": form,
            "result": result,
            "title": f"Import the roster for {season.name}",
            "roster_url": reverse("admin:accounts_rosterentry_changelist")
            + f"?season__id__exact={season.pk}",
        }
        return TemplateResponse(request, "admin/accounts/season/import_roster.html", context)


@admin.register(RosterEntry)
class RosterEntryAdmin(InstitutionScopedAdmin):
    form = CampusIdAdminForm
    institution_path = "season__institution_id"
    list_display = ["campus_id", "first_name", "last_name", "email", "season", "imported_at"]
    list_filter = ["season"]
    list_select_related = ["season__institution"]
    search_fields = ["campus_id", "first_name", "last_name", "email"]
    readonly_fields = ["imported_at", "imported_by"]


@admin.register(IdCheck)
class IdCheckAdmin(InstitutionScopedAdmin):
    """Read-only here: ID checks are recorded at the front desk (/desk/)."""

    institution_path = "season__institution_id"
    list_display = ["profile", "season", "checked_by", "checked_at", "note"]
    list_select_related = ["profile__user", "season__institution", "checked_by"]
    list_filter = ["season"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class EligibilityForm(forms.ModelForm):
    reason = forms.CharField(
        max_length=300, help_text="Required: it goes into the eligibility history."
    )

    class Meta:
        model = Eligibility
        fields = ["profile", "season", "status", "reason"]


@admin.register(Eligibility)
class EligibilityAdmin(InstitutionScopedAdmin):
    """A director's ruling: saved through `eligibility_rule`, which logs who, when and why."""

    institution_path = "season__institution_id"
    form = EligibilityForm
    list_display = ["profile", "season", "status", "source", "reason", "decided_by", "decided_at"]
    list_filter = ["season", "status", "source"]
    list_select_related = ["profile__user", "season__institution", "decided_by"]
    search_fields = ["profile__campus_id", "profile__user__email", "profile__user__last_name"]
    autocomplete_fields = ["profile"]

    def get_readonly_fields(self, request, obj=None):
        return ["profile", "season"] if obj else []

    def save_model(self, request, obj, form, change):
        try:
            ruled = eligibility_rule(
                actor=request.user,
                profile=obj.profile,
                season=obj.season,
                status=form.cleaned_data["status"],
                reason=form.cleaned_data["reason"],
            )
        except DomainError as error:
            raise PermissionDenied(error.message) from None
        obj.pk = ruled.pk

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(EligibilityEvent)
class EligibilityEventAdmin(InstitutionScopedAdmin):
    """Append-only history: nobody adds, changes or deletes it."""

    institution_path = "season__institution_id"
    list_display = [
        "created_at",
        "profile",
        "season",
        "old_status",
        "new_status",
        "source",
        "actor",
        "reason",
    ]
    list_filter = ["season", "source", "new_status"]
    list_select_related = ["profile__user", "season__institution", "actor"]
    search_fields = ["profile__campus_id", "profile__user__email"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(EquipmentItem)
class EquipmentItemAdmin(InstitutionScopedAdmin):
    """Boards, dictionaries and clocks the front desk lends (L3)."""

    list_display = ["label", "kind", "institution", "active"]
    list_filter = ["kind", "active"]
    search_fields = ["label"]


@admin.register(Checkout)
class CheckoutAdmin(InstitutionScopedAdmin):
    """Read-only here: lending and returns happen at the front desk (/desk/)."""

    institution_path = "item__institution_id"
    list_display = [
        "item",
        "profile",
        "checked_out_at",
        "due_at",
        "checked_in_at",
        "checked_out_by",
    ]
    list_filter = [("checked_in_at", admin.EmptyFieldListFilter)]
    list_select_related = ["item", "profile__user", "checked_out_by"]
    search_fields = ["item__label", "profile__campus_id", "profile__user__last_name"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
