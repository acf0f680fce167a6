"""The director's queues: disputes, oldest first with both versions side by side (L9), and
can't-reach reports (L5), each opening the ruling form."""

from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django.core.paginator import Page, Paginator
from django.db.models import F, Prefetch
from django.forms import Media
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.functional import cached_property
from django.utils.html import format_html

from core.admin import InstitutionScopedAdmin
from core.fragments import rendered

from ..dispute_queue import (
    OPEN_DISPUTES_PAGE,
    WAITING_DISPUTES,
    dispute_row,
    with_dispute_facts,
    with_dispute_names,
)
from ..game_records import stored_moves
from ..models import ContactIssue, Dispute, Seat
from .ruling import ruling_view


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
    """The list's page of disputes, each row drawn whole from plain values and kept rendered
    by them (``dispute_row``, core/fragments.py). The seats' names and the report's scores are
    read as values in two queries (``with_dispute_facts``): a prefetch of seats, players, users
    and scores would build four objects a seat only to show two names."""

    def get_results(self, request):
        super().get_results(request)
        disputes = self.result_list
        if not isinstance(disputes, list):  # the admin's own page: the names joined to it alone
            disputes = list(with_dispute_names(disputes))
        self.result_list = with_dispute_facts(disputes)
        self.rows = [
            rendered("admin/matches/dispute/_row.html", dispute_row(dispute))
            for dispute in self.result_list
        ]


class OpenQueuePaginator(Paginator):
    """The open queue as a director opens it, counted and paged by the director's own queue's
    reads (``WAITING_DISPUTES``, ``OPEN_DISPUTES_PAGE``: written once per process, in the same
    order as the admin's): the ORM took longer to write the count and the page than PostgreSQL
    took to answer them (issue 34). A page is a list of disputes with their names."""

    def __init__(self, institution_id: int, per_page: int):
        super().__init__((), per_page)
        self.institution_id = institution_id

    @cached_property
    def count(self) -> int:
        return WAITING_DISPUTES.first(institution_id=self.institution_id).waiting

    def page(self, number) -> Page:
        number = self.validate_number(number)
        disputes = OPEN_DISPUTES_PAGE.all(
            institution_id=self.institution_id,
            offset=(number - 1) * self.per_page,
            size=self.per_page,
        )
        return Page(disputes, number, self)


@admin.register(Dispute)
class DisputeAdmin(InstitutionScopedAdmin):
    """The dispute queue: open disputes oldest first, both versions side by side."""

    institution_path = "league__season__institution_id"
    # The rows are drawn whole by admin/matches/dispute/change_list.html, its columns named
    # there: the admin's cell-by-cell drawing (a lookup, an escape and a format for each of
    # 150 cells) was half the page's time (issue 34). The one column named here is what the
    # admin's ?o= sorting would read; the queue keeps its own order.
    list_display = ["created_at"]
    list_display_links = None
    # Disputes are ruled one by one, on their resolve page: no bulk actions.
    actions = None
    # Each row shows both versions of the scores: 25 is a screenful, and the admin's 100 a page
    # is slow to build for no one's benefit.
    list_per_page = 25
    list_filter = [OpenFilter]
    # A league is searched for by name, not picked from the sidebar: a campus of 500 leagues
    # made the sidebar 500 links long, and building it was most of the page's time (issue 34).
    search_fields = ["league__name"]
    # The names a row shows are read as values (``with_dispute_names``), not built as objects.
    list_select_related = False
    ordering = [F("resolved_at").desc(nulls_first=True), "created_at"]
    readonly_fields = [f.name for f in Dispute._meta.fields]

    def get_changelist(self, request, **kwargs):
        return DisputeChangeList

    def get_paginator(self, request, queryset, per_page, orphans=0, allow_empty_first_page=True):
        institution = request.user.institution
        plain_open_queue = request.GET.get("state") == "open" and set(request.GET) <= {"state", "p"}
        if plain_open_queue and institution is not None and not request.user.is_superuser:
            return OpenQueuePaginator(institution.pk, per_page)
        return super().get_paginator(request, queryset, per_page, orphans, allow_empty_first_page)

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def changelist_view(self, request, extra_context=None):
        # The queue's rows are wide: the page is the queue alone, without the side navigation
        # (whose list of every model is then never built: core.admin_site). Nor does it load
        # the admin's scripts for actions and editable rows, of which it has none: ordering
        # and writing out their eight links was a fifteenth of the page's time (issue 34).
        return super().changelist_view(
            request,
            extra_context={
                "is_nav_sidebar_enabled": False,
                "media": Media(),
                **(extra_context or {}),
            },
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

        return ruling_view(
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

        return ruling_view(
            self,
            request,
            match=issue.match,
            title="Decide: can't reach opponent",
            contact_issue=issue,
            back=reverse("admin:matches_contactissue_changelist") + "?state=open",
            extra={"issue": issue},
        )
