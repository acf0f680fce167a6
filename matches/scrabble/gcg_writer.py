"""Writing a game record as GCG text, so that reading it back gives the same record (tests
and the benchmark generate games and write them; the reader is `gcg`)."""

from .gcg import (
    CHALLENGE_BONUS,
    END_RACK_PENALTY,
    END_RACK_POINTS,
    EXCHANGE,
    PASS,
    PLACEMENT,
    TIME_PENALTY,
    WITHDRAWAL,
    Event,
    GameRecord,
)


def format_event(event: Event) -> str:
    """One event as a GCG line."""
    kind = event.kind
    # "-0" keeps a deduction of a blank-only rack a deduction when read back.
    sign = "-" if event.change < 0 or (event.change == 0 and kind == END_RACK_PENALTY) else "+"
    score = f"{sign}{abs(event.change)} {event.total}"
    prefix = f">{event.nickname}: "
    rack = f"{event.rack} " if event.rack else ""
    if kind == PLACEMENT:
        body = f"{rack}{event.position} {event.word}"
    elif kind == WITHDRAWAL:
        body = f"{rack}--"
    elif kind == PASS:
        body = f"{rack}-"
    elif kind == EXCHANGE:
        body = f"{rack}-{event.exchanged or event.exchanged_count}"
    elif kind == CHALLENGE_BONUS:
        body = f"{rack}(challenge)"
    elif kind == TIME_PENALTY:
        body = f"{rack}(time)"
    elif kind in (END_RACK_POINTS, END_RACK_PENALTY):
        body = f"{rack}({event.tiles})"
    else:
        raise ValueError(f"unknown event kind {kind!r}")
    extra = "".join(f" {token}" for token in event.extra)
    return f"{prefix}{body} {score}{extra}"


def _note_lines(note: str) -> list[str]:
    # One #note per line of the note, so no continuation line can be mistaken for an event.
    return [f"#note {line}".rstrip() for line in note.split("\n")] if note else []


def write_gcg(record: GameRecord) -> str:
    """The record as GCG text (UTF-8 declared on line 1 when it has non-ASCII characters)."""
    lines = [
        f"#player{player.number} {player.nickname} {player.full_name}" for player in record.players
    ]
    for name, value in (
        ("title", record.title),
        ("description", record.description),
        ("id", record.game_id),
        ("lexicon", record.lexicon),
    ):
        if value:
            lines.append(f"#{name} {value}")
    lines.extend(f"#{name} {value}".rstrip() for name, value in record.other_pragmata)
    if record.incomplete:
        lines.append("#incomplete")
    lines.extend(_note_lines(record.notes))
    for event in record.events:
        lines.append(format_event(event))
        lines.extend(_note_lines(event.note))
    lines.extend(f"#rack{number} {rack}" for number, rack in sorted(record.final_racks.items()))
    text = "\n".join(lines) + "\n"
    if not text.isascii():
        text = "#character-encoding UTF-8\n" + text
    return text
