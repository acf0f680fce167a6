"""The round's official score sheets drawn (E5, G8, G10): the words, grid and QR code where
`templates/events/print/score_sheets.html` puts them, each sheet's back the two-letter words.
The grid and the back are the same on many sheets: each is drawn once, as a form."""

from reportlab.pdfgen.canvas import Canvas

from events.printdraw.base import (
    BOLD,
    DESCENT,
    LINE,
    MM,
    MONO,
    RULE,
    SANS,
    Document,
    Page,
    line_metrics,
    set_lines,
    text_lines,
    tick,
    width,
    words,
)

SHEET_QR, CELL_PAD_X, CELL_PAD_Y = 22 * MM, 1 * MM, 0.6 * MM
TURN_COL = 9 * MM + 2 * CELL_PAD_X + RULE
SHEET_SIZE, HEAD_SIZE, SUB_SIZE = 8.5, 9, 7
ROW = 5.6 * MM + 2 * CELL_PAD_Y + RULE
FINAL_ROW = 8 * MM + 2 * CELL_PAD_Y + RULE
BACK_SIZE, BACK_PITCH = 14, 1.8 * 14


def _centred(page: Page, text: str, font: str, size: float, left: float, right: float, top, h):
    """`text` centred in the cell's content box left…right, top…top + h."""
    x = (left + right - width(text, font, size)) / 2
    page.text(x, top + (h - LINE * size) / 2, text, font, size)


def _sheet_grid(canvas: Canvas, doc, seats: int, turns: int, top: float, head: float) -> None:
    """The turns' grid below a `head` tall first header row: the "Turn", "turn" and "total"
    heads, a numbered row per turn and the final row; the same on every sheet of `seats` seats,
    so drawn once as a form and placed on each sheet."""
    page = Page(canvas, doc.height)
    x = doc.left
    col = (doc.room - RULE - TURN_COL) / (2 * seats)
    edges = [x + RULE / 2, x + RULE / 2 + TURN_COL]
    edges += [edges[1] + col * (i + 1) for i in range(2 * seats)]
    sub = LINE * SUB_SIZE + 2 * CELL_PAD_Y + RULE
    rows = [top + RULE / 2, top + RULE / 2 + head, top + RULE / 2 + head + sub]
    rows += [rows[-1] + ROW * (i + 1) for i in range(turns)]
    rows.append(rows[-1] + FINAL_ROW)
    inset = RULE / 2 + CELL_PAD_X
    _centred(
        page,
        "Turn",
        BOLD,
        SHEET_SIZE,
        edges[0] + inset,
        edges[1] - inset,
        rows[0] + RULE / 2 + CELL_PAD_Y,
        rows[2] - rows[0] - RULE - 2 * CELL_PAD_Y,
    )
    for i in range(2 * seats):
        page.text(
            edges[i + 1] + inset,
            rows[1] + RULE / 2 + CELL_PAD_Y,
            ("turn", "total")[i % 2],
            SANS,
            SUB_SIZE,
            "#333",
        )
    for turn in range(turns + 1):
        label, font = (str(turn + 1), SANS) if turn < turns else ("Final", BOLD)
        row_top, row_bottom = rows[turn + 2], rows[turn + 3]
        _centred(
            page,
            label,
            font,
            SHEET_SIZE,
            edges[0] + inset,
            edges[1] - inset,
            row_top + RULE / 2 + CELL_PAD_Y,
            row_bottom - row_top - RULE - 2 * CELL_PAD_Y,
        )
    for y in (rows[0], *rows[2:]):
        page.hline(edges[0] - RULE / 2, edges[-1] + RULE / 2, y, RULE)
    page.hline(edges[1], edges[-1], rows[1], RULE)
    for i, edge in enumerate(edges):
        # The final row's cells span a player's two columns; the header's first row too.
        if i < 2 or i % 2 == 1:
            page.vline(edge, rows[0], rows[-1], RULE)
        else:
            page.vline(edge, rows[1], rows[-2], RULE)


