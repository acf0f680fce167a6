"""Reading and writing GCG records: pragmata, every event kind, what real files contain, and
what the reader refuses (naming the line)."""

import pytest

from matches.scrabble import GcgError, Position, parse_gcg, write_gcg
from matches.scrabble.gcg import (
    CHALLENGE_BONUS,
    END_RACK_PENALTY,
    END_RACK_POINTS,
    EXCHANGE,
    PASS,
    PLACEMENT,
    TIME_PENALTY,
    WITHDRAWAL,
    decode,
)

CLUB_NIGHT = """\
#character-encoding UTF-8
#player1 ada Ada Quill
#player2 brin Brin Øst
#title Club night, round 2
#description A friendly game
#id example.edu 42
#lexicon NWL23
#style club
>ada: DINNVWY 8D WINDY +32 32
#note a good start,
which ran on to a second line
>brin: ADEEGIL 7C GALE +16 16
>ada: ENORSTU H8 .OUTERS +11 43
>brin: ADEIIXZ I9 AX +22 38
>brin: DEIIZ (challenge) +5 43
>ada: ABCNU?E - +0 43
>brin: DEIIZQ? -QZ +0 43
>ada: ABCNU?E -3 +0 43
>brin: DEIIZ?? 12E DIZ. +14 57
>brin: DEIIZ?? -- -14 43
>ada: ABCDEFG (time) -10 33
>ada: (EI) +2 35
>brin: EI (EI) -2 41
"""


def _kinds(record):
    return [event.kind for event in record.events]


def test_reads_the_players_and_header_pragmata():
    record = parse_gcg(CLUB_NIGHT)
    assert [(p.number, p.nickname, p.full_name) for p in record.players] == [
        (1, "ada", "Ada Quill"),
        (2, "brin", "Brin Øst"),
    ]
    assert record.title == "Club night, round 2"
    assert record.description == "A friendly game"
    assert record.game_id == "example.edu 42"
    assert record.lexicon == "NWL23"
    assert record.other_pragmata == [("style", "club")]  # unknown pragmata are kept, not obeyed


def test_reads_every_event_kind():
    record = parse_gcg(CLUB_NIGHT)
    assert _kinds(record) == [
        PLACEMENT,
        PLACEMENT,
        PLACEMENT,
        PLACEMENT,
        CHALLENGE_BONUS,
        PASS,
        EXCHANGE,
        EXCHANGE,
        PLACEMENT,
        WITHDRAWAL,
        TIME_PENALTY,
        END_RACK_POINTS,
        END_RACK_PENALTY,
    ]
    first = record.events[0]
    assert (first.nickname, first.rack, first.word, first.change, first.total, first.line) == (
        "ada",
        "DINNVWY",
        "WINDY",
        32,
        32,
        9,
    )
    assert first.position == Position(7, 3, True)
    assert record.events[2].position == Position(7, 7, False)
    assert record.events[6].exchanged == "QZ" and record.events[6].exchanged_count == 2
    assert record.events[7].exchanged == "" and record.events[7].exchanged_count == 3
    assert record.events[9].change == -14
    assert record.events[10].change == -10
    assert record.events[11].tiles == "EI" and record.events[11].rack == ""
    assert record.events[12].tiles == "EI" and record.events[12].rack == "EI"
    assert record.final_totals() == {"ada": 35, "brin": 41}


def test_a_bare_line_after_a_note_continues_it():
    record = parse_gcg(CLUB_NIGHT)
    assert record.events[0].note == "a good start,\nwhich ran on to a second line"


def test_notes_before_the_first_event_belong_to_the_game():
    record = parse_gcg("#player1 a A\n#player2 b B\n#note before play\n>a: AB 8G AB +8 8\n")
    assert record.notes == "before play"
    assert record.events[0].note == ""


def test_crlf_and_blank_lines_are_tolerated_and_lines_keep_their_numbers():
    text = CLUB_NIGHT.replace("\n", "\r\n").replace(">brin: ADEEGIL", "\r\n>brin: ADEEGIL")
    record = parse_gcg(text.encode("utf-8"))
    assert len(record.events) == 13
    assert record.events[1].line == 13  # the blank line counts, as in an editor
    assert record.events[0].note == "a good start,\nwhich ran on to a second line"


