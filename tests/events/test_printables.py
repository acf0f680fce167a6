"""An event round's printables (E3, G8, G10): the wall pairings and the table score cards as PDF
on A4 and US Letter, read back with poppler's pdfinfo and pdftotext."""

import datetime
from dataclasses import replace

import pytest
from django.urls import reverse

from events.printables import PrintRound, PrintSeat, PrintTable, pairings_pdf, score_cards_pdf
from tests.support import at, poppler

NAMES = ["Zoë Ñúñez", "Ada Quill", "Bo Vance", "Cy Marsh", "Di Okoro", "Ed Lark", "Fay Noor"]


def sample_round(tables=3) -> PrintRound:
    people = [
        PrintSeat(seat=0, name=f"{NAMES[i % len(NAMES)]} {i}", number=i + 1)
        for i in range(2 * tables + 2)
    ]
    built = []
    for t in range(tables):
        seats = people[2 * t : 2 * t + 2] + ([people[-2]] if t == tables - 1 else [])
        built.append(
            PrintTable(
                number=t + 1,
                seats=tuple(
                    PrintSeat(seat=i + 1, name=s.name, number=s.number, category="Competitive")
                    for i, s in enumerate(seats)
                ),
                url=f"https://scrabble.example.edu/example-state/leagues/fest/rounds/1/tables/{t + 1}/",
                turn_seconds=150 if t % 2 == 0 else None,
            )
        )
    return PrintRound(
        event="Scrabble Fest",
        venue="Student Union Ballroom",
        date=datetime.date(2026, 10, 3),
        round=1,
        starts="18:00",
        minutes=45,
        tables=tuple(built),
        byes=(people[-1],),
        two_letter_words=("AA", "AB", "ZA"),
        two_letter_caption="Two-letter words of the ENABLE list.",
    )


@pytest.mark.parametrize(("paper", "size"), [("a4", "595.276 x 841.89"), ("letter", "612 x 792")])
def test_e3_pairings_print_by_table_and_by_name_on_either_paper(paper, size, tmp_path):
    round_ = sample_round()
    pdf = pairings_pdf(round_, paper)
    assert pdf.startswith(b"%PDF")
    assert size in poppler("pdfinfo", pdf, tmp_path)
    text = poppler("pdftotext", pdf, tmp_path)
    for table in round_.tables:
        for seat in table.seats:
            assert seat.name in text
    by_name = text[text.index("By name") :]
    everyone = [seat.name for table in round_.tables for seat in table.seats] + [
        seat.name for seat in round_.byes
    ]
    listed = [line for line in by_name.splitlines() if line in everyone]
    assert listed == sorted(everyone, key=str.casefold)  # the wall list, in name order
    assert "bye" in by_name


def test_e3_g8_g10_one_score_card_per_table_with_numbers_timing_and_two_letter_words(tmp_path):
    round_ = sample_round(tables=5)
    pdf = score_cards_pdf(round_, "letter")
    text = poppler("pdftotext", pdf, tmp_path)
    assert [f"Table {n}" in text for n in range(1, 6)] == [True] * 5
    assert text.count("Final score") == 5
    assert "2:30 per turn" in text and "Untimed" in text
    assert "AA AB ZA" in text and "time up" in text
    assert "Pages:           3" in poppler("pdfinfo", pdf, tmp_path)  # two cards a page


def test_e3_an_unknown_paper_is_refused_by_name():
    with pytest.raises(ValueError, match="a4, letter"):
        pairings_pdf(sample_round(), "legal")


def _paired_fest(season, tmp_path):
    """Scrabble Fest with four entrants, round 1 paired: two tables of two."""
    from tests.support import FEST, run, write

    data = {**FEST, "date": (season.starts_on + datetime.timedelta(days=10)).isoformat()}
    run(
        "create_event",
        write(tmp_path, "f.json", __import__("json").dumps(data)),
        "--institution",
        season.institution.slug,
        "--season",
        season.slug,
    )
    run(
        "import_entrants",
        write(
            tmp_path,
            "e.csv",
            "name,category\nA,Competitive\nB,Competitive\nC,Just for Fun\nD,Just for Fun\n",
        ),
        "--league",
        "fest",
    )
    run("pair_round", "--league", "fest", "--all-entrants")


