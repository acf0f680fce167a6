"""What the director reads of the players' own cards in the admin (S3, S4): every version a
table's players entered, and every use of a seat's code with its device. Read only: cards are
entered, confirmed and counted through the table's page and the scoring table."""

from django.contrib import admin

from core.admin import INSTITUTION_PATHS, InstitutionScopedAdmin, ReadOnlyAdminMixin

from .models import SeatCodeAttempt, TableCard

INSTITUTION_PATHS[TableCard] = "match__league__season__institution_id"
INSTITUTION_PATHS[SeatCodeAttempt] = "match__league__season__institution_id"


@admin.register(TableCard)
class TableCardAdmin(ReadOnlyAdminMixin, InstitutionScopedAdmin):
    """Each version of a table's card its players entered, and what became of it (S1–S3)."""

    institution_path = "match__league__season__institution_id"
    list_display = ["match", "seat_order", "scores", "state", "entered_at", "settled_by"]
    list_filter = ["state", "match__league"]
    list_select_related = ["match__round", "match__league", "settled_by"]
    ordering = ["-entered_at", "-id"]


@admin.register(SeatCodeAttempt)
class SeatCodeAttemptAdmin(ReadOnlyAdminMixin, InstitutionScopedAdmin):
    """Every use of a seat's code, right or wrong, with the device cookie it came from (S4):
    who tried to guess, and at which table."""

    institution_path = "match__league__season__institution_id"
    list_display = ["at", "match", "seat_order", "action", "ok", "device"]
    list_filter = ["ok", "action", "match__league"]
    list_select_related = ["match__round", "match__league"]
    ordering = ["-at", "-id"]
