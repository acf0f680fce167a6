"""The club night's page (E4): the check-in list, seating the tables, the tables with their
score cards, closing the night. For the club's director and the front desk; others get 404.
Thin views: each POST calls one service in ``clubs.services`` or ``matches.services``."""

import secrets

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts import privacy, roles
from accounts.models import PlayerProfile
from accounts.services import export_record
from core.actions import act_and_say, posted_from
from core.errors import DomainError
from core.values import clean_text
from league.addresses import LeagueAddress
from league.door import back_with_search, entrant_scanned, searched
from league.models import Entry, League, LeagueFormat, Round
from league.selectors import round_tables
from league.views import league_page_context
from matches import services as match_services
from matches.models import Match

from . import cards as table_cards
from . import printables, selectors
from . import services as club
from .forms import CardForm, GuestForm, NightForm


def _night(request: HttpRequest, address: LeagueAddress, number: int) -> Round:
    night = get_object_or_404(
        Round.objects.select_related("league__season__institution"),
        league__campus__slug=address.campus,
        league__slug=address.slug,
        number=number,
    )
    institution = night.league.season.institution
    if night.league.format != LeagueFormat.CLUB or not roles.is_front_desk_of(
        request.user, institution
    ):
        raise Http404
    return night


def _render(
    request,
    night: Round,
    status: int = 200,
    bound_card: CardForm | None = None,
    guest_form: GuestForm | None = None,
):
    league = night.league
    query = searched(request)
    check_in = selectors.check_in_list(night, query)
    tables = check_in.tables
    is_director = roles.is_director_of(request.user, league.season.institution)
    cards = [
        bound_card
        if bound_card is not None and bound_card.prefix == f"table-{table.pk}"
        # A prefix per table keeps each table's inputs apart on one page.
        else CardForm(table=table)
        for table in tables
    ]
    rows = [
        {
            "table": table,
            "card": card,
            # Reported from a phone, waiting for the other seats: the director confirms it
            # (or opens the table), not a new card over it.
            "report": check_in.waiting_card.get(table.pk),
            # Seated or joined since the cards were printed: its printed card is out of date.
            "reprint": table.pk in check_in.reprint and check_in.closing is None,
        }
        for table, card in zip(tables, cards, strict=True)
    ]
    return render(
        request,
        "clubs/night.html",
        {
            "league": league,
            "night": night,
            "query": query,
            "entries": check_in.rows,
            "present_count": check_in.present_count,
            "waiting": check_in.waiting,
            "played": check_in.played,
            "joinable": check_in.joinable,
            "closing": check_in.closing,
            "tables": rows,
            "printed": check_in.printed,
            "reprint": [row["table"] for row in rows if row["reprint"]],
            "is_director": is_director,
            "guest_form": guest_form or GuestForm(),
        },
        status=status,
    )


@login_required
def club_night(request: HttpRequest, address: LeagueAddress, number: int) -> HttpResponse:
    return _render(request, _night(request, address, number))


def _back(night: Round, query="") -> str:
    return back_with_search(reverse("club_night", args=[night.league, night.number]), query)


def _player_from(night: Round, key) -> PlayerProfile:
    """A scanned campus ID or a player number (the buttons send the number)."""
    found = entrant_scanned(night.league, key, present_only=True)
    if found.entry is not None:
        return found.entry.player
    if found.outsider is not None:
        raise DomainError(f"{found.outsider.name} is not in this league.")
    raise DomainError(f"No player of this club has the campus ID or number {found.key!r}.")


@login_required
@require_POST
def club_check_in(request: HttpRequest, address: LeagueAddress, number: int) -> HttpResponse:
    night = _night(request, address, number)

    def check_in_or_out():
        player = _player_from(night, request.POST.get("player", ""))
        if request.POST.get("undo"):
            club.check_out(actor=request.user, round=night, player=player)
            return f"{player.name} is no longer checked in."
        club.check_in(actor=request.user, round=night, player=player)
        return f"{player.name} is checked in."

    act_and_say(request, check_in_or_out, lambda said: said)
    return redirect(_back(night, request.POST.get("q", "")))


@login_required
@require_POST
def club_seat(request: HttpRequest, address: LeagueAddress, number: int) -> HttpResponse:
    night = _night(request, address, number)
    seed = secrets.randbelow(1_000_000)
    act_and_say(
        request,
        lambda: club.seat_night(
            actor=request.user, round=night, seed=seed, repair=bool(request.POST.get("repair"))
        ),
        lambda tables: f"{len(tables)} table{'' if len(tables) == 1 else 's'} seated.",
    )
    return redirect(_back(night))


@login_required
@require_POST
def club_latecomers(request: HttpRequest, address: LeagueAddress, number: int) -> HttpResponse:
    """Seat those who came after the tables were drawn; a single one joins the table the desk
    picked (the smallest whose game has not started)."""
    night = _night(request, address, number)
    seed = secrets.randbelow(1_000_000)
    join = request.POST.get("join", "")
    table = (
        Match.objects.filter(round=night, pk=int(join)).first()
        if join.isascii() and join.isdecimal() and len(join) < 19
        else None
    )
    if join and table is None:
        messages.error(request, "That table is not one of tonight's.")
        return redirect(_back(night))

    def said(seated: club.Latecomers) -> str:
        if seated.joined is not None:
            newcomer = seated.joined.seats.order_by("-order").first().player
            return f"{newcomer.name} joins table {seated.joined.table} in the last seat."
        numbers = ", ".join(str(t.table) for t in seated.tables)
        count = len(seated.tables)
        return f"Latecomers seated at table{'' if count == 1 else 's'} {numbers}."

    act_and_say(
        request,
        lambda: club.seat_latecomers(actor=request.user, round=night, seed=seed, join=table),
        said,
    )
    return redirect(_back(night))


