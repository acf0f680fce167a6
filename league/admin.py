from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from core.admin import INSTITUTION_PATHS, InstitutionScopedAdmin, ReadOnlyAdminMixin
from core.errors import DomainError
from matches.models import Seat

from .models import Entry, League, Round, WaitlistEntry
from .services import entry_enrol, entry_withdraw, rounds_generate

INSTITUTION_PATHS[League] = "season__institution_id"


class DrawForm(forms.Form):
    first_play_by = forms.DateField(
        label="Play-by date of round 1",
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Each later round is due one round length later.",
    )


class WithdrawForm(forms.Form):
    reason = forms.CharField(label="Reason (required)", max_length=300)


def _form_page(model_admin, request, title, form, intro, **extra):
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.model._meta,
        "title": title,
        "form": form,
        "intro": intro,
        **extra,
    }
    return TemplateResponse(request, "admin/league/form_page.html", context)


@admin.register(League)
class LeagueAdmin(InstitutionScopedAdmin):
    institution_path = "season__institution_id"
    list_display = [
        "name",
        "season",
        "format",
        "players",
        "capacity",
        "public",
        "draw_link",
        "left_out_of_bracket",
    ]
    list_filter = ["season", "format"]
    list_select_related = ["season__institution", "bracket"]
    prepopulated_fields = {"slug": ["name"]}
    fieldsets = (
        (
            None,
            {
                "fields": (
                    "season",
                    "name",
                    "slug",
                    "format",
                    "venue",
                    "public",
                    "capacity",
                    "playoff_size",
                )
            },
        ),
        (
            "Privacy",
            {"fields": ("public_names", "search_engines")},
        ),
        (
            "Ratings",
            {"fields": ("rating_weight", "seed_by")},
        ),
        (
            "Game rules",
            {
                "fields": (
                    "lexicon",
                    "end_of_game_rule",
                    "challenge_rule",
                    "challenge_points",
                    "turn_time_seconds",
                )
            },
        ),
        (
            "Scoring and windows",
            {
                "fields": (
                    "forfeit_spread",
                    "double_forfeit_spread",
                    "round_length_days",
                    "report_window_days",
                    "confirmation_window_hours",
                )
            },
        ),
    )

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(active_players=Count("entries", filter=Q(entries__withdrawn_at__isnull=True)))
        )

    @admin.display(description="Players", ordering="active_players")
    def players(self, league):
        return league.active_players

    @admin.display(description="Left out of the bracket")
    def left_out_of_bracket(self, league):
        """The nightly job draws brackets; this is where the director reads why a player the
        gate refused (L10) was not seeded."""
        bracket = getattr(league, "bracket", None)
        return " ".join(item["why"] for item in bracket.left_out) if bracket else ""

    @admin.display(description="")
    def draw_link(self, league):

        return format_html(
            '<a href="{}">Draw rounds</a>', reverse("admin:league_league_draw", args=[league.pk])
        )

    def get_urls(self):
        return [
            path(
                "<int:pk>/draw/",
                self.admin_site.admin_view(self.draw_view),
                name="league_league_draw",
            )
        ] + super().get_urls()

    def draw_view(self, request, pk):
        league = get_object_or_404(self.get_queryset(request), pk=pk)
        if not self.has_change_permission(request, league):
            raise PermissionDenied
        form = DrawForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                rounds = rounds_generate(
                    actor=request.user,
                    league=league,
                    first_play_by=form.cleaned_data["first_play_by"],
                )
            except DomainError as error:
                form.add_error(None, error.message)
            else:
                self.message_user(
                    request, f"{len(rounds)} rounds drawn for {league}.", messages.SUCCESS
                )
                return redirect(
                    reverse("admin:matches_match_changelist") + f"?league__id__exact={league.pk}"
                )
        return _form_page(
            self,
            request,
            f"Draw the round robin for {league}",
            form,
            "Pairs every active player with every other once (circle method); with an odd count one player has a bye each round.",
        )


