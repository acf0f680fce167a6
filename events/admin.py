"""What the director reads of the players' own cards in the admin (S3, S4): every version a
table's players entered, and every slip code typed with its device. Read only: cards are
entered, confirmed and counted through the table's page and the scoring table."""

from django.contrib import admin

from core.admin import INSTITUTION_PATHS, InstitutionScopedAdmin, ReadOnlyAdminMixin

from .models import CodeAttempt, TableCard

INSTITUTION_PATHS[TableCard] = "match__league__season__institution_id"
INSTITUTION_PATHS[CodeAttempt] = "league__season__institution_id"


@admin.register(TableCard)
class TableCardAdmin(ReadOnlyAdminMixin, InstitutionScopedAdmin):
    """Each version of a table's card its players entered, and what became of it (S1–S3)."""

    institution_path = "match__league__season__institution_id"
    list_display = ["match", "seat_order", "scores", "state", "entered_at", "settled_by"]
    list_filter = ["state", "match__league"]
    list_select_related = ["match__round", "match__league", "settled_by"]
    ordering = ["-entered_at", "-id"]


@admin.register(CodeAttempt)
class CodeAttemptAdmin(ReadOnlyAdminMixin, InstitutionScopedAdmin):
    """Every slip code typed, right or wrong, with the device cookie it came from (S4): who
    tried to guess, and at which table."""

    institution_path = "league__season__institution_id"
    list_display = ["at", "league", "match", "entry", "action", "ok", "device"]
    list_filter = ["ok", "action", "league"]
    list_select_related = ["league", "match__round", "entry__player__user"]
    ordering = ["-at", "-id"]
