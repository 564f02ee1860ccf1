# Everything runs in a virtual environment of its own (.venv), made and filled on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: help install test bench report clean

help:
	@echo "make report  - run the shipped jobs (knight run jobs/*.toml) and print their results"
	@echo "make test    - run the test suite"
	@echo "make bench   - run the benchmarks (speed figures the issues name)"
	@echo "make clean   - remove the virtual environment and generated files"

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

install: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m pytest benchmarks --benchmark-only --benchmark-sort=name \
		--benchmark-columns=min,median,mean,ops,rounds

# Until the report exists (issue 5), the main job is a demonstration: run every shipped sweep into the store
# (var/knight.sqlite; tasks already there are not run again) and print what it answers.
report: $(STAMP)
	$(BIN)/knight run jobs/*.toml
	$(BIN)/knight results

clean:
	rm -rf $(VENV) reports/out var .pytest_cache .hypothesis .benchmarks
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
