"""The director's page of one league (/director/leagues/<slug>/): its matches not yet final in four
queues (unscheduled, overdue, reported, disputed), by round, and the bulk actions on a round:
extend the deadlines of its open matches, rule its unplayed ones. Each action is a form, a page
that shows the matches it will change and asks to confirm, then one service call
(``matches.services`` · ``round_deadlines_extend``, ``round_unplayed_rule``). Others get 404."""

from datetime import timedelta

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef, Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode

from core.actions import posted_from
from core.compiled import CompiledQuery
from core.errors import DomainError
from core.fragments import rendered
from core.values import BIGINT_MAX, INT_MAX, number_or_none
from matches import services as match_services
from matches.deadlines import deadline_text
from matches.league_queues import (
    ON_TRACK,
    QUEUE_PAGE_SIZE,
    QUEUES,
    league_queues,
    queue_counts,
    queue_matches,
    with_player_names,
)
from matches.models import ContactIssue, Seat
from matches.services.rounds import MAX_EXTENSION_DAYS

from ..models import League, LeagueFormat, Round
from .director import _own_league
from .director_draw import DrawForm

REASON = forms.CharField(
    label="Reason (required; every player of these matches is e-mailed it)",
    max_length=500,
    widget=forms.Textarea(attrs={"rows": 2}),
)


