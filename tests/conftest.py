"""Shared fixtures: the real puzzles copied into ``tests/data``, and the CLI run in-process."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from ndoku.cli import main

DATA = Path(__file__).parent / "data"
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
