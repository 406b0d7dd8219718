"""Run the benchmarks: ``python -m benchmarks [NAME ...]`` (NAME as in ``bench_NAME.py``).

A line per goal: ``ok``, ``MISS``, or ``info`` for a figure shown without a verdict (the goal
needs more cores than this machine has, or it is out of reach of the method: see
``benchmarks/_common.py``), which is not counted as missed. A benchmark that raises, even on
import, is reported on one ``FAIL`` line and counted like a missed goal (exit status 1), and
the run goes on with the next one; Ctrl-C stops the run. A whole run (no NAME given) ends by
writing ``benchmarks/report.md`` (see ``benchmarks/report.py``), which the docs include.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from benchmarks._common import Goal, marked
from benchmarks.report import Header, Row, Section, git_commit, render, write_atomically


def main(names: list[str], package: str = "benchmarks", report: Path | None = None) -> int:
    """Run the benchmarks ``names`` (all when empty) of ``package``, printing a line per goal.

    Parameters
    ----------
    names
        Benchmarks by the NAME of their ``bench_NAME.py``.
    package
        The package holding the ``bench_*.py`` modules (the tests give one of their own).
    report
        Where a whole run (``names`` empty) writes its report, atomically: by default
        ``report.md`` beside the modules (``benchmarks/report.md``). A run of some
        benchmarks writes none.

    Returns
    -------
    int
        The exit status: 0 when every goal was met or shown as a figure (``info``), 1 when
        one was missed or a benchmark failed, 2 for an unknown name.
    """
    folder = Path(importlib.import_module(package).__path__[0])
    modules = sorted(p.stem for p in folder.glob("bench_*.py"))
    chosen = [f"bench_{n}" for n in names] if names else modules
    unknown = sorted(set(chosen) - set(modules))
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(modules)}")
        return 2
    commit = git_commit()  # before the benchmarks redraw their figures
    sections: list[Section] = []
    missed = shown = failed = 0
    for name in chosen:
        short = name.removeprefix("bench_")
        print(f"== {short}", flush=True)
        try:
            module = importlib.import_module(f"{package}.{name}")
            goals: list[Goal] = marked(module.main(), getattr(module, "MARKS", ()))
        except Exception as exc:  # one broken benchmark must not cost the others their run
            print(f"FAIL {short}: {summary(exc)}", flush=True)
            sections.append(Section(short, failure=summary(exc)))
            failed += 1
            continue
        for goal in goals:
            print(goal.line(), flush=True)
            missed += goal.missed
            shown += goal.verdict == "info"
        sections.append(Section(short, tuple(Row.of(goal) for goal in goals)))
    print(f"{missed} goal(s) missed, {shown} shown as figures (info), {failed} benchmark(s) failed")
    if not names:
        write_atomically(report or folder / "report.md", render(Header.here(commit), sections))
    return 1 if missed or failed else 0


def summary(exc: Exception) -> str:
    """The exception on one line: its type and the first line of its message.

    >>> summary(ValueError("no such set\\nsee SOURCES.md"))
    'ValueError: no such set'
    >>> summary(KeyError())
    'KeyError'
    """
    lines = str(exc).splitlines()
    return f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
