"""A round's printables (E3, E5, G10): the wall pairings, the table score cards, the official
score sheets, as PDF."""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse

from accounts import privacy
from accounts.services import export_record
from core.clock import clock_time
from events import card_board, printables, selectors, services
from events.models import event_of_league
from events.pages import rounds_view
from events.views.access import staff_event_of
from league.addresses import LeagueAddress
from league.wordlists import list_note, two_letter_words

# --- Printables ---------------------------------------------------------------------------------


@login_required
def event_print(
    request: HttpRequest, address: LeagueAddress, number: int, kind: str
) -> HttpResponse:
    """The round's pairings (wall sheets) or its table score cards as a PDF (E3, G10)."""
    league = staff_event_of(request, address)
    if kind not in ("pairings", "cards", "sheets"):
        raise Http404
    paper = request.GET.get("paper", "letter")
    if paper not in printables.PAPER:
        paper = "letter"
    round_ = selectors.paired_round(league, number)
    if kind in ("cards", "sheets"):
        # Recorded before the seating is read: a re-pairing after this moment is one the cards
        # in the hall may not show, and the scoring table then asks for players' numbers.
        if round_ is not None:
            services.cards_printed(actor=request.user, round=round_)
    # Printed sheets leave the staff's hands: a withheld student is their number on every one
    # (P2), and the wall's pairings name players as the league does in public (P1).
    style = league.names_in_public if kind == "pairings" else privacy.FULL
    state = selectors.event_state(league, style)
    view = next((r for r in rounds_view(state) if r["round"].number == number), None)
    if view is None or not view["tables"]:
        raise Http404

    # The players enter their own card (S1): the card says how. It carries no codes: each
    # player proves their seat with their own slip (S4).
    self_entry = round_ is not None and card_board.self_entry_open(league, round_)

    def seat_of(seat, entry):
        return printables.PrintSeat(
            seat=seat.order,
            name=state.names.of(seat.player),
            number=entry.player_number if entry else None,
            category=entry.entrant.category.name if entry and entry.entrant.category_id else "",
            team=entry.entrant.team.name if entry and entry.entrant.team_id else "",
        )

    def seconds(seats):
        return (
            max(
                (
                    e.entrant.category.turn_seconds or 0
                    for _, e in seats
                    if e and e.entrant.category_id
                ),
                default=0,
            )
            or None
        )

    first = view["periods"][0] if view["periods"] else None
    sheet = printables.PrintRound(
        event=league.name,
        venue=league.venue,
        date=event_of_league(league).date,
        round=number,
        starts=clock_time(first.starts) if first else "",
        minutes=sum(period.minutes for period in view["periods"]),
        tables=tuple(
            printables.PrintTable(
                number=match.table,
                seats=tuple(seat_of(seat, entry) for seat, entry in seats),
                url=settings.SITE_URL + reverse("event_table", args=[league, number, match.table]),
                turn_seconds=seconds(seats),
            )
            for match, seats in view["tables"]
        ),
        byes=tuple(seat_of(*seats[0]) for _, seats in view["byes"]),
        two_letter_words=tuple(two_letter_words()),
        two_letter_caption=list_note(league.get_lexicon_display(), ask="a word judge"),
        periods=tuple((clock_time(p.starts), p.minutes) for p in view["periods"]),
        end_of_game=printables.END_OF_GAME_WORDS.get(league.end_of_game_rule, ""),
        self_entry=self_entry,
    )
    render_pdf = {
        "pairings": printables.pairings_pdf,
        "cards": printables.score_cards_pdf,
        "sheets": printables.score_sheets_pdf,
    }[kind]
    pdf = render_pdf(sheet, paper)
    # The sheets name the round's players: a download of personal data, recorded (P6).
    export_record(
        institution=league.season.institution,
        actor=request.user,
        what=f"{kind}.pdf",
        subject=f"{league.name}, round {number}",
        rows=sum(len(table.seats) for table in sheet.tables) + len(sheet.byes),
    )
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = (
        f'inline; filename="{league.slug}-round-{number}-{kind}-{paper}.pdf"'
    )
    return response


# What each end-of-game rule (G1) means, printed on the score sheet for the table to apply.
