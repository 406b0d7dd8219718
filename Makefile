# ndoku: `make demo`, `make test`, `make bench` each create .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test lint bench clean

$(BIN)/ndoku: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@

demo: $(BIN)/ndoku
	$(BIN)/ndoku solve examples/samurai.txt --pretty

lint: $(BIN)/ndoku
	$(BIN)/ruff check ndoku tests benchmarks examples
	$(BIN)/ruff format --check ndoku tests benchmarks examples
	$(BIN)/mypy ndoku

test: lint
	$(BIN)/pytest -q ndoku tests

bench: $(BIN)/ndoku
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
