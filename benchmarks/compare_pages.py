"""Pages of two or more commits side by side, under the same load, in one sitting.

    python benchmarks/compare_pages.py REV [REV ...] [--ten-times] [--pages "league queues,..."]
        [--rounds 3] [--seconds 5]

Each REV (a commit, a branch, or `.` for the working tree) is checked out in a worktree of its
own and served by its own gunicorn (2 workers, the bench's settings) against one copy of a bench
template, prepared as `make bench` prepares it (the nightly, VACUUM ANALYZE, the same people
and pages). wrk then drives each page of each commit in turn, round after round, the order of
the commits reversed every other round, so a slow stretch of a noisy machine falls on every
commit alike. A 5-second p99 moves by tens of milliseconds between runs of the same code here:
compare commits run side by side by this script, never figures from different sittings.

It measures what a change to a hand-made speed piece is worth (issue 34: a piece stays only
where a page is over 100 ms at p99 without it at ten times the data).
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from harness import DATA_VERSION, PY, ROOT, TEN_TIMES, admin, env, exists, fresh_copy, say
from pages import SETUP_LOAD, free_port, require_signed_in, wait_for, wrk


def worktree(rev: str, into: Path) -> Path:
    if rev == ".":
        return ROOT
    path = into / rev.replace("/", "-")
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--force", str(path), rev],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return path


def manage_in(tree: Path, database: str, *args: str) -> str:
    return subprocess.run(
        [PY, "manage.py", *args],
        cwd=tree,
        env=env(database, "benchmarks.settings"),
        check=True,
        text=True,
        capture_output=True,
        timeout=1800,
    ).stdout


def serve(tree: Path, database: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    server = subprocess.Popen(
        [PY, "-m", "gunicorn", "config.wsgi:application", "--workers", "2"]
        + ["--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=tree,
        env=env(database, "benchmarks.settings"),
    )
    wait_for(port)
    return server, port


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revs", nargs="+")
    parser.add_argument("--ten-times", action="store_true", help="the ten-times template")
    parser.add_argument("--pages", default="", help="names of the pages, comma-separated")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=5)
    options = parser.parse_args()

    size = TEN_TIMES if options.ten_times else {"players": 20000, "leagues": 200}
    # The template `make bench` builds (harness.template names it).
    name = f"bench_tpl_{DATA_VERSION}_{size['players']}_{size['leagues']}"
    name += "_500000_c100" if options.ten_times else "_200000"
    if not exists(name):
        raise SystemExit(f"no template {name}: build it with make bench first")
    database = fresh_copy(name)
    trees, servers = {}, {}
    with tempfile.TemporaryDirectory(prefix="compare-pages-") as into:
        try:
            for rev in options.revs:
                trees[rev] = worktree(rev, Path(into))
            first = trees[options.revs[0]]
            say(f"preparing {database} from {name}")
            manage_in(first, database, "migrate", "--noinput")
            manage_in(first, database, "run_nightly")
            admin("VACUUM (ANALYZE)", database)
            wanted = [page.strip() for page in options.pages.split(",") if page.strip()]
            setups = {}
            for rev, tree in trees.items():
                manage_in(tree, database, "collectstatic", "--noinput")
                # Each commit's own sessions: its session engine may differ from the others'.
                setups[rev] = json.loads(
                    manage_in(tree, database, "shell", "-c", SETUP_LOAD).strip().splitlines()[-1]
                )
                servers[rev] = serve(tree, database)
            results: dict = {}
            for number in range(options.rounds):
                order = options.revs if number % 2 == 0 else options.revs[::-1]
                for page_name, path, who in setups[options.revs[0]]["pages"]:
                    if wanted and not any(w in page_name for w in wanted):
                        continue
                    for rev in order:
                        port = servers[rev][1]
                        cookie = f"sessionid={setups[rev]['sessions'][who]}"
                        if number == 0:
                            require_signed_in(port, path, cookie, page_name)
                            wrk(f"http://127.0.0.1:{port}{path}", 1, cookie)
                        result = wrk(f"http://127.0.0.1:{port}{path}", options.seconds, cookie)
                        results.setdefault((page_name, rev), []).append(result)
                        say(
                            f"  round {number + 1} {page_name} @ {rev}: {result['rps']:.0f} req/s, p99 {result['p99']:.1f} ms"
                        )
        finally:
            for server, _ in servers.values():
                server.terminate()
                server.wait(timeout=20)
            for tree in trees.values():
                if tree != ROOT:
                    subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT)

    print(f"Pages side by side ({name}; gunicorn 2 workers each; wrk 2 threads, 8 connections,")
    print(f"{options.seconds} s a run, {options.rounds} rounds; medians, and each round's p99)")
    print(f"  {'page':<24}{'commit':<18}{'req/s':>7}{'p50 ms':>8}{'p99 ms':>8}  each p99")
    for (page_name, rev), runs in results.items():
        p99s = [run["p99"] for run in runs]
        print(
            f"  {page_name:<24}{rev[:16]:<18}{statistics.median(r['rps'] for r in runs):>7.0f}"
            f"{statistics.median(r['p50'] for r in runs):>8.1f}{statistics.median(p99s):>8.1f}"
            f"  {' '.join(f'{p:.0f}' for p in p99s)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
