"""What every benchmark shares: where its puzzle sets are, and how a goal is reported.

Each ``benchmarks/bench_*.py`` has ``main() -> list[Goal]``; ``python -m benchmarks`` runs them
all (or those named on the command line) and prints one line per goal: ``ok``, ``MISS``, or
``info`` for a goal shown as a figure without a verdict, the reason beside it. A module may
list such goals in ``MARKS`` (see :class:`Mark`): those that need more cores than the machine
has, and those the project's own measurements have shown out of reach of the method.
"""

from __future__ import annotations

import os
import re
import statistics
from dataclasses import dataclass, replace
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


def available_cores() -> int:
    """The cores this process may run on: its CPU affinity where the system has one, else
    ``os.cpu_count()``."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def info_reason(cores: int = 1, evidence: str = "") -> str:
    """Why a goal is a figure without a verdict here ("" when it is a normal goal): it is out
    of reach of the method (``evidence``: where the measurements that show it are), or it
    needs ``cores`` cores and the machine has fewer.

    >>> info_reason(evidence="docs/explanation/performance.md#restarts")
    'out of reach of the method: docs/explanation/performance.md#restarts'
    >>> info_reason(cores=10**6).startswith("needs 1000000 cores, this machine has ")
    True
    >>> info_reason(cores=1)
    ''
    """
    if evidence:
        return f"out of reach of the method: {evidence}"
    have = available_cores()
    return f"needs {cores} cores, this machine has {have}" if have < cores else ""


@dataclass(frozen=True)
class Goal:
    """One measured figure against its target.

    ``cores``: the cores the goal needs to mean anything (a comparison of parallel paths);
    on a machine with fewer it is shown as ``info``, not as ``ok`` or ``MISS``, and is not
    counted as missed. ``evidence``: where the project's own measurements show the goal out
    of reach of the method (a path and anchor of the docs); such a goal is always ``info``.
    """

    name: str
    value: float
    target: float
    unit: str
    higher_is_better: bool = False
    detail: str = ""
    cores: int = 1
    evidence: str = ""

    @property
    def met(self) -> bool:
        """The figure against its target, whatever the verdict shown."""
        return self.value >= self.target if self.higher_is_better else self.value <= self.target

    @property
    def reason(self) -> str:
        """Why the goal is shown without a verdict here, "" when it has one."""
        return info_reason(self.cores, self.evidence)

    @property
    def verdict(self) -> str:
        """``ok``, ``MISS`` or ``info`` (a figure without a verdict, see :attr:`reason`)."""
        return "info" if self.reason else "ok" if self.met else "MISS"

    @property
    def missed(self) -> bool:
        return self.verdict == "MISS"

    @property
    def figure(self) -> str:
        return f"{self.value:.4g} {self.unit}"

    @property
    def goal(self) -> str:
        return f"{'≥' if self.higher_is_better else '≤'} {self.target:g} {self.unit}"

    def line(self) -> str:
        """The line ``python -m benchmarks`` prints: verdict, name, figure, goal, and the
        reason (for ``info``) and the detail."""
        detail = "; ".join(part for part in (self.reason, self.detail) if part)
        return f"{self.verdict:<4} {self.name:<58} {self.figure:<16} {self.goal:<16} {detail}"


@dataclass(frozen=True)
class Mark:
    """Goals of a benchmark shown as figures without a verdict: those whose name matches
    ``pattern`` (a regular expression, searched) get ``cores`` and ``evidence`` (see
    :class:`Goal`).

    A benchmark lists them in its module's ``MARKS``; the runner applies them to the goals
    its ``main()`` returns, and ``python -m benchmarks.report`` to the lines of a saved log.
    """

    pattern: str
    cores: int = 1
    evidence: str = ""

    def matches(self, name: str) -> bool:
        return re.search(self.pattern, name) is not None


def marked(goals: list[Goal], marks: tuple[Mark, ...] | list[Mark]) -> list[Goal]:
    """``goals``, each with the ``cores`` and ``evidence`` of the first mark its name matches."""
    out = []
    for goal in goals:
        mark = next((m for m in marks if m.matches(goal.name)), None)
        if mark is not None:
            goal = replace(goal, cores=mark.cores, evidence=mark.evidence)
        out.append(goal)
    return out


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
