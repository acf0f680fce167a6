"""An event's public pages (E3): the event, the leaderboard, the projector, a round's pairings,
a table, event.json; public when the event is."""

from datetime import date, datetime, timedelta

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from accounts import roles
from core.clock import clock_time, duration_words
from core.errors import DomainError
from core.middleware import indexed_if_welcome
from events import assist_ledger, card_board, rights, selectors, services
from events.models import event_of_league
from events.pages import rounds_view
from events.slips import shown_code
from events.views.access import event_of
from league.addresses import LeagueAddress
from league.models import League, LeagueFormat
from league.names import name_style
from league.pages import layout, render_pages
from league.selectors import league_page_row


def event_home(request: HttpRequest, league: League) -> HttpResponse:
    """The event's page (``/<campus>/leagues/<slug>/`` for an event)."""
    style = name_style(request.user, league)
    state = selectors.event_state(league, style)
    institution = league.season.institution
    rounds = rounds_view(state)
    my_entry = _my_entry(request, state)
    # Their own slip, to confirm their table's cards from their phone (S4).
    my_slip = (
        services.slip_of(my_entry)
        if my_entry is not None
        and my_entry.player_number is not None
        and event_of_league(league).self_entry
        else None
    )
    return render(
        request,
        "events/home.html",
        {
            "league": league,
            "names": state.names,
            "state": state,
            "rounds": rounds,
            "next_round": next((r for r in rounds if r["status"] != "complete"), None),
            "categories": list(league.categories.all()),
            "entrants": [e for e in state.entries if e.withdrawn_at is None],
            "is_staff": roles.is_front_desk_of(request.user, institution),
            "is_director": roles.is_director_of(request.user, institution),
            "is_scorer": rights.may_score(request.user, league),
            "my_entry": my_entry,
            "my_slip": my_slip,
            "my_slip_code": shown_code(my_slip.code) if my_slip else "",
            "can_join": request.user.is_authenticated
            and roles.institution_of(request.user) == institution
            and league.registration_open()
            and not any(
                e.player.user_id == request.user.pk and e.withdrawn_at is None
                for e in state.entries
            ),
        },
    )


def _my_entry(request, state: selectors.EventState):
    if not request.user.is_authenticated:
        return None
    return next((e for e in state.entries if e.player.user_id == request.user.pk), None)


def _event_page(request: HttpRequest, address: LeagueAddress, part: str):
    """The event's stored leaderboard or event.json (``LeaguePageRow``; one query for a public
    event). A private event's are for its institution's front desk and directors only (the
    contract's event.json); one rendered by older templates is rendered again first."""
    row = league_page_row(address, part)
    if row is None or row.layout != layout():
        league = get_object_or_404(League.objects.at(address), format=LeagueFormat.EVENT)
        render_pages([league.pk])
        row = league_page_row(address, part)
    if not row.content:
        raise Http404  # a league that is not an event
    if not row.public:
        league = League.objects.select_related("season__institution").get(pk=row.league_id)
        if not roles.is_front_desk_of(request.user, league.season.institution):
            raise Http404
    return row


