"""What a signed-in student does: the leagues list, joining, the waitlist, withdrawing, and
downloading everything the site holds about them. Their home page is `home.py`."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef, Subquery
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from accounts import privacy, roles
from accounts.models import Eligibility, EligibilityStatus
from accounts.selectors import institution_counts
from accounts.services import export_record
from core.actions import posted_from
from core.compiled import CompiledQuery
from core.errors import DomainError
from core.fragments import rendered

from .. import formats
from ..addresses import LeagueAddress
from ..models import Entry, League, WaitlistEntry
from ..personal_data import personal_data
from ..policies import join_refusal
from ..selectors import leagues_for
from ..services import (
    entry_leave,
    league_join,
    leave_warning,
    remaining_games,
    waitlist_join,
    waitlist_leave,
)

LEAGUES_PER_PAGE = 20


def _leagues_with_mine(institution_id: int, profile_id: int):
    """The institution's leagues with whether the student is in each, on its waitlist, and their
    eligibility for its season, in the list's own query (a UNION, tried first, broke on the
    demo's SQLite: ORDER BY in a compound statement)."""
    return leagues_for(institution_id).annotate(
        is_mine=Exists(
            Entry.objects.filter(
                league=OuterRef("pk"), player_id=profile_id, withdrawn_at__isnull=True
            )
        ),
        is_waiting=Exists(
            WaitlistEntry.objects.filter(league=OuterRef("pk"), player_id=profile_id)
        ),
        eligibility=Subquery(
            Eligibility.objects.filter(profile_id=profile_id, season=OuterRef("season_id")).values(
                "status"
            )[:1]
        ),
    )


LEAGUE_PAGE = CompiledQuery(
    lambda institution_id, profile_id, offset: _leagues_with_mine(institution_id, profile_id)[
        offset : offset + LEAGUES_PER_PAGE
    ],
    shape=("offset",),
    institution_id=int,
    profile_id=int,
)


LEAGUE_COUNT = CompiledQuery(
    lambda institution_id: institution_counts(
        institution_id, leagues=League.objects.filter(season__institution_id=institution_id)
    ),
    institution_id=int,
)
# A card's labels for the codes it shows, looked up here rather than with get_FOO_display,
# which flattens the field's choices on each call (80 calls a page).
CARD_LABELS = {
    name: dict(League._meta.get_field(name).flatchoices)
    for name in ("format", "lexicon", "end_of_game_rule", "challenge_rule")
}


def _label(league, name: str) -> str:
    value = getattr(league, name)
    return str(CARD_LABELS[name].get(value, value))


@login_required
def league_list(request: HttpRequest) -> HttpResponse:
    """The leagues of the student's institution, newest season first, a page at a time, with
    why joining is or isn't possible; with `?open=1` only those they can join now, or join the
    waitlist of. A page is one query besides the session (and the count of the whole list)."""
    institution = roles.institution_of(request.user)
    if institution is None:
        raise Http404
    profile = request.user.profile
    only_open = request.GET.get("open") == "1"
    number = request.GET.get("page")
    if only_open:
        # Only leagues open for entry can be joined: the database drops the rest, and the policy
        # decides among the few left (capacity, eligibility, the waitlist).
        leagues = (
            _leagues_with_mine(institution.pk, profile.pk)
            .filter(is_mine=False, is_waiting=False)
            .filter(League.open_for_entry(institution.today()))
        )
        rows = [_league_row(league, institution.slug) for league in leagues]
        rows = [row for row in rows if not row["why_not"] or row["waitlist"]]
        page = Paginator(rows, LEAGUES_PER_PAGE).get_page(number)
    else:
        count = LEAGUE_COUNT.first(institution_id=institution.pk).leagues
        page = Paginator(range(count), LEAGUES_PER_PAGE).get_page(number)
        leagues = (
            LEAGUE_PAGE.all(
                institution_id=institution.pk, profile_id=profile.pk, offset=page.start_index() - 1
            )
            if count
            else []
        )
        page.object_list = [_league_row(league, institution.slug) for league in leagues]
    return render(
        request,
        "league/league_list.html",
        {"rows": page.object_list, "page": page, "only_open": only_open},
    )