class ExtendForm(forms.Form):
    """Extend the deadlines of a round's open matches: by a number of days or to a date."""

    days = forms.IntegerField(
        label="Extend by this many days",
        required=False,
        min_value=1,
        max_value=MAX_EXTENSION_DAYS,
        help_text="Added to each deadline; a match already past its deadline gets them from tonight.",
    )
    until = forms.DateField(
        label="Or to the end of this day",
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    reason = REASON


class RuleForm(forms.Form):
    """Rule a round's unplayed matches; who forfeits is picked on the confirm page."""

    reason = REASON


def _first_play_by_offered(league: League):
    """A first play-by date to offer: a round length from today, within the season."""
    today = league.season.institution.today()
    return min(
        max(today, league.season.starts_on) + timedelta(days=league.round_length_days),
        league.season.ends_on,
    )


def _league_and_round(request, slug: str, number: int) -> tuple[League, Round]:
    league = _own_league(request, slug)
    round_ = Round.objects.filter(league=league, number=number).first()
    if round_ is None:
        raise Http404
    round_.league = league
    return league, round_


def _queue_url(league: League, round_: Round | None = None) -> str:
    url = reverse("director_league", args=[league.slug])
    return f"{url}?round={round_.number}" if round_ else url


def _open_matches(round_: Round, match_ids=None) -> list:
    """The round's open matches with their seats and whether a can't-reach report waits (the
    extension or ruling decides it too), in two queries."""
    return list(
        match_services.round_open_matches(round_, match_ids)
        .annotate(
            waiting_on_director=Exists(
                ContactIssue.objects.filter(match=OuterRef("pk"), resolved_at__isnull=True)
            )
        )
        .prefetch_related(
            Prefetch(
                "seats", queryset=Seat.objects.select_related("player__user").order_by("order")
            )
        )
    )


QUEUE_TEXTS = {
    "unscheduled": ("Unscheduled", "No time agreed yet, still in time."),
    "overdue": (
        "Overdue",
        "Neither reported nor final, deadline passed: the nightly job makes them double forfeits"
        " unless a can't-reach report waits for you.",
    ),
    "reported": ("Reported", "Waiting for the other players to confirm."),
    "disputed": ("Disputed", "Waiting for your ruling."),
}


def _queue_row(match, tz, report_window_days: int) -> str:
    """A queue's row, kept rendered by what it shows (core.fragments)."""
    return rendered(
        "league/_queue_row.html",
        {
            "pk": match.pk,
            "names": tuple(match.player_names),
            "round": match.round_number,
            "confirm_by": match.confirm_by,
            "due": deadline_text(match.deadline, tz, report_window_days),
            "scheduled_at": match.scheduled_at,
            "open_issue_id": match.open_issue_id,
            "open_dispute_id": match.open_dispute_id,
            "tz": str(tz),
        },
    )


LEAGUE_ROUNDS = CompiledQuery(
    lambda league_id: Round.objects.filter(league_id=league_id).order_by("number"),
    league_id=int,
)


@login_required
def director_league(request: HttpRequest, slug: str) -> HttpResponse:
    """Every queue's size and its first matches; with ``?queue=`` one queue, page by page."""
    league = _own_league(request, slug)
    rounds = LEAGUE_ROUNDS.all(league_id=league.pk)
    picked = request.GET.get("round", "")
    round_ = next((r for r in rounds if str(r.number) == picked), None)
    now = timezone.now()
    shown_queue = request.GET.get("queue", "")
    page = None
    if shown_queue in QUEUES:
        counts = queue_counts(league, now=now, round=round_)
        page = Paginator(
            queue_matches(league, now=now, queue=shown_queue, round=round_), QUEUE_PAGE_SIZE
        ).get_page(request.GET.get("page"))
        shown = {shown_queue: with_player_names(list(page))}
    else:
        shown_queue = ""
        queues = league_queues(league, now=now, round=round_)
        counts = queues.counts
        shown = {key: getattr(queues, key) for key in QUEUES}
    tz = league.season.institution.tz
    # A plain league not drawn yet: its draw is here, as it was in the admin.
    can_draw = league.format == LeagueFormat.LEAGUE and not rounds
    return render(
        request,
        "league/director_league.html",
        {
            "league": league,
            "tz": tz,
            "draw_form": DrawForm(initial={"first_play_by": _first_play_by_offered(league)})
            if can_draw
            else None,
            "players": league.entries.filter(withdrawn_at__isnull=True).count() if can_draw else 0,
            "round_filter": rendered(
                "league/_round_filter.html",
                {
                    "rounds": tuple((each.number, each.play_by) for each in rounds),
                    "picked": round_.number if round_ else 0,
                },
            ),
            "round": round_,
            "queues": [
                {
                    "key": key,
                    "title": QUEUE_TEXTS[key][0],
                    "help": QUEUE_TEXTS[key][1],
                    "count": counts.get(key, 0),
                    "rows": None
                    if shown.get(key) is None
                    else [_queue_row(m, tz, league.report_window_days) for m in shown[key]],
                    "more": counts.get(key, 0) - len(shown.get(key) or ()),
                }
                for key in QUEUES
            ],
            "shown_queue": shown_queue,
            "page": page,
            "page_query": urlencode(
                {"queue": shown_queue, **({"round": round_.number} if round_ else {})}
            ),
            "on_track": counts.get(ON_TRACK, 0),
            "extend_form": ExtendForm(auto_id="extend_%s"),
            "rule_form": RuleForm(auto_id="rule_%s"),
        },
    )


def _fail(request, league, round_, message: str) -> HttpResponse:
    messages.error(request, message)
    return redirect(_queue_url(league, round_))


def _confirmed_ids(request) -> list[int]:
    """The matches the director ticked; anything that is not an id is left out ("²" passes
    isdigit() and fails int())."""
    ids = (number_or_none(value, low=1, high=BIGINT_MAX) for value in request.POST.getlist("match"))
    return [match_id for match_id in ids if match_id is not None]


@login_required
@posted_from("director_league", "slug")
def round_extend(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Without `confirm`: the page listing the matches and their new deadlines. With it: the
    extension of the matches confirmed."""
    league, round_ = _league_and_round(request, slug, number)
    form = ExtendForm(request.POST)
    if not form.is_valid():
        return _fail(request, league, round_, _errors(form))
    days, until, reason = (form.cleaned_data[key] for key in ("days", "until", "reason"))
    now = timezone.now()
    tz = league.season.institution.tz
    if refusal := match_services.extension_refusal(days=days, until=until, tz=tz, now=now):
        return _fail(request, league, round_, refusal)
    if request.POST.get("confirm"):
        try:
            result = match_services.round_deadlines_extend(
                actor=request.user,
                round=round_,
                match_ids=_confirmed_ids(request),
                days=days,
                until=until,
                reason=reason,
                now=now,
            )
        except DomainError as error:
            return _fail(request, league, round_, error.message)
        messages.success(request, result.sentence("deadline extended, players e-mailed"))
        return redirect(_queue_url(league, round_))
    plan = [
        (match, match_services.extension_of(match.deadline, days=days, until=until, tz=tz, now=now))
        for match in _open_matches(round_)
    ]

    def due(moment) -> str:
        return deadline_text(moment, tz, league.report_window_days)

    return render(
        request,
        "league/director_round_confirm.html",
        {
            "league": league,
            "round": round_,
            "tz": tz,
            "action": "extend",
            "form": form,
            "changing": [
                (match, due(match.deadline), due(new)) for match, new in plan if new is not None
            ],
            "unchanged": [(match, due(match.deadline)) for match, new in plan if new is None],
        },
    )


@login_required
@posted_from("director_league", "slug")
def round_rule(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Without `confirm`: the page listing the unplayed matches, each with who forfeits (a double
    forfeit unless the director names a seat, or left for now). With it: the rulings."""
    league, round_ = _league_and_round(request, slug, number)
    form = RuleForm(request.POST)
    if not form.is_valid():
        return _fail(request, league, round_, _errors(form))
    if request.POST.get("confirm"):
        ids, forfeiting = [], {}
        for match_id in _confirmed_ids(request):
            choice = request.POST.get(f"ruling_{match_id}", "double")
            if choice == "leave":
                continue
            ids.append(match_id)
            seat = number_or_none(choice, low=0, high=INT_MAX)
            if seat is not None:
                forfeiting[match_id] = [seat]
        try:
            result = match_services.round_unplayed_rule(
                actor=request.user,
                round=round_,
                match_ids=ids,
                forfeiting=forfeiting,
                reason=form.cleaned_data["reason"],
            )
        except DomainError as error:
            return _fail(request, league, round_, error.message)
        left = len(_confirmed_ids(request)) - len(ids)
        messages.success(
            request,
            result.sentence("ruled, players e-mailed")
            + (f" {left} left for now as you chose." if left else ""),
        )
        return redirect(_queue_url(league, round_))
    return render(
        request,
        "league/director_round_confirm.html",
        {
            "league": league,
            "round": round_,
            "tz": league.season.institution.tz,
            "action": "rule",
            "form": form,
            "changing": [
                (
                    match,
                    deadline_text(
                        match.deadline, league.season.institution.tz, league.report_window_days
                    ),
                    None,
                )
                for match in _open_matches(round_)
            ],
        },
    )


def _errors(form) -> str:
    return " ".join(error for errors in form.errors.values() for error in errors)
