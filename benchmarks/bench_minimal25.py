"""Exact solver goals on minimal 25×25 puzzles it was not tuned on: median and worst seconds.

What is measured
----------------
One :func:`~ndoku.solvers.exact.solve_exact` call per puzzle (limit 2: uniqueness is proved),
capped at ``CAP`` seconds a puzzle so that no puzzle can hang the run, twice: in one thread,
timed by the process clock (what the search costs), and split over ``THREADS`` threads (CI's
two cores), timed by the wall clock (what a user waits). Nodes as the one-thread search
counts them. Two sets: the held-out set
(``sudoku25/minimal25_heldout.txt``, made by ``ndoku generate 25x25``, seeds no one looked at
while tuning the search; see ``benchmarks/data/SOURCES.md``) and the six shared Gecode puzzles.
The tuning set (``minimal25_tuning.txt``) is not measured here. Every solution is checked
with :func:`ndoku.tasks.verify.problems`; the last goal counts the puzzles not proved unique.
"""

from __future__ import annotations

import time

import numpy as np

from benchmarks._common import Goal, Mark, benchmark_data, median
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.exact import ExactResult, solve_exact
from ndoku.tasks.verify import problems

#: Seconds per puzzle at most: well above the goal, so a miss shows by how much.
CAP = 30.0
#: Threads of the split search: the cores of the machines the goals are set for.
THREADS = 2
#: The split search's goals need a core per thread (on fewer they are figures, ``info``).
MARKS = (Mark(rf"\({THREADS} threads, wall\)", cores=THREADS),)
HELD_OUT = "sudoku25/minimal25_heldout.txt"
SHARED = "sudoku25/gecode_25x25_shared6.txt"


def named_puzzles(relative: str) -> list[tuple[str, Puzzle]]:
    """The (name, puzzle) of each line ``name puzzle[,solution] ...`` of a set (``#``
    lines are comments)."""
    lines = benchmark_data(relative).read_text().splitlines()
    entries = [line.split() for line in lines if line.strip() and not line.startswith("#")]
    return [(name, read_puzzles(text=text.split(",")[0])[0]) for name, text, *_ in entries]


def measure(puzzle: Puzzle, threads: int) -> tuple[float, ExactResult, bool]:
    """Seconds of one capped solve (process seconds in one thread, else wall seconds), its
    result, whether it is proved unique and checked."""
    clock = time.process_time if threads == 1 else time.perf_counter
    start = clock()
    result = solve_exact(puzzle, timeout=CAP, threads=threads)
    seconds = clock() - start
    ok = result.status == "solved" and result.unique is True and result.values is not None
    return seconds, result, ok and not problems(puzzle, result.values)


def set_goals(label: str, relative: str) -> tuple[list[Goal], int, int]:
    """Median and worst seconds of a set, in one thread and split (nodes in the detail);
    puzzles, proved unique in both."""
    named = named_puzzles(relative)
    goals = []
    proved_both = len(named)
    for threads in (1, THREADS):
        seconds: list[float] = []
        nodes: list[int] = []
        proved = 0
        worst = ""
        for name, puzzle in named:
            s, result, ok = measure(puzzle, threads)
            proved += ok
            if not seconds or s > max(seconds):
                worst = name
            seconds.append(s)
            nodes.append(result.nodes)
        how = "one thread, CPU" if threads == 1 else f"{threads} threads, wall"
        detail = (
            f"{len(named)} puzzles, unique {proved}/{len(named)}, cap {CAP:g} s; nodes median "
            f"{np.median(nodes):.0f} max {max(nodes)}; worst {worst}"
        )
        goals += [
            Goal(f"25×25 {label} ({how}): median", median(seconds), 1.0, "s", detail=detail),
            Goal(f"25×25 {label} ({how}): worst", max(seconds), 5.0, "s", detail=detail),
        ]
        proved_both = min(proved_both, proved)
    return goals, len(named), proved_both


def main() -> list[Goal]:
    solve_exact(named_puzzles(SHARED)[0][1], threads=THREADS)  # kernels ready before timing
    held, n_held, proved_held = set_goals("minimal held-out", HELD_OUT)
    shared, n_shared, proved_shared = set_goals("gecode shared six", SHARED)
    missed = n_held + n_shared - proved_held - proved_shared
    detail = f"{proved_held + proved_shared} of {n_held + n_shared} checked and proved unique"
    return [*held, *shared, Goal("minimal 25×25 not proved unique", missed, 0, "", detail=detail)]
