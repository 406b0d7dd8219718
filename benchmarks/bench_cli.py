"""Whole-process time of ``ndoku solve`` on one Samurai, kernels already in numba's cache."""

from __future__ import annotations

import subprocess
import sys
import time

from benchmarks._common import REPO, Goal, median

RUNS = 5


def solve_seconds(*args: str) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "ndoku", "solve", *args],
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - start


def main() -> list[Goal]:
    puzzle = "examples/samurai.txt"
    solve_seconds(puzzle)  # fills the cache
    times = [solve_seconds(puzzle, "--seed", str(seed)) for seed in range(RUNS)]
    return [
        Goal(
            "ndoku solve examples/samurai.txt, warm cache (median)",
            median(times),
            1.0,
            "s",
            detail=f"{RUNS} runs, max {max(times):.2f} s",
        )
    ]
