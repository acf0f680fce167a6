"""A Scrabble rules engine and GCG game-record checker, in plain Python (no Django).

The words used throughout:

- tile: a lettered tile (written uppercase) or a blank (``?`` on a rack, on the board the
  lowercase letter it stands for). English values and the 100-tile set are in ``tiles``.
- rack: the up to seven tiles a player holds; bag: the tiles not yet drawn.
- board: the standard 15×15 board with its premium squares (double/triple letter, double/triple
  word; the centre is a double word). Squares are named GCG style: ``8H`` starts a word going
  across at row 8, column H; ``H8`` one going down.
- placement (or play): new tiles put down in one row or column, with no gaps, touching the tiles
  already there (the first one covering the centre). Its main word runs along the tiles; each new
  tile may also form a cross-word at right angles. Letters already on the board that a word uses
  are played through (GCG writes them as ``.``).
- score: see ``scoring`` (G4); a bingo is a play of all seven tiles, worth 50 more.
- pass, exchange (G6: only with seven or more tiles in the bag), phony (an unacceptable play,
  taken back after a challenge, G5), going out (playing one's last tile with the bag empty),
  the end of a game by passes (three by every player in a row, G3), end-of-game adjustment for
  unplayed tiles (G1) and the tie-break (G2): see ``endgame``.
- cumulative total: a player's score after an event, as a GCG record states it.
- GCG: the plain-text game record format, read by ``gcg``, written by ``gcg_writer`` and checked
  by ``replay``.
"""

from .board import CENTRE, SIZE, Board, Position, square_name
from .endgame import (
    CHALLENGE_RULES,
    CLUB_BONUS_TO_CHALLENGER,
    END_OF_GAME_RULES,
    LOSE_TURN,
    NO_ADJUSTMENT,
    NORTH_AMERICAN,
    OUT_BONUS,
    POINTS_TO_CHALLENGED,
    STANDARD,
    ChallengeOutcome,
    end_of_game_adjustments,
    ended_by_passes,
    final_scores,
    resolve_challenge,
    scores_before_adjustment,
    winners,
)
from .errors import GcgError, IllegalPlay, ScrabbleError
from .gcg import Event, GameRecord, Player, parse_gcg
from .gcg_writer import write_gcg
from .replay import CheckReport, Problem, check_gcg, check_record
from .scoring import NewTile, ScoredPlay, Word, play, score_placement, score_word, tiles_from_word
from .tiles import (
    BAG_SIZE,
    BINGO_BONUS,
    BLANK,
    EXCHANGE_MINIMUM_BAG,
    TILE_COUNTS,
    TILE_VALUES,
    exchange_allowed,
    rack_value,
)

__all__ = [
    "BAG_SIZE",
    "BINGO_BONUS",
    "BLANK",
    "CENTRE",
    "CHALLENGE_RULES",
    "CLUB_BONUS_TO_CHALLENGER",
    "END_OF_GAME_RULES",
    "EXCHANGE_MINIMUM_BAG",
    "LOSE_TURN",
    "NORTH_AMERICAN",
    "NO_ADJUSTMENT",
    "OUT_BONUS",
    "POINTS_TO_CHALLENGED",
    "SIZE",
    "STANDARD",
    "TILE_COUNTS",
    "TILE_VALUES",
    "Board",
    "ChallengeOutcome",
    "CheckReport",
    "Event",
    "GameRecord",
    "GcgError",
    "IllegalPlay",
    "NewTile",
    "Player",
    "Position",
    "Problem",
    "ScoredPlay",
    "ScrabbleError",
    "Word",
    "check_gcg",
    "check_record",
    "end_of_game_adjustments",
    "ended_by_passes",
    "exchange_allowed",
    "final_scores",
    "parse_gcg",
    "play",
    "rack_value",
    "resolve_challenge",
    "score_placement",
    "scores_before_adjustment",
    "score_word",
    "square_name",
    "tiles_from_word",
    "winners",
    "write_gcg",
]
