"""The record of exports (P6), read-only: a download is recorded as it is served
(``accounts.services`` · ``export_record``); nobody adds, changes or deletes a row here."""

from django.contrib import admin

from core.admin import InstitutionScopedAdmin, ReadOnlyAdminMixin

from ..models import DataExport


@admin.register(DataExport)
class DataExportAdmin(ReadOnlyAdminMixin, InstitutionScopedAdmin):
    list_display = ["created_at", "actor", "what", "subject", "rows"]
    list_filter = ["what"]
    list_select_related = ["actor"]
    search_fields = ["what", "subject", "actor__email", "actor__last_name"]
    date_hierarchy = "created_at"
