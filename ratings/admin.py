"""The ratings in the admin, read only (R1–R5): what changes them is a rating run (the nightly,
`manage.py rate`) or an import (`manage.py import_ratings`), never a hand edit, so a rating can
always be traced to its games."""

from django.contrib import admin

from core.admin import INSTITUTION_PATHS, InstitutionScopedAdmin, ReadOnlyAdminMixin

from .models import ImportedRating, PlayerRating, RatingChange, RatingPeriod

INSTITUTION_PATHS[RatingPeriod] = "institution_id"
INSTITUTION_PATHS[PlayerRating] = "player__institution_id"


class RatingChangeInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = RatingChange
    fields = ["player", "rating_before", "rating", "deviation", "period_games", "games"]
    readonly_fields = fields
    ordering = ["-rating"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player__user")


@admin.register(RatingPeriod)
class RatingPeriodAdmin(ReadOnlyAdminMixin, InstitutionScopedAdmin):
    """Each rated period (a round, a club's night, a whole event) and its players' changes."""

    list_display = ["key", "league", "round", "ends_on", "rated_at"]
    list_select_related = ["league", "round"]
    date_hierarchy = "ends_on"
    search_fields = ["league__name"]
    inlines = [RatingChangeInline]
    readonly_fields = [
        "institution",
        "league",
        "round",
        "key",
        "ends_on",
        "fingerprint",
        "rated_at",
    ]


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdminMixin, InstitutionScopedAdmin):
    """Each player's rating now."""

    institution_path = "player__institution_id"
    list_display = ["player", "rating", "deviation", "games", "last_played", "provisional"]
    list_select_related = ["player__user"]
    ordering = ["-rating"]
    search_fields = ["player__user__last_name", "player__display_name", "player__campus_id"]
    readonly_fields = ["player", "rating", "deviation", "volatility", "games", "last_played"]

    @admin.display(boolean=True)
    def provisional(self, rating: PlayerRating) -> bool:
        return rating.provisional


@admin.register(ImportedRating)
class ImportedRatingAdmin(ReadOnlyAdminMixin, InstitutionScopedAdmin):
    """Ratings a director imported as starting ratings (R5)."""

    institution_path = "player__institution_id"
    list_display = ["player", "rating", "deviation", "imported_at", "imported_by"]
    list_select_related = ["player__user", "imported_by"]
    search_fields = ["player__user__last_name", "player__display_name", "player__campus_id"]
    readonly_fields = ["player", "rating", "deviation", "imported_at", "imported_by"]