def test_e3_the_round_page_serves_both_pdfs_to_staff_only(client, staff, player, tmp_path, season):
    _paired_fest(season, tmp_path)
    url = reverse("event_print", args=[at("fest"), 1, "cards"]) + "?paper=a4"
    client.force_login(player.user)
    assert client.get(url).status_code == 404
    client.force_login(staff.user)
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Cache-Control"] == "private, no-store"  # names on it: no shared cache
    assert "595.276 x 841.89" in poppler("pdfinfo", response.content, tmp_path)
    pairings = client.get(reverse("event_print", args=[at("fest"), 1, "pairings"]))
    assert pairings.status_code == 200 and b"%PDF" in pairings.content[:8]


def test_p6_each_printable_of_a_round_is_recorded_as_an_export_naming_who_printed_it(
    client, staff, player, tmp_path, season
):
    from accounts.models import DataExport

    _paired_fest(season, tmp_path)
    client.force_login(player.user)
    client.get(reverse("event_print", args=[at("fest"), 1, "pairings"]))
    assert not DataExport.objects.exists()  # refused: nothing was exported
    client.force_login(staff.user)

    for kind in ("pairings", "cards", "sheets"):
        client.get(reverse("event_print", args=[at("fest"), 1, kind]))

    records = DataExport.objects.order_by("id")
    assert [(r.what, r.subject, r.rows, r.actor) for r in records] == [
        (f"{kind}.pdf", "Scrabble Fest, round 1", 4, staff.user)
        for kind in ("pairings", "cards", "sheets")
    ]
    assert {r.institution for r in records} == {season.institution}


def test_e5_g8_g10_the_official_score_sheet_has_a_column_per_player_and_the_words_on_the_back(
    tmp_path,
):
    from events.printables import END_OF_GAME_WORDS, score_sheets_pdf

    round_ = sample_round(tables=3)
    four = PrintTable(
        number=9,
        seats=tuple(PrintSeat(seat=i, name=f"Four {i}", number=90 + i) for i in range(1, 5)),
        url="https://scrabble.example.edu/t/9/",
        turn_seconds=180,
    )
    round_ = PrintRound(
        **{
            **round_.__dict__,
            "tables": (four,),
            "periods": (("18:30", 30), ("19:30", 30)),
            "end_of_game": END_OF_GAME_WORDS["out_bonus"],
        }
    )
    pdf = score_sheets_pdf(round_, "a4")
    assert "Pages:           2" in poppler("pdfinfo", pdf, tmp_path)  # the sheet and its back
    text = poppler("pdftotext", pdf, tmp_path)
    assert all(f"{i}. Four {i}" in text and f"no. {90 + i}" in text for i in range(1, 5))
    assert "3:00 per turn" in text and "same number of turns" in text
    assert "nobody loses their own" in text and "period 2 19:30 (30 min)" in text
    back = text[text.index("Two-letter words · Table 9") :]
    assert back.split()[5:8] == ["AA", "AB", "ZA"]  # the back: the list, large


def test_g10_every_surface_showing_enables_list_names_the_events_own_lexicon(
    client, staff, tmp_path, season
):
    """The card, the sheet, the wall pairings, the table page and the list's page show ENABLE's
    two-letter words and say that the event plays its own lexicon, which accepts more (issue 48:
    an NWL2023 event's cards spoke only of ENABLE)."""
    from league.models import League

    _paired_fest(season, tmp_path)
    fest = League.objects.get(slug="fest")
    fest.lexicon = "CSW24"
    fest.save(update_fields=["lexicon"])
    said = "This plays Collins Scrabble Words 2024, which also accepts words this list lacks"
    client.force_login(staff.user)
    for kind in ("cards", "sheets", "pairings"):
        pdf = client.get(reverse("event_print", args=[at("fest"), 1, kind])).content
        text = " ".join(poppler("pdftotext", pdf, tmp_path).split())
        assert said in text, kind
        assert "(G10)" not in text, kind
    client.logout()
    for url in (
        reverse("event_table", args=[at("fest"), 1, 1]),
        reverse("two_letter_words", args=[at("fest")]),
    ):
        assert said in client.get(url).content.decode(), url


