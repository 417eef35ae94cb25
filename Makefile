# Umbra developer tasks.  `make test` on a clean clone creates .venv and installs first.

PYTHON  ?= python3
VENV    ?= .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
HOST    ?= 127.0.0.1
PORT    ?= 8000
PYTEST_ARGS ?=
# Test processes (pytest-xdist, whole files per worker: each worker has its own PostgreSQL
# cluster, browser and server ports), handed out in the order tests/conftest.py sorts them
# (browser tests first, the heaviest files first). Three workers on two cores: much of a
# test's time is spent waiting (servers, browsers, timers), so a third worker fills it
# (one run each on this shared, loaded machine: 12.5 min with three, 24 min with two;
# 7 min 11 s with three on the quiet machine).
# TEST_WORKERS=1 runs everything in this process.
TEST_WORKERS ?= 3
XDIST   := $(if $(filter-out 0 1,$(TEST_WORKERS)),-n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder,)
CHROMIUM ?= /usr/bin/chromium

.DEFAULT_GOAL := help
.PHONY: help install run test lint bench event-schemas clean distclean

help:
	@echo "make install   create $(VENV) and install umbra with dev extras (only when needed)"
	@echo "make run       serve on http://$(HOST):$(PORT) (applies migrations first)"
	@echo "make test      run the test suite (PYTEST_ARGS='-k foo' to narrow it, TEST_WORKERS=1 in one process)"
	@echo "make lint      ruff check app tests"
	@echo "make bench     store and live benchmarks"
	@echo "make event-schemas  learn each game's event_schema.json again (after an event changes)"
	@echo "make clean     remove caches and build output (distclean: also $(VENV))"

install: $(STAMP)

# Reinstall only when pyproject.toml changes (or the venv is new).
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -e '.[dev]'
	@touch $@

run: install
	$(BIN)/umbra serve --host $(HOST) --port $(PORT)

test: install
	@if [ ! -x "$(CHROMIUM)" ]; then \
		echo ""; \
		echo "*** chromium not found: browser tests will be SKIPPED (apt-get install chromium chromium-driver) ***"; \
		echo ""; \
	fi
	$(BIN)/python -m pytest $(XDIST) $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check app tests

bench: install
	$(BIN)/umbra bench store && $(BIN)/umbra bench live

# Each game's event schema (app/kernel/event_schema.py), learnt from seeded random games
# with the option sets of its conformance test and from the golden games: run after a
# change to an event's fields, and review the diff as a migration.
SCHEMA_GAMES ?= 40
event-schemas: install
	$(BIN)/umbra event-schema darkest_night $(SCHEMA_GAMES) '{}' '{"subdeck": "everything"}' \
		'{"subdeck": "hunted", "heroes": 5}' '{"subdeck": "overrun", "heroes": 3, "starting_blights": 2}' \
		'{"subdeck": "entropy", "heroes": 2}' '{"subdeck": "spiritual_warfare", "necromancer_player": true}' \
		'{"subdeck": "classic", "pall_of_suffering": true, "increased_quests": true}' \
		'{"hidden_relics": true, "no_mysteries": true}' '{"no_quests": true, "no_darkness_deck": true}' \
		'{"darkness_cards": 8, "starting_darkness": 20, "random_heroes": true, "random_powers": true}' \
		'{"starting_blights": 0, "extra_grace": true, "starting_sparks": true, "starting_powers": 5}'
	$(BIN)/umbra event-schema attack_the_darkness $(SCHEMA_GAMES) '{}' '{"dungeon": "cave"}' \
		'{"dungeon": "random", "encounters": 2, "campaign": 2, "bosses": true}' \
		'{"dungeon": "sewer", "class": ["samurai", "templar"]}' '{"dungeon": "prison"}' '{"dungeon": "tower"}' \
		'{"mode": "arena", "teams": 2}' '{"mode": "tabletop", "dungeon": "random", "encounters": 1}'
	$(BIN)/umbra event-schema dark_omen $(SCHEMA_GAMES) '{}' \
		'{"mode": "quick_omen", "difficulty": "first_game"}' \
		'{"mode": "quick_chapter", "chapter": 2, "difficulty": "light", "unblocked_target": "most_hp"}' \
		'{"mode": "quick_chapter", "chapter": 3, "difficulty": "pain", "hardcore_regions": true}' \
		'{"mode": "quick_chapter", "chapter": 4, "hardcore_regions": true, "unblocked_target": "weakest"}'

clean:
	rm -rf build dist *.egg-info .pytest_cache .ruff_cache test-artifacts
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
