"""The round's wall pairings drawn (E3, G10): the words and lines where
`templates/events/print/pairings.html` puts them. Its tables are sized as WeasyPrint's automatic
table layout sizes them (the columns given a width keep it unless an entry is wider; the others
share what is left by their longest entries), break between rows with the header row repeated,
and a table's number stands in its first row, as the HTML's spanning cell does (a table split
across pages shows its number on the first page only)."""

import functools
import re

from django.utils.dateformat import format as date_format

from events.printdraw.base import (
    BODY_MARGIN,
    BOLD,
    LINE,
    MM,
    MONO,
    PAGE_MARGIN_Y,
    RULE,
    SANS,
    Document,
    set_lines,
    text_lines,
    width,
)

PAD_X, PAD_Y = 2 * MM, 1.5 * MM
H1, H2, BODY = 18, 14, 11
WORDS_SIZE, WORDS_PITCH, CAPTION = 8, 1.4 * 8, 7.5


_HYPHENATED = re.compile(r"(?<=[^\W\d_]-)(?=[^\W\d_])")


@functools.lru_cache(maxsize=65536)
def _cell_lines(text: str, font: str, size: float, room: float, anywhere: bool):
    """A cell's lines: broken at spaces and, as the browser breaks them, after a hyphen
    between letters ("Quiñones-" / "Barrientos")."""
    run = []
    for word in text.split():
        for i, piece in enumerate(_HYPHENATED.split(word)):
            run.append((bool(run) and i == 0, (piece, font, size, "")))
    return set_lines(run, room, anywhere)


class Column:
    """A table's column: its cells' fonts and sizes, the width CSS gives it (or None)."""

    def __init__(self, head: str, font: str, size: float, given: float | None, anywhere=False):
        self.head, self.font, self.size = head, font, size
        self.given, self.anywhere = given, anywhere


def _widest_word(text: str, font: str, size: float, anywhere: bool) -> float:
    pieces = text if anywhere else [p for w in text.split() for p in _HYPHENATED.split(w)]
    return max((width(p, font, size) for p in pieces if p.strip()), default=0.0)


def column_widths(columns: list[Column], rows: list[list[str]], room: float) -> list[float]:
    """CSS's automatic table layout as WeasyPrint runs it (css-tables-3's width distribution)
    for cells in one line of words each: each column's min- and max-content widths (its
    entries' and its header's, padding included; a given width counts as the widest entry),
    then the table's `room` shared out."""
    mins, maxes = [], []
    for i, col in enumerate(columns):
        entries = [(col.head, BOLD, BODY, False)] + [
            (row[i], col.font, col.size, col.anywhere) for row in rows
        ]
        low = max(_widest_word(t, f, s, a) for t, f, s, a in entries)
        high = max(width(" ".join(t.split()), f, s) for t, f, s, _ in entries)
        if col.given is not None:  # the cells' given width stands for their entries'; the
            high = max(low, col.given, width(col.head, BOLD, BODY))  # header has none
        mins.append(low + 2 * PAD_X)
        maxes.append(max(low, high) + 2 * PAD_X)
    constrained = [col.given is not None for col in columns]
    if sum(maxes) <= room:
        free = [i for i, c in enumerate(constrained) if not c and maxes[i] > 0]
        if not free:
            free = [i for i in range(len(columns)) if not constrained[i]]
        if not free:
            free = [i for i in range(len(columns)) if maxes[i] > 0] or list(range(len(columns)))
        share = sum(maxes[i] for i in free)
        excess = room - sum(maxes)
        widths = maxes[:]
        for i in free:
            widths[i] += excess * (maxes[i] / share if share else 1 / len(free))
        return widths
    specified = [maxes[i] if constrained[i] else mins[i] for i in range(len(columns))]
    guesses = (mins, mins, specified, maxes)
    lower = next((g for g in reversed(guesses) if sum(g) <= room * (1 + 1e-9)), mins)
    upper = next((g for g in guesses if sum(g) >= room * (1 - 1e-9)), maxes)
    if lower == upper or sum(upper) == sum(lower):
        return list(upper)
    ratio = (room - sum(lower)) / (sum(upper) - sum(lower))
    return [lo + (up - lo) * ratio for lo, up in zip(lower, upper, strict=True)]


