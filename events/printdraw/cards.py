"""The round's score cards drawn (E3, G8, G10): the words, boxes and QR codes where
`templates/events/print/score_cards.html` puts them, two cards a page."""

from events.printdraw.base import (
    BODY_MARGIN,
    BOLD,
    DESCENT,
    LINE,
    MM,
    MONO,
    PAGE_MARGIN_Y,
    RULE,
    SANS,
    Document,
    Page,
    Run,
    line_metrics,
    month_day,
    set_lines,
    text_lines,
    tick,
    words,
)

CARD_BORDER, CARD_PADDING = 0.6 * MM, 5 * MM
CARD_QR = 26 * MM


def _card(page: Page | None, top: float, left: float, room: float, table, round_) -> float:
    """Draws one table's card at `top` (or only measures it, without a page): its height."""
    inner = CARD_BORDER + CARD_PADDING
    x, w = left + inner, room - 2 * inner
    y = top + inner
    title = f"Table {table.number}"
    sub = set_lines(
        words(
            f"{round_.event} · Round {round_.round} · {month_day(round_.date)}, starts "
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
        # A tick box and its words are one piece: the line never breaks between them.
        ended.append((True, tick(9, 3 * MM, 1 * MM)))
        ended.append((False, (how, SANS, 9, "")))
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
