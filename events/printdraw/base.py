"""Drawing printouts straight onto PDF pages with ReportLab (E3, E5; issue 49): lines of words,
boxes and QR codes placed where the HTML templates' layout puts them, without a CSS engine.
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
RULE = 0.3 * MM  # a table's lines and a tick box's border
INK = HexColor("#111111")
GREY = {
    "#555": HexColor("#555555"),
    "#444": HexColor("#444444"),
    "#333": HexColor("#333333"),
    "#999": HexColor("#999999"),
}


@functools.cache
def _fonts() -> None:
    for name in (SANS, BOLD, MONO, SERIF):
        pdfmetrics.registerFont(TTFont(name, FONT_DIR + name + ".ttf"))


@functools.cache
def _kerning(font: str) -> dict[tuple[str, str], float]:
    """The font's kerning pairs (its `kern` table, as the browser's shaping applies them), by
    characters, in thousandths of the size as ReportLab's widths are."""
    from fontTools.ttLib import TTFont as Tables  # installed with WeasyPrint

    tables = Tables(FONT_DIR + font + ".ttf", lazy=True)
    if "kern" not in tables:
        return {}
    scale = 1000 / tables["head"].unitsPerEm
    chars: dict[str, list[str]] = {}
    for code, glyph in tables.getBestCmap().items():
        chars.setdefault(glyph, []).append(chr(code))
    pairs = {}
    for table in tables["kern"].kernTables:
        for (left, right), value in table.kernTable.items():
            for a in chars.get(left, ()):
                for b in chars.get(right, ()):
                    pairs[a, b] = value * scale
    return pairs


def kerned(text: str, font: str) -> list[tuple[int, float]]:
    """Where `text` is kerned: (the index of the pair's second character, the shift)."""
    pairs = _kerning(font)
    return [
        (i, pairs[text[i - 1], text[i]])
        for i in range(1, len(text))
        if (text[i - 1], text[i]) in pairs
    ]


@functools.lru_cache(maxsize=65536)
def width(text: str, font: str, size: float) -> float:
    _fonts()
    return (
        pdfmetrics.stringWidth(text, font, size)
        + sum(k for _, k in kerned(text, font)) * size / 1000
    )


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
        # A box stays on the line of what follows it unspaced (a tick box and its words).
        need = w + (
            _item_width(queue[0][1]) if isinstance(item, Box) and queue and not queue[0][0] else 0
        )
        if lines[-1] and x + gap + need > room:
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


def _runs(line: list[tuple[float, Item]]):
    """The line's words as runs to draw in one go: words of one font, size and colour one
    plain space apart (a box or a wider gap starts a new run)."""
    runs: list[list] = []
    end = None
    for dx, item in line:
        if isinstance(item, Box):
            end = None
            continue
        word, font, size, colour = item
        last = runs[-1] if runs else None
        if (
            end is not None
            and last[2:] == [font, size, colour]
            and abs(dx - end - width(" ", font, size)) < 1e-6
        ):
            last[1] += " " + word
        else:
            runs.append([dx, word, font, size, colour])
        end = dx + width(word, font, size)
    return runs


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
        start = 0
        for i, shift in kerned(text, font):  # drawn in pieces, each moved by its pair's kerning
            c.drawString(x, self.height - y, text[start:i])
            x += pdfmetrics.stringWidth(text[start:i], font, size) + shift * size / 1000
            start = i
        c.drawString(x, self.height - y, text[start:])

    def rect(self, x: float, top: float, w: float, h: float, line: float):
        """A box whose border, `line` thick, lies inside x…x+w, top…top+h."""
        c = self.canvas
        c.setStrokeColor(INK)
        c.setLineWidth(line)
        c.rect(x + line / 2, self.height - top - h + line / 2, w - line, h - line, fill=0)

    def hline(self, x0: float, x1: float, y: float, line: float, colour: str = ""):
        self.segment(x0, y, x1, y, line, colour)

    def vline(self, x: float, y0: float, y1: float, line: float):
        self.segment(x, y0, x, y1, line)

    def segment(self, x0: float, y0: float, x1: float, y1: float, line: float, colour=""):
        self.canvas.setStrokeColor(GREY[colour] if colour else INK)
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
            for dx, text, font, size_, colour in _runs(line):
                self.baseline(x + dx, baseline, text, font, size_, colour)
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
        self.forms: dict = {}  # what many pages show alike, drawn once: its name, by its key
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


def month_day(date) -> str:
    return f"{date.strftime('%b')} {date.day}"


def tick(size: float, left: float, right: float) -> Box:
    """The inline tick box (3.5 mm inside a 0.3 mm border), vertical-align: middle."""
    side = 3.5 * MM + 2 * 0.3 * MM
    middle = 0.547 * size / 2  # half the font's x-height above the baseline
    return Box(left, side, right, middle + side / 2, side / 2 - middle)
