"""Shared fixtures: the real puzzles copied into ``tests/data``, the CLI run in-process, and
the answers of a batch that the tests of streaming and interruption write many times."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from ndoku.cli import main

# The suite's workers compile what they reach; a warming process beside each first rate or
# generate (ndoku.tasks.warming) would only compete for the same cores. tests/test_warming.py
# turns it back on where it tests it.
os.environ.setdefault("NDOKU_WARM_ASIDE", "0")

DATA = Path(__file__).parent / "data"
#: A thousand 9×9 one-line puzzles, each with several solutions.
SERG = DATA / "sudoku9" / "serg_benchmark_sample1k.txt"
#: ``run(*args, input=None)`` → exit status, stdout, stderr.
CliRun = Callable[..., tuple[int, str, str]]


@pytest.fixture
def data() -> Path:
    return DATA


@pytest.fixture
def run() -> CliRun:
    """The ``ndoku`` command through click's CliRunner; an exception other than exit is raised."""

    def invoke(*args: str, input: str | None = None) -> tuple[int, str, str]:
        result = CliRunner().invoke(main, list(args), input=input)
        if result.exception and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result.exit_code, result.stdout, result.stderr

    return invoke


@pytest.fixture(scope="session")
def answers() -> list[bytes]:
    """The answer line of each puzzle of :data:`SERG`, solved as one table."""
    from ndoku.model.table import read_table
    from ndoku.tasks.lines import solve_lines

    table = read_table(SERG.read_text())
    assert table is not None
    return solve_lines(table).text().splitlines(keepends=True)
