"""The round's score cards drawn straight onto PDF pages with ReportLab (E3, G8, G10): the words,
boxes and QR codes where the HTML card puts them, without a CSS engine's layout (issue 49).
Lengths in points (1 mm = 72 / 25.4 pt); a line of DejaVu text at size s is 1.164 s tall (ascent
0.928 s, descent 0.236 s); lines break at spaces (a word too wide for its box anywhere)."""

import functools
import io
from dataclasses import dataclass

import segno
from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

MM = 72 / 25.4
ASCENT, DESCENT = 0.928, 0.236
LINE = ASCENT + DESCENT
FONT_DIR = "/usr/share/fonts/truetype/dejavu/"
SANS, BOLD, MONO, SERIF = "DejaVuSans", "DejaVuSans-Bold", "DejaVuSansMono", "DejaVuSerif"
PAGES = {"A4": (595.2756, 841.8898), "letter": (612.0, 792.0)}
PAGE_MARGIN_X, PAGE_MARGIN_Y = 12 * MM, 14 * MM
BODY_MARGIN = 6.0  # the HTML body's 8 px
INK = HexColor("#111111")
GREY = {"#555": HexColor("#555555"), "#444": HexColor("#444444"), "#333": HexColor("#333333")}


@functools.cache
def _fonts() -> None:
    for name in (SANS, BOLD, MONO, SERIF):
        pdfmetrics.registerFont(TTFont(name, FONT_DIR + name + ".ttf"))


def width(text: str, font: str, size: float) -> float:
    return pdfmetrics.stringWidth(text, font, size)


# --- Lines of words ------------------------------------------------------------------------------


@dataclass
class Box:
    """Something set among words that is not a word: a tick box (its margins either side)."""

    left: float
    width: float
    right: float
    above: float  # how far it reaches above the line's baseline
    below: float  # and below


Item = tuple[str, str, float, str] | Box  # (word, font, size, colour) or a box
Run = list[tuple[bool, Item]]  # each item with whether a space stands before it


def words(text: str, font: str, size: float, colour: str = "", spaced: bool = True) -> Run:
    """`text`'s words; `spaced`: a space stands before the first one too."""
    return [(spaced or i > 0, (word, font, size, colour)) for i, word in enumerate(text.split())]


def _item_width(item: Item) -> float:
    if isinstance(item, Box):
        return item.left + item.width + item.right
    return width(item[0], item[1], item[2])


def _break_anywhere(item: Item, room: float) -> list[Item]:
    """A word wider than its box, cut where it reaches the edge (overflow-wrap: anywhere)."""
    word, font, size, colour = item
    pieces, piece = [], ""
    for char in word:
        if piece and width(piece + char, font, size) > room:
            pieces.append((piece, font, size, colour))
            piece = ""
        piece += char
    return [*pieces, (piece, font, size, colour)]


@functools.lru_cache(maxsize=4096)
def text_lines(text: str, font: str, size: float, room: float, colour: str = "", anywhere=False):
    """set_lines of plain text, kept: every card repeats the same rules and words."""
    return set_lines(words(text, font, size, colour, spaced=False), room, anywhere)


def set_lines(
    run: Run, room: float, anywhere: bool = False, spacing: float = 0.0
) -> list[list[tuple[float, Item]]]:
    """The run in lines no wider than `room`, each [(x from the line's start, item)]."""
    lines: list[list[tuple[float, Item]]] = [[]]
    x = 0.0
    previous: Item | None = None
    queue = list(run)
    while queue:
        spaced, item = queue.pop(0)
        gap = 0.0
        if lines[-1] and spaced:
            owner = previous if not isinstance(previous, Box) else item
            gap = width(" ", owner[1], owner[2]) + spacing if not isinstance(owner, Box) else 0.0
        w = _item_width(item)
        if lines[-1] and x + gap + w > room:
            lines.append([])
            x, gap = 0.0, 0.0
        if not lines[-1] and anywhere and not isinstance(item, Box) and w > room:
            first, *rest = _break_anywhere(item, room)
            queue[:0] = [(False, piece) for piece in rest]
            item, w = first, _item_width(first)
        lines[-1].append((x + gap, item))
        x += gap + w
        previous = item
    return lines


