# Showdown League. `make demo` serves the site on embedded defaults; `make test` runs the suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: venv demo test lint integration bench clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: venv
	env -u DATABASE_URL -u CELERY_BROKER_URL -u CACHE_URL $(BIN)/python manage.py migrate --noinput
	env -u DATABASE_URL -u CELERY_BROKER_URL -u CACHE_URL $(BIN)/python manage.py demo_setup --url http://$(HOST):$(PORT)
	env -u DATABASE_URL -u CELERY_BROKER_URL -u CACHE_URL SITE_URL=http://$(HOST):$(PORT) \
	  sh -c '$(BIN)/python manage.py run_schedule --reload & \
	  sweeps=$$!; trap "kill $$sweeps 2>/dev/null" EXIT INT TERM; \
	  $(BIN)/python manage.py runserver $(HOST):$(PORT)'

test: venv
	env -u DATABASE_URL -u CELERY_BROKER_URL -u CACHE_URL $(BIN)/pytest -q -n auto

lint: venv
	$(BIN)/ruff check .
	$(BIN)/mypy

integration: venv
	$(BIN)/pytest -m integration tests/integration

bench: venv
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .mypy_cache .ruff_cache
