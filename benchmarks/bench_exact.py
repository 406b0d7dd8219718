"""Exact solver goals: time per puzzle on 9×9, 16×16, multi-grid and 25×25 sets.

What is measured
----------------
- Batches (9×9, 16×16): one :func:`~ndoku.solvers.exact.solve_table` call per set, kernels loaded
  beforehand. The goal is the median of the per-puzzle times measured *inside* the kernel
  (time-stamp counter: no Python overhead); the detail also gives the whole call divided by
  the number of puzzles (Python included).
- Multi-grids and 25×25: one :func:`~ndoku.solvers.exact.solve_exact` call per puzzle, wall time of
  the whole call (Python included); the best of a few runs (the search is deterministic:
  the runs differ only by what else the machine was doing).

Every solution is checked with :func:`ndoku.tasks.verify.problems`; the last goal counts the
puzzles that were not all solved, checked and proved unique.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from benchmarks._common import Goal, benchmark_data, median
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.exact import ExactResult, solve_exact, solve_table
from ndoku.tasks.verify import problems

TIMEOUT_25 = 20.0  # per 25×25 puzzle: far above the goal, so a miss shows by how much
RUNS = 5  # best of, per multi-grid puzzle
RUNS_25 = 3  # best of, per 25×25 puzzle
JANKO = ("samurai", "butterfly", "gattai8", "shogun", "sohei", "sumo", "windmill", "16x16")


@dataclass
class Tally:
    """Puzzles measured, and those solved, checked and proved unique."""

    puzzles: int = 0
    proved: int = 0

    def add(self, puzzle: Puzzle, result: ExactResult) -> bool:
        ok = result.status == "solved" and result.unique is True and result.values is not None
        ok = ok and not problems(puzzle, result.values)
        self.puzzles += 1
        self.proved += ok
        return ok


def batch_goal(tally: Tally, name: str, relative: str, target: float) -> Goal:
    puzzles = read_puzzles(benchmark_data(relative))
    givens = np.stack([p.givens for p in puzzles])
    solve_table(puzzles[0], givens[:10])  # kernels loaded or compiled before timing
    start = time.perf_counter()
    batch = solve_table(puzzles[0], givens)
    wall = time.perf_counter() - start
    proved = sum(tally.add(p, r) for p, r in zip(puzzles, batch, strict=True))
    per = median(batch.seconds.tolist()) * 1e6
    detail = (
        f"{len(puzzles)} puzzles, unique {proved}/{len(puzzles)}; whole call "
        f"{wall / len(puzzles) * 1e6:.1f} µs/puzzle; max {batch.seconds.max() * 1e3:.2f} ms; "
        f"nodes median {np.median(batch.nodes):.0f} mean {batch.nodes.mean():.1f}"
    )
    return Goal(name, per, target, "µs", detail=detail)


def multigrid_goal(tally: Tally) -> Goal:
    root = benchmark_data("janko")
    paths = [p for kind in JANKO for p in sorted((root / kind).glob("*.puzzle.txt"))]
    samurai = benchmark_data("samurai").glob("*.txt")
    paths += sorted(p for p in samurai if not p.name.endswith(".sol.txt"))
    puzzles = [read_puzzles(p, layout=_layout(p))[0] for p in paths]
    solve_exact(puzzles[0])
    times: list[float] = []
    proved = 0
    for puzzle in puzzles:
        runs = [solve_exact(puzzle) for _ in range(RUNS)]
        times.append(min(r.seconds for r in runs))
        proved += tally.add(puzzle, runs[0])
    slowest = paths[int(np.argmax(times))]
    detail = (
        f"{len(puzzles)} puzzles (samurai files + janko {', '.join(JANKO)}), unique "
        f"{proved}/{len(puzzles)}; median {median(times) * 1e6:.0f} µs; slowest "
        f"{slowest.parent.name}/{slowest.name}; whole solve_exact call, best of {RUNS}"
    )
    return Goal(
        "multi-grids and janko 16×16: slowest puzzle", max(times) * 1e6, 1000, "µs", detail=detail
    )


def goal_25(tally: Tally) -> Goal:
    lines = benchmark_data("sudoku25/gecode_25x25_shared6.txt").read_text().split("\n")
    entries = [line.split() for line in lines if line.strip()]  # id puzzle,solution status
    times: list[str] = []
    worst = 0.0
    proved = 0
    for name, text, *_ in entries:
        [puzzle] = read_puzzles(text=text)
        runs = [solve_exact(puzzle, timeout=TIMEOUT_25) for _ in range(RUNS_25)]
        result = runs[0]
        seconds = min(r.seconds for r in runs)
        proved += tally.add(puzzle, result)
        worst = max(worst, seconds)
        times.append(f"{name} {seconds:.2f} s {result.nodes} nodes {result.status}/{result.stop}")
    detail = (
        f"unique {proved}/{len(entries)}, best of {RUNS_25}, timeout {TIMEOUT_25:g} s: "
        + "; ".join(times)
    )
    return Goal("25×25 gecode_25x25_shared6: slowest puzzle", worst, 1.0, "s", detail=detail)


def main() -> list[Goal]:
    tally = Tally()
    goals = [
        batch_goal(
            tally, "9×9 royle17_sample10k: median per puzzle", "sudoku9/royle17_sample10k.txt", 30
        ),
        batch_goal(
            tally,
            "9×9 forum_hardest_1905_11plus_sample2k: median",
            "sudoku9/forum_hardest_1905_11plus_sample2k.txt",
            300,
        ),
        batch_goal(
            tally,
            "16×16 goomii_16x16_sample1500: median per puzzle",
            "sudoku16/goomii_16x16_sample1500.txt",
            1000,
        ),
        multigrid_goal(tally),
        goal_25(tally),
    ]
    missed = tally.puzzles - tally.proved
    detail = f"{tally.proved} of {tally.puzzles} solved, checked and proved unique"
    return [*goals, Goal("puzzles not proved unique (all sets)", missed, 0, "", detail=detail)]


def _layout(path: Path) -> str | None:
    return "windmill" if path.parent.name == "windmill" else None
