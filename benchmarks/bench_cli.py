"""Whole-process time of ``ndoku solve`` on one Samurai and on a batch of 10 000 9×9 puzzles,
kernels already in numba's cache.

The batch goal (2 s, our own: reading, solving, checking and writing 10 000 puzzles) guards
the per-puzzle work outside the kernel, which is most of a batch's time: solving the
17-clue sample takes 0.15 s of it. Measured 2026-11-24: 1.23 s, 1.34 s with the other core
busy (2.3 s before batches were verified together and kept in one process while quick)."""

from __future__ import annotations

import subprocess
import sys
import time

from benchmarks._common import REPO, Goal, benchmark_data, median

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
    batch = str(benchmark_data("sudoku9/royle17_sample10k.txt"))
    batch_times = [solve_seconds(batch) for _ in range(RUNS)]
    return [
        Goal(
            "ndoku solve examples/samurai.txt, warm cache (median)",
            median(times),
            1.0,
            "s",
            detail=f"{RUNS} runs, max {max(times):.2f} s",
        ),
        Goal(
            "ndoku solve on 10 000 17-clue 9×9 (median)",
            median(batch_times),
            2.0,
            "s",
            detail=f"{RUNS} runs, max {max(batch_times):.2f} s",
        ),
    ]
