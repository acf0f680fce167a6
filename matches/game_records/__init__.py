"""A result report's game record: a GCG file checked against the reported scores, and the game
replayed move by move for the match page.

Plain functions over plain values: the service passes in the league's end-of-game rule (G1) and
challenge rule (G5), the seats' names (two to four seats, G9) and the reported scores, and gets
back the record's totals by seat and a sentence for each score that differs.

- `reading`: read_record, RecordError, MAX_RECORD_BYTES
- `comparison`: compare_with_report (RecordComparison), seat_players, SeatName, RULE_NAMES
- `moves`: moves (Move), stored_moves, board_after (Square)
"""

from .comparison import RULE_NAMES, RecordComparison, SeatName, compare_with_report, seat_players
from .moves import Move, Square, board_after, moves, stored_moves
from .reading import MAX_RECORD_BYTES, RecordError, read_record

__all__ = [
    "MAX_RECORD_BYTES",
    "RULE_NAMES",
    "Move",
    "RecordComparison",
    "RecordError",
    "SeatName",
    "Square",
    "board_after",
    "compare_with_report",
    "moves",
    "read_record",
    "seat_players",
    "stored_moves",
]
