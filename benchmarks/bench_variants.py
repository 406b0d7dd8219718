"""Variant-rule goals (issue 35): janko's killer, consecutive, even-odd, outside-sum, skyscraper
and clueless sets solved exactly with uniqueness proved, CP-SAT beside them, and the killer
Samurai example.

What is measured
----------------
- ndoku, as it solves a file of puzzles: the set's puzzles (read beforehand) in one
  :func:`~ndoku.solvers.exact.solve_batch` call, the best of :data:`RUNS` calls, after
  calls for :data:`WARM_SECONDS` that load the kernels and warm Python (CPython specializes
  a function's bytecode after its first few calls: a killer 4×4 batch took some 200, 65, 52,
  48 µs in its first calls after loading, and 40 from about the twentieth on). The detail
  gives the first call after loading too. A puzzle's time is its own clock
  (``ExactResult.seconds``: its tables arranged and its search, in the kernel) plus an
  equal share of the rest of the call (the constraints joined, the results made, Python):
  the puzzles' times add up to the call's.
  The goal is their median (and, for killer 9×9, the worst). The detail also gives one
  :func:`~ndoku.solvers.exact.solve_exact` call per puzzle (whole call, Python included;
  best of :data:`RUNS` each) and what reading costs per puzzle
  (:func:`~ndoku.model.puzzle.read_puzzles` on the set, divided by its size). Every answer,
  of both, must be the published solution, checked by :func:`ndoku.tasks.verify.problems`
  and proved unique.
- CP-SAT (OR-tools, ``benchmarks/cpsat_variants.py``, one worker: its fastest setting on
  these puzzles) on the same puzzles, warmed as long on the set's first puzzle: the
  ``Solve`` call alone (building the model not counted), one run, without proving
  uniqueness; the detail also gives the time with the
  proof (solve, forbid the answer, solve again). Goal: CP-SAT's median at least
  :data:`RATIO` times ndoku's. A missing ortools is one ``Error:`` line and a missed goal,
  not a crash.
- The killer Samurai of ``examples/killer_samurai.txt``, and the earlier one it replaced
  (``benchmarks/data/killer_samurai_earlier.txt``, harder for the search): whole call, best
  of :data:`RUNS`.
- The chains on the killer 9×9, after a first pass over the set that loads their kernels:
  ``metropolis`` (box swaps, cage penalties, the defaults) within :data:`CHAIN_SECONDS`
  each, its solved share and median time (a run it did not finish counts as its budget);
  ``hybrid`` and ``tempering``, their slowest puzzle (goal: every one within
  :data:`CHAIN_SECONDS`). Each answer is the published solution.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from benchmarks import cpsat_variants
from benchmarks._common import REPO, Goal, benchmark_data, median
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.exact import ExactResult, solve_batch, solve_exact
from ndoku.tasks.solve import Options, solve
from ndoku.tasks.verify import problems

RUNS = 3  # best of, per puzzle
WARM_SECONDS = 0.1  # each solver's calls on a set before timing it
RATIO = 50  # CP-SAT's median over ndoku's, at least
MEDIAN_US = 100  # every set's median per puzzle, at most
KILLER9_WORST_US = 10_000
SAMURAI_MS = 50
CHAIN_SECONDS = 10.0  # each chain's budget per killer 9×9
#: Each set: its name and the files of ``tests/data/variants`` it holds.
SETS = (
    ("killer 9×9", ("killer_9x9",)),
    ("killer 6×6", ("killer_6x6",)),
    ("killer 4×4", ("killer_4x4",)),
    ("consecutive 5×5-9×9", tuple(f"consecutive_{n}x{n}" for n in range(5, 10))),
    ("even-odd 9×9", ("evenodd",)),
    ("outside sums 9×9", ("margin",)),
    ("skyscraper 9×9", ("skyscraper",)),
    ("clueless 1 27×27", ("clueless1",)),
    ("clueless 2 27×27", ("clueless2",)),
)


@dataclass(frozen=True)
class Published:
    """A puzzle of a variant set, its published solution (in cell order) and its source."""

    puzzle: Puzzle
    solution: list[int]
    source: str


def variant_set(name: str) -> tuple[list[Published], float]:
    """The puzzles of ``tests/data/variants/NAME.txt`` with their published solutions
    (``NAME.solutions.txt``), and the seconds reading the puzzles took."""
    path = benchmark_data(f"variants/{name}.txt")
    start = time.perf_counter()
    puzzles = read_puzzles(path)
    seconds = time.perf_counter() - start
    lines = path.with_name(f"{name}.solutions.txt").read_text().splitlines()
    if len(lines) != len(puzzles):
        raise ValueError(f"{path.name}: {len(puzzles)} puzzles but {len(lines)} solutions")
    out = []
    for puzzle, line in zip(puzzles, lines, strict=True):
        digits, source = line.split(" ", 1)
        canvas = [int(d) for d in digits]
        width = puzzle.index.shape[1]
        solution = [canvas[r * width + c] for r, c in puzzle.cell_rc.tolist()]
        out.append(Published(puzzle, solution, source))
    return out, seconds


@dataclass
class Timing:
    """Per-puzzle seconds of one set, and what went wrong. ndoku's: ``wall`` in one batch
    (its own clock and its share of the rest), ``inside`` one call per puzzle (whole call);
    CP-SAT's: see :func:`time_cpsat`."""

    wall: list[float] = field(default_factory=list)
    inside: list[float] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    first: float = float("nan")  # ndoku's: the first batch after loading, per puzzle


