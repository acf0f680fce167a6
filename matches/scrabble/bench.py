"""How long replaying a game takes: ``python -m matches.scrabble.bench [GAMES]``.

Generates random games (and reads ../shared/gcg-corpus when it is there), then times reading
each record and replaying it on the board with every score recomputed, and prints the cost per
move (one event line).
"""

import random
import sys
import time
from pathlib import Path

from .errors import GcgError
from .gcg import parse_gcg, write_gcg
from .replay import check_record
from .simulate import random_game

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "gcg-corpus"


def _time(texts: list[bytes], rounds: int) -> tuple[float, float, int]:
    """Seconds spent parsing and replaying, and the number of events, over ``rounds`` passes."""
    parsing = replaying = 0.0
    events = 0
    for _ in range(rounds):
        for text in texts:
            started = time.perf_counter()
            record = parse_gcg(text)
            parsed = time.perf_counter()
            check_record(record, verify=True)
            replaying += time.perf_counter() - parsed
            parsing += parsed - started
            events += len(record.events)
    return parsing, replaying, events


def _report(label: str, parsing: float, replaying: float, events: int) -> None:
    print(
        f"{label}: {events} moves, replay {1000 * replaying / events:.4f} ms/move, "
        f"parse + replay {1000 * (parsing + replaying) / events:.4f} ms/move"
    )


def main(argv: list[str]) -> None:
    if argv and not argv[0].isdigit():
        sys.exit(
            "usage: python -m matches.scrabble.bench [GAMES]  (a number of games, 300 if left out)"
        )
    games = int(argv[0]) if argv else 300
    rng = random.Random(2024)
    texts = [write_gcg(random_game(rng, players=2 + index % 3)).encode() for index in range(games)]
    _report(f"{games} generated games", *_time(texts, rounds=1))
    if CORPUS.is_dir():
        corpus = []
        for path in sorted(CORPUS.glob("*.gcg")):
            data = path.read_bytes()
            try:
                parse_gcg(data)
            except GcgError:
                continue  # the Polish record: another tile set
            corpus.append(data)
        _report(f"{len(corpus)} corpus games x 20", *_time(corpus, rounds=20))


if __name__ == "__main__":
    main(sys.argv[1:])
