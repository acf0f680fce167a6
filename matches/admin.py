"""The director's queues: open disputes oldest first with both versions side by side, can't-reach
reports, and every match's rulings. Each ruling is a form with a required reason that calls one
service; the audit trail is read-only."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.views.main import ChangeList
from django.db.models import F, Prefetch
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.timesince import timesince

from core.admin import InstitutionScopedAdmin
from core.errors import DomainError

from . import services
from .forms import SCORE, in_zone
from .game_records import stored_moves
from .models import AuditEvent, ContactIssue, Dispute, Match, Seat
from .selectors import with_dispute_facts


class RulingForm(forms.Form):
    """One ruling: the decision, the reason, and what the decision needs (every seat's amended
    score and, to break a tie (G2), its score before unplayed tiles; the seats that forfeit; a
    new deadline)."""

    ruling = forms.ChoiceField(label="Decision", widget=forms.RadioSelect)
    reason = forms.CharField(
        label="Reason (required; every player sees it)", widget=forms.Textarea(attrs={"rows": 3})
    )
    new_deadline = forms.DateTimeField(
        label="New deadline",
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text="In the institution's time zone.",
    )

    def __init__(self, *args, rulings, seats, tz, **kwargs):
        super().__init__(*args, **kwargs)
        self.tz = tz
        self.orders = [seat.order for seat in seats]
        self.fields["ruling"].choices = [(ruling.value, ruling.label) for ruling in rulings]
        for seat in seats:
            name = seat.player.name
            self.fields[f"score_{seat.order}"] = forms.IntegerField(
                label=f"Amended score, {name}", required=False, **SCORE
            )
            self.fields[f"pre_{seat.order}"] = forms.IntegerField(
                label=f"{name}'s score before unplayed tiles (breaks a tie, optional)",
                required=False,
                **SCORE,
            )
        for seat in seats:
            self.fields[f"forfeit_{seat.order}"] = forms.BooleanField(
                label=f"{seat.player.name} forfeits", required=False
            )
        self.order_fields(["ruling", "reason"])

    def clean_new_deadline(self):
        return in_zone(self.cleaned_data.get("new_deadline"), self.tz)

    def ruling_arguments(self) -> dict:
        """The cleaned form as `services.rule`'s keyword arguments."""
        data = self.cleaned_data
        scores = [data.get(f"score_{order}") for order in self.orders]
        pre = [data.get(f"pre_{order}") for order in self.orders]
        return {
            "ruling": data["ruling"],
            "reason": data["reason"],
            "new_deadline": data["new_deadline"],
            "scores": scores if any(score is not None for score in scores) else [],
            "pre_adjustment": pre if any(value is not None for value in pre) else [],
            "forfeiting": [order for order in self.orders if data.get(f"forfeit_{order}")],
        }


def _ruling_view(
    model_admin, request, *, match, title, back, dispute=None, contact_issue=None, extra=None
):
    """The ruling form for a match, its dispute or its can't-reach report: one form, one service
    call (`services.rule`)."""
    match = Match.objects.select_related("league__season__institution", "round").get(pk=match.pk)
    seats = list(Seat.objects.filter(match=match).select_related("player__user").order_by("order"))
    tz = match.league.season.institution.tz
    rulings = services.RULINGS_ON[services.ruling_on(dispute, contact_issue)]
    form = RulingForm(request.POST or None, rulings=rulings, seats=seats, tz=tz)
    if request.method == "POST" and form.is_valid():
        try:
            services.rule(
                actor=request.user,
                match=match,
                dispute=dispute,
                contact_issue=contact_issue,
                **form.ruling_arguments(),
            )
        except DomainError as error:
            form.add_error(None, error.message)
        else:
            model_admin.message_user(
                request, "Decision recorded; every player has been e-mailed.", messages.SUCCESS
            )
            return redirect(back)
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.model._meta,
        "title": title,
        "match": match,
        "seats": seats,
        "form": form,
        "tz": tz,
        "events": AuditEvent.objects.filter(match=match).select_related("actor"),
        **(extra or {}),
    }
    return TemplateResponse(request, "admin/matches/ruling.html", context)


class OpenFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [("open", "Open"), ("resolved", "Resolved")]

    def queryset(self, request, queryset):
        if self.value() == "open":
            return queryset.filter(resolved_at__isnull=True)
        if self.value() == "resolved":
            return queryset.filter(resolved_at__isnull=False)
        return queryset


class DisputeChangeList(ChangeList):
    """The list's page of disputes, each with its seats' names and the report's scores read as
    plain values in two queries (``with_dispute_facts``): a prefetch of seats, players, users
    and scores built four objects a seat, and was most of the page's time (issue 18). The
    ruling view, which shows one dispute, prefetches what it shows."""

    def get_results(self, request):
        super().get_results(request)
        self.result_list = with_dispute_facts(list(self.result_list))


@admin.register(Dispute)
class DisputeAdmin(InstitutionScopedAdmin):
    """The dispute queue: open disputes oldest first, both versions side by side."""

    institution_path = "league__season__institution_id"
    list_display = [
        "match_link",
        "resolve_link",
        "age",
        "reported_version",
        "disputed_version",
        "point_of_discrepancy",
    ]
    # The first column holds its own link (to the match page): the change page is reached from
    # "Open for", or the admin would wrap one link in another.
    list_display_links = ["age"]
    # Each row shows both versions of the scores: 25 is a screenful, and a page of 100 took
    # 170 ms to build at the bench's 218 open disputes (issue 18).
    list_per_page = 25
    list_filter = [OpenFilter, "report__match__league"]
    list_select_related = [
        "report__match__league",
        "report__match__round",
        "report__submitted_by__user",
        "raised_by__user",
    ]
    ordering = [F("resolved_at").desc(nulls_first=True), "created_at"]
    readonly_fields = [f.name for f in Dispute._meta.fields]

    def get_changelist(self, request, **kwargs):
        return DisputeChangeList

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="Match")
    def match_link(self, dispute):
        match = dispute.report.match
        names = " v ".join(name for name, _ in dispute.seat_names)
        return format_html(
            '<a href="{}">{}</a><br><small>{}, round {}</small>',
            reverse("match_detail", args=[match.pk]),
            names,
            match.league,
            match.round.number,
        )

    @admin.display(description="Open for", ordering="created_at")
    def age(self, dispute):
        return timesince(dispute.created_at) if dispute.is_open else "—"

    @staticmethod
    def _scores(dispute, scores, by) -> str:
        """Each score beside its player's first name: seat order alone read as "1–88"."""
        names = [first_name for _, first_name in dispute.seat_names]
        return format_html(
            "<strong>{}</strong><br><small>by {}</small>",
            " – ".join(f"{name} {score}" for name, score in zip(names, scores, strict=False)),
            by,
        )

    @admin.display(description="Report")
    def reported_version(self, dispute):
        report = dispute.report
        return self._scores(dispute, dispute.reported_scores, report.submitted_by.user)

    @admin.display(description="This player's version")
    def disputed_version(self, dispute):
        return self._scores(dispute, dispute.scores, dispute.raised_by.user)

    @admin.display(description="Point of discrepancy")
    def point_of_discrepancy(self, dispute):
        at = f"turn {dispute.turn}" if dispute.turn else "turn not given"
        if dispute.scores_at_turn:
            at += " at " + "–".join(str(score) for score in dispute.scores_at_turn)
        if dispute.move:
            return format_html(
                '<a href="{}?move={}#game">move {} of the game record</a>; {}<br><small>{}</small>',
                reverse("match_detail", args=[dispute.report.match_id]),
                dispute.move,
                dispute.move,
                at,
                dispute.note,
            )
        return format_html("{}<br><small>{}</small>", at, dispute.note)

    @admin.display(description="Ruling")
    def resolve_link(self, dispute):
        if not dispute.is_open:
            return dispute.get_resolution_display()
        return format_html(
            '<a class="button" href="{}">Resolve</a>',
            reverse("admin:matches_dispute_resolve", args=[dispute.pk]),
        )

    def get_urls(self):
        return [
            path(
                "<int:pk>/resolve/",
                self.admin_site.admin_view(self.resolve_view),
                name="matches_dispute_resolve",
            )
        ] + super().get_urls()

    def resolve_view(self, request, pk):
        dispute = get_object_or_404(
            self.get_queryset(request).prefetch_related(
                Prefetch(
                    "report__match__seats",
                    queryset=Seat.objects.select_related("player__user").order_by("order"),
                ),
                "report__scores",
            ),
            pk=pk,
        )

        return _ruling_view(
            self,
            request,
            match=dispute.report.match,
            title="Resolve the dispute",
            dispute=dispute,
            back=reverse("admin:matches_dispute_changelist") + "?state=open",
            extra={
                "dispute": dispute,
                "report": dispute.report,
                "report_lines": list(dispute.report.scores.order_by("order")),
                "disputes": list(
                    dispute.report.disputes.select_related("raised_by__user").order_by("created_at")
                ),
                "record_move": _record_move(dispute),
            },
        )


