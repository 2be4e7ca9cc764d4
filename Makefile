# The AICD source-grounded assistant. `make run` and `make test` are the two commands a newcomer needs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
APP_PACKAGES := aicd accounts assistant core learning registry_review uploads

.PHONY: run test install lint typecheck eval bench check-package models models-check serve clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

## run: install, migrate, build the context pack, print the demo login, serve on 127.0.0.1:8000
## (the learnt models are committed under models/; the worker loads them and never trains)
run: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py build_context_pack
	$(BIN)/python manage.py ensure_demo_user
	$(BIN)/python manage.py runserver 127.0.0.1:8000

## test: install and run the whole suite (with Chromium, pdftotext, a throwaway Redis and a
## throwaway PostgreSQL, installed if missing, and axe-core from npm into .cache/axe-core/ for the
## accessibility scan), then the database tests again against PostgreSQL
PG_STAMP := $(VENV)/.postgres-installed
$(PG_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dev,postgres]'
	@touch $(PG_STAMP)

# Accounts, tokens, permissions, sign-in lockout, migrations: what the database holds.
DB_TESTS := tests/accounts tests/aicd/test_database.py tests/aicd/test_csrf_and_sessions.py \
	tests/aicd/test_api_edges.py tests/aicd/test_health.py tests/registry_review/test_permissions.py \
	tests/registry_review/test_source_owner_commands.py

test: $(PG_STAMP)
	bash scripts/fetch-axe-core || test $$? -eq 3   # 3: no npm, the accessibility scan skips
	bash scripts/with-test-services sh -c '$(BIN)/python -m pytest && \
		AICD_TEST_DATABASE_URL="$$AICD_TEST_POSTGRES_URL" $(BIN)/python -m pytest $(DB_TESTS)'

## serve: migrate, build the context pack, collect static files, compile the bytecode, then
## gunicorn with WORKERS workers (default 2; more than one needs AICD_REDIS_URL) on AICD_BIND
## (default 127.0.0.1:8000)
WORKERS ?= $(or $(AICD_WORKERS),2)
serve: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py build_context_pack
	$(BIN)/python manage.py collectstatic --noinput
	$(BIN)/python -m compileall -q $(APP_PACKAGES)
	AICD_WORKERS=$(WORKERS) $(BIN)/gunicorn -c gunicorn.conf.py

## bench: speed as ratios against baselines measured in the same run, and the slow-gateway run;
## writes docs/performance.md (about a quarter of an hour; installs Debian's redis-server,
## redis-tools, wrk and poppler-utils if missing). `.venv/bin/python -m bench --gateway-only` runs
## the slow-gateway part alone (about six minutes) and rewrites only its section.
BENCH_STAMP := $(VENV)/.bench-installed
$(BENCH_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	@touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	bash scripts/install-missing redis-server=redis-server redis-cli=redis-tools wrk=wrk \
		pdftotext=poppler-utils
	$(BIN)/python -m bench

## lint: the formatter check, ruff's rules and mypy (what CI runs after the tests)
lint: $(STAMP)
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/mypy

## eval: the grounding evaluation (refusal precision/recall, answer and top-3 hit rates) and the
## claim verifier benchmark (held-out recall, precision, false rejections) -> docs/evaluation.md
eval: $(STAMP)
	$(BIN)/python manage.py build_context_pack
	$(BIN)/python manage.py evaluate --write docs/evaluation.md

check-package: $(STAMP)
	$(BIN)/python manage.py build_context_pack --check

## models: retrain every committed model under models/ from data/ (about seven minutes);
## models-check: the same training, failing if a committed model no longer matches
MODEL_COMMANDS := build_screening_model build_ranker build_unit_ranker build_evidence_model
models: $(STAMP)
	for c in $(MODEL_COMMANDS); do $(BIN)/python manage.py $$c || exit 1; done

models-check: $(STAMP)
	for c in $(MODEL_COMMANDS); do $(BIN)/python manage.py $$c --check || exit 1; done

clean:
	rm -rf var staticfiles test-artifacts
