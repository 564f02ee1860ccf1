# Everything runs in a virtual environment of its own (.venv), made and filled on first use: `make report` installs
# what the report needs (the core and the report extra, editable, its kernels compiled by the build), `make test`
# and the other tools everything (every extra, and pyproject.toml's dependency group dev: the tests, linters and docs tools).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
REPORT_STAMP := $(VENV)/.report-stamp
DEV_STAMP    := $(VENV)/.dev-stamp

.PHONY: help install system-libraries kernels browser lint docs test test-jit bench report clean distclean

# The jobs the report answers; FULL=1 adds the heavy studies (boards up to 1000 x 1000).
JOBS := $(wildcard jobs/*.toml) $(if $(FULL),$(wildcard jobs/full/*.toml))
# The opt-in jobs (jobs/opt-in/: 7 x 7 by the frontier method, an hour) are never run by make; run by hand, what they
# stored is shown by the report, which names them too.
OPT_IN := $(wildcard jobs/opt-in/*.toml)

help:
	@echo "make report  - run the shipped jobs and write the report to reports/out/ (FULL=1: heavy studies too)"
	@echo "make test    - lint, type-check and run the test suite"
	@echo "make test-jit - the test suite without the compiled kernels (JIT and Python), in a random order"
	@echo "make lint    - ruff check, ruff format --check, mypy (strict on the engine), actionlint"
	@echo "make bench   - run the benchmarks (speed figures the issues name)"
	@echo "make docs    - build the docs to docs/_build/html (Sphinx, warnings as errors)"
	@echo "make clean   - remove the virtual environment and generated files (the results store in var/ is kept)"
	@echo "make distclean - make clean, and remove the results store (var/) too"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The editable install is built here, with this environment's setuptools (no build environment of its own, ~10 s
# less); the kernels are the `kernels` target's.
EDITABLE := KNIGHT_BUILD_KERNELS=0 $(BIN)/python -m pip install --quiet --no-build-isolation -e
$(REPORT_STAMP): pyproject.toml setup.py | $(BIN)/python
	$(BIN)/python -m pip install --quiet 'setuptools>=77'
	$(EDITABLE) '.[report]'
	touch $@

# Every extra (the report's included: its stamp is touched too) and the dependency group dev, which needs pip 25.1.
$(DEV_STAMP): pyproject.toml setup.py | $(BIN)/python
	$(BIN)/python -m pip install --quiet 'pip>=25.1' 'setuptools>=77'
	$(EDITABLE) '.[report,dask,jit]' --group dev
	touch $(REPORT_STAMP) $@

install: $(DEV_STAMP) system-libraries kernels

# The engine's kernels compiled ahead of time (knight/aot.py): commands then start without numba and LLVM
# (~0.3 s and ~100 MB less). Built after the install and again when the engine's sources change, by
# `python -m knight.aot`: copied from the user's cache folder when these sources were built before (by
# another clone, say), else compiled (~15 s) where numba is installed (make test's environment); else (make
# report's) by pip rebuilding the editable install in a build environment that has numba (pyproject.toml's
# build requirement), so the report's environment needs no numba. Without a C compiler it fails harmlessly,
# once: numba compiles the kernels just in time instead, or, without numba, they run interpreted.
KERNELS_STAMP := knight/engine/__pycache__/.kernels-stamp
KERNELS_BUILT := from knight.engine.kernel import ahead_of_time_module as built; raise SystemExit(built() is None)
kernels: $(KERNELS_STAMP)
$(KERNELS_STAMP): $(wildcard knight/engine/*.py) | $(REPORT_STAMP)
	@$(BIN)/python -c "$(KERNELS_BUILT)" 2>/dev/null \
		|| $(BIN)/python -m knight.aot 2>/dev/null \
		|| $(BIN)/python -m pip install --quiet --no-deps -e . \
		|| true
	@mkdir -p $(@D) && touch $@

# WeasyPrint needs Pango and a font; install them from Debian's packages when they are missing.
# HarfBuzz's subsetter is optional (without it font subsetting is slower): its install may fail harmlessly.
# Checked once per environment (a stamp): importing WeasyPrint to check takes 0.6 s of every `make report`.
SYSTEM_STAMP := $(VENV)/.system-libraries-stamp
system-libraries: $(SYSTEM_STAMP)
$(SYSTEM_STAMP): | $(REPORT_STAMP)
	@$(BIN)/python -c "import weasyprint" 2>/dev/null || { \
		echo "installing WeasyPrint's system libraries (Pango, HarfBuzz, DejaVu fonts)"; \
		apt-get update -qq && apt-get install -y -qq --no-install-recommends \
			libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b fonts-dejavu-core >/dev/null; }
	@ldconfig -p 2>/dev/null | grep -q libharfbuzz-subset || { \
		echo "installing HarfBuzz's subsetter (faster PDF fonts)"; \
		{ apt-get install -y -qq --no-install-recommends libharfbuzz-subset0 >/dev/null 2>&1 || \
		  { apt-get update -qq && apt-get install -y -qq --no-install-recommends libharfbuzz-subset0 >/dev/null 2>&1; }; } \
		|| echo "(not installed: PDF fonts are subset by fontTools instead)"; }
	@touch $@

# The browser test (tests/report/test_report_browser.py) opens the HTML report in Debian's Chromium, driven by
# Playwright (never Playwright's own browser download); install it when missing. Only the tests need it.
browser:
	@command -v chromium >/dev/null || { \
		echo "installing Chromium (for the browser test)"; \
		apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium >/dev/null; }

# Lint and types: ruff (rules and formatting), mypy on the package and --strict on the engine, and actionlint
# on the GitHub workflows.
lint: $(DEV_STAMP)
	$(BIN)/ruff check knight tests benchmarks tools setup.py
	$(BIN)/ruff format --check knight tests benchmarks tools setup.py
	$(BIN)/mypy
	$(BIN)/mypy --strict knight/engine
	$(BIN)/actionlint .github/workflows/*.yml

# The docs: Markdown pages (MyST) and the command reference generated from the command line itself
# (sphinx-click, docs/cli_command.py); a warning is an error. `knight site` copies the built HTML.
docs: $(DEV_STAMP)
	$(BIN)/sphinx-build -W --keep-going -q -b html docs docs/_build/html

# The suite runs on every core (pytest-xdist), a test file to a worker (its module fixtures made once):
# TEST_WORKERS=0 runs it in this process alone. FULL=1: the README's and docs/install.md's walks run their `make
# test` too (KNIGHT_DOCS_SLOW=1, tests/doc_commands.py): the suite again, inside a fresh clone, some minutes more.
TEST_WORKERS ?= auto
test: $(DEV_STAMP) system-libraries kernels browser lint docs
	$(if $(FULL),KNIGHT_DOCS_SLOW=1 )$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile

# The suite as a clone without the kernels compiled ahead of time runs it (KNIGHT_AOT=0: numba's JIT and plain
# Python run them; tests/test_kernels_aot.py still builds the module for its own tests and puts it away after), in a
# random order (pytest-randomly; the seed is printed: --randomly-seed=N repeats it) so that no test leans on what
# another left behind. No lint or docs: `make test` does those.
test-jit: $(DEV_STAMP) system-libraries browser
	KNIGHT_AOT=0 $(BIN)/python -m pytest -p randomly -p no:cacheprovider $(PYTEST_ARGS)

bench: $(DEV_STAMP) system-libraries kernels
	$(BIN)/python -m pytest benchmarks --benchmark-only --benchmark-sort=name \
		--benchmark-columns=min,median,mean,ops,rounds
	$(BIN)/python benchmarks/whole_process.py

# The main job: run every shipped sweep into the store (var/knight.sqlite; tasks already there are not run
# again), then write both editions of the report, HTML and PDF, to reports/out/ (with what the opt-in jobs stored).
report: $(REPORT_STAMP) system-libraries kernels
	$(BIN)/knight run $(JOBS)
	$(BIN)/knight report --edition key --edition handout $(addprefix --job ,$(JOBS) $(OPT_IN)) $(if $(wildcard course.toml),--course course.toml)

# clean keeps the results store (var/: hours of sweeps that no build makes again in seconds); distclean removes it too.
clean:
	rm -rf $(VENV) reports/out .pytest_cache .hypothesis .benchmarks docs/_build
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf var