@login_required
@require_POST
def club_night_add(request: HttpRequest, address: LeagueAddress) -> HttpResponse:
    league = get_object_or_404(League.objects.at(address).select_related("season__institution"))
    if not roles.is_director_of(request.user, league.season.institution):
        raise Http404
    form = NightForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give the night's date.")
    else:
        act_and_say(
            request,
            lambda: club.night_add(actor=request.user, league=league, on=form.cleaned_data["on"]),
            lambda night: f"Night {night.number} scheduled.",
        )
    return redirect(league)


@login_required
@require_POST
def club_close(request: HttpRequest, address: LeagueAddress, number: int) -> HttpResponse:
    night = _night(request, address, number)
    act_and_say(
        request,
        lambda: club.close_night(
            actor=request.user,
            round=night,
            reason=clean_text(request.POST.get("reason"), what="The reason", max_length=300),
        ),
        lambda closed: (
            f"Night {night.number} closed: {closed.forfeited} tables without scores forfeited, "
            f"{closed.confirmed} reports another player had confirmed now count."
        ),
    )
    return redirect(_back(night))


@login_required
def club_cards(request: HttpRequest, address: LeagueAddress, number: int) -> HttpResponse:
    """The night's table cards as a PDF, one per table, each with a QR code to the table's
    match page (E4, G9): the director or the front desk prints them once the night is seated."""
    night = _night(request, address, number)
    tables = round_tables(night)
    if not tables:
        raise Http404
    league = night.league
    numbers = dict(
        Entry.objects.filter(league=league, player__seats__match__round=night).values_list(
            "player_id", "player_number"
        )
    )
    sheet = printables.PrintNight(
        club=league.name,
        venue=league.venue,
        night=night.number,
        date=night.play_by,
        tables=tuple(
            printables.PrintTable(
                number=table.table or index,
                seats=tuple(
                    printables.PrintSeat(
                        seat=seat.order,
                        # Printed sheets leave the staff's hands: a withheld student is their
                        # player number here (P2), as on an event's cards.
                        name=seat.player.name_in(privacy.FULL, numbers.get(seat.player_id)),
                        number=numbers.get(seat.player_id),
                        keeps_score=seat.order == table.scorekeeper,
                    )
                    for seat in table.seats.all()
                ),
                # From SITE_URL, as every link that leaves the page: never the request's Host.
                url=settings.SITE_URL + table.get_absolute_url(),
            )
            for index, table in enumerate(tables, start=1)
        ),
    )
    paper = request.GET.get("paper", "letter")
    pdf = printables.cards_pdf(sheet, paper if paper in printables.PAPER else "letter")
    # The page marks a table seated or joined after this for a reprint.
    table_cards.cards_printed(actor=request.user, round=night)
    # The cards name the night's players: a download of personal data, recorded (P6).
    export_record(
        institution=league.season.institution,
        actor=request.user,
        what="cards.pdf",
        subject=f"{league.name}, night {night.number}",
        rows=sum(len(table.seats) for table in sheet.tables),
    )
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = (
        f'inline; filename="{league.slug}-night-{night.number}-cards.pdf"'
    )
    return response


@login_required
@require_POST
def club_card(
    request: HttpRequest, address: LeagueAddress, number: int, match_id: int
) -> HttpResponse:
    night = _night(request, address, number)
    table = next((t for t in round_tables(night) if t.pk == match_id), None)
    if table is None:
        raise Http404
    form = CardForm(request.POST, table=table)
    if form.is_valid():
        try:
            match_services.card_enter(
                actor=request.user,
                match=table,
                scores=form.scores(),
                players=form.seen_players(),
                ended_by=form.cleaned_data["ended_by"],
                override_reason=form.cleaned_data["override_reason"],
                unusual_confirmed=True,  # the card is what the table signed
            )
        except DomainError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, "Card entered: the result is final.")
            return redirect(_back(night))
    messages.error(request, "Nothing was changed: see the table's card below.")
    return _render(request, night, status=200, bound_card=form)


@login_required
@posted_from("club_night", "address", "number")
def club_confirm(
    request: HttpRequest, address: LeagueAddress, number: int, match_id: int
) -> HttpResponse:
    """The director confirms a table's card as its scorekeeper reported it."""
    night = _night(request, address, number)
    table = get_object_or_404(Match, round=night, pk=match_id)
    act_and_say(
        request,
        lambda: table_cards.reported_card_confirm(actor=request.user, round=night, match=table),
        lambda confirmed: f"Table {confirmed.table}'s card confirmed: the result is final.",
    )
    return redirect(_back(night))


@login_required
@require_POST
def club_guest(request: HttpRequest, address: LeagueAddress, number: int) -> HttpResponse:
    night = _night(request, address, number)
    form = GuestForm(request.POST)
    if form.is_valid():
        try:
            entry = club.guest_add(
                actor=request.user,
                league=night.league,
                name=form.cleaned_data["name"],
                email=form.cleaned_data["email"],
                round=night,
            )
        except DomainError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request,
                f"{entry.player.name} (guest, number {entry.player_number}) is checked in.",
            )
            return redirect(_back(night))
    messages.error(request, "No guest was added: see the form below.")
    return _render(request, night, guest_form=form)


def club_home(request: HttpRequest, league: League) -> HttpResponse:
    """A club league's page: its nights, each with the staff's way in, and the director's form
    to schedule the next."""
    context = league_page_context(request, league)
    return render(request, "clubs/home.html", {**context, "night_form": NightForm()})
