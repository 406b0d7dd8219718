"""Run the benchmarks: ``python -m benchmarks [NAME ...]`` (NAME as in ``bench_NAME.py``)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from benchmarks._common import Goal


def main(names: list[str]) -> int:
    here = Path(__file__).parent
    modules = sorted(p.stem for p in here.glob("bench_*.py"))
    chosen = [f"bench_{n}" for n in names] if names else modules
    unknown = sorted(set(chosen) - set(modules))
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(modules)}")
        return 2
    missed = 0
    for name in chosen:
        print(f"== {name.removeprefix('bench_')}", flush=True)
        module = importlib.import_module(f"benchmarks.{name}")
        goals: list[Goal] = module.main()
        for goal in goals:
            print(goal.line(), flush=True)
            missed += not goal.met
    print(f"{missed} goal(s) missed" if missed else "every goal met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