class Flow:
    """Blocks placed down pages, each page a list of drawing steps, drawn once the pages are
    counted (each page says "page N of M")."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.pages: list[list] = []
        self.y = 0.0
        self.new_page()

    def new_page(self) -> None:
        self.pages.append([])
        self.y = PAGE_MARGIN_Y + (BODY_MARGIN if len(self.pages) == 1 else 0)

    @property
    def room_left(self) -> float:
        return self.doc.bottom - self.y

    def at_top(self) -> bool:
        return not self.pages[-1]

    def draw(self, step) -> None:
        self.pages[-1].append(step)


def _lines_step(x, top, lines, size, pitch=None):
    return lambda page: page.lines(x, top, lines, size, pitch)


def _rule_step(x0, x1, y):
    return lambda page: page.hline(x0, x1, y, RULE, "#999")


def _table(flow: Flow, columns: list[Column], rows: list[list[str]], spans: list[int]) -> None:
    """The table at flow.y: the header row, then each row, a page break between rows where the
    next does not fit (the header again on the new page). `spans`: how many rows each row's
    first entry spans (0 in a spanned row: it stands in the group's first row only, its line
    under the group's last)."""
    doc = flow.doc
    widths = column_widths(columns, rows, doc.room)
    edges = [doc.left]
    for w in widths:
        edges.append(edges[-1] + w)

    def cells(texts, fonts):
        return [
            _cell_lines(t, font, size, w - 2 * PAD_X, anywhere) if t else []
            for t, (font, size, anywhere), w in zip(texts, fonts, widths, strict=True)
        ]

    def tall(lines, size):
        return len(lines) * LINE * size

    head_fonts = [(BOLD, BODY, False)] * len(columns)
    row_fonts = [(c.font, c.size, c.anywhere) for c in columns]
    head = cells([c.head for c in columns], head_fonts)
    head_h = max(tall(lines, BODY) for lines in head) + 2 * PAD_Y + RULE

    def place(lines_by_cell, fonts, height, whole_line=True):
        for i, (lines, (_, size, _)) in enumerate(zip(lines_by_cell, fonts, strict=True)):
            if lines:
                flow.draw(_lines_step(edges[i] + PAD_X, flow.y + PAD_Y, lines, size))
        line_y = flow.y + height - RULE / 2
        flow.draw(_rule_step(edges[0] if whole_line else edges[1], edges[-1], line_y))
        flow.y += height

    laid = []
    for texts, span in zip(rows, spans, strict=True):
        lines = cells(texts, row_fonts)
        used = [tall(ls, size) for ls, (_, size, _) in zip(lines, row_fonts, strict=True)]
        if span != 1:
            used[0] = 0.0  # a spanning entry's height is the group's
        laid.append([lines, max(*used, LINE * BODY) + 2 * PAD_Y + RULE, span])
    for n, (lines, _, span) in enumerate(laid):
        if span > 1:  # the spanning entry taller than its rows: the group's last row grows
            group = laid[n : n + span]
            need = tall(lines[0], columns[0].size) + 2 * PAD_Y + RULE
            laid[n + span - 1][1] += max(0.0, need - sum(row[1] for row in group))
    place(head, head_fonts, head_h)
    for n, (lines, height, span) in enumerate(laid):
        # A group's first row goes where its spanning entry fits, padding included (the rows
        # it spans may break across pages after it).
        need = max(height, tall(lines[0], columns[0].size) + 2 * PAD_Y + RULE) if span else height
        if need > flow.room_left + 1e-6:
            flow.new_page()
            place(head, head_fonts, head_h)
        ends_group = n + 1 == len(laid) or spans[n + 1] > 0
        place(lines, row_fonts, height, whole_line=ends_group)


def _heading(flow: Flow, text: str, size: float, top_margin: float, then: float):
    """A heading (break-after: avoid): moved to a new page with `then` (what must follow it on
    its page) when both do not fit; its top margin kept at the top of the first page and after
    a forced break only."""
    doc = flow.doc
    lines = text_lines(text, BOLD, size, doc.room)
    height = len(lines) * LINE * size
    if top_margin + height + 2 * MM + then > flow.room_left and not flow.at_top():
        flow.new_page()
        top_margin = 0.0
    flow.y += top_margin
    flow.draw(_lines_step(doc.left, flow.y, lines, size))
    flow.y += height


def pairings(round_, page_size: str, by_name: list) -> bytes:
    """By table, then everyone by name with their table (byes too), then the two-letter
    words: `by_name`, (seat, table number or None) in the wall list's order."""
    doc = Document(page_size, f"{round_.event}: round {round_.round} pairings", 0)
    flow = Flow(doc)
    sub_lines = text_lines(
        f"{date_format(round_.date, 'l, F j, Y')} · "
        f"{round_.venue} · starts {round_.starts}, {round_.minutes} minutes",
        SANS,
        BODY,
        doc.room,
        "#444",
    )
    title = text_lines(f"{round_.event} · Round {round_.round}", BOLD, H1, doc.room)
    flow.draw(_lines_step(doc.left, flow.y, title, H1))
    flow.y += len(title) * LINE * H1 + 2 * MM
    flow.draw(_lines_step(doc.left, flow.y, sub_lines, BODY))
    flow.y += len(sub_lines) * LINE * BODY  # its 4 mm below collapse into the heading's 6 mm

    # By table.
    columns = [
        Column("Table", BOLD, H1, 18 * MM),
        Column("No.", BOLD, BODY, 14 * MM),
        Column("Player", SANS, BODY, None, anywhere=True),
        Column("Category", SANS, BODY, None),
    ]
    rows, spans = [], []
    for table in round_.tables:
        for i, seat in enumerate(table.seats):
            category = seat.category + (f" · {seat.team}" if seat.team else "")
            rows.append([str(table.number) if i == 0 else "", _no(seat), seat.name, category])
            spans.append(len(table.seats) if i == 0 else 0)
    for seat in round_.byes:
        rows.append(["bye", _no(seat), seat.name, f"{seat.category} · scored at their average"])
        spans.append(1)
    _heading(flow, "By table", H2, 6 * MM, 2 * _row_height(H1 if spans[:1] == [1] else BODY))
    flow.y += 2 * MM
    if rows:
        _table(flow, columns, rows, spans)

    # By name, on a page of its own.
    flow.new_page()
    _heading(flow, "By name", H2, 6 * MM, 0.0)
    flow.y += 2 * MM
    note = text_lines(
        f"{round_.event} · Round {round_.round} · find your name, go to your table",
        SANS,
        BODY,
        doc.room,
        "#444",
    )
    flow.draw(_lines_step(doc.left, flow.y, note, BODY))
    flow.y += len(note) * LINE * BODY + 4 * MM
    columns = [
        Column("Player", SANS, 12, None, anywhere=True),
        Column("No.", BOLD, 12, 14 * MM),
        Column("Table", BOLD, 12, 28 * MM),
    ]
    rows = [
        [seat.name, _no(seat), f"Table {number}" if number else "bye"] for seat, number in by_name
    ]
    if rows:
        _table(flow, columns, rows, [1] * len(rows))

    # The two-letter words (orphans and widows of two lines, the heading kept with them).
    if round_.two_letter_words:
        listed = text_lines(" ".join(round_.two_letter_words), MONO, WORDS_SIZE, doc.room)
        _heading(flow, "Two-letter words", H2, 6 * MM, WORDS_SIZE + WORDS_PITCH * 2)
        flow.y += max(2 * MM, WORDS_SIZE)
        start = 0
        while start < len(listed):
            fit = int((flow.room_left + 1e-6) // WORDS_PITCH)
            left = len(listed) - start
            if fit < left:
                fit = min(fit, left - 2)  # widows: two lines at least on the next page
            if fit < min(2, left) and not flow.at_top():
                flow.new_page()
                continue
            fit = max(fit, 1)
            chunk = listed[start : start + fit]
            flow.draw(_lines_step(doc.left, flow.y, chunk, WORDS_SIZE, WORDS_PITCH))
            flow.y += len(chunk) * WORDS_PITCH
            start += fit
            if start < len(listed):
                flow.new_page()
        caption = text_lines(round_.two_letter_caption, SANS, CAPTION, doc.room, "#444")
        flow.y += max(WORDS_SIZE, CAPTION)
        if len(caption) * LINE * CAPTION > flow.room_left and not flow.at_top():
            flow.new_page()
        flow.draw(_lines_step(doc.left, flow.y, caption, CAPTION))

    doc.total = len(flow.pages)
    for steps in flow.pages:
        page, _ = doc.page()
        for step in steps:
            step(page)
    return doc.pdf()


def _no(seat) -> str:
    return "" if seat.number is None else str(seat.number)


def _row_height(size: float) -> float:
    return LINE * size + 2 * PAD_Y + RULE
