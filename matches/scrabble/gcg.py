"""GCG game records (the format as read here: docs/gcg.md): their shape and their reading.
Writing one back is `gcg_writer`.

A record is a list of pragmata (``#player1 NICK Full Name``, ``#title …``, ``#note …``) and
events (``>NICK: RACK 8H WORD +SCORE TOTAL`` and the other kinds below), one per line. The
reader is tolerant of what real files contain (CRLF, Latin-1, padded columns, notes running over
several lines, trailing tokens after the total, older forms) and refuses, with a GcgError naming
the line, whatever it cannot read without guessing.
"""

import re
from dataclasses import dataclass, field

from .board import Position
from .errors import GcgError
from .tiles import BLANK, LETTERS

# Event kinds
PLACEMENT = "placement"
WITHDRAWAL = "withdrawal"  # a phony taken back: removes the player's previous placement
PASS = "pass"  # also a turn lost to an unsuccessful challenge
EXCHANGE = "exchange"
CHALLENGE_BONUS = "challenge_bonus"  # points to the player whose valid play was challenged
END_RACK_POINTS = "end_rack_points"  # the unplayed tiles gained by the player who went out
END_RACK_PENALTY = "end_rack_penalty"  # a player's own unplayed tiles deducted
TIME_PENALTY = "time_penalty"
MAX_PLAYERS = 4

# [0-9], not \d: other scripts' digits are no part of the format.
_SCORE_RE = re.compile(r"[+-][0-9]+")
_TOTAL_RE = re.compile(r"-?[0-9]+")
_COUNT_RE = re.compile(r"[0-9]+")
_PLAYER_RE = re.compile(r"player([0-9]+)")
_RACK_RE = re.compile(r"rack([0-9]+)")
_LINE_BREAK_RE = re.compile(r"\r\n|\r|\n")
_TILE_CHARACTERS = frozenset(LETTERS) | {BLANK}
_WORD_CHARACTERS = frozenset(LETTERS) | {letter.lower() for letter in LETTERS} | {"."}


@dataclass
class Player:
    number: int  # 1-4, the N of #playerN: the order of play
    nickname: str
    full_name: str


@dataclass
class Event:
    """One ``>`` line. ``change`` is the signed score change as written, ``total`` the player's
    cumulative score after it."""

    nickname: str
    kind: str
    change: int
    total: int
    rack: str = ""  # the rack before the move, "?" for a blank; may be empty
    position: Position | None = None  # placements only
    word: str = ""  # placements: uppercase tile, lowercase blank, "." a tile on the board
    exchanged: str = ""  # exchanges: the tiles put back, when the record names them
    exchanged_count: int = 0  # exchanges: how many tiles were put back
    tiles: str = ""  # end-of-game lines: the unplayed tiles in parentheses
    note: str = ""
    extra: tuple[str, ...] = ()  # tokens after the total (older files list words formed)
    line: int = field(default=0, compare=False)  # where it was read, for messages


@dataclass
class GameRecord:
    players: list[Player] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    title: str = ""
    description: str = ""
    game_id: str = ""  # #id AUTHORITY ID
    lexicon: str = ""
    notes: str = ""  # #note lines before the first event
    final_racks: dict[int, str] = field(default_factory=dict)  # #rackN: racks where it stops
    incomplete: bool = False
    other_pragmata: list[tuple[str, str]] = field(default_factory=list)  # kept, not interpreted

    @property
    def nicknames(self) -> list[str]:
        return [player.nickname for player in self.players]

    def final_totals(self) -> dict[str, int]:
        """Each player's last cumulative total (0 for a player with no event)."""
        totals = dict.fromkeys(self.nicknames, 0)
        for event in self.events:
            totals[event.nickname] = event.total
        return totals


# Reading