def _league_row(league, campus: str) -> dict:
    refusal = join_refusal(
        league,
        joined=league.is_mine,
        waiting=league.is_waiting,
        players=league.players,
        started=league.started(league.has_rounds),
        eligibility=league.eligibility or EligibilityStatus.PENDING,
    )
    places_left = max(league.capacity - league.players, 0)
    # A one-day event: its day and venue, entry open until the day (its format says which day).
    held_on = formats.of(league.format).held_on
    why_not = refusal.reason if refusal else ""
    waitlist = bool(refusal and refusal.waitlist)
    # The whole card, the student's own join button too, is plain values: the buttons post
    # the page's one form (its CSRF token is the only per-request part), so it is kept.
    card = {
        "pk": league.pk,
        "address": LeagueAddress(campus, league.slug),
        "name": league.name,
        "season": league.season.name,
        "format": _label(league, "format"),
        "venue": league.venue,
        "lexicon": _label(league, "lexicon"),
        "places_left": places_left,
        "capacity": league.capacity,
        "registration_deadline": league.season.registration_deadline,
        "held_on": held_on(league) if held_on is not None else None,
        "end_of_game_rule": _label(league, "end_of_game_rule"),
        "challenge_rule": _label(league, "challenge_rule"),
        "turn_time_seconds": league.turn_time_seconds,
        "joined": league.is_mine,
        "waiting": league.is_waiting,
        "waitlist": waitlist,
        "why_not": why_not,
    }
    return {
        "league": league,
        "card": rendered("league/_league_card.html", card),
        "why_not": why_not,
        "waitlist": waitlist,
    }


@login_required
@require_POST
def league_join_view(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    league = _students_league(request, address)
    join = formats.of(league.format).join
    if join is not None:
        return join(request, league)
    try:
        league_join(actor=request.user, league=league)
    except DomainError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request, f"You joined {league}. Your matches appear once the director draws the rounds."
        )
    # Back where the student tapped Join: the league's page or the list.
    return redirect(league if request.POST.get("back") == "league" else "league_list")


def _students_league(request, address: LeagueAddress) -> League:
    """A league of the signed-in student's institution; 404 to anyone else."""
    league = get_object_or_404(League.objects.at(address).select_related("season__institution"))
    if roles.institution_of(request.user) != league.season.institution:
        raise Http404
    return league


@login_required
def league_withdraw_view(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    """A student withdraws from a league. Before the draw the league page's button posts here
    and it is done at once; after it this page says what it costs first (the remaining games
    become forfeits) and its button confirms."""
    league = _students_league(request, address)
    entry = get_object_or_404(
        Entry.objects.select_related("player__user", "league"),
        league=league,
        player__user=request.user,
        withdrawn_at__isnull=True,
    )
    if request.method == "POST":
        try:
            forfeits = entry_leave(
                actor=request.user,
                entry=entry,
                accept_forfeits=request.POST.get("accept_forfeits") == "yes",
            )
        except DomainError as error:
            messages.error(request, error.message)
        else:
            told = f"You withdrew from {league}."
            if forfeits:
                told += f" {forfeits} game{'s' if forfeits != 1 else ''} went to your opponents."
            messages.success(request, told)
        return redirect(league)
    games = remaining_games(entry)
    return render(
        request,
        "league/withdraw.html",
        {
            "league": league,
            "games": games,
            "warning": leave_warning(league, games),
            "started": league.started(league.rounds.exists()),
        },
    )


@login_required
@posted_from("league_detail")
def league_waitlist_view(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    league = _students_league(request, address)
    try:
        place = waitlist_join(actor=request.user, league=league)
    except DomainError as error:
        messages.error(request, error.message)
        return redirect("league_list")
    if isinstance(place, Entry):
        messages.success(request, f"A place in {league} was free: you joined it.")
    else:
        messages.success(request, f"You are on the waitlist for {league}.")
    return redirect(league)


@login_required
@posted_from("league_detail")
def league_waitlist_leave_view(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    league = _students_league(request, address)
    try:
        waitlist_leave(actor=request.user, league=league)
    except DomainError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"You left the waitlist for {league}.")
    return redirect(league)


@login_required
@posted_from("profile")
def my_data(request: HttpRequest) -> HttpResponse:
    """Everything the site holds about the signed-in person, as one JSON file (issue 31): only
    ever their own, since it is read from the session's user and from nothing the request
    names. The download is recorded like any export of personal data (P6), under the number
    they go by where their name is withheld."""
    profile = getattr(request.user, "profile", None)
    if profile is None:
        raise Http404
    document = personal_data(request.user, profile)
    export_record(
        institution=profile.institution,
        actor=request.user,
        what="my-data.json",
        subject=profile.name_in(privacy.NUMBER),
        rows=len(document["matches"]),
    )
    response = JsonResponse(document, json_dumps_params={"indent": 2, "ensure_ascii": False})
    filename = f"my-data-{profile.institution.today().isoformat()}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