def line_metrics(line: list[tuple[float, Item]], size: float) -> tuple[float, float]:
    """(ascent, descent) of a line whose strut is text of `size`."""
    above, below = ASCENT * size, DESCENT * size
    for _, item in line:
        if isinstance(item, Box):
            above, below = max(above, item.above), max(below, item.below)
        else:
            above, below = max(above, ASCENT * item[2]), max(below, DESCENT * item[2])
    return above, below


class Page:
    """A canvas measured from the top-left corner, as the layout is."""

    def __init__(self, canvas: Canvas, height: float):
        self.canvas, self.height = canvas, height

    def text(self, x: float, top: float, text: str, font: str, size: float, colour: str = ""):
        """`text` with its line's top at `top` (line-height normal)."""
        self.baseline(x, top + ASCENT * size, text, font, size, colour)

    def baseline(self, x: float, y: float, text: str, font: str, size: float, colour: str = ""):
        c = self.canvas
        c.setFillColor(GREY[colour] if colour else INK)
        c.setFont(font, size)
        c.drawString(x, self.height - y, text)

    def rect(self, x: float, top: float, w: float, h: float, line: float):
        """A box whose border, `line` thick, lies inside x…x+w, top…top+h."""
        c = self.canvas
        c.setStrokeColor(INK)
        c.setLineWidth(line)
        c.rect(x + line / 2, self.height - top - h + line / 2, w - line, h - line, fill=0)

    def hline(self, x0: float, x1: float, y: float, line: float):
        self.segment(x0, y, x1, y, line)

    def vline(self, x: float, y0: float, y1: float, line: float):
        self.segment(x, y0, x, y1, line)

    def segment(self, x0: float, y0: float, x1: float, y1: float, line: float):
        self.canvas.setStrokeColor(INK)
        self.canvas.setLineWidth(line)
        self.canvas.line(x0, self.height - y0, x1, self.height - y1)

    def lines(self, x: float, top: float, lines, size: float, pitch: float | None = None):
        """Lines (of set_lines) from `top`, each its contents' height or `pitch`: their height."""
        y = top
        for line in lines:
            above, below = line_metrics(line, size)
            if pitch is None:
                baseline, step = y + above, above + below
            else:
                baseline, step = y + (pitch - LINE * size) / 2 + ASCENT * size, pitch
            for dx, item in line:
                if isinstance(item, Box):
                    middle = baseline - item.above
                    self.rect(x + dx + item.left, middle, item.width, item.width, 0.3 * MM)
                else:
                    word, font, size_, colour = item
                    self.baseline(x + dx, baseline, word, font, size_, colour)
            y += step
        return y - top

    def qr(self, url: str, x: float, top: float, side: float):
        """`url`'s QR code as core.qr draws it (error "m", a module of border), in runs."""
        code = segno.make(url, error="m")
        matrix = code.matrix
        module = side / (len(matrix) + 2)
        c = self.canvas
        c.setFillColorRGB(0, 0, 0)
        path = c.beginPath()
        for row, bits in enumerate(matrix):
            col = 0
            while col < len(bits):
                if bits[col]:
                    start = col
                    while col < len(bits) and bits[col]:
                        col += 1
                    path.rect(
                        x + (start + 1) * module,
                        self.height - top - (row + 2) * module,
                        (col - start) * module,
                        module,
                    )
                else:
                    col += 1
        c.drawPath(path, stroke=0, fill=1)


