"""The record of exports (P6), read-only: a download is recorded as it is served
(``accounts.services`` · ``export_record``); nobody adds, changes or deletes a row here."""

from django.contrib import admin

from core.admin import InstitutionScopedAdmin

from ..models import DataExport


@admin.register(DataExport)
class DataExportAdmin(InstitutionScopedAdmin):
    list_display = ["created_at", "actor", "what", "subject", "rows"]
    list_filter = ["what"]
    list_select_related = ["actor"]
    search_fields = ["what", "subject", "actor__email", "actor__last_name"]
    date_hierarchy = "created_at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