def warm(call: Callable[[], object]) -> None:
    """Call ``call`` once, and again until :data:`WARM_SECONDS` have passed since."""
    end = time.perf_counter() + WARM_SECONDS
    call()
    while time.perf_counter() < end:
        call()


def time_ndoku(entries: list[Published]) -> Timing:
    timing = Timing()
    puzzles = [entry.puzzle for entry in entries]
    solve_batch(puzzles)  # kernels loaded (or compiled)
    start = time.perf_counter()
    solve_batch(puzzles)
    timing.first = (time.perf_counter() - start) / len(entries)
    warm(lambda: solve_batch(puzzles))
    best, results = float("inf"), []
    for _ in range(RUNS):
        start = time.perf_counter()
        found = solve_batch(puzzles)
        wall = time.perf_counter() - start
        if wall < best:
            best, results = wall, found
    own = np.array([result.seconds for result in results])
    timing.wall = list(own + (best - own.sum()) / len(entries))
    for entry, result in zip(entries, results, strict=True):
        one, wall = result, float("inf")
        for _ in range(RUNS):
            start = time.perf_counter()
            one = solve_exact(entry.puzzle)
            wall = min(wall, time.perf_counter() - start)
        timing.inside.append(wall)
        if not _published(entry, result) or not _published(entry, one):
            timing.wrong.append(entry.source)
    return timing


def _published(entry: Published, result: ExactResult) -> bool:
    """Whether ``result`` is the published solution, proved unique and breaking no rule."""
    values = result.values
    return (
        result.status == "solved"
        and result.unique is True
        and values is not None
        and not problems(entry.puzzle, values)
        and values.tolist() == entry.solution
    )


def time_cpsat(entries: list[Published]) -> Timing:
    """``wall``: the first ``Solve`` (finding); ``inside``: both (finding, then proving)."""
    timing = Timing()
    warm(lambda: cpsat_variants.solve(entries[0].puzzle))  # OR-tools loaded too
    for entry in entries:
        found = cpsat_variants.solve(entry.puzzle, prove=True)
        if found.values != entry.solution or found.unique is not True:
            timing.wrong.append(entry.source)
        timing.wall.append(found.seconds[0])
        timing.inside.append(sum(found.seconds))
    return timing