def _pages_read(pdf: bytes, tmp_path) -> list[tuple[list[str], list[str]]]:
    """Each page of `pdf` as pdftotext's words and the QR codes zxing-cpp decodes from the
    page rasterised by pdftoppm (150 dpi)."""
    import subprocess

    import zxingcpp
    from PIL import Image

    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / "read.pdf"
    path.write_bytes(pdf)
    count = int(poppler("pdfinfo", pdf, tmp_path).split("Pages:")[1].split()[0])
    subprocess.run(["pdftoppm", "-r", "150", "-png", str(path), str(tmp_path / "p")], check=True)
    pages = []
    for number in range(1, count + 1):
        text = subprocess.run(
            ["pdftotext", "-f", str(number), "-l", str(number), str(path), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        image = next(tmp_path.glob(f"p-{number:0{len(str(count))}d}.png"))
        codes = sorted(code.text for code in zxingcpp.read_barcodes(Image.open(image)))
        pages.append((text.split(), codes))
    return pages


def _word_lefts(pdf: bytes, tmp_path) -> list[list[tuple[str, float]]]:
    """Each page's words with where each begins across the page (pdftotext -bbox), in points."""
    import re
    import subprocess

    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / "lefts.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(
        ["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    return [
        [(word, float(x)) for x, word in re.findall(r'xMin="([^"]*)".*?>(.*?)</word>', page)]
        for page in out.split("<page ")[1:]
    ]


def _same_places(drawn: bytes, html: bytes, tmp_path) -> None:
    """Every word begins where the HTML rendering puts it, within half a point (a pixel at
    150 dpi): the drawn text is kerned as the browser's shaping kerns it ("Table 30")."""
    a, b = _word_lefts(drawn, tmp_path / "a"), _word_lefts(html, tmp_path / "b")
    assert [[w for w, _ in page] for page in a] == [[w for w, _ in page] for page in b]
    lefts = [
        (x, y) for pa, pb in zip(a, b, strict=True) for (_, x), (_, y) in zip(pa, pb, strict=True)
    ]
    worst = max(abs(x - y) for x, y in lefts)
    assert worst < 0.5


def test_e3_g8_drawn_score_cards_say_what_the_html_cards_say_with_the_same_qr_targets(tmp_path):
    """The cards drawn with ReportLab (issue 49) against the same round through the HTML
    template and WeasyPrint: page by page the same words and the same decoded QR targets,
    with a table of three, timed and untimed tables and the self-entry words."""
    from events.printables import score_cards_html_pdf

    round_ = sample_round(tables=3)
    round_ = PrintRound(**{**round_.__dict__, "self_entry": True})
    round_ = PrintRound(
        **{**round_.__dict__, "tables": (*round_.tables[:2], replace(round_.tables[2], number=30))}
    )
    drawn_pdf, html_pdf = score_cards_pdf(round_, "a4"), score_cards_html_pdf(round_, "a4")
    drawn = _pages_read(drawn_pdf, tmp_path / "drawn")
    html = _pages_read(html_pdf, tmp_path / "html")
    assert drawn == html
    _same_places(drawn_pdf, html_pdf, tmp_path)
    assert [code for _, codes in drawn for code in codes] == [t.url for t in round_.tables]


def test_e5_g8_g10_drawn_score_sheets_say_what_the_html_sheets_say_with_the_same_qr_targets(
    tmp_path,
):
    """The score sheets drawn with ReportLab (issue 49) against the same round through the HTML
    template and WeasyPrint: page by page (each sheet, then its back) the same words and the same
    decoded QR targets, with a table of four with a team, a table of two, periods, the
    end-of-game rule and the self-entry words."""
    from events.printables import END_OF_GAME_WORDS, score_sheets_html_pdf, score_sheets_pdf

    round_ = sample_round(tables=1)
    four = PrintTable(
        number=12,
        seats=tuple(
            PrintSeat(seat=i, name=f"Four {i}", number=90 + i, team="Team Rooks" if i == 2 else "")
            for i in range(1, 5)
        ),
        url="https://scrabble.example.edu/t/12/",
        turn_seconds=180,
    )
    round_ = PrintRound(
        **{
            **round_.__dict__,
            "tables": (*round_.tables, four),
            "periods": (("18:30", 30), ("19:30", 30)),
            "end_of_game": END_OF_GAME_WORDS["standard"],
            "self_entry": True,
        }
    )
    drawn_pdf, html_pdf = score_sheets_pdf(round_, "a4"), score_sheets_html_pdf(round_, "a4")
    drawn = _pages_read(drawn_pdf, tmp_path / "drawn")
    html = _pages_read(html_pdf, tmp_path / "html")
    assert drawn == html
    _same_places(drawn_pdf, html_pdf, tmp_path)
    assert [code for _, codes in drawn for code in codes] == [t.url for t in round_.tables]
    assert "Rooks)" in drawn[2][0] and "period" in drawn[0][0]


def _word_boxes(pdf: bytes, tmp_path) -> list[list[tuple[str, float, float]]]:
    """Each page's words with where each begins across the page and where its box ends below
    (pdftotext -bbox), in points: the bottom follows the baseline whatever the font's embedding
    says of its ascent."""
    import re
    import subprocess

    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / "boxes.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(
        ["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    found = r'xMin="([^"]*)" yMin="[^"]*" xMax="[^"]*" yMax="([^"]*)">(.*?)</word>'
    return [
        [(word, float(x), float(y)) for x, y, word in re.findall(found, page)]
        for page in out.split("<page ")[1:]
    ]


def _fest_for_the_wall(tables: int) -> PrintRound:
    """A round for the wall: tables of two, three (every seventh) and four (every eleventh),
    categories, teams, a long name that wraps, two byes and the two-letter words."""
    number = iter(range(1, 1000))
    built = []
    for t in range(1, tables + 1):
        seats = []
        for s in range(1, (4 if t % 11 == 0 else 3 if t % 7 == 0 else 2) + 1):
            n = next(number)
            name = f"{NAMES[n % len(NAMES)]} {n}"
            if n == 9:
                name = "Maximiliana Wolkenstein-Ostrowska de la Fuente y Quiñones-Barrientos 9"
            seats.append(
                PrintSeat(
                    seat=s,
                    name=name,
                    number=n,
                    category=("Competitive", "Just for Fun", "Novice")[n % 3],
                    team=f"Team Rooks {n % 4}" if n % 5 == 0 else "",
                )
            )
        built.append(
            PrintTable(
                number=t,
                seats=tuple(seats),
                url=f"https://scrabble.example.edu/t/{t}/",
                turn_seconds=None,
            )
        )
    byes = tuple(
        PrintSeat(seat=0, name=f"Bye Player {n}", number=n, category="Novice")
        for n in (next(number), next(number))
    )
    return replace(
        sample_round(),
        tables=tuple(built),
        byes=byes,
        two_letter_words=tuple(f"{a}{b}" for a in "ABDEHIKLMNOPST" for b in "AEIOU"),
    )


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_e3_g10_drawn_pairings_say_what_the_html_pairings_say_where_it_says_it(paper, tmp_path):
    """The wall pairings drawn with ReportLab (issue 49) against the same round through the
    HTML template and WeasyPrint, over several pages: page by page the same words, each
    beginning within half a point of the HTML's and on the same line (its box's bottom within
    half a point): the columns sized by their longest entries, a long name wrapped in its
    column, tables of three and four breaking across pages with the header row repeated, the
    byes, the list by name on its own pages and the two-letter words after it."""
    from events.printables import pairings_html_pdf

    round_ = _fest_for_the_wall(45)
    drawn_pdf, html_pdf = pairings_pdf(round_, paper), pairings_html_pdf(round_, paper)
    drawn, html = _word_boxes(drawn_pdf, tmp_path / "a"), _word_boxes(html_pdf, tmp_path / "b")
    assert len(drawn) >= 5
    assert [[w for w, *_ in page] for page in drawn] == [[w for w, *_ in page] for page in html]
    placed = [
        (a, b) for pa, pb in zip(drawn, html, strict=True) for a, b in zip(pa, pb, strict=True)
    ]
    assert max(abs(a[1] - b[1]) for a, b in placed) < 0.5
    assert max(abs(a[2] - b[2]) for a, b in placed) < 0.5
    second = [w for w, *_ in drawn[1]]
    assert second[:4] == ["Table", "No.", "Player", "Category"]  # the header again
    assert "Quiñones-Barrientos" in [w for page in drawn for w, *_ in page]


def test_g3_a_cards_tick_box_never_parts_from_its_words():
    """Issue 48: "time up" wrapped onto the next line, its tick box left at the end of the line
    above. A box and the words after it (unspaced) are set on one line."""
    from events.printdraw.base import Box, set_lines, tick, words

    run = words("The game ended:", "DejaVuSans", 9, spaced=False)
    for how in ("a player went out", "no play possible", "every player passed three times"):
        run += [(True, tick(9, 8.5, 2.8)), (False, (how, "DejaVuSans", 9, ""))]
    run += [(True, tick(9, 8.5, 2.8)), (False, ("time up", "DejaVuSans", 9, ""))]
    for room in range(200, 520, 7):  # every width a card's line may have
        lines = set_lines(run, room)
        assert len(lines) > 1 or room > 400
        for line in lines:
            assert not isinstance(line[-1][1], Box), f"a tick box ends a line {room} pt wide"
