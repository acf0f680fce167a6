"""A club night's printed table cards (E4, G9): one card per table, each with a QR code to the
table's match page, where the scorekeeper reports and the other seats confirm or dispute. The
QR code is made as the event cards make theirs (``core/qr.py``, inline SVG),
from an address built on ``settings.SITE_URL``, never on the request's host.

Plain data in (``PrintNight``), HTML or PDF out: the view builds the night from the database."""

import datetime
from dataclasses import dataclass

from django.template.loader import render_to_string

from core.qr import qr_data_uri

# CSS page sizes WeasyPrint knows, by the name the pages offer (as for an event's cards).
PAPER = {"a4": "A4", "letter": "letter"}


@dataclass(frozen=True)
class PrintSeat:
    seat: int
    name: str
    number: int | None
    keeps_score: bool = False


@dataclass(frozen=True)
class PrintTable:
    number: int
    seats: tuple[PrintSeat, ...]
    url: str  # the match page, absolute

    @property
    def qr_image(self) -> str:
        """The match page's QR code as a data: URI for an <img>, as on an event's score card."""
        return qr_data_uri(self.url)


@dataclass(frozen=True)
class PrintNight:
    club: str
    venue: str
    night: int
    date: datetime.date
    tables: tuple[PrintTable, ...]


def cards_html(night: PrintNight, paper: str = "letter") -> str:
    if paper not in PAPER:
        raise ValueError(f"paper: {paper!r} is not one of {', '.join(PAPER)}.")
    return render_to_string(
        "clubs/print/table_cards.html", {"night": night, "page_size": PAPER[paper]}
    )


def cards_pdf(night: PrintNight, paper: str = "letter") -> bytes:
    """One card per table, two to a page: the table, its seats with player numbers and a box
    for each final score, the scorekeeper named, and the QR code to the match page."""
    from weasyprint import HTML  # imported here: loading Pango costs a moment

    return HTML(string=cards_html(night, paper)).write_pdf()
