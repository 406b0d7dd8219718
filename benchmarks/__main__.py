"""Run the benchmarks: ``python -m benchmarks [NAME ...]`` (NAME as in ``bench_NAME.py``).

A benchmark that raises, even on import, is reported on one ``FAIL`` line and counted like a
missed goal (exit status 1), and the run goes on with the next one; Ctrl-C stops the run.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from benchmarks._common import Goal


def main(names: list[str], package: str = "benchmarks") -> int:
    """Run the benchmarks ``names`` (all when empty) of ``package``, printing a line per goal.

    Parameters
    ----------
    names
        Benchmarks by the NAME of their ``bench_NAME.py``.
    package
        The package holding the ``bench_*.py`` modules (the tests give one of their own).

    Returns
    -------
    int
        The exit status: 0 when every goal was met, 1 when one was missed or a benchmark
        failed, 2 for an unknown name.
    """
    folder = Path(importlib.import_module(package).__path__[0])
    modules = sorted(p.stem for p in folder.glob("bench_*.py"))
    chosen = [f"bench_{n}" for n in names] if names else modules
    unknown = sorted(set(chosen) - set(modules))
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(modules)}")
        return 2
    missed = failed = 0
    for name in chosen:
        short = name.removeprefix("bench_")
        print(f"== {short}", flush=True)
        try:
            module = importlib.import_module(f"{package}.{name}")
            goals: list[Goal] = module.main()
        except Exception as exc:  # one broken benchmark must not cost the others their run
            print(f"FAIL {short}: {summary(exc)}", flush=True)
            failed += 1
            continue
        for goal in goals:
            print(goal.line(), flush=True)
            missed += not goal.met
    print(f"{missed} goal(s) missed, {failed} benchmark(s) failed")
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