def set_goals(label: str, names: tuple[str, ...], cpsat: str | None) -> list[Goal]:
    """ndoku's goals on one set, then CP-SAT's ratio (``cpsat``: why it was skipped, if so)."""
    entries: list[Published] = []
    reading = 0.0
    for name in names:
        more, seconds = variant_set(name)
        entries += more
        reading += seconds
    ours = time_ndoku(entries)
    us = np.array(ours.wall) * 1e6
    one = np.array(ours.inside) * 1e6
    detail = (
        f"{len(entries)} puzzles, {len(entries) - len(ours.wrong)} solved to the published "
        f"solution and proved unique; in one batch: median {np.median(us):.1f} µs, worst "
        f"{us.max():.0f} µs, mean {us.mean():.1f} µs (the first batch after loading: "
        f"{ours.first * 1e6:.1f} µs a puzzle); one call per puzzle: median "
        f"{np.median(one):.1f} µs, worst {one.max():.0f} µs; reading "
        f"{reading / len(entries) * 1e6:.0f} µs/puzzle; best of {RUNS}"
    )
    if ours.wrong:
        detail += f"; wrong: {', '.join(ours.wrong[:3])}"
    goals = [
        Goal(f"{label}: median per puzzle", float(np.median(us)), MEDIAN_US, "µs", detail=detail)
    ]
    if label == "killer 9×9":
        goals.append(Goal(f"{label}: worst puzzle", float(us.max()), KILLER9_WORST_US, "µs"))
    goals.append(Goal(f"{label}: not solved to the published solution", len(ours.wrong), 0, ""))
    ratio, detail = float("nan"), cpsat or ""
    if cpsat is None:
        theirs = time_cpsat(entries)
        ratio = median(theirs.wall) / median(ours.wall)
        detail = (
            f"CP-SAT median {median(theirs.wall) * 1e3:.2f} ms, worst "
            f"{max(theirs.wall) * 1e3:.1f} ms (one Solve, 1 worker, model building not "
            f"counted); with uniqueness proved median {median(theirs.inside) * 1e3:.2f} ms; "
            f"CP-SAT answers not the published unique solution: {len(theirs.wrong)}"
        )
    name = f"{label}: CP-SAT over ndoku, median"
    return [*goals, Goal(name, ratio, RATIO, "×", higher_is_better=True, detail=detail)]


#: The killer Samurai example, and the one it replaced (a harder cut of the same solution:
#: the example is now cut by ndoku.tasks.caging), each held to the example's goal.
KILLER_SAMURAI = (
    ("killer Samurai example", REPO / "examples" / "killer_samurai.txt"),
    ("earlier killer Samurai example", REPO / "benchmarks" / "data" / "killer_samurai_earlier.txt"),
)


def samurai_goal(name: str, path: Path) -> Goal:
    [puzzle] = read_puzzles(path)
    solve_exact(puzzle)
    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter()
        result = solve_exact(puzzle)
        best = min(best, time.perf_counter() - start)
    ok = result.unique is True and result.values is not None
    ok = ok and not problems(puzzle, result.values)
    detail = (
        f"{path.relative_to(REPO)}: {'unique, checked' if ok else 'NOT solved and proved'}; "
        f"{int((puzzle.givens > 0).sum())} givens, {len(puzzle.rules)} rules; "
        f"{result.nodes} nodes; whole call, best of {RUNS}"
    )
    return Goal(
        name,
        best * 1e3 if ok else float("inf"),
        SAMURAI_MS,
        "ms",
        detail=detail,
    )


def chain_goals() -> list[Goal]:
    """The Monte-Carlo methods on the killer 9×9, each answer checked."""
    entries, _ = variant_set("killer_9x9")
    goals = []
    for method in ("metropolis", "hybrid", "tempering"):
        # kernels loaded: each puzzle once, as some reach parts others do not (a tempering
        # run's first dive on a puzzle with rules: its compile, 1.4 s, was counted otherwise)
        for entry in entries:
            solve(entry.puzzle, method, Options(seed=1, timeout=CHAIN_SECONDS))
        seconds = []
        for entry in entries:
            outcome = solve(entry.puzzle, method, Options(seed=1, timeout=CHAIN_SECONDS))
            right = outcome.status == "solved" and outcome.values.tolist() == entry.solution
            seconds.append(outcome.seconds if right else CHAIN_SECONDS)
        solved = sum(s < CHAIN_SECONDS for s in seconds)
        detail = (
            f"{len(entries)} janko killer 9×9, seed 1, {CHAIN_SECONDS:g} s each: "
            f"{solved} solved to the published solution; median {median(seconds):.3f} s, "
            f"slowest {max(seconds):.2f} s"
        )
        if method == "metropolis":
            share = 100 * solved / len(entries)
            goals.append(Goal("killer 9×9, metropolis: solved", share, 95, "%", True, detail))
        else:
            name = f"killer 9×9, {method}: slowest puzzle"
            goals.append(Goal(name, max(seconds), CHAIN_SECONDS * 0.999, "s", detail=detail))
    return goals


def main() -> list[Goal]:
    missing = None
    try:
        cpsat_variants.cp_model()
    except ImportError as exc:
        missing = f"Error: CP-SAT figures skipped: {exc}"
        print(missing, flush=True)
    goals = []
    for label, names in SETS:
        goals += set_goals(label, names, missing)
    return [*goals, *(samurai_goal(*case) for case in KILLER_SAMURAI), *chain_goals()]