def decode(data: bytes) -> str:
    """Bytes to text: UTF-8 if line 1 says ``#character-encoding UTF-8``; otherwise try UTF-8
    and fall back to ISO-8859-1, which is what the format specifies for older files."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    first_line = _LINE_BREAK_RE.split(data.decode("latin-1"), maxsplit=1)[0].strip()
    declared = None
    if first_line.lower().startswith("#character-encoding"):
        declared = first_line[len("#character-encoding") :].strip().lower().replace("_", "-")
    if declared in ("iso-8859-1", "latin-1", "latin1", "iso8859-1"):
        return data.decode("latin-1")
    if declared not in (None, "utf-8", "utf8"):
        raise GcgError(1, f"unsupported character encoding {declared!r} (UTF-8 or ISO-8859-1)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        if declared is None:
            return data.decode("latin-1")
        bad_line = len(_LINE_BREAK_RE.findall(data[: error.start].decode("latin-1"))) + 1
        raise GcgError(bad_line, "not valid UTF-8, although line 1 declares UTF-8") from None


def parse_gcg(source: bytes | str) -> GameRecord:
    """Read a GCG record from bytes (a file's contents) or text. Raises GcgError."""
    text = decode(source) if isinstance(source, bytes) else source.removeprefix("\ufeff")
    return _Reader().read(text)


class _Reader:
    def __init__(self) -> None:
        self.record = GameRecord()
        self.by_nickname: dict[str, Player] = {}
        self.note_lines: list[str] | None = None  # the note being read, until the next # or >
        self.first_player_line = 0

    def read(self, text: str) -> GameRecord:
        for number, raw in enumerate(_LINE_BREAK_RE.split(text), start=1):
            line = raw.strip()
            if self.note_lines is not None and not line.startswith(("#", ">")):
                self.note_lines.append(line)  # a bare line continues the note above it
                continue
            self._end_note()
            if not line:
                continue
            if line.startswith("#"):
                self._pragma(number, line)
            elif line.startswith(">"):
                self._event(number, line)
            else:
                raise GcgError(
                    number, "neither a pragma (#…) nor an event (>…), and no #note before it"
                )
        self._end_note()
        self._check_players()
        return self.record

    def _end_note(self) -> None:
        if self.note_lines is None:
            return
        while self.note_lines and not self.note_lines[-1]:
            self.note_lines.pop()
        note = "\n".join(self.note_lines)
        self.note_lines = None
        if self.record.events:
            event = self.record.events[-1]
            event.note = f"{event.note}\n{note}" if event.note else note
        else:
            notes = self.record.notes
            self.record.notes = f"{notes}\n{note}" if notes else note

    def _pragma(self, number: int, line: str) -> None:
        name, value = (line[1:].split(None, 1) + ["", ""])[:2]
        value = value.strip()
        key = name.lower()
        record = self.record
        if key == "note":
            self.note_lines = [value]
        elif match := _PLAYER_RE.fullmatch(key):
            self._player(number, int(match.group(1)), value)
        elif match := _RACK_RE.fullmatch(key):
            self._final_rack(number, int(match.group(1)), value)
        elif key == "character-encoding":
            if number != 1:
                raise GcgError(number, "#character-encoding is only valid on line 1")
        elif key == "incomplete":
            record.incomplete = True
        elif key == "title":
            record.title = value
        elif key == "description":
            record.description = value
        elif key == "id":
            record.game_id = value
        elif key == "lexicon":
            record.lexicon = value
        else:
            record.other_pragmata.append((name, value))  # unknown pragmata are ignored

    def _player(self, number: int, player: int, value: str) -> None:
        if not 1 <= player <= MAX_PLAYERS:
            raise GcgError(number, f"#player{player}: a game has at most {MAX_PLAYERS} players")
        if self.record.events:
            raise GcgError(number, f"#player{player} comes after the first event")
        parts = value.split(None, 1)
        if not parts:
            raise GcgError(number, f"#player{player} gives no nickname")
        nickname = parts[0]
        full_name = parts[1] if len(parts) > 1 else nickname
        if any(existing.number == player for existing in self.record.players):
            raise GcgError(number, f"#player{player} is given twice")
        if nickname in self.by_nickname:
            raise GcgError(number, f"two players have the nickname {nickname!r}")
        entry = Player(player, nickname, " ".join(full_name.split()))
        self.record.players.append(entry)
        self.record.players.sort(key=lambda existing: existing.number)
        self.by_nickname[nickname] = entry
        self.first_player_line = self.first_player_line or number

    def _final_rack(self, number: int, player: int, value: str) -> None:
        if not any(existing.number == player for existing in self.record.players):
            raise GcgError(number, f"#rack{player} names no player of this record")
        self.record.final_racks[player] = _tiles(number, value.replace(" ", ""), "rack")

    def _check_players(self) -> None:
        numbers = [player.number for player in self.record.players]
        if len(numbers) < 2:
            line = self.first_player_line or 1
            raise GcgError(line, "a record needs #player1 and #player2")
        if numbers != list(range(1, len(numbers) + 1)):
            missing = min(set(range(1, len(numbers) + 1)) - set(numbers))
            raise GcgError(self.first_player_line, f"#player{missing} is missing")

    def _event(self, number: int, line: str) -> None:
        head, colon, rest = line[1:].partition(":")
        nickname = head.strip()
        if not colon or not nickname or any(character.isspace() for character in nickname):
            raise GcgError(number, "an event starts with >NICKNAME: and this one does not")
        if nickname not in self.by_nickname:
            known = ", ".join(self.by_nickname) or "none declared yet"
            raise GcgError(number, f"{nickname!r} is not a player of this record ({known})")
        tokens = rest.split()
        pair = next(
            (
                index
                for index in range(len(tokens) - 1)
                if _SCORE_RE.fullmatch(tokens[index]) and _TOTAL_RE.fullmatch(tokens[index + 1])
            ),
            None,
        )
        if pair is None:
            raise GcgError(number, "no score change and cumulative total (such as +32 32)")
        event = Event(
            nickname=nickname,
            kind="",
            change=int(tokens[pair]),
            total=int(tokens[pair + 1]),
            extra=tuple(tokens[pair + 2 :]),
            line=number,
        )
        _classify(number, event, tokens[:pair], tokens[pair].startswith("-"))
        self.record.events.append(event)


def _classify(number: int, event: Event, fields: list[str], negative: bool) -> None:
    """Tell the kind of event from the fields before the score and fill them in."""
    if not fields or len(fields) > 3:
        raise GcgError(number, "cannot tell what kind of event this is")
    last = fields[-1]
    leading = fields[:-1]
    if len(fields) == 3:
        event.kind = PLACEMENT
        event.rack = _tiles(number, fields[0], "rack")
        _placement(number, event, fields[1], fields[2])
        return
    if len(fields) == 2 and _looks_like_position(fields[0]) and not last.startswith(("-", "(")):
        event.kind = PLACEMENT  # a placement with no rack field
        _placement(number, event, fields[0], fields[1])
        return
    event.rack = _tiles(number, leading[0], "rack") if leading else ""
    lowered = last.lower()
    if lowered == "(challenge)":
        event.kind = CHALLENGE_BONUS
    elif lowered == "(time)":
        event.kind = TIME_PENALTY
    elif last.startswith("(") and last.endswith(")"):
        event.tiles = _tiles(number, last[1:-1], "unplayed tiles")
        event.kind = END_RACK_PENALTY if negative else END_RACK_POINTS
    elif last == "-":
        event.kind = PASS
    elif last == "--":
        event.kind = WITHDRAWAL
    elif last.startswith("-"):
        event.kind = EXCHANGE
        exchanged = last[1:]
        if _COUNT_RE.fullmatch(exchanged):
            event.exchanged_count = int(exchanged)
        else:
            event.exchanged = _tiles(number, exchanged, "exchanged tiles")
            event.exchanged_count = len(event.exchanged)
        if not 1 <= event.exchanged_count <= 7:
            raise GcgError(number, f"an exchange puts back 1 to 7 tiles, not {exchanged!r}")
    else:
        raise GcgError(number, "cannot tell what kind of event this is")


def _looks_like_position(text: str) -> bool:
    try:
        Position.parse(text)
    except ValueError:
        return False
    return True


def _placement(number: int, event: Event, position_text: str, word: str) -> None:
    try:
        event.position = Position.parse(position_text)
    except ValueError as error:
        raise GcgError(number, str(error)) from None
    for character in word:
        if character not in _WORD_CHARACTERS:
            _refuse_character(number, character, "word")
    event.word = word


def _tiles(number: int, text: str, what: str) -> str:
    """Rack-style tiles: letters (taken as uppercase) and ``?`` for a blank."""
    tiles = text.upper() if text.isascii() else text
    for character in tiles:
        if character not in _TILE_CHARACTERS:
            _refuse_character(number, character, what)
    return tiles


def _refuse_character(number: int, character: str, what: str) -> None:
    if character.isalpha():
        raise GcgError(
            number,
            f"unsupported tile set: {character!r} in the {what} is not a tile of the English "
            "set, the only one this reader scores",
        )
    raise GcgError(number, f"{character!r} cannot appear in the {what}")