def test_padded_columns_lowercase_positions_and_trailing_words_are_read():
    text = (
        "#player1 Ola Ola Nordmann\n#player2 Kim Kim Park\n"
        ">Ola: DINNVWY   8d    WINDY          +32   32  \n"
        ">Kim: ADEEGIL   7c    GALE           +16   16  AW, LI, EN\n"
        ">Ola:           (AEEGI)              +12   44  \n"
    )
    record = parse_gcg(text)
    assert record.events[0].position == Position(7, 3, True)
    assert record.events[1].extra == ("AW,", "LI,", "EN")
    assert record.events[1].total == 16
    assert record.events[2].kind == END_RACK_POINTS and record.events[2].tiles == "AEEGI"


def test_tabs_separate_tokens_too():
    record = parse_gcg("#player1\tx\tX\n#player2 y Y\n>x:\tAB\t8G\tAB\t+8\t8\n")
    assert record.players[0].nickname == "x"
    assert record.events[0].word == "AB"


def test_empty_rack_fields_on_challenge_and_time_lines():
    record = parse_gcg(
        "#player1 a A\n#player2 b B\n>a: AB 8G AB +8 8\n>a:  (challenge) +5 13\n>b: (time) -10 -10\n"
    )
    assert _kinds(record)[1:] == [CHALLENGE_BONUS, TIME_PENALTY]
    assert record.events[1].rack == "" and record.events[2].total == -10


def test_older_phony_line_with_plus_zero_is_read_as_a_withdrawal():
    record = parse_gcg("#player1 a A\n#player2 b B\n>a: AB 8G AB +8 8\n>a: AB   -- +0 0\n")
    assert record.events[1].kind == WITHDRAWAL and record.events[1].change == 0


def test_placement_without_rack_field():
    record = parse_gcg("#player1 a A\n#player2 b B\n>a: 8G AB +8 8\n")
    assert record.events[0].kind == PLACEMENT and record.events[0].rack == ""


def test_three_and_four_player_records():
    text = "".join(f"#player{n} p{n} Player {n}\n" for n in (1, 2, 3, 4)) + (
        ">p1: AB 8G AB +8 8\n>p2: CD - +0 0\n>p3: EF - +0 0\n>p4: GH - +0 0\n"
    )
    record = parse_gcg(text)
    assert record.nicknames == ["p1", "p2", "p3", "p4"]
    assert record.final_totals() == {"p1": 8, "p2": 0, "p3": 0, "p4": 0}


def test_final_racks_and_incomplete_flag():
    record = parse_gcg("#player1 a A\n#player2 b B\n#incomplete \n>a: AB 8G AB +8 8\n#rack2 QZ?")
    assert record.incomplete
    assert record.final_racks == {2: "QZ?"}


def test_latin1_file_without_a_header_is_read():
    data = "#player1 césar César\n#player2 b B\n>césar: AB 8G AB +8 8\n".encode("latin-1")
    assert parse_gcg(data).players[0].nickname == "césar"


def test_utf8_file_without_a_header_is_read_as_utf8():
    data = "#player1 úrsula Úrsula\n#player2 b B\n>úrsula: AB 8G AB +8 8\n".encode()
    assert parse_gcg(data).final_totals() == {"úrsula": 8, "b": 0}


def test_byte_order_mark_is_ignored():
    data = b"\xef\xbb\xbf#player1 a A\n#player2 b B\n"
    assert parse_gcg(data).nicknames == ["a", "b"]


def test_declared_latin1_encoding_is_honoured():
    data = "#character-encoding ISO-8859-1\n#player1 zoë Zoë\n#player2 b B\n".encode("latin-1")
    assert parse_gcg(data).nicknames == ["zoë", "b"]


def test_declared_utf8_with_invalid_bytes_is_refused_naming_the_line():
    data = b"#character-encoding UTF-8\n#player1 a A\n#player2 b \xe9\n"
    with pytest.raises(GcgError, match="not valid UTF-8") as refused:
        parse_gcg(data)
    assert refused.value.line == 3


def test_unknown_declared_encoding_is_refused_on_line_1():
    with pytest.raises(GcgError, match="unsupported character encoding 'ebcdic'") as refused:
        parse_gcg(b"#character-encoding EBCDIC\n#player1 a A\n#player2 b B\n")
    assert refused.value.line == 1


