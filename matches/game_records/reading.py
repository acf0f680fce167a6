"""Reading the GCG file a reporter attached: its size held to a game record's, its bytes
decoded, its lines parsed, a RecordError naming the line when it cannot be used."""

from ..scrabble import GcgError, parse_gcg
from ..scrabble.gcg import GameRecord, decode

# A whole game's record is a few kilobytes; anything far bigger is the wrong file.
MAX_RECORD_BYTES = 64 * 1024


class RecordError(ValueError):
    """The file cannot be used as this match's game record; the message says why."""


def read_record(data: bytes | str) -> tuple[str, GameRecord]:
    """The record's text and its parsed form; RecordError naming the line if it cannot be read."""
    size = len(data.encode() if isinstance(data, str) else data)
    if size > MAX_RECORD_BYTES:
        raise RecordError(
            f"The file is {size // 1024} KB; a game record is a few KB. Is it the right file?"
        )
    try:
        text = decode(data) if isinstance(data, bytes) else data
        record = parse_gcg(text)
    except GcgError as error:
        raise RecordError(f"The game record cannot be read: {error}") from None
    if not record.events:
        raise RecordError("The game record has no moves.")
    return text.removeprefix("\ufeff"), record
