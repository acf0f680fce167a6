"""A database restart under load: while wrk loads every page of the README's pages table (one
request after another through the list, each with its session), every connection the app
holds to PostgreSQL is killed (``pg_terminate_backend``) several times, some seconds apart, as
a restart or a failover does. Prints how many answers of each status came back, in all and in
the two seconds after each kill.

    python benchmarks/database_restart.py [--players N --leagues N --matches N] [--kills 4]
        [--every 10]

The data is `make bench`'s template of that size (built if missing). A read cut off answers
again on a fresh connection; a write answers 503 (core/middleware.py): no 500 is expected.
"""

import argparse
import json
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import psycopg
from harness import SERVER, say, template
from pages import served

# Each wrk thread walks the pages in turn, each with its cookie, and counts the statuses; the
# counts of every thread are summed in done() and printed as one JSON line.
WALK = """
local pages = %s
local threads = {}
local index = 0

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
end

function request()
  index = index %% #pages + 1
  local page = pages[index]
  local headers = {["X-Forwarded-Proto"] = "https"}
  if page[2] ~= "" then headers["Cookie"] = page[2] end
  return wrk.format("GET", page[1], headers)
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      total[tostring(status)] = (total[tostring(status)] or 0) + count
    end
  end
  local parts = {}
  for status, count in pairs(total) do
    table.insert(parts, string.format('"%%s": %%d', status, count))
  end
  io.write("STATUSES {" .. table.concat(parts, ", ") .. "}\\n")
end
"""


def lua_pages(pages) -> str:
    rows = ", ".join(
        "{" + json.dumps(path) + ", " + json.dumps(cookie or "") + "}"
        for _, path, cookie, _ in pages
    )
    return "{" + rows + "}"


def kill_app_connections(database: str) -> int:
    """Every connection to the app's database but this one: how many were killed."""
    with psycopg.connect(SERVER + "postgres", autocommit=True) as connection:
        return connection.execute(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            [database],
        ).fetchone()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20000)
    parser.add_argument("--leagues", type=int, default=200)
    parser.add_argument("--matches", type=int, default=200000)
    parser.add_argument("--kills", type=int, default=4)
    parser.add_argument("--every", type=int, default=10, help="seconds between kills")
    args = parser.parse_args()
    name = template(args.players, args.leagues, args.matches, rebuild=False)
    seconds = args.every * (args.kills + 1)
    with served(name) as (base, pages, _, database), tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "walk.lua"
        script.write_text(WALK % lua_pages(pages))
        say(f"wrk over {len(pages)} pages for {seconds} s, killing every connection ×{args.kills}")
        load = subprocess.Popen(
            ["wrk", "-t2", "-c8", f"-d{seconds}s", "--timeout", "5s", "-s", str(script), base],
            stdout=subprocess.PIPE,
            text=True,
        )
        killed = []

        def killer():
            for _ in range(args.kills):
                time.sleep(args.every)
                killed.append(kill_app_connections(database))
                say(f"  killed {killed[-1]} connections")

        thread = threading.Thread(target=killer)
        thread.start()
        out, _ = load.communicate(timeout=seconds + 60)
        thread.join()
    statuses = json.loads(out.split("STATUSES ", 1)[1].splitlines()[0])
    requests = sum(statuses.values())
    print(
        json.dumps(
            {
                "pages": len(pages),
                "seconds": seconds,
                "killed": killed,
                "requests": requests,
                "statuses": dict(sorted(statuses.items())),
            }  # fmt: skip
        )
    )


if __name__ == "__main__":
    main()
