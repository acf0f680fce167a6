"""Random games that follow the rules the engine knows (geometry, scoring, bag, G1, G3, G5,
G6), for two to four players (G9).

No dictionary is involved: words are random letters. The games feed the property tests
(tests/matches/test_gcg_properties.py: write → parse → replay gives the same totals) and the replay
benchmark (benchmarks/replay.py). Test code, so it lives here and not in the engine.
"""

import random

from matches.scrabble.board import SIZE, Board, Position
from matches.scrabble.endgame import (
    CLUB_BONUS_TO_CHALLENGER,
    CLUB_CHALLENGE_BONUS,
    NO_ADJUSTMENT,
    NORTH_AMERICAN,
    PASSES_EACH_TO_END,
    POINTS_TO_CHALLENGED,
    end_of_game_adjustments,
)
from matches.scrabble.errors import IllegalPlay
from matches.scrabble.gcg import (
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
    Player,
)
from matches.scrabble.scoring import ScoredPlay, play, score_placement, score_word, tiles_from_word
from matches.scrabble.tiles import BLANK, RACK_SIZE, full_bag

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def random_placement(board: Board, rack: list[str], rng: random.Random, tries: int = 40):
    """A legal placement of some of ``rack``'s tiles, as a ScoredPlay, or None if none found."""
    occupied = [index for index, tile in enumerate(board.squares) if tile]
    for _ in range(tries):
        count = (
            rng.randint(1, len(rack)) if rng.random() < 0.3 else rng.randint(1, min(3, len(rack)))
        )
        across = rng.random() < 0.5
        step = 1 if across else SIZE
        if occupied:
            anchor = rng.choice(occupied)
            row, col = divmod(anchor, SIZE)
            shift = rng.randint(-1, 1)  # through the anchor's line or the one beside it
            if across:
                row = min(max(row + shift, 0), SIZE - 1)
                col = max(col - rng.randint(0, count), 0)
            else:
                col = min(max(col + shift, 0), SIZE - 1)
                row = max(row - rng.randint(0, count), 0)
        else:
            count = max(count, 2)
            row = col = 7
            if across:
                col -= rng.randint(0, count - 1)
            else:
                row -= rng.randint(0, count - 1)
        index = row * SIZE + col
        tiles = []
        chosen = rng.sample(rack, count)
        while chosen:
            if (across and index // SIZE != row) or index >= SIZE * SIZE:
                break
            if board.squares[index] is None:
                tile = chosen.pop()
                letter = rng.choice(_LETTERS).lower() if tile == BLANK else tile
                tiles.append((*divmod(index, SIZE), letter))
            index += step
        if chosen:
            continue
        try:
            return score_placement(board, tiles, across=across)
        except IllegalPlay:
            continue
    return None


def random_game(
    rng: random.Random,
    *,
    players: int = 2,
    end_rule: str = NORTH_AMERICAN,
    challenge_rule: str = POINTS_TO_CHALLENGED,
    max_turns: int = 80,
) -> GameRecord:
    """A whole random game as a GameRecord, with a few of every kind of event. It ends when a
    player goes out or every player has passed three times in a row (G3); a game still going
    after ``max_turns`` turns is written as ``#incomplete``, without end-of-game lines.

    Challenges follow ``challenge_rule`` (G5): an unsuccessful challenge gives 5 points to the
    challenged player (``points_to_challenged``) or costs the challenger their next turn,
    written as a pass; under ``club_bonus_to_challenger`` a successful challenger gains 10
    while the bag holds tiles."""
    bag = full_bag()
    rng.shuffle(bag)
    record = GameRecord(
        players=[
            Player(number, f"p{number}", f"Player {number}") for number in range(1, players + 1)
        ],
        title="A random game",
        lexicon="NONE",
    )
    nicknames = record.nicknames
    racks = [[bag.pop() for _ in range(RACK_SIZE)] for _ in range(players)]
    totals = [0] * players
    board = Board()
    passes = 0  # in a row; exchanges and plays taken back are not passes (G3)
    loses_next_turn: set[int] = set()  # unsuccessful challengers (G5)
    went_out = None

    def add(player: int, kind: str, change: int, **fields) -> Event:
        totals[player] += change
        event = Event(nicknames[player], kind, change, totals[player], **fields)
        record.events.append(event)
        return event

    for turn in range(max_turns):
        player = turn % players
        challenger = (turn + 1) % players
        rack = racks[player]
        rack_text = "".join(rack)
        lost_turn = player in loses_next_turn  # an unsuccessful challenger's: written as a pass
        loses_next_turn.discard(player)
        scored = None
        if not lost_turn and rng.random() < 0.9:
            scored = random_placement(board, rack, rng)
        if scored is not None:
            passes = 0
            position, word = scored.main_word.start, scored.gcg_word()
            add(player, PLACEMENT, scored.score, rack=rack_text, position=position, word=word)
            if rng.random() < 0.05:  # a phony, challenged off
                add(player, WITHDRAWAL, -scored.score, rack=rack_text)
                if challenge_rule == CLUB_BONUS_TO_CHALLENGER and bag:
                    add(
                        challenger,
                        CHALLENGE_BONUS,
                        CLUB_CHALLENGE_BONUS,
                        rack="".join(racks[challenger]),
                    )
            else:
                _put(board, scored, rack)
                rack.extend(bag.pop() for _ in range(min(len(bag), len(scored.tiles))))
                if rng.random() < 0.05:  # an unsuccessful challenge
                    if challenge_rule == POINTS_TO_CHALLENGED:
                        add(player, CHALLENGE_BONUS, 5, rack="".join(rack))
                    else:
                        loses_next_turn.add(challenger)
                if not rack:
                    went_out = player
                    break
        elif not lost_turn and len(bag) >= 7 and rng.random() < 0.5:
            returned = rng.sample(rack, rng.randint(1, len(rack)))
            for tile in returned:
                rack.remove(tile)
            rack.extend(bag.pop() for _ in returned)
            bag.extend(returned)
            rng.shuffle(bag)
            exchanged = "".join(returned) if rng.random() < 0.7 else ""
            add(
                player,
                EXCHANGE,
                0,
                rack=rack_text,
                exchanged=exchanged,
                exchanged_count=len(returned),
            )
            passes = 0
        else:
            add(player, PASS, 0, rack=rack_text)
            passes += 1
        if passes == PASSES_EACH_TO_END * players:
            break
    else:
        record.incomplete = True  # stopped mid-game: nobody's tiles are counted
        return record
    _end(record, racks, went_out, end_rule, add)
    if rng.random() < 0.1:
        add(rng.randrange(players), TIME_PENALTY, -10, rack="")
    return record


def _put(board: Board, scored: ScoredPlay, rack: list[str]) -> None:
    for tile in scored.tiles:
        board.squares[tile.row * SIZE + tile.col] = tile.letter
        rack.remove(BLANK if tile.letter.islower() else tile.letter)


def _end(record: GameRecord, racks, went_out: int | None, end_rule: str, add) -> None:
    rack_texts = ["".join(rack) for rack in racks]
    adjustments = end_of_game_adjustments(end_rule, rack_texts, went_out)
    if went_out is not None and end_rule != NO_ADJUSTMENT:
        others = "".join(rack for player, rack in enumerate(rack_texts) if player != went_out)
        add(went_out, END_RACK_POINTS, adjustments[went_out], tiles=others)
    for player, rack in enumerate(rack_texts):
        if player != went_out and adjustments[player] and rack:
            add(player, END_RACK_PENALTY, adjustments[player], rack=rack, tiles=rack)


# Long games for the bag: rows of tiles across, from a full set in alphabetical order.
_ROWS = (7, 8, 9, 10, 11, 12, 13, 14, 6, 5, 4, 3, 2, 1, 0)


def rows_game(lengths: list[int], header: str) -> tuple[str, list[str], dict, Board]:
    """A record whose players (``header``'s ``#playerN`` lines, in turn) place rows of
    ``lengths`` tiles (any letters: the engine does not judge words); returns its text, the
    tiles not placed, the totals and the board."""
    board = Board()
    pool = full_bag()
    nicknames = [line.split()[1] for line in header.splitlines() if line.startswith("#player")]
    totals = dict.fromkeys(nicknames, 0)
    lines = [header.rstrip("\n")]
    for turn, length in enumerate(lengths):
        player = nicknames[turn % len(nicknames)]
        tiles, pool = pool[:length], pool[length:]
        word = "".join("e" if tile == "?" else tile for tile in tiles)
        at = Position(_ROWS[turn], 1, True)
        score = score_word(board, at, word).score
        play(board, tiles_from_word(board, at, word))
        totals[player] += score
        lines.append(f">{player}: {''.join(tiles)} {at} {word} +{score} {totals[player]}")
    return "\n".join(lines) + "\n", pool, totals, board
