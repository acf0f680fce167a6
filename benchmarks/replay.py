"""How long replaying a game takes: ``python benchmarks/replay.py [GAMES]``.

Generates random games (``tests/matches/scrabble_simulate.py``), and reads the real-world records in
``$GCG_CORPUS_DIR`` when that variable names a folder, then times reading each record and
replaying it on the board with every score recomputed, and prints the cost per move (one event
line). No database and no Django: the rules engine alone.
"""

import os
import random
import sys
import time
from pathlib import Path

# Run as a script from the checkout: the project's packages sit one folder up.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from matches.scrabble.errors import GcgError  # noqa: E402
from matches.scrabble.gcg import parse_gcg  # noqa: E402
from matches.scrabble.gcg_writer import write_gcg  # noqa: E402
from matches.scrabble.replay import check_record  # noqa: E402
from tests.matches.scrabble_simulate import random_game  # noqa: E402

USAGE = "usage: python benchmarks/replay.py [GAMES]  (a number of games, 300 if left out)"


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


def _corpus() -> list[bytes]:
    """The corpus records this engine can read (the Polish one uses another tile set)."""
    folder = os.environ.get("GCG_CORPUS_DIR", "")
    if not folder or not Path(folder).is_dir():
        return []
    records = []
    for path in sorted(Path(folder).glob("*.gcg")):
        data = path.read_bytes()
        try:
            parse_gcg(data)
        except GcgError:
            continue
        records.append(data)
    return records


def main(argv: list[str]) -> None:
    if len(argv) > 1 or (argv and not argv[0].isdigit()):
        sys.exit(USAGE)
    games = int(argv[0]) if argv else 300
    if games < 1:
        sys.exit(USAGE)
    rng = random.Random(2024)
    texts = [write_gcg(random_game(rng, players=2 + index % 3)).encode() for index in range(games)]
    _report(f"{games} generated games", *_time(texts, rounds=1))
    corpus = _corpus()
    if corpus:
        _report(f"{len(corpus)} corpus games x 20", *_time(corpus, rounds=20))
    else:
        print("corpus: GCG_CORPUS_DIR not set or not a folder, real-world records not timed")


if __name__ == "__main__":
    main(sys.argv[1:])
