# ndoku: `make demo`, `make test`, `make fuzz` and `make bench` each create .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test lint docs docs-serve fuzz bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# One stamp per set of extras, so `make test` after `make demo` adds only the test tools.
$(VENV)/.installed: pyproject.toml Makefile | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml Makefile | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,docs]'
	@touch $@

$(VENV)/.installed-docs: pyproject.toml Makefile | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	@touch $@

# The benchmarks draw pictures (print) and figures (plot), run a local Dask cluster (dask), time
# ndoku serve (serve) and CP-SAT beside ndoku (ortools: the benchmarks' competitor only, no
# dependency of ndoku). The stamps hang on the Makefile too: a new extra here reaches a venv
# made before it.
$(VENV)/.installed-bench: pyproject.toml Makefile | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[print,plot,dask,serve]' 'ortools>=9.8'
	@touch $@

demo: $(VENV)/.installed
	$(BIN)/ndoku solve examples/samurai.txt --pretty

lint: $(VENV)/.installed-test
	$(BIN)/ruff check ndoku tests benchmarks examples docs
	$(BIN)/ruff format --check ndoku tests benchmarks examples docs
	$(BIN)/mypy ndoku

# The site in site/, offline (no CDN, no web fonts); --strict makes every warning an error.
# Quiet on two notices that are not the build's: Material's end-of-life banner, and the
# notebooks' kernels' warning that they talk over local TCP unencrypted (from ipykernel 7.4;
# its config file in the venv sets the kernels' log level, and only the venv's kernels read it).
KERNEL_CONFIG := $(VENV)/etc/ipython/ipython_kernel_config.py
export NO_MKDOCS_2_WARNING := 1

$(KERNEL_CONFIG): | $(BIN)/python
	mkdir -p $(dir $@)
	echo 'c.IPKernelApp.log_level = "ERROR"' > $@

docs: $(VENV)/.installed-docs $(KERNEL_CONFIG)
	$(BIN)/mkdocs build --strict --quiet

docs-serve: $(VENV)/.installed-docs $(KERNEL_CONFIG)
	$(BIN)/mkdocs serve

# pytest builds the site strictly too (tests/test_docs.py) and runs the notebooks; one worker
# per core (numba's cache lock has a kernel compiled once, whichever worker needs it first).
test: lint
	$(BIN)/pytest -q -n auto ndoku tests

# The long fuzz profile of tests/test_fuzz.py (over 10⁵ inputs; `make test` runs a few hundred).
fuzz: $(VENV)/.installed-test
	NDOKU_FUZZ=long $(BIN)/pytest -q tests/test_fuzz.py --hypothesis-show-statistics

bench: $(VENV)/.installed-bench
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache site