def test_decode_falls_back_to_latin1():
    assert decode(b"#title caf\xe9") == "#title café"


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("#player1 a A\n#player2 b B\n>c: AB 8G AB +8 8\n", 3, "'c' is not a player"),
        (">a: AB 8G AB +8 8\n#player1 a A\n", 1, "'a' is not a player"),
        ("#player1 a A\n#player2 b B\n>a: AB 8G AB\n", 3, "no score change and cumulative total"),
        ("#player1 a A\n#player2 b B\n>a: AB 8G AB 8 8\n", 3, "no score change"),
        ("#player1 a A\n#player2 b B\nhello\n", 3, "neither a pragma"),
        ("#player1 a A\n#character-encoding UTF-8\n", 2, "only valid on line 1"),
        ("#player1 a A\n#player2 a B\n", 2, "two players have the nickname 'a'"),
        ("#player1 a A\n#player1 b B\n", 2, "#player1 is given twice"),
        ("#player1 a A\n#player2 b B\n>a: - +0 0\n#player3 c C\n", 4, "after the first event"),
        ("#player1 a A\n#player5 b B\n", 2, "at most 4 players"),
        ("#player1 a A\n#player2\n", 2, "gives no nickname"),
        ("#player1 a A\n", 1, "needs #player1 and #player2"),
        ("", 1, "needs #player1 and #player2"),
        ("#player1 a A\n#player3 c C\n", 1, "#player2 is missing"),
        ("#player1 a A\n#player2 b B\n>a: AB 16A AB +8 8\n", 3, "rows run from 1 to 15"),
        ("#player1 a A\n#player2 b B\n>a: AB 8G A-B +8 8\n", 3, "'-' cannot appear in the word"),
        ("#player1 a A\n#player2 b B\n>a: AB 8Z AB +8 8\n", 3, "'8Z' is not a board position"),
        ("#player1 a A\n#player2 b B\n>a: AB -0 +0 0\n", 3, "1 to 7 tiles"),
        ("#player1 a A\n#player2 b B\n>a: AB -8 +0 0\n", 3, "1 to 7 tiles"),
        ("#player1 a A\n#player2 b B\n>a: A B C D +0 0\n", 3, "cannot tell what kind"),
        ("#player1 a A\n#player2 b B\n>a: AB *** +0 0\n", 3, "cannot tell what kind"),
        ("#player1 a A\n#player2 b B\n>a +8 8\n", 3, "starts with >NICKNAME:"),
        ("#player1 a A\n#player2 b B\n#rack3 AB\n", 3, "#rack3 names no player"),
    ],
)
def test_ambiguous_or_malformed_lines_are_refused_naming_the_line(text, line, words):
    with pytest.raises(GcgError, match=words) as refused:
        parse_gcg(text)
    assert refused.value.line == line
    assert str(refused.value).startswith(f"line {line}: ")


def test_tiles_outside_the_english_set_are_refused_as_an_unsupported_tile_set():
    text = "#player1 a A\n#player2 b B\n>a: AB 8G AB +8 8\n>b: ĄĘŚ 9G ĄĘ +9 9\n"
    with pytest.raises(GcgError, match="unsupported tile set: 'Ą'") as refused:
        parse_gcg(text)
    assert refused.value.line == 4


def test_writing_then_reading_gives_the_same_record():
    record = parse_gcg(CLUB_NIGHT)
    text = write_gcg(record)
    assert text.startswith("#character-encoding UTF-8\n")  # the name Øst is not ASCII
    assert parse_gcg(text) == record


def test_writer_uses_gcg_forms_for_each_event():
    lines = write_gcg(parse_gcg(CLUB_NIGHT)).splitlines()
    assert ">ada: DINNVWY 8D WINDY +32 32" in lines
    assert ">ada: ENORSTU H8 .OUTERS +11 43" in lines
    assert ">brin: DEIIZ (challenge) +5 43" in lines
    assert ">ada: ABCNU?E - +0 43" in lines
    assert ">brin: DEIIZQ? -QZ +0 43" in lines
    assert ">ada: ABCNU?E -3 +0 43" in lines
    assert ">brin: DEIIZ?? -- -14 43" in lines
    assert ">ada: ABCDEFG (time) -10 33" in lines
    assert ">ada: (EI) +2 35" in lines
    assert ">brin: EI (EI) -2 41" in lines
    assert "#note a good start," in lines and "#note which ran on to a second line" in lines


def test_writer_keeps_a_zero_deduction_a_deduction():
    text = "#player1 a A\n#player2 b B\n>b: ? (?) -0 0\n"
    record = parse_gcg(text)
    assert record.events[0].kind == END_RACK_PENALTY
    assert parse_gcg(write_gcg(record)) == record
