# The two set-up commands of README: `make run` and `make test`.
# Each creates .venv and installs what it needs on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The npm test tools (package.json: axe-core), installed as locked; never a browser.
NODE_STAMP := node_modules/.package-lock.json

.PHONY: run gm test bench package lint format clean

$(STAMP): requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

# Without npm the browser tests that need axe-core are skipped, and say so loudly.
$(NODE_STAMP): package.json package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	  npm ci --no-audit --no-fund --ignore-scripts --loglevel=error; \
	else echo "!! npm not found: the mail accessibility (axe) tests will be skipped"; fi

# make run PORT=8080 MOTO_PORT=5056 when the default ports are taken.
PORT ?= 8000
MOTO_PORT ?= 5055

run: $(STAMP)
	$(PY) -m devserver --port $(PORT) --moto-port $(MOTO_PORT)

# The GM command line against `make run`'s server (AWS: ARGS="--stage dev …").
gm: $(STAMP)
	$(PY) -m chalicelib.gm $(ARGS)

test: $(STAMP) $(NODE_STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(PY) -m pytest -n auto --dist loadfile --no-loadscope-reorder

bench: $(STAMP)
	$(PY) -m benchmarks $(ARGS)

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m mypy

format: $(STAMP)
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

clean:
	rm -rf $(VENV) node_modules .pytest_cache .ruff_cache .hypothesis

package: $(STAMP)
	$(PY) -m infra.build --stage $(or $(STAGE),dev) --front $(or $(FRONT),http)
