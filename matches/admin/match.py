"""Every match with its seats, each with a link to rule on it, and the audit trail (read-only)."""

from django.contrib import admin
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.html import format_html

from core.admin import InstitutionScopedAdmin, ReadOnlyAdminMixin

from ..deadlines import match_due
from ..models import AuditEvent, Match, Seat
from .ruling import ruling_view


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    readonly_fields = ["order", "player", "score", "pre_adjustment_score", "outcome"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(InstitutionScopedAdmin):
    institution_path = "league__season__institution_id"
    list_display = ["__str__", "league", "status", "due", "scheduled_at", "rule_link"]
    list_filter = ["status", "league"]
    list_select_related = ["league__season__institution", "round"]
    search_fields = [
        "seats__player__user__last_name",
        "seats__player__display_name",
        "seats__player__campus_id",
    ]
    readonly_fields = [f.name for f in Match._meta.fields]
    inlines = [SeatInline]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__player__user")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="Deadline", ordering="deadline")
    def due(self, match):
        """As every page says it: "play by Thu Dec 3", not "Dec. 4, 2026, midnight"."""
        return match_due(match)

    @admin.display(description="")
    def rule_link(self, match):
        return format_html(
            '<a href="{}">Rule</a>', reverse("admin:matches_match_rule", args=[match.pk])
        )

    def get_urls(self):
        return [
            path(
                "<int:pk>/rule/",
                self.admin_site.admin_view(self.rule_view),
                name="matches_match_rule",
            )
        ] + super().get_urls()

    def rule_view(self, request, pk):
        match = get_object_or_404(self.get_queryset(request), pk=pk)

        return ruling_view(
            self,
            request,
            match=match,
            title="Rule on this match",
            back=reverse("admin:matches_match_change", args=[match.pk]),
        )


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdminMixin, InstitutionScopedAdmin):
    """Append-only: nobody adds, changes or deletes an audit event."""

    institution_path = "match__league__season__institution_id"
    list_display = ["created_at", "match", "action", "actor", "reason"]
    list_filter = ["action"]
    list_select_related = ["match__round", "actor"]
    readonly_fields = [f.name for f in AuditEvent._meta.fields]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("match__seats__player__user")
