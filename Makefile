# Manawire developer commands. Needs only Python >= 3.11 and make; everything else is
# installed into .venv by these targets.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8765
DATA_DIR ?= var

.PHONY: serve test lint typecheck proto proto-check pytest soak bots clean

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

test: lint typecheck proto-check pytest

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

bots: $(VENV)/.installed
	$(BIN)/manawire bots --url ws://$(HOST):$(PORT) --games 5

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
