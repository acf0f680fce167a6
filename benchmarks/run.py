"""`make bench`: how fast, how big, how it grows. Prints one table.

The harness (databases, `manage.py`) is `harness.py`, the pages under load `pages.py`; this
module times the nightly pipeline, races results against it, and prints the figures.

1. Builds the large institution once with `seed_demo`'s size options in a throwaway PostgreSQL
   database and keeps it as a template, so every timed run starts from the same data.
2. Times the nightly pipeline at the full size and a tenth of it, several runs each from a fresh
   copy of the template: median, ratio, peak memory, SQL queries; then the ratings at the full
   size, from scratch and a run with nothing new (the template holds its ratings, as a site
   does after its nights, so the nightly rates only its own night's results).
3. Serves the app with gunicorn (production settings, 2 workers, persistent connections) and
   drives it with wrk for a fixed time per URL, alternating the floor (one trivial query) and a
   page; prints requests per second, p50/p99, and each page's throughput as a share of the floor.
4. Submits results from several processes while the nightly pipeline runs, then checks each
   accepted report is there exactly once and no reported match was forfeited.
5. With `--ten-times`: ten times the data (harness.TEN_TIMES: 101 campuses, 260,000 students,
   2,000 leagues, 2,000,000 matches), its own template; the nightly of every campus in one
   process, the pages again, the whole night shared by 1 and 2 Celery worker processes
   (night_workers.py), and the pending-eligibility count under a roster import at the largest
   campus (pending_contention.py).

6. Prints a round's pairings, cards and sheets at 20 and 500 tables (printing.py), each in a
   fresh process: seconds, and per table.
7. Plays one round's burst of a self-entry evening at 1,000 entrants (self_entry_evening.py
   --rounds 1: every card entered and confirmed from the players' phones within 60 s) and
   prints its table: the answers' times, the burst, how soon event.json shows the round.

Only loopback addresses; every loop bounded; everything started is stopped.
"""

import argparse
import json
import statistics
import subprocess

from harness import (
    PY,
    ROOT,
    RUN_DB,
    TEN_TIMES,
    TEN_TIMES_SIZE,
    drop,
    env,
    fresh_copy,
    manage,
    say,
    template,
)
from night_workers import whole_night
from pages import load
from pending_contention import measure as pending_measure
from printing import measure as printing_measure
from printing import print_rows as print_printing


