# Two commands set everything up on a fresh machine that has python3 and make.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: play test lint bench install browser clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Every extra the project ships is installed, so that make test tests each of them.
EXTRAS := dev,results,analysis,ray,rl,openspiel,train,bench

# The install compiles the engine's hot modules (setup.py, mypyc): a change to one of them
# reinstalls, so a stale compiled module never shadows the edited source.
ENGINE_SOURCES := setup.py src/cardroom/compiled.py src/cardroom/cards.py src/cardroom/agents/ismcts.py \
	$(wildcard src/cardroom/games/*/*.py) $(wildcard native/*.cpp native/*/*.hpp)

$(VENV)/.installed: pyproject.toml $(ENGINE_SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[$(EXTRAS)]'
	touch $@

install: $(VENV)/.installed

# The browser tests drive Debian's Chromium (no browser download by a test tool).
CHROMIUM ?= /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

$(CHROMIUM):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core

browser: $(CHROMIUM)

play: install
	$(BIN)/cardroom serve

test: lint browser
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

lint: install
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy

bench: install
	$(BIN)/python benchmarks/baha_vs_openspiel.py
	$(BIN)/python benchmarks/baebae_vs_openspiel.py
	$(BIN)/python benchmarks/ismcts_vs_openspiel.py
	$(BIN)/python benchmarks/sim_throughput.py
	$(BIN)/python benchmarks/env_throughput.py
	$(BIN)/python benchmarks/sim_vs_openspiel.py
	$(BIN)/python benchmarks/native_vs_openspiel.py --instructions

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .hypothesis
	find src -name '*.so' -delete