def _sheet(doc: Document, page: Page, top: float, table, said, turns: int) -> None:
    x, w = doc.left, doc.room
    y = top
    head_room = w - SHEET_QR
    title = text_lines(said.title, BOLD, 24, head_room)
    y += page.lines(x, y, title, 24)
    for line in (said.when, said.scorekeeper):
        y += page.lines(x, y, text_lines(line, SANS, 11, head_room), 11)
    page.qr(table.url, x + w - SHEET_QR, top, SHEET_QR)
    y = top + max(y - top, SHEET_QR + DESCENT * 11) + 2 * MM

    # The players' heads: the one row that differs from sheet to sheet.
    seats = len(table.seats)
    col = (w - RULE - TURN_COL) / (2 * seats)
    room = 2 * col - RULE - 2 * CELL_PAD_X
    heads = [
        set_lines(
            words(name, BOLD, HEAD_SIZE, spaced=False) + words(sub, SANS, SUB_SIZE, "#333"),
            room,
            anywhere=True,
        )
        for name, sub in said.players
    ]
    content = max(sum(sum(line_metrics(line, HEAD_SIZE)) for line in lines) for lines in heads)
    head = content + 2 * CELL_PAD_Y + RULE
    for i, lines in enumerate(heads):
        left = x + RULE / 2 + TURN_COL + 2 * col * i + RULE / 2 + CELL_PAD_X
        used = sum(sum(line_metrics(line, HEAD_SIZE)) for line in lines)
        page.lines(left, y + RULE + CELL_PAD_Y + (content - used) / 2, lines, HEAD_SIZE)
    key = (seats, round(head, 3), round(y, 3))
    if key not in doc.forms:
        doc.forms[key] = name = f"grid{len(doc.forms)}"
        doc.canvas.beginForm(name)
        _sheet_grid(doc.canvas, doc, seats, turns, y, head)
        doc.canvas.endForm()
    doc.canvas.doForm(doc.forms[key])
    y += RULE + head + LINE * SUB_SIZE + 2 * CELL_PAD_Y + RULE + turns * ROW + FINAL_ROW
    y += 2 * MM

    # The rules, a bullet each.
    indent = 4 * MM
    for rule, ticked in said.rules:
        run = words(rule, SANS, SHEET_SIZE, spaced=False)
        if ticked:
            run.append((True, tick(SHEET_SIZE, 0, 1 * MM)))
            run += words(ticked, SANS, SHEET_SIZE, spaced=False)
        lines = set_lines(run, w - indent)
        bullet = "• "
        page.text(x + indent - width(bullet, SANS, SHEET_SIZE), y, bullet.strip(), SANS, SHEET_SIZE)
        y += page.lines(x + indent, y, lines, SHEET_SIZE)


def _sheet_back(doc: Document, page: Page, top: float, round_, said) -> None:
    x, w = doc.left, doc.room
    y = top + 6 * MM
    y += page.lines(x, y, text_lines(said.back, BOLD, 16, w), 16)
    if "back" not in doc.forms:
        doc.forms["back"] = "back"
        doc.canvas.beginForm("back")
        form = Page(doc.canvas, doc.height)
        at = y + max(2 * MM, BACK_SIZE)
        listed = set_lines(
            words(" ".join(round_.two_letter_words), MONO, BACK_SIZE, spaced=False),
            w,
            spacing=2 * MM,
        )
        if listed[0]:
            at += form.lines(x, at, listed, BACK_SIZE, pitch=BACK_PITCH) + max(BACK_SIZE, 7.5)
        form.lines(x, at, text_lines(round_.two_letter_caption, SANS, 7.5, w, "#444"), 7.5)
        doc.canvas.endForm()
    doc.canvas.doForm("back")


def score_sheets(round_, page_size: str, said: list, turns: int) -> bytes:
    """A sheet and its back per table, each on its own page: `said`, each table's SheetWords;
    `turns`, the rows for turns."""
    doc = Document(
        page_size, f"{round_.event}: round {round_.round} score sheets", 2 * len(round_.tables)
    )
    for table, words_ in zip(round_.tables, said, strict=True):
        page, top = doc.page()
        _sheet(doc, page, top, table, words_, turns)
        page, top = doc.page()
        _sheet_back(doc, page, top, round_, words_)
    return doc.pdf()