def json_line(database: str, script: str, *args: str) -> dict:
    """Run one of the timed scripts (nightly_once.py, rate_once.py) on `database` in a fresh
    process; its last line of output, as JSON."""
    out = subprocess.run(
        [PY, script, *args],
        cwd=ROOT,
        env=env(database),
        check=True,
        text=True,
        capture_output=True,
        timeout=1800,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def time_nightly(template_name: str, runs: int) -> dict:
    results = []
    for run in range(runs):
        database = fresh_copy(template_name)
        results.append(json_line(database, "benchmarks/nightly_once.py"))
        say(
            f"  nightly run {run + 1}/{runs}: {results[-1]['seconds']} s, {results[-1]['queries']} queries"
        )
    return {
        "median": statistics.median(r["seconds"] for r in results),
        "rating": statistics.median(r["rating_seconds"] for r in results),
        "peak_mb": max(r["peak_mb"] for r in results),
        "queries": results[0]["queries"],
        "summary": results[0]["summary"],
    }


def time_ratings(template_name: str) -> dict:
    """The ratings from scratch, then a run with nothing new, on one fresh copy (R1, R2)."""
    database = fresh_copy(template_name)
    found = {}
    for label, extra in (("from_scratch", ["--from-scratch"]), ("nothing_new", [])):
        found[label] = json_line(database, "benchmarks/rate_once.py", *extra)
        say(f"  ratings, {label.replace('_', ' ')}: {found[label]['seconds']} s")
    return found


# --- Concurrency -------------------------------------------------------------------------------------

PICK = """
import json
from django.utils import timezone
from matches.models import Match
ids = list(Match.objects.filter(status__in=["unscheduled", "scheduled"], deadline__gt=timezone.now(), seats__order=2).order_by("id").values_list("id", flat=True)[:{count}])
print(json.dumps(ids))
"""

CHECK = """
import json
from django.db.models import Count, Q
from matches.models import Match
ids = json.loads('{ids}')
rows = Match.objects.filter(id__in=ids).annotate(live=Count("reports", filter=Q(reports__status__in=["pending", "confirmed", "disputed"])))
print(json.dumps([[m.id, m.status, m.live] for m in rows]))
"""


def concurrency(template_name: str, count: int, processes: int) -> dict:
    database = fresh_copy(template_name)
    ids = json.loads(
        manage(database, "shell", "-c", PICK.replace("{count}", str(count)), capture=True)
        .strip()
        .splitlines()[-1]
    )
    chunks = [ids[i::processes] for i in range(processes)]
    submitters = [
        subprocess.Popen(
            [PY, "benchmarks/submit_reports.py", *map(str, chunk)],
            cwd=ROOT,
            env=env(database),
            stdout=subprocess.PIPE,
            text=True,
        )
        for chunk in chunks
    ]
    nightly = subprocess.Popen(
        [PY, "manage.py", "run_nightly"],
        cwd=ROOT,
        env=env(database),
        stdout=subprocess.PIPE,
        text=True,
    )
    accepted = []
    for process in submitters:
        out, _ = process.communicate(timeout=600)
        accepted += json.loads(out.strip().splitlines()[-1])["accepted"]
    nightly.communicate(timeout=600)
    state = json.loads(
        manage(database, "shell", "-c", CHECK.replace("{ids}", json.dumps(accepted)), capture=True)
        .strip()
        .splitlines()[-1]
    )
    lost = sum(1 for _, status, live in state if live == 0 or status == "double_forfeit") + (
        len(accepted) - len(state)
    )
    duplicated = sum(1 for _, _, live in state if live > 1) + (len(accepted) - len(set(accepted)))
    return {
        "submitted": len(ids),
        "accepted": len(accepted),
        "lost": lost,
        "duplicated": duplicated,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20000)
    parser.add_argument("--leagues", type=int, default=200)
    parser.add_argument("--matches", type=int, default=200000)
    parser.add_argument("--runs", type=int, default=3, help="nightly runs per size (median)")
    parser.add_argument("--seconds", type=int, default=5, help="wrk duration per URL")
    parser.add_argument(
        "--reports", type=int, default=200, help="results submitted during the night"
    )
    parser.add_argument("--rebuild", action="store_true", help="rebuild the template databases")
    parser.add_argument(
        "--ten-times",
        action="store_true",
        help="also ten times the data: 101 campuses on one deployment (the first build takes "
        "about half an hour), its nightly, its pages and the night shared by 1 and 2 workers",
    )
    args = parser.parse_args()

    full = template(args.players, args.leagues, args.matches, args.rebuild)
    tenth = template(
        args.players // 10, max(args.leagues // 10, 2), args.matches // 10, args.rebuild
    )
    say("timing the nightly pipeline (full size)")
    big = time_nightly(full, args.runs)
    say("timing the nightly pipeline (a tenth)")
    small = time_nightly(tenth, args.runs)
    say("timing the ratings (full size)")
    rating = time_ratings(full)
    say("serving with gunicorn and loading with wrk")
    rows, workers = load(full, args.seconds)
    say("submitting results while the night runs")
    race = concurrency(full, args.reports, 4)
    say("printing a round's pairings, cards and sheets (20 and 500 tables)")
    printing = printing_measure(ROOT, [20, 500], 1)
    say("a self-entry evening's burst (1,000 entrants, one round)")
    burst = subprocess.run(
        [PY, str(ROOT / "benchmarks" / "self_entry_evening.py"), "--rounds", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    if args.ten_times:
        ten = template(**TEN_TIMES, rebuild=args.rebuild)
        say("timing the nightly pipeline (ten times, every campus in one process)")
        huge = time_nightly(ten, 1)
        say("serving ten times the data")
        ten_rows, ten_workers = load(ten, args.seconds)
        say("the whole night of every campus, shared by workers")
        nights = [whole_night(fresh_copy(ten), workers) for workers in (1, 2)]
        say("the pending-eligibility count under a roster import (the largest campus)")
        contention = pending_measure(ten)
    drop(RUN_DB)

    print()
    print(f"Nightly pipeline ({args.runs} runs each, median; pipeline only, not process start-up)")
    print(
        f"  {'size':<10}{'players':>9}{'leagues':>9}{'matches':>10}{'median s':>10}{'peak MB':>9}{'queries':>9}"
    )
    sizes = [
        ("full", big, args.players, args.leagues, args.matches),
        ("a tenth", small, args.players // 10, max(args.leagues // 10, 2), args.matches // 10),
    ]
    if args.ten_times:
        sizes.append(("ten times", huge, *TEN_TIMES_SIZE))
    for label, result, players, leagues, matches in sizes:
        print(
            f"  {label:<10}{players:>9}{leagues:>9}{matches:>10}"
            f"{result['median']:>10.2f}{result['peak_mb']:>9.0f}{result['queries']:>9}"
        )
    if args.ten_times:
        print(f"  ratio ten times / full: {huge['median'] / big['median']:.1f}×")
    print(f"  ratio full / tenth: {big['median'] / small['median']:.1f}×   ({big['summary']})")
    scratch, idle = rating["from_scratch"], rating["nothing_new"]
    rest = big["median"] - big["rating"]  # the nightly's other steps
    print(
        f"Ratings, full size (R1, R2), against the nightly's other steps ({rest:.2f} s): the "
        f"night's own rating {big['rating']:.2f} s ({big['rating'] / rest:.0%}); from scratch "
        f"{scratch['seconds']:.2f} s ({scratch['seconds'] / rest:.1f}×; {scratch['periods']} "
        f"periods, {scratch['players']} players, {scratch['queries']} queries, "
        f"{scratch['peak_mb']:.0f} MB); a run with nothing new {idle['seconds']:.2f} s "
        f"({idle['seconds'] / rest:.0%}, {idle['queries']} queries)"
    )
    print_pages("Pages", rows, workers, args.seconds)
    print(
        f"Results submitted during the night: {race['submitted']} submitted, {race['accepted']} accepted"
    )
    print(f"lost={race['lost']} duplicated={race['duplicated']}")
    print_printing(printing)
    print(burst, end="")
    if args.ten_times:
        title = "Pages at ten times the data (the 60,000-student campus)"
        print_pages(title, ten_rows, ten_workers, args.seconds)
        print("The whole night of every campus, shared by Celery workers (one task a campus)")
        print(
            f"  {'workers':<10}{'campuses':>9}{'seconds':>9}{'a minute':>10}{'run twice':>11}"
            f"{'leases left':>13}{'digests twice':>15}"
        )
        for night in nights:
            print(
                f"  {night['workers']:<10}{night['finished']:>9}{night['seconds']:>9.0f}"
                f"{night['per_minute']:>10.1f}{night['run_twice']:>11}{night['leases_left']:>13}"
                f"{night['digests_twice']:>15}"
            )
        print_contention(contention)


def print_contention(contention: dict) -> None:
    """The import at the largest campus with the count's triggers and without, and how long an
    ID check and a read of the count took while it ran (median / max, ms)."""
    print("The pending-eligibility count under a roster import (the largest campus)")
    print(
        f"  {'triggers':<10}{'rows':>8}{'eligible':>10}{'import s':>10}{'check quiet':>13}"
        f"{'check during':>14}{'count during':>14}{'count right':>13}"
    )

    def spread(run: dict, key: str) -> str:
        return f"{run[key]['median']:.0f} / {run[key]['max']:.0f}"

    for label, run in (("on", contention["triggers_on"]), ("off", contention["triggers_off"])):
        print(
            f"  {label:<10}{run['roster_rows']:>8}{run['newly_eligible']:>10}"
            f"{run['import_seconds']:>10.2f}{spread(run, 'id_check_ms_quiet'):>13}"
            f"{spread(run, 'id_check_ms_during_import'):>14}{spread(run, 'count_ms_during_import'):>14}"
            f"{str(run['count_right']):>13}"
        )


def print_pages(title: str, rows: list[dict], workers: list[float], seconds: int) -> None:
    print(f"{title} (gunicorn, 2 workers; wrk 2 threads, 8 connections, {seconds} s each)")
    print(
        f"  {'url':<24}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'× floor':>9}{'× signed':>9}"
        f"{'queries':>9}{'non-2xx':>9}"
    )
    for row in rows:
        ratio = f"{row['ratio']:.2f}" if "ratio" in row else ""
        signed = f"{row['signed_ratio']:.2f}" if "signed_ratio" in row else ""
        queries = row.get("queries")
        queries = "" if queries is None else str(queries)
        print(
            f"  {row['name']:<24}{row['rps']:>9.0f}{row['p50']:>9.1f}{row['p99']:>9.1f}{ratio:>9}"
            f"{signed:>9}{queries:>9}{row['non_2xx']:>9}"
        )
    print(f"  gunicorn workers after the load: {', '.join(f'{mb:.0f} MB' for mb in workers)}")


if __name__ == "__main__":
    main()
