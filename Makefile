# Two commands set everything up on a fresh machine that has python3 and make.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: play designer research test lint bench install browser postgres redis valgrind clean strength docs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# What each target installs, as extras of pyproject.toml: playing needs the web table alone
# (the terminal game and the bots are the core); the designer's and the researcher's extras
# come on request; make install (and test, lint, bench) installs every extra, so that make
# test tests each of them.
EXTRAS_play     := web
EXTRAS_designer := web,designer
EXTRAS_research := web,research
EXTRAS_all      := dev,web,postgres,cluster,designer,research,bench
PROFILES        := play designer research all

# The install builds the native engine (setup.py, native/): a change to its sources or to
# setup.py reinstalls, so a stale extension never runs against the edited C++. The Python
# modules are installed editable; an edit to one needs no install.
ENGINE_SOURCES := setup.py $(wildcard native/*.cpp native/*/*.hpp native/*/*/*.hpp)

# One stamp per set of extras: $(VENV)/.installed-play says the play extras are installed.
# An install also stamps every set it covers (all covers play), so make test after make play
# installs the rest, and make play after make test installs nothing.
comma   := ,
extras   = $(subst $(comma), ,$(EXTRAS_$(1)))
covered  = $(foreach p,$(PROFILES),$(if $(filter-out $(call extras,$(1)),$(call extras,$(p))),,$(VENV)/.installed-$(p)))

$(VENV)/.installed-%: pyproject.toml $(ENGINE_SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[$(EXTRAS_$*)]'
	touch $(call covered,$*)

install: $(VENV)/.installed-all

# The browser tests drive Debian's Chromium (no browser download by a test tool).
CHROMIUM ?= /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

$(CHROMIUM):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core

# They check every page with axe-core (an accessibility engine) from the npm registry, at the
# version pinned here, installed into the virtualenv (never committed), with npm from Debian.
AXE_VERSION := 4.14.1
AXE := $(VENV)/npm/.installed-axe-core-$(AXE_VERSION)

$(AXE): | $(BIN)/python
	@command -v npm >/dev/null || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends npm; }
	npm install --silent --no-audit --no-fund --save-exact --prefix $(VENV)/npm axe-core@$(AXE_VERSION)
	touch $@

browser: $(CHROMIUM) $(AXE)

# The store's tests run on PostgreSQL too (tests/web/postgres_support.py starts a throwaway
# cluster of its own with these binaries): Debian's postgresql package, installed like Chromium.
# Its own cluster (the package may make one) is not used. make play needs none of it.
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends postgresql; }

# The cluster's tests (tests/web/test_cluster.py) start a throwaway redis-server of their own
# on 127.0.0.1: Debian's redis-server package, installed like PostgreSQL (its own service is not
# used). make play needs none of it.
redis:
	@command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends redis-server; }

# The benchmarks count instructions an action with valgrind's callgrind, in the one function
# the core's symbols (binutils' nm) name as the batch; tests/native/test_callgrind_pattern.py
# checks that count: Debian's valgrind and binutils packages, installed like the others.
valgrind:
	@command -v valgrind >/dev/null 2>&1 && command -v nm >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends valgrind binutils; }

MORE := make designer adds the designer's extras (simulate --out, analyze, compare, sweep, Ray), \
	make research the researcher's (learning environments, OpenSpiel, training a policy); \
	or pip install -e '.[designer]' or '.[research]'.

play: $(VENV)/.installed-play
	@[ -e $(VENV)/.installed-designer ] && [ -e $(VENV)/.installed-research ] || \
		echo "Installed for playing: the web table, the terminal game (cardroom play) and the bots. $(MORE)"
	$(BIN)/cardroom serve

designer: $(VENV)/.installed-designer
	@echo "Installed the designer's extras: cardroom simulate --out, --ray, analyze, compare and sweep."

research: $(VENV)/.installed-research
	@echo "Installed the researcher's extras: cardroom.rl, cardroom.openspiel, the policy bot and training."

test: lint browser postgres redis valgrind
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

# The documentation site (mkdocs.yml): the guides, the references, the API made from the
# docstrings, the benchmarks, into site/, every warning an error (make test builds it too:
# tests/test_docs_site.py).
docs: install
	$(BIN)/mkdocs build --strict

lint: install
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy

bench: install valgrind
	$(BIN)/python benchmarks/baha_vs_openspiel.py
	$(BIN)/python benchmarks/baebae_vs_openspiel.py
	$(BIN)/python benchmarks/ismcts_vs_openspiel.py
	$(BIN)/python benchmarks/ismcts_deal_seconds.py
	$(BIN)/python benchmarks/ismcts_baebae.py --game
	$(BIN)/python benchmarks/sim_throughput.py
	$(BIN)/python benchmarks/env_throughput.py
	$(BIN)/python benchmarks/sim_vs_openspiel.py
	$(BIN)/python benchmarks/native_vs_openspiel.py --instructions
	$(BIN)/python benchmarks/sim_tables_native.py
	$(BIN)/python benchmarks/baebae_native_vs_openspiel.py --instructions --heuristic-games 100000 --table-games 100000

# The ladder of every shipped agent for both games (cardroom ladder): written into docs/strength.md
# and into the ladder file shipped with the package (the levels' ratings). A few minutes of CPU.
LADDER_FILE := src/cardroom/agents/ladder.json
strength: install
	$(BIN)/cardroom ladder baha --deals 20 --seed 1 --workers 2 --save $(LADDER_FILE) --doc docs/strength.md
	$(BIN)/cardroom ladder baebae --deals 16 --seed 1 --workers 2 --save $(LADDER_FILE) --doc docs/strength.md

clean:
	rm -rf $(VENV) build site src/*.egg-info .pytest_cache .mypy_cache .hypothesis
	find src -name '*.so' -delete