class Document:
    """Pages of one size, each footed "page N of M" as the HTML pages' @page rule does."""

    def __init__(self, page_size: str, title: str, total: int):
        _fonts()
        self.width, self.height = PAGES[page_size]
        self.buffer = io.BytesIO()
        self.canvas = Canvas(self.buffer, pagesize=(self.width, self.height), pageCompression=1)
        self.canvas.setTitle(title)
        self.count, self.total = 0, total
        self.left = PAGE_MARGIN_X + BODY_MARGIN
        self.room = self.width - 2 * (PAGE_MARGIN_X + BODY_MARGIN)
        self.bottom = self.height - PAGE_MARGIN_Y

    def page(self) -> tuple[Page, float]:
        """A new page, footed, and its content's top (the body's margin on the first only)."""
        if self.count:
            self.canvas.showPage()
        self.count += 1
        page = Page(self.canvas, self.height)
        text, size = f"page {self.count} of {self.total}", 8.0
        top = self.height - PAGE_MARGIN_Y / 2 - LINE * size / 2
        page.text(
            self.width - PAGE_MARGIN_X - width(text, SERIF, size), top, text, SERIF, size, "#555"
        )
        return page, PAGE_MARGIN_Y + (BODY_MARGIN if self.count == 1 else 0)

    def pdf(self) -> bytes:
        self.canvas.showPage()
        self.canvas.save()
        return self.buffer.getvalue()


def _month_day(date) -> str:
    return f"{date.strftime('%b')} {date.day}"


def _tick(size: float, left: float, right: float) -> Box:
    """The inline tick box (3.5 mm inside a 0.3 mm border), vertical-align: middle."""
    side = 3.5 * MM + 2 * 0.3 * MM
    middle = 0.547 * size / 2  # half the font's x-height above the baseline
    return Box(left, side, right, middle + side / 2, side / 2 - middle)


# --- The score cards (two a page) ----------------------------------------------------------------

CARD_BORDER, CARD_PADDING, RULE = 0.6 * MM, 5 * MM, 0.3 * MM
CARD_QR = 26 * MM


