# The two public commands: `make run` (the demo, zero setup) and `make test` (the whole suite).
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(shell sha1sum pyproject.toml | cut -c1-12)
PORT   ?= 8000
# Links in mail and calendar feeds come from SITE_URL, never from a request's Host: the demo's
# name the port it runs on.
DEMO_ENV := DEBUG=true SITE_URL=http://127.0.0.1:$(PORT)

.PHONY: run test lint format bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check uv==0.13.9
	$(VENV)/bin/uv pip install --quiet --python $(PY) -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

venv: $(STAMP)

# The demo: SQLite, Celery tasks in-process, e-mail printed to the console.
# Another port when 8000 is taken: PORT=8001 make run
run: $(STAMP)
	$(DEMO_ENV) $(PY) manage.py migrate --noinput
	$(DEMO_ENV) $(PY) manage.py createcachetable
	$(DEMO_ENV) $(PY) manage.py seed_demo
	$(DEMO_ENV) $(PY) manage.py runserver 127.0.0.1:$(PORT)

# Real-world GCG records (Quackle's, Macondo's) are not ours to copy: tests/matches/test_gcg_corpus.py
# reads them in place from GCG_CORPUS_DIR, which defaults to this folder when it is there beside
# the checkout; otherwise nothing is set and those tests skip, saying so.
GCG_CORPUS_DIR ?= $(wildcard ../shared/gcg-corpus)

# The suite runs on every core, each worker with its own test database; a worker that finishes
# early takes tests from the other's queue (the browser journeys are long). PYTEST_WORKERS=
# runs it in one process.
PYTEST_WORKERS ?= -n auto --dist worksteal

# Installs what the tests need if it is missing (chromium, PostgreSQL, Redis), then runs them.
test: $(STAMP)
	bash scripts/ensure-services.sh
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(if $(GCG_CORPUS_DIR),GCG_CORPUS_DIR=$(GCG_CORPUS_DIR) )$(VENV)/bin/pytest $(PYTEST_WORKERS)

# The benchmark harness (benchmarks/run.py): one table on standard output, progress on stderr.
bench: $(STAMP)
	bash scripts/ensure-services.sh
	command -v wrk >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk)
	$(PY) benchmarks/run.py $(BENCH_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
