"""What every benchmark shares: where the shared puzzle sets are, and how a goal is reported.

Each ``benchmarks/bench_*.py`` has ``main() -> list[Goal]``; ``python -m benchmarks`` runs them
all (or those named on the command line) and prints one line per goal.
"""

from __future__ import annotations

import os
import statistics
from dataclasses import dataclass
from pathlib import Path

#: Environment variable naming the shared data folder (default: ``../shared/data``).
DATA_ENV = "NDOKU_SHARED_DATA"
REPO = Path(__file__).resolve().parent.parent


class MissingData(Exception):
    """A benchmark's puzzle set is not on this machine."""


def shared_data(relative: str) -> Path:
    """A file of the shared puzzle collection (``$NDOKU_SHARED_DATA`` or ``../shared/data``)."""
    root = Path(os.environ.get(DATA_ENV, REPO.parent / "shared" / "data"))
    path = root / relative
    if not path.exists():
        raise MissingData(f"{path} not found (set {DATA_ENV} to the shared data folder)")
    return path


@dataclass(frozen=True)
class Goal:
    """One measured figure against its target."""

    name: str
    value: float
    target: float
    unit: str
    higher_is_better: bool = False
    detail: str = ""

    @property
    def met(self) -> bool:
        return self.value >= self.target if self.higher_is_better else self.value <= self.target

    def line(self) -> str:
        sign = "≥" if self.higher_is_better else "≤"
        mark = "ok  " if self.met else "MISS"
        figure = f"{self.value:.4g} {self.unit}".ljust(16)
        goal = f"{sign} {self.target:g} {self.unit}".ljust(16)
        return f"{mark} {self.name:<58} {figure} {goal} {self.detail}"


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")
