# Manawire developer commands. Needs only Python >= 3.11 and make; everything else is
# installed into .venv by these targets.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8765
DATA_DIR ?= var

.PHONY: serve test lint typecheck proto proto-check pytest soak bots clean web web-deps \
	web-check web-test browser-deps

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall whenever the project's dependency list changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

serve: $(VENV)/.installed
	$(BIN)/manawire serve --host $(HOST) --port $(PORT) --data-dir $(DATA_DIR)

test: lint typecheck proto-check web-check web-test pytest

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy

proto-check: $(VENV)/.installed-test
	$(BIN)/python -m tools.genproto --check

pytest: $(VENV)/.installed-test
	$(BIN)/python -m pytest

# The full 1,000-game random soak (the default run plays a fixed tenth of it).
soak: $(VENV)/.installed-test
	$(BIN)/python -m pytest --soak tests/engine/test_simulation.py

proto: $(VENV)/.installed-test
	$(BIN)/python -m tools.genproto

# The browser client (web/): its npm packages, pinned by web/package-lock.json. Building and
# testing it needs Node.js >= 20 and npm; serving it needs neither (the bundle is committed).
web/node_modules/.installed: web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund --loglevel=error
	touch $@

web-deps: web/node_modules/.installed

# Regenerate the client's protobuf code and its bundle (server/web/static/app.js); commit both.
web: $(VENV)/.installed-test web-deps
	$(BIN)/python -m tools.genweb

web-check: $(VENV)/.installed-test web-deps
	$(BIN)/python -m tools.genweb --check

web-test: web-deps
	cd web && npm run --silent typecheck && npm test --silent

bots: $(VENV)/.installed
	$(BIN)/manawire bots --url ws://$(HOST):$(PORT) --games 5

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
