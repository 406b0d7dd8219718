"""Shared fixtures: the real puzzles copied into ``tests/data``."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture
def data() -> Path:
    return DATA