@admin.register(Entry)
class EntryAdmin(InstitutionScopedAdmin):
    institution_path = "league__season__institution_id"
    list_display = ["player", "league", "seed", "joined_at", "withdrawn_at", "withdrawn_reason"]
    list_filter = ["league"]
    list_select_related = ["player__user", "league"]
    search_fields = ["player__user__last_name", "player__display_name", "player__campus_id"]
    autocomplete_fields = ["player"]
    actions = ["withdraw_action"]

    def get_fields(self, request, obj=None):
        return (
            ["league", "player", "seed"]
            if obj is None
            else ["league", "player", "seed", "joined_at", "withdrawn_at", "withdrawn_reason"]
        )

    def get_readonly_fields(self, request, obj=None):
        return (
            []
            if obj is None
            else ["league", "player", "joined_at", "withdrawn_at", "withdrawn_reason"]
        )

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        if obj is not None:
            return form

        class EnrolForm(form):
            """Adding an entry is the director's enrolment (`entry_enrol`), late entries after
            the draw included. It is made once the form is otherwise valid, in the admin view's
            transaction, so that a refusal is the form's error with its sentence (it was a
            blank 403 page). The service owns "one entry per player and league" (a withdrawn
            player's entry comes back), so the model form does not check it."""

            def _get_validation_exclusions(self):
                return super()._get_validation_exclusions() | {"player"}

            def _post_clean(self):
                super()._post_clean()
                if self.errors:
                    return
                try:
                    self.entry = entry_enrol(
                        actor=request.user,
                        league=self.cleaned_data["league"],
                        player=self.cleaned_data["player"],
                    )
                except DomainError as error:
                    self.add_error(None, error.message)

        return EnrolForm

    def save_model(self, request, obj, form, change):
        if change:  # only the seed changes here
            obj.save(update_fields=["seed"])
            return
        entry = form.entry  # enrolled when the form was checked (EnrolForm)
        if obj.seed is not None:
            entry.seed = obj.seed
            entry.save(update_fields=["seed"])
        obj.pk = entry.pk
        games = Seat.objects.filter(match__league=entry.league, player=entry.player).count()
        if games:
            self.message_user(
                request,
                f"{entry.player.name} entered {entry.league} late: {games} game"
                f"{'s' if games != 1 else ''}, each the bye of a round still to play.",
                messages.SUCCESS,
            )

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description="Withdraw from the league (remaining matches become forfeits)")
    def withdraw_action(self, request, queryset):
        ids = ",".join(str(pk) for pk in queryset.values_list("pk", flat=True))
        return redirect(reverse("admin:league_entry_withdraw") + f"?ids={ids}")

    def get_urls(self):
        return [
            path(
                "withdraw/",
                self.admin_site.admin_view(self.withdraw_view),
                name="league_entry_withdraw",
            )
        ] + super().get_urls()

    def withdraw_view(self, request):
        ids = [int(pk) for pk in request.GET.get("ids", "").split(",") if pk.isdigit()]
        entries = list(self.get_queryset(request).filter(pk__in=ids, withdrawn_at__isnull=True))
        form = WithdrawForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                forfeits = sum(
                    entry_withdraw(actor=request.user, entry=e, reason=form.cleaned_data["reason"])
                    for e in entries
                )
            except DomainError as error:
                form.add_error(None, error.message)
            else:
                self.message_user(
                    request,
                    f"{len(entries)} withdrawn; {forfeits} matches forfeited to their opponents.",
                    messages.SUCCESS,
                )
                return redirect("admin:league_entry_changelist")
        names = ", ".join(e.player.name for e in entries) or "nobody (already withdrawn?)"
        return _form_page(
            self,
            request,
            "Withdraw players",
            form,
            f"Withdraw {names}. Their remaining matches become forfeit wins for their opponents.",
        )


@admin.register(WaitlistEntry)
class WaitlistEntryAdmin(ReadOnlyAdminMixin, InstitutionScopedAdmin):
    """Who waits for a place in a full league, in order (E1). Read only: a place is given by
    a withdrawal before the draw, or by enrolling the student (Add entry)."""

    institution_path = "league__season__institution_id"
    list_display = ["league", "player", "joined_at"]
    list_filter = ["league"]
    list_select_related = ["league", "player__user"]
    ordering = ["league", "joined_at", "id"]


@admin.register(Round)
class RoundAdmin(InstitutionScopedAdmin):
    institution_path = "league__season__institution_id"
    list_display = ["league", "number", "play_by"]
    list_filter = ["league"]
    list_select_related = ["league"]
    readonly_fields = ["league", "number"]

    def has_add_permission(self, request):
        return False