def event_leaderboard(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    row = _event_page(request, address, "event_html")
    response = render(
        request,
        "league/page.html",
        {"title": f"{row.name}: leaderboard", "content": row.content_for(request.user)},
    )
    return indexed_if_welcome(response, row.search_engines)


def event_projector(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    """Large type for the hall's screen; ``table_timer``-style plain JS reloads the panel."""
    league = event_of(request, address)
    return render(request, "events/projector.html", _projector_context(league))


def event_projector_panel(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    league = event_of(request, address)
    return render(request, "events/_projector_panel.html", _projector_context(league))


# Rows of the leaders a hall screen shows at once: large enough to read across the hall at
# 1280×720 and 1920×1080 alike (the type is sized to the screen's height).
HALL_ROWS = 10


def _round_words(current: dict | None) -> str:
    """The round's state in words for the hall: a paired round that has not begun "starts at
    7:00 PM, in 1 h 28 min" (it is not under way), one in play its period and time left."""
    if current is None:
        return ""
    if current["status"] == "complete":
        return "complete"
    clock = current["clock"]
    if clock.state == "before" and current["periods"]:
        starts = clock_time(current["periods"][0].starts)
        return f"paired: starts at {starts}, in {duration_words(clock.minutes_left)}"
    return str(clock)


def _projector_context(league: League) -> dict:
    # The hall's screen is read by everyone in the hall, whoever signed in at its laptop: the
    # league's public names (P1, P2).
    state = selectors.event_state(league, league.names_in_public)
    rounds = rounds_view(state)
    current = next((r for r in reversed(rounds) if r["status"] != "unpaired"), None)
    rows = state.board.rows
    return {
        "league": league,
        "board": state.board,
        "ledger": assist_ledger.ledger(league),
        "leader_pages": [rows[at : at + HALL_ROWS] for at in range(0, len(rows), HALL_ROWS)],
        "current": current,
        "round_words": _round_words(current),
        # How many of the round's cards the hall still owes (S3), from the tables already read.
        "cards_out": sum(1 for match, _ in current["tables"] if not match.is_final)
        if current
        else 0,
        "period_spans": [
            (
                clock_time(period.starts),
                clock_time(
                    datetime.combine(date.min, period.starts) + timedelta(minutes=period.minutes)
                ),
            )
            for period in (current["periods"] if current else [])
        ],
        "now": timezone.now(),
    }


def event_round(request: HttpRequest, address: LeagueAddress, number: int) -> HttpResponse:
    """A round's pairings: by table, and by name (what goes on the wall)."""
    league = event_of(request, address)
    style = name_style(request.user, league)
    state = selectors.event_state(league, style)
    view = next((r for r in rounds_view(state) if r["round"].number == number), None)
    if view is None:
        raise Http404
    by_name = sorted(
        (
            (state.names.of(entry.player).casefold(), entry, match)
            for match, seats in view["tables"] + view["byes"]
            for _, entry in seats
            if entry is not None
        ),
        key=lambda row: row[0],
    )
    institution = league.season.institution
    is_director = roles.is_director_of(request.user, institution)
    me = getattr(request.user, "profile", None) if request.user.is_authenticated else None
    mine = next(
        (
            (match, seats)
            for match, seats in view["tables"] + view["byes"]
            if me and any(seat.player_id == me.pk for seat, _ in seats)
        ),
        None,
    )
    return render(
        request,
        "events/round.html",
        {
            "league": league,
            "names": state.names,
            "view": view,
            "mine": mine,
            "by_name": [(entry, match) for _, entry, match in by_name],
            "is_staff": roles.is_front_desk_of(request.user, institution),
            "is_director": is_director,
            "is_scorer": rights.may_score(request.user, league),
            "cards": selectors.round_cards(view["round"]),
            # Who came since the round was paired, while drawing it again can still seat them.
            "waiting": selectors.checked_in_without_a_seat(league, view["round"])
            if is_director and view["tables"] and not selectors.cards_begun(view["round"])
            else [],
            # Before its time, the director may start it: its tables then take cards.
            "not_begun": card_board.not_begun_yet(league, view["round"], timezone.now())
            if view["tables"]
            else "",
        },
    )


def event_json(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    """The contract's event.json for campus websites, as stored (``event_pages``)."""
    row = _event_page(request, address, "event_json")
    response = HttpResponse(row.content, content_type="application/json")
    return indexed_if_welcome(response, row.search_engines)


def event_join_view(request: HttpRequest, league: League) -> HttpResponse:
    """A student enters the event from its page, in the category they choose (E3)."""
    try:
        entry = services.event_join(
            actor=request.user, league=league, category=request.POST.get("category", "")
        )
    except DomainError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            f"You are number {entry.player_number} in {league} ({entry.entrant.category.name}). "
            "Check in at the door on the day.",
        )
    return redirect(league)
