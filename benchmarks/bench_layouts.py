"""Layout-language goals (issue 4): jigsaw puzzles by the exact solver and by Metropolis.

- Jigsaw 9×9 (the janko jigsaw puzzles): exact, whole ``solve_exact`` call, best of a few
  runs, each solution checked and proved unique: ≤ 1 ms per puzzle.
- Metropolis on the same puzzles: 20 seeds each, every run must reach the published solution.
- 12×12 with 3×4 boxes: no benchmark set has any, so ndoku generates minimal ones
  (unique by its exact solver); exact, whole call, best of a few runs: ≤ 5 ms per puzzle.
"""

from __future__ import annotations

import time
from pathlib import Path

from benchmarks._common import Goal, benchmark_data, median
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.chains.metropolis import metropolis
from ndoku.solvers.exact import solve_exact
from ndoku.tasks.generate import generate, layout_puzzle
from ndoku.tasks.verify import problems
from ndoku.text.formats import parse

RUNS = 5
SEEDS = 20
GENERATED = 10


def best_time(puzzle: Puzzle) -> tuple[float, bool]:
    """Best wall time of ``solve_exact`` over a few runs, and whether it proved uniqueness."""
    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter()
        result = solve_exact(puzzle)
        best = min(best, time.perf_counter() - start)
    return best, bool(result.unique)


def published(puzzle: Puzzle, path: Path) -> list[int]:
    [grid] = parse(path.read_text())
    return grid.values[puzzle.cell_rc[:, 0], puzzle.cell_rc[:, 1]].tolist()


def main() -> list[Goal]:
    folder = benchmark_data("janko/jigsaw")
    pairs = []
    for path in sorted(folder.glob("*.puzzle.txt")):
        [puzzle] = read_puzzles(path)
        pairs.append((puzzle, published(puzzle, Path(str(path).replace("puzzle", "solution")))))
    solve_exact(pairs[0][0])  # load the kernels
    exact_times, proved = [], 0
    for puzzle, solution in pairs:
        best, unique = best_time(puzzle)
        values = solve_exact(puzzle).values
        ok = values is not None and not problems(puzzle, values) and values.tolist() == solution
        proved += bool(ok and unique)
        exact_times.append(best)
    twelve = [generate(layout_puzzle("12x12"), seed=seed) for seed in range(GENERATED)]
    twelve_times = [best_time(made.puzzle) for made in twelve]
    chain_times, chain_solved = [], 0
    for puzzle, solution in pairs:
        for seed in range(SEEDS):
            run = metropolis(puzzle, seed=seed, timeout=10.0)
            chain_solved += run.solved and run.values.tolist() == solution
            chain_times.append(run.seconds)
    runs = SEEDS * len(pairs)
    givens = sorted(made.givens for made in twelve)
    return [
        Goal(
            "12×12 (3×4 boxes) generated minimal puzzles, exact (slowest)",
            max(t for t, _ in twelve_times) * 1e3,
            5.0,
            "ms",
            detail=f"{sum(u for _, u in twelve_times)}/{GENERATED} proved unique, "
            f"median {median([t for t, _ in twelve_times]) * 1e3:.2f} ms, "
            f"givens {givens[0]}..{givens[-1]}",
        ),
        Goal(
            "jigsaw 9×9, exact (slowest puzzle, unique proved)",
            max(exact_times) * 1e3,
            1.0,
            "ms",
            detail=f"{proved}/{len(pairs)} proved unique and equal to the published solution",
        ),
        Goal(
            "jigsaw 9×9, Metropolis solved over 20 seeds",
            100.0 * chain_solved / runs,
            100.0,
            "%",
            higher_is_better=True,
            detail=f"median {median(chain_times) * 1e3:.1f} ms over {runs} runs",
        ),
    ]
