"""What every benchmark shares: where its puzzle sets are, and how a goal is reported.

Each ``benchmarks/bench_*.py`` has ``main() -> list[Goal]``; ``python -m benchmarks`` runs them
all (or those named on the command line) and prints one line per goal.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path

from ndoku.model.puzzle import Puzzle, read_puzzles

REPO = Path(__file__).resolve().parent.parent
#: Where the benchmark sets live, each file in one of them: the sets the unit tests read too
#: stay in ``tests/data``, the others are in ``benchmarks/data`` (sources and licences of all
#: of them: ``benchmarks/data/SOURCES.md``).
DATA_FOLDERS = (REPO / "benchmarks" / "data", REPO / "tests" / "data")


def benchmark_data(relative: str) -> Path:
    """A file or folder of the benchmark sets, by its path inside ``benchmarks/data`` or
    ``tests/data`` (``"sudoku9/norvig_top95.txt"``, ``"janko/jigsaw"``).

    A missing set is an error, not a reason to skip: every set is in the repository.
    """
    found = [folder / relative for folder in DATA_FOLDERS if (folder / relative).exists()]
    if len(found) == 1:
        return found[0]
    ours, tests = (str(folder.relative_to(REPO)) for folder in DATA_FOLDERS)
    if not found:
        raise FileNotFoundError(
            f"benchmark set {relative!r} is in neither {ours} nor {tests} "
            "(see benchmarks/data/SOURCES.md)"
        )
    raise RuntimeError(f"benchmark set {relative!r} is in both {ours} and {tests}: keep one")


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


def one_line_puzzles(relative: str, count: int | None = None) -> list[Puzzle]:
    """The first ``count`` puzzles (all by default) of a set of one-line puzzles, each line
    ``puzzle``, ``puzzle,solution``, ``puzzle rating`` or ``id puzzle,solution status`` (then
    only the ``unique`` ones)."""
    texts = []
    for line in benchmark_data(relative).read_text().splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[2] != "unique":
            continue
        texts.append((fields[1] if len(fields) == 3 else fields[0]).split(",")[0])
    return [p for text in texts[:count] for p in read_puzzles(text=text)]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")
