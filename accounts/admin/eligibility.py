"""Seasons with the roster upload, the roster, picture-ID checks, the director's eligibility
rulings and their history (L10)."""

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from core.admin import InstitutionScopedAdmin, ReadOnlyAdminMixin
from core.errors import DomainError
from core.middleware import request_body_limit

from ..errors import RosterFileError
from ..forms import CampusIdAdminForm
from ..models import (
    Eligibility,
    EligibilityEvent,
    IdCheck,
    RosterEntry,
    Season,
)
from ..services import RosterRejected, eligibility_rule, roster_import


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
class EligibilityEventAdmin(ReadOnlyAdminMixin, InstitutionScopedAdmin):
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
