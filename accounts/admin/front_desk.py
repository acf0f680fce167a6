"""What the front desk lends (L3): the items, and the checkouts, read-only here."""

from django.contrib import admin

from core.admin import InstitutionScopedAdmin, ReadOnlyAdminMixin

from ..models import (
    Checkout,
    EquipmentItem,
)


@admin.register(EquipmentItem)
class EquipmentItemAdmin(InstitutionScopedAdmin):
    """Boards, dictionaries and clocks the front desk lends (L3)."""

    list_display = ["label", "kind", "institution", "active"]
    list_filter = ["kind", "active"]
    search_fields = ["label"]


@admin.register(Checkout)
class CheckoutAdmin(ReadOnlyAdminMixin, InstitutionScopedAdmin):
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