def _record_move(dispute: Dispute):
    """The move of the report's game record that the dispute points at, if any."""
    league = dispute.report.match.league
    stored = (
        stored_moves(dispute.report.game_record, league.challenge_rule) if dispute.move else None
    )
    if stored is None:
        return None
    listed = stored[1]
    return listed[dispute.move - 1] if dispute.move <= len(listed) else None


@admin.register(ContactIssue)
class ContactIssueAdmin(InstitutionScopedAdmin):
    """Can't-reach-opponent reports (L5): the director extends, forfeits, double-forfeits or replays."""

    institution_path = "match__league__season__institution_id"
    list_display = ["match", "reported_by", "attempts", "created_at", "resolved_at", "decide_link"]
    list_filter = [OpenFilter]
    list_select_related = ["match__round", "match__league", "reported_by__user"]
    ordering = [F("resolved_at").desc(nulls_first=True), "created_at"]
    readonly_fields = [f.name for f in ContactIssue._meta.fields]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("match__seats__player__user")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="")
    def decide_link(self, issue):
        if issue.resolved_at:
            return issue.resolution
        return format_html(
            '<a class="button" href="{}">Decide</a>',
            reverse("admin:matches_contactissue_decide", args=[issue.pk]),
        )

    def get_urls(self):
        return [
            path(
                "<int:pk>/decide/",
                self.admin_site.admin_view(self.decide_view),
                name="matches_contactissue_decide",
            )
        ] + super().get_urls()

    def decide_view(self, request, pk):
        issue = get_object_or_404(self.get_queryset(request), pk=pk)

        return _ruling_view(
            self,
            request,
            match=issue.match,
            title="Decide: can't reach opponent",
            contact_issue=issue,
            back=reverse("admin:matches_contactissue_changelist") + "?state=open",
            extra={"issue": issue},
        )


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
    list_display = ["__str__", "league", "status", "deadline", "scheduled_at", "rule_link"]
    list_filter = ["status", "league"]
    list_select_related = ["league", "round"]
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

        return _ruling_view(
            self,
            request,
            match=match,
            title="Rule on this match",
            back=reverse("admin:matches_match_change", args=[match.pk]),
        )


@admin.register(AuditEvent)
class AuditEventAdmin(InstitutionScopedAdmin):
    """Append-only: nobody adds, changes or deletes an audit event."""

    institution_path = "match__league__season__institution_id"
    list_display = ["created_at", "match", "action", "actor", "reason"]
    list_filter = ["action"]
    list_select_related = ["match__round", "actor"]
    readonly_fields = [f.name for f in AuditEvent._meta.fields]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("match__seats__player__user")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
