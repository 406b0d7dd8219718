"""The search study (examples/search_study.py draws its table and figure): what its claims
rest on, measured.

- The teaching searches keep the order proved in :mod:`ndoku.solvers.study`: with ``first``
  branching, full ≤ singles ≤ forward ≤ none nodes on every puzzle (the first 20 of each
  9×9 level, to the first solution, capped at 10⁶ nodes); goal: no exception.
- Random-restart hill climbing solves the easy puzzles, as in the student paper: the 50
  Project Euler puzzles, one seed each, 10⁷ proposals at most; goal: 95% solved.
- ndoku's own solver solves every 25×25 of the sets, uniqueness proved, where the paper's
  searches solved none: goal 100%, each within 5 s.
"""

from __future__ import annotations

import time
from itertools import pairwise

from benchmarks._common import Goal, median, one_line_puzzles
from ndoku.solvers.chains import hillclimb
from ndoku.solvers.exact import solve_exact
from ndoku.solvers.study import PROPAGATIONS, search_study

NINE = [
    "sudoku9/kaggle_bryanpark_first69.txt",
    "sudoku9/norvig_easy50.txt",
    "sudoku9/sudoku_exchange_diabolical_first100.txt",
    "sudoku9/norvig_top95.txt",
    "sudoku9/forum_hardest_1106_first40.txt",
]


def main() -> list[Goal]:
    exceptions = checked = 0
    for name in NINE:
        for puzzle in one_line_puzzles(name, 20):
            nodes = [
                search_study(puzzle, p, "first", limit=1, max_nodes=1_000_000).nodes
                for p in PROPAGATIONS
            ]
            exceptions += any(weak < strong for weak, strong in pairwise(nodes))
            checked += 1
    goals = [
        Goal("teaching searches, first branching: puzzles out of order", exceptions, 0, "",
             detail=f"{checked} 9×9 puzzles, full ≤ singles ≤ forward ≤ none"),
    ]  # fmt: skip
    easy = one_line_puzzles("sudoku9/norvig_easy50.txt")
    runs = [hillclimb(p, seed=0, max_proposals=10_000_000) for p in easy]
    solved = [r for r in runs if r.solved]
    detail = (
        f"{len(easy)} puzzles, median {median([r.proposals for r in solved]):,.0f} proposals "
        f"and {median([r.restarts for r in solved]):.0f} restarts, "
        f"{median([r.seconds for r in solved]) * 1000:.1f} ms"
    )
    goals.append(
        Goal("hill climbing, Project Euler 50: solved", len(solved) / len(easy), 0.95, "",
             higher_is_better=True, detail=detail)
    )  # fmt: skip
    big = one_line_puzzles("sudoku25/gecode_25x25_shared6.txt")
    big += one_line_puzzles("sudoku25/wild_25x25.txt")
    seconds, proved = [], 0
    for puzzle in big:
        start = time.perf_counter()
        result = solve_exact(puzzle, timeout=5.0)
        seconds.append(time.perf_counter() - start)
        proved += result.status == "solved" and bool(result.unique)
    goals.append(
        Goal("ndoku's solver, 25×25 (paper: none solved): proved unique", proved / len(big),
             1.0, "", higher_is_better=True,
             detail=f"{len(big)} puzzles, median {median(seconds):.3f} s, max {max(seconds):.3f} s")
    )  # fmt: skip
    return goals
