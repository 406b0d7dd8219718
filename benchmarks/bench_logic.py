"""Logic engine: time of a whole explained path per puzzle, and agreement of its rating (the
hardest step's) with Sukaku Explainer's on the diabolical sample.

Each path is given the puzzle's proved solution, so it always ends (guessing where no
technique applies); the solve that proves it is not timed. Goals from the issue: median
path ≤ 10 ms on 9×9 diabolical, ≤ 50 ms on Samurai, ≤ 100 ms on 16×16, ≤ 2 s on 25×25;
Spearman rank correlation with the SE ratings ≥ 0.85. Two 25×25 sets: the unique puzzles of
the wild set (as people post them), and the six minimal Gecode puzzles, the hardest 25×25
ndoku has (each path needs hundreds of forcing chains and a dozen guesses).
"""

from __future__ import annotations

import time

import numpy as np

from benchmarks._common import Goal, benchmark_data, median
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.exact import solve_exact
from ndoku.solvers.logic import solve_path


def _ranks(values: list[float]) -> np.ndarray:
    """Ranks from 0, ties sharing their mean rank (for Spearman's correlation)."""
    x = np.asarray(values, dtype=float)
    ranks = np.empty(len(x))
    ranks[np.argsort(x, kind="stable")] = np.arange(len(x))
    for v in np.unique(x):
        ranks[x == v] = ranks[x == v].mean()
    return ranks


def spearman(a: list[float], b: list[float]) -> float:
    return float(np.corrcoef(_ranks(a), _ranks(b))[0, 1])


def paths(puzzles: list[Puzzle]) -> tuple[list[float], list[float], int]:
    """Seconds of each explained path, its rating (hardest step), and the paths that guessed."""
    seconds, ratings, guessed = [], [], 0
    for puzzle in puzzles:
        solution = solve_exact(puzzle).values
        start = time.perf_counter()
        path = solve_path(puzzle, solution=solution)
        seconds.append(time.perf_counter() - start)
        assert path.solved and (path.values == solution).all()
        ratings.append(max((s.rating for s in path.steps), default=0.0))
        guessed += any(s.technique == "guess" for s in path.steps)
    return seconds, ratings, guessed


def timed_goal(name: str, puzzles: list[Puzzle], target: float) -> Goal:
    seconds, _, guessed = paths(puzzles)
    detail = f"{len(puzzles)} puzzles, max {max(seconds):.3f} s, {guessed} guessed somewhere"
    return Goal(f"explained path, {name}: median", median(seconds), target, "s", detail=detail)


def main() -> list[Goal]:
    lines = benchmark_data("sudoku9/sudoku_exchange_diabolical_sample5k.txt").read_text()
    rows = [line.split() for line in lines.splitlines() if line.strip()]
    diabolical = read_puzzles(text="".join(r[0] + "\n" for r in rows))
    seconds, ratings, guessed = paths(diabolical)
    rho = spearman(ratings, [float(r[1]) for r in rows])
    detail = f"{len(diabolical)} puzzles, max {max(seconds):.3f} s, {guessed} guessed somewhere"
    goals = [
        Goal("explained path, 9×9 diabolical 5k: median", median(seconds), 0.010, "s",
             detail=detail),
        Goal("rating vs Sukaku Explainer, diabolical 5k (Spearman)", rho, 0.85, "",
             higher_is_better=True, detail=f"{len(diabolical)} puzzles"),
    ]  # fmt: skip
    samurai = [p for f in sorted(benchmark_data("samurai").glob("*_*[!l].txt"))
               for p in read_puzzles(f)]  # fmt: skip
    samurai += [p for f in sorted(benchmark_data("janko/samurai").glob("*.puzzle.txt"))
                for p in read_puzzles(f)]  # fmt: skip
    goals.append(timed_goal("Samurai (5 files + janko)", samurai, 0.050))
    sixteen = read_puzzles(benchmark_data("sudoku16/goomii_16x16_first40.txt"))
    goals.append(timed_goal("16×16 goomii first 40", sixteen, 0.100))
    lines = benchmark_data("sudoku25/wild_25x25.txt").read_text().splitlines()
    wild = [
        p for line in lines if line.endswith(" unique") for p in read_puzzles(text=line.split()[1])
    ]
    goals.append(timed_goal("25×25 wild, the unique ones", wild, 2.0))
    lines = benchmark_data("sudoku25/gecode_25x25_shared6.txt").read_text().splitlines()
    minimal = [p for line in lines if line.strip() for p in read_puzzles(text=line.split()[1])]
    goals.append(timed_goal("25×25 minimal (Gecode shared 6)", minimal, 2.0))
    return goals
