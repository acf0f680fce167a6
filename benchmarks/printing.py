"""How long a round's printouts take (E3, E5; issue 49): the wall pairings, the table score cards
and the official score sheets of a made-up Fest round at 20 and 500 tables, each rendered in a
fresh process (as a worker does its first print), from the round's plain data to the PDF's bytes.

Run: `python benchmarks/printing.py [--tables 20 500] [--runs 1] [--root CHECKOUT] [--json]`.
`--root` times another checkout's code (the parent commit's, in a second worktree) with this
script, so both are measured on the same round in the same sitting. `--profile KIND` prints
cProfile's top functions for one render instead (by cumulative time).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
KINDS = ("pairings", "cards", "sheets")

FIRST = ["Ada", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu", "Mo", "Zoë"]
LAST = ["Quill", "Vance", "Marsh", "Okoro", "Lark", "Noor", "Ñúñez", "Reyes", "Sato", "Park"]


def fest_round(tables: int):
    """A Fest round of `tables` tables: mostly two seats, every tenth a table of three, every
    twenty-fifth a table of four, categories and teams, some timed tables, two byes; the
    two-letter words and the note of a real league."""
    import datetime

    from events.printables import END_OF_GAME_WORDS, PrintRound, PrintSeat, PrintTable
    from league.wordlists import list_note, two_letter_words

    number = iter(range(1, 10**6))

    def seat(order: int) -> PrintSeat:
        n = next(number)
        return PrintSeat(
            seat=order,
            name=f"{FIRST[n % len(FIRST)]} {LAST[(n // len(FIRST)) % len(LAST)]} {n}",
            number=n,
            category=("Competitive", "Just for Fun", "Novice")[n % 3],
            team=f"Team {n % 40}" if n % 5 == 0 else "",
        )

    built = tuple(
        PrintTable(
            number=t,
            seats=tuple(
                seat(i) for i in range(1, (4 if t % 25 == 0 else 3 if t % 10 == 0 else 2) + 1)
            ),
            url=f"https://scrabble.example.edu/events/fest/rounds/3/tables/{t}/",
            turn_seconds=150 if t % 3 == 0 else None,
        )
        for t in range(1, tables + 1)
    )
    return PrintRound(
        event="Scrabble Fest",
        venue="Student Union Ballroom",
        date=datetime.date(2026, 10, 3),
        round=3,
        starts="19:30",
        minutes=45,
        tables=built,
        byes=(seat(0), seat(0)),
        two_letter_words=tuple(two_letter_words()),
        two_letter_caption=list_note("NASPA Word List 2023", ask="a word judge"),
        periods=(("19:30", 45),),
        end_of_game=END_OF_GAME_WORDS["standard"],
        self_entry=tables % 2 == 0,
    )


def render(kind: str, tables: int, out: str | None = None) -> dict:
    """One render in this process (Django set up here): seconds from the round to the bytes."""
    import django

    django.setup()
    from events import printables

    round_ = fest_round(tables)
    fn = {
        "pairings": printables.pairings_pdf,
        "cards": printables.score_cards_pdf,
        "sheets": printables.score_sheets_pdf,
    }[kind]
    started = time.perf_counter()
    pdf = fn(round_, "letter")
    seconds = time.perf_counter() - started
    if out:
        Path(out).write_bytes(pdf)
    return {"kind": kind, "tables": tables, "seconds": seconds, "bytes": len(pdf)}


# Production settings (no database is read: the round is plain data).
SETTINGS = {
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "SECRET_KEY": "benchmark-only-secret-key-0000000000000000000000000000",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "DEBUG": "false",
}


def child(root: Path, *args: str) -> str:
    env = {**os.environ, **SETTINGS, "PYTHONPATH": str(root)}
    return subprocess.run(
        [sys.executable, str(HERE / "printing.py"), *args],
        cwd=root,
        env=env,
        check=True,
        text=True,
        capture_output=True,
        timeout=3600,
    ).stdout


def measure(root: Path, tables: list[int], runs: int, kinds=KINDS) -> list[dict]:
    """Each kind at each size, `runs` fresh processes each: the median seconds."""
    rows = []
    for count in tables:
        for kind in kinds:
            times = []
            for _ in range(runs):
                out = child(root, "--one", kind, str(count))
                times.append(json.loads(out.strip().splitlines()[-1])["seconds"])
                print(
                    f"  {root.name}: {kind} at {count} tables: {times[-1]:.2f} s", file=sys.stderr
                )
            median = statistics.median(times)
            rows.append(
                {"kind": kind, "tables": count, "seconds": median, "per_table": median / count}
            )
    return rows


def print_rows(rows: list[dict], title: str = "Printing (one fresh process each, median)") -> None:
    print(title)
    print(f"  {'printout':<10}{'tables':>8}{'seconds':>10}{'ms/table':>10}")
    for row in rows:
        print(
            f"  {row['kind']:<10}{row['tables']:>8}{row['seconds']:>10.2f}"
            f"{row['per_table'] * 1000:>10.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[20, 500])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    parser.add_argument("--root", type=Path, default=HERE.parent, help="the checkout to time")
    parser.add_argument("--json", action="store_true", help="the rows as JSON on the last line")
    parser.add_argument("--one", nargs=2, metavar=("KIND", "TABLES"), help=argparse.SUPPRESS)
    parser.add_argument("--out", help="with --one: write the PDF here")
    parser.add_argument("--profile", choices=KINDS, help="cProfile one render at --tables[0]")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(render(args.one[0], int(args.one[1]), args.out)))
        return
    if args.profile:
        import cProfile
        import pstats

        os.environ.update(SETTINGS)
        sys.path.insert(0, str(args.root))
        profile = cProfile.Profile()
        profile.enable()
        result = render(args.profile, args.tables[0])
        profile.disable()
        print(json.dumps(result))
        pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
        return
    rows = measure(args.root.resolve(), args.tables, args.runs, args.kinds)
    print_rows(rows)
    if args.json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
