"""An event round's printables (E3, G3, G8, G10): the pairings for the wall and one score card
per table, as PDF. The HTML comes from templates (``templates/events/print/``) and WeasyPrint
turns it into pages; the pairings, score cards and sheets are drawn straight onto the pages
instead (``events/printdraw/``), their templates kept as the layout a test holds the drawing to. The QR
code on each card leads to the table's page.

Plain data in (``PrintRound``), bytes out: the view builds the round from the database."""

import datetime
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils.dateformat import format as date_format

from core.qr import qr_data_uri

# CSS page sizes WeasyPrint knows, by the name the pages offer.
PAPER = {"a4": "A4", "letter": "letter"}

END_OF_GAME_WORDS = {
    "standard": "each player loses the value of their own unplayed tiles; the player who went "
    "out gains the others' total.",
    "north_american": "the player who went out gains twice the others' unplayed tiles; nobody "
    "loses their own.",
    "out_bonus": "the player who goes out gains the value of all the others' unplayed tiles; "
    "nobody loses their own; when time is up, nothing is added or taken away.",
    "none": "no adjustment for unplayed tiles.",
}


@dataclass(frozen=True)
class PrintSeat:
    seat: int
    name: str
    number: int | None
    category: str = ""
    team: str = ""


@dataclass(frozen=True)
class PrintTable:
    number: int
    seats: tuple[PrintSeat, ...]
    url: str
    turn_seconds: int | None = None

    @property
    def turn_label(self) -> str:
        seconds = self.turn_seconds or 0
        return f"{seconds // 60}:{seconds % 60:02d}"

    @property
    def qr_image(self) -> str:
        """The table page's QR code as a data: URI for an <img> (the template writes the tag)."""
        return qr_data_uri(self.url)


@dataclass(frozen=True)
class PrintRound:
    event: str
    venue: str
    date: datetime.date
    round: int
    starts: str
    minutes: int
    tables: tuple[PrintTable, ...]
    byes: tuple[PrintSeat, ...] = ()
    two_letter_words: tuple[str, ...] = ()
    two_letter_caption: str = ""
    periods: tuple[tuple[str, int], ...] = ()  # (starts "HH:MM", minutes), when in periods
    end_of_game: str = ""  # the league's end-of-game rule in words (G1)
    self_entry: bool = False  # the players enter this card themselves (S1), each with their slip


def _paper(paper: str) -> str:
    if paper not in PAPER:
        raise ValueError(f"paper: {paper!r} is not one of {', '.join(PAPER)}.")
    return PAPER[paper]


def _pdf(template: str, context: dict) -> bytes:
    from weasyprint import HTML  # imported here: loading Pango costs a moment

    html = render_to_string(template, context)
    return HTML(string=html).write_pdf()


def _by_name(round: PrintRound) -> list[tuple[PrintSeat, int | None]]:
    """Everyone with their table's number (None: a bye), in the wall list's order."""
    return sorted(
        [(seat, table.number) for table in round.tables for seat in table.seats]
        + [(seat, None) for seat in round.byes],
        key=lambda row: (row[0].name.casefold(), row[0].number or 0),
    )


def pairings_pdf(round: PrintRound, paper: str = "letter") -> bytes:
    """By table, then everyone by name with their table (byes too), then the two-letter words,
    drawn straight onto the pages (events/printdraw/): WeasyPrint took 7 s for a 500-table round
    (issue 49). `pairings_html_pdf` is the same through the HTML template, the layout the
    drawing follows (a test holds the two to the same words page by page)."""
    from events.printdraw import pairings

    return pairings.pairings(round, _paper(paper), _by_name(round))


def pairings_html_pdf(round: PrintRound, paper: str = "letter") -> bytes:
    """The pairings through `templates/events/print/pairings.html` and WeasyPrint."""
    return _pdf(
        "events/print/pairings.html",
        {"round": round, "by_name": _by_name(round), "page_size": _paper(paper)},
    )


def score_cards_pdf(round: PrintRound, paper: str = "letter") -> bytes:
    """One table score card per table (002's card: table, round, names, numbers, scores), drawn
    straight onto the pages (events/printdraw/): WeasyPrint took 150 ms and more a card, 80 s
    for a 500-table round (issue 49). `score_cards_html_pdf` is the same card through the HTML
    template, kept as the layout the drawing follows (a test holds the two to the same words
    and QR codes)."""
    from events.printdraw import cards

    return cards.score_cards(round, _paper(paper))


def score_cards_html_pdf(round: PrintRound, paper: str = "letter") -> bytes:
    """The cards through `templates/events/print/score_cards.html` and WeasyPrint."""
    return _pdf("events/print/score_cards.html", {"round": round, "page_size": _paper(paper)})


SHEET_TURNS = 24


