# Two commands set everything up on a fresh machine that has python3 and make.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: play test lint bench install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

install: $(VENV)/.installed

play: install
	$(BIN)/cardroom play baha

test: lint
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

lint: install
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy

$(VENV)/.bench: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $@

bench: $(VENV)/.bench
	$(BIN)/python benchmarks/baha_vs_openspiel.py
	$(BIN)/python benchmarks/baebae_vs_openspiel.py
	$(BIN)/python benchmarks/ismcts_vs_openspiel.py

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .hypothesis