def _card(page: Page | None, top: float, left: float, room: float, table, round_) -> float:
    """Draws one table's card at `top` (or only measures it, without a page): its height."""
    inner = CARD_BORDER + CARD_PADDING
    x, w = left + inner, room - 2 * inner
    y = top + inner
    title = f"Table {table.number}"
    sub = set_lines(
        words(
            f"{round_.event} · Round {round_.round} · {_month_day(round_.date)}, starts "
            f"{round_.starts} ({round_.minutes} min)",
            SANS,
            11,
        ),
        w - CARD_QR,
    )
    if page:
        page.text(x, y, title, BOLD, 28)
        page.lines(x, y + LINE * 28, sub, 11)
        page.qr(table.url, x + w - CARD_QR, y, CARD_QR)
    y += max(LINE * 28 + len(sub) * LINE * 11, CARD_QR + DESCENT * 11) + 3 * MM

    # The scores: seat, number, player, final score.
    pad = 2 * MM
    widths = [26 * MM + 2 * pad + RULE, 16 * MM + 2 * pad + RULE, 0.0, 35 * MM + 2 * pad + RULE]
    widths[2] = w - RULE - sum(widths)
    edges = [x + RULE / 2]
    for col in widths:
        edges.append(edges[-1] + col)
    name_room = widths[2] - 2 * pad - RULE
    heads = zip(_CARD_HEADS, widths, strict=True)
    rows = [
        (
            LINE * 11,
            [(text_lines(h, BOLD, 11, c - 2 * pad - RULE), 11) for h, c in heads],
        )
    ]
    for i, seat in enumerate(table.seats):
        seat_words = f"{seat.seat}" + (" (plays first, keeps the card)" if i == 0 else "")
        cells = [
            (text_lines(seat_words, SANS, 9, 26 * MM), 9),
            (set_lines(words(_number(seat.number), BOLD, 11, spaced=False), 16 * MM), 11),
            (text_lines(seat.name, SANS, 11, name_room, "", True), 11),
            ([], 11),
        ]
        height = max(10 * MM, *(len(lines) * LINE * size for lines, size in cells))
        rows.append((height, cells))
    line_y = y + RULE / 2
    for height, cells in rows:
        if page:
            page.hline(edges[0] - RULE / 2, edges[-1] + RULE / 2, line_y, RULE)
            for (lines, size), edge in zip(cells, edges[:-1], strict=True):
                used = len(lines) * LINE * size
                page.lines(
                    edge + RULE / 2 + pad,
                    line_y + RULE / 2 + pad + (height - used) / 2,
                    lines,
                    size,
                )
        line_y += height + 2 * pad + RULE
    if page:
        page.hline(edges[0] - RULE / 2, edges[-1] + RULE / 2, line_y, RULE)
        for edge in edges:
            page.vline(edge, y + RULE / 2, line_y, RULE)
    y = line_y + RULE / 2 + 3 * MM

    # How the game ended, the turn limit and who enters the card.
    ended: Run = words("The game ended:", SANS, 9, spaced=False)
    for how in (
        "a player went out",
        "no play possible",
        "every player passed three times",
        "time up",
    ):
        ended.append((True, _tick(9, 3 * MM, 1 * MM)))
        ended += words(how, SANS, 9, spaced=False)
    ended_lines = set_lines(ended, w)
    y += (
        page.lines(x, y, ended_lines, 9)
        if page
        else sum(sum(line_metrics(line, 9)) for line in ended_lines)
    )
    y += 1 * MM
    rule = (
        (
            f"{table.turn_label} per turn: a player whose time runs out loses that turn, without scoring."
            if table.turn_seconds
            else "Untimed: keep an eye on the clock."
        )
        + " "
        + (
            "When the game is over, scan the code: the scorekeeper enters the card, and each other "
            "player confirms it on their own phone, with their own slip (or their login)."
            if round_.self_entry
            else "Hand this card to a volunteer when the game is over."
        )
    )
    rule_lines = text_lines(rule, SANS, 9, w)
    if page:
        page.lines(x, y, rule_lines, 9)
    y += len(rule_lines) * LINE * 9
    if round_.two_letter_words:
        y += 6.5
        listed = text_lines("Two-letter words: " + " ".join(round_.two_letter_words), MONO, 6.5, w)
        if page:
            page.lines(x, y, listed, 6.5, pitch=1.4 * 6.5)
        y += len(listed) * 1.4 * 6.5 + 7.5
        caption = text_lines(round_.two_letter_caption, SANS, 7.5, w, "#444")
        if page:
            page.lines(x, y, caption, 7.5)
        y += len(caption) * LINE * 7.5 + 7.5
    else:
        y += 1 * MM
    height = y + inner - top
    if page:
        page.rect(left, top, room, height, CARD_BORDER)
    return height


_CARD_HEADS = ("Seat", "No.", "Player", "Final score")


def _number(number: int | None) -> str:
    return "" if number is None else str(number)


def score_cards(round_, page_size: str) -> bytes:
    """Cards one after another, two a page at most, none split across pages."""
    measure = Document(page_size, "", 0)
    gap = 6 * MM
    placed: list[list[tuple[float, object]]] = [[]]
    y = PAGE_MARGIN_Y + BODY_MARGIN
    for i, table in enumerate(round_.tables):
        height = _card(None, 0, measure.left, measure.room, table, round_)
        if placed[-1] and y + height > measure.bottom:
            placed.append([])
            y = PAGE_MARGIN_Y
        placed[-1].append((y, table))
        y += height + gap
        if i % 2 == 1 and i + 1 < len(round_.tables):
            placed.append([])
            y = PAGE_MARGIN_Y
    doc = Document(page_size, f"{round_.event}: round {round_.round} score cards", len(placed))
    for cards in placed:
        page, _ = doc.page()
        for top, table in cards:
            _card(page, top, doc.left, doc.room, table, round_)
    return doc.pdf()