@dataclass(frozen=True)
class SheetWords:
    """What one table's score sheet says, in one place for the drawing and the HTML sheet."""

    title: str
    when: str
    scorekeeper: str
    players: tuple[tuple[str, str], ...]  # each column's head: "1. name" and "(no. 7, team)"
    rules: tuple[tuple[str, str], ...]  # each rule, and the words after its tick box if it has one
    back: str


def sheet_words(round: PrintRound, table: PrintTable) -> SheetWords:
    if len(round.periods) > 1:
        starts = ", ".join(
            f"period {i} {starts} ({minutes} min)"
            for i, (starts, minutes) in enumerate(round.periods, 1)
        )
    else:
        starts = f"starts {round.starts} ({round.minutes} min)"
    turn = (
        f"{table.turn_label} per turn: a player whose time runs out loses the turn, with no "
        "score and no other penalty."
        if table.turn_seconds
        else "Untimed turns."
    )
    entry = (
        "At the end, scan the code: the scorekeeper enters the final totals, and each other "
        "player confirms them on their own phone, with their own slip (or their login)."
        if round.self_entry
        else "Hand this sheet to a volunteer at the end: the final totals are entered from it."
    )
    rules = [
        (turn, ""),
        (
            "Time up: play on until every player has had the same number of turns, then stop.",
            "The game ended on time.",
        ),
        *([(f"End of the game: {round.end_of_game}", "")] if round.end_of_game else []),
        (entry, ""),
    ]
    return SheetWords(
        title=f"Table {table.number} · Round {round.round}",
        when=f"{round.event} · {date_format(round.date, 'M j, Y')} · {starts}",
        scorekeeper=f"Scorekeeper: seat 1, {table.seats[0].name} · play passes to the left "
        "(seat 1, 2, 3, 4)",
        players=tuple(
            (
                f"{seat.seat}. {seat.name}",
                f"(no. {'–' if seat.number is None else seat.number}"
                + (f", {seat.team})" if seat.team else ")"),
            )
            for seat in table.seats
        ),
        rules=tuple(rules),
        back=f"Two-letter words · Table {table.number}",
    )


def score_sheets_pdf(round: PrintRound, paper: str = "letter") -> bytes:
    """The official score sheet (E5): one per table, a column per player (name and number),
    a row per turn for the turn's score and the running total, the turn limit, the end-of-game
    rule and the time-up rule printed; the two-letter words on the back (G10). Drawn straight
    onto the pages (events/printdraw/): WeasyPrint took about 250 ms a table (issue 49);
    `score_sheets_html_pdf` is the same sheet through the HTML template, the layout the drawing
    follows (a test holds the two to the same words and QR codes)."""
    from events.printdraw import sheets

    said = [sheet_words(round, table) for table in round.tables]
    return sheets.score_sheets(round, _paper(paper), said, SHEET_TURNS)


def score_sheets_html_pdf(round: PrintRound, paper: str = "letter") -> bytes:
    """The sheets through `templates/events/print/score_sheets.html` and WeasyPrint."""
    sheets = [(table, sheet_words(round, table)) for table in round.tables]
    return _pdf(
        "events/print/score_sheets.html",
        {
            "round": round,
            "sheets": sheets,
            "page_size": _paper(paper),
            "turns": range(1, SHEET_TURNS + 1),
        },
    )


@dataclass(frozen=True)
class PrintSlip:
    """A volunteer's one-time log-in link, printed for the director to hand over."""

    event: str
    date: datetime.date | None
    name: str
    email: str
    url: str
    valid_until: datetime.datetime  # in the institution's time zone

    @property
    def last_day(self) -> datetime.date:
        """The last day the link works (it ends at that day's midnight)."""
        return (self.valid_until - datetime.timedelta(seconds=1)).date()

    @property
    def qr_image(self) -> str:
        return qr_data_uri(self.url, scale=4)


def sign_in_slip_pdf(slip: PrintSlip) -> bytes:
    """A half-page slip: the volunteer's name, the QR code of their log-in link and the link."""
    return _pdf("events/print/sign_in_slip.html", {"slip": slip, "page_size": "A6 landscape"})


@dataclass(frozen=True)
class EntrantSlipPrint:
    """An entrant's own slip (S4): who, the link to open on their phone (its QR code) and the
    code to type where a phone cannot scan."""

    event: str
    date: datetime.date | None
    number: int | None
    name: str
    url: str
    code: str  # as printed: two groups of four

    @property
    def qr_image(self) -> str:
        return qr_data_uri(self.url, scale=3)


def entrant_slips_pdf(
    slips: list[EntrantSlipPrint], code_address: str, paper: str = "letter"
) -> bytes:
    """The entrants' slips, eight a page to cut apart (one alone, printed at the door, is one
    slip on its page); `code_address` is where a phone that cannot scan types the code."""
    return _pdf(
        "events/print/entrant_slips.html",
        {"slips": slips, "site_slip_address": code_address, "page_size": _paper(paper)},
    )
