"""Restarts of the Metropolis chain: the heavy tails of its run lengths, before and after.

``python -m benchmarks restarts`` runs the plain box-swap chain (``--method metropolis`` at
its default temperature) on the repository's Samurai and 16×16 sets, seeds 1 and 2, once
without restarts and once with Luby restarts at the default unit (and, for comparison, with
doubling runs), and prints p50, p95 and max of the proposals (exact for a seed) and of the
process seconds of each run. A run is capped at :data:`MAX_PROPOSALS` proposals and
:data:`TIMEOUT` seconds: an unsolved run counts at its cap. Goal: with the default strategy,
the slowest run of each set within 10× the set's median. A second table follows one puzzle of
each set (the one at the 95th percentile of mean proposals) over ten seeds, without and with
Luby restarts: the spread of a single puzzle's runs is what a restart could cut.

The sets: ``Samurai`` is the 5 Samurai of ``tests/data/samurai`` and the 3 of
``tests/data/janko/samurai``; ``16×16`` the 3 of ``tests/data/janko/16x16``, the 40 of
``goomii_16x16_first40.txt`` and the first 19 of ``wild_16x16.txt`` (the 20th has clashing
givens).

Measured (2026-11-24, one core of a 2-core machine shared with other work), see the README's
laboratory section: the run lengths of each puzzle spread about as widely as their mean, as an
exponential's do, so a restart, which throws away the chain's state, cannot shorten them; the
heavy tail of a set is its hardest puzzles (wild 16×16 number 2 needs 0.6-1.3·10⁹ proposals
from every seed, where the set's median is 4·10⁵). Hence no restarts by default for the plain
chain (:func:`ndoku.solvers.chains.restarts.default_restarts`). So the goal is out of reach of
the plain chain, with or without restarts, and ``make bench`` shows it as a figure (``info``,
``MARKS``), linked to those measurements, never as a miss.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from benchmarks._common import Goal, Mark
from benchmarks.bench_metropolis import _warm_up, files, lines
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.chains import Restarts, default_restarts, metropolis
from ndoku.tasks.verify import problems

#: Where the measurements show the slowest-over-median goal out of reach of the plain chain.
EVIDENCE = "docs/explanation/performance.md#restarts"
MARKS = (Mark(r"^restarts, .*: slowest run over the median", evidence=EVIDENCE),)
SEEDS = (1, 2)
MAX_PROPOSALS = 1_500_000_000
TIMEOUT = 10.0
RATIO = 10.0
#: Before (none), the default (none for the plain chain), and the two strategies.
STRATEGIES = {
    "none": Restarts("none"),
    "luby": Restarts("luby"),
    "geometric": Restarts("geometric"),
}


def samurai() -> Iterator[tuple[str, Puzzle]]:
    yield from files("samurai", "*.txt")
    yield from (("janko " + n, p) for n, p in files("janko/samurai", "*.puzzle.txt"))


def sixteen() -> Iterator[tuple[str, Puzzle]]:
    yield from (("janko " + n, p) for n, p in files("janko/16x16", "*.puzzle.txt"))
    yield from lines("sudoku16/goomii_16x16_first40.txt", 40)
    yield from lines("sudoku16/wild_16x16.txt", 19)


SETS: dict[str, Callable[[], Iterator[tuple[str, Puzzle]]]] = {"Samurai": samurai, "16×16": sixteen}


@dataclass(frozen=True)
class Run:
    puzzle: str
    seed: int
    solved: bool
    proposals: int
    restarts: int
    seconds: float  # process time of the whole metropolis() call


def run(name: str, puzzle: Puzzle, seed: int, restarts: Restarts) -> Run:
    start = time.process_time()
    result = metropolis(
        puzzle, seed=seed, max_proposals=MAX_PROPOSALS, timeout=TIMEOUT, restarts=restarts
    )
    seconds = time.process_time() - start
    if result.solved and problems(puzzle, result.values):
        raise AssertionError(f"{name} seed {seed}: a wrong solution")
    return Run(name, seed, result.solved, result.proposals, result.restarts, seconds)


def spread(values: list[float]) -> tuple[float, float, float]:
    """p50, p95 and max."""
    return (
        float(np.median(values)),
        float(np.percentile(values, 95)),
        float(max(values)),
    )


#: Seeds of the per-puzzle table: how one puzzle's run lengths spread.
SPREAD_SEEDS = tuple(range(1, 11))
#: The puzzle of each set whose mean run (no restarts, :data:`SEEDS`) is at this quantile.
SPREAD_QUANTILE = 0.95


def spread_table(label: str, puzzles: list[tuple[str, Puzzle]], done: list[Run]) -> None:
    """Print how the runs of one puzzle spread over :data:`SPREAD_SEEDS`, without and with
    Luby restarts: the puzzle at the set's :data:`SPREAD_QUANTILE` of mean proposals.

    A set's tail can be its hardest puzzles or bad luck on any of them; only bad luck is
    what a restart can cut, and it shows here, one puzzle at a time. ``done``: the set's
    runs without restarts."""
    means = sorted(puzzles, key=lambda p: np.mean([r.proposals for r in done if r.puzzle == p[0]]))
    name, puzzle = means[min(len(means) - 1, int(SPREAD_QUANTILE * len(means)))]
    for kind in ("none", "luby"):
        runs = [run(name, puzzle, s, STRATEGIES[kind]) for s in SPREAD_SEEDS]
        m = [r.proposals / 1e6 for r in runs]
        print(
            f"| {label}: {name} | {kind} | {sum(r.solved for r in runs)}/{len(runs)} | "
            f"{np.median(m):.1f} / {np.mean(m):.1f} / {max(m):.1f} | "
            f"{max(m) / np.median(m):.1f} |",
            flush=True,
        )


def main() -> list[Goal]:
    _warm_up()
    goals = []
    default = default_restarts(pruned=False).kind
    print("| set | restarts | solved | proposals p50 / p95 / max (M) | seconds p50 / p95 / max |"
          " max/p50 | restarts max |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    plain: dict[str, tuple[list[tuple[str, Puzzle]], list[Run]]] = {}
    for label, make in SETS.items():
        puzzles = list(make())
        for kind, restarts in STRATEGIES.items():
            done = [run(n, p, s, restarts) for n, p in puzzles for s in SEEDS]
            if kind == "none":
                plain[label] = (puzzles, done)
            p = spread([r.proposals / 1e6 for r in done])
            t = spread([r.seconds for r in done])
            ratio = p[2] / p[0]
            solved = sum(r.solved for r in done)
            print(
                f"| {label} | {kind} | {solved}/{len(done)} | {p[0]:.2f} / {p[1]:.1f} / "
                f"{p[2]:.0f} | {t[0]:.3f} / {t[1]:.2f} / {t[2]:.2f} | {ratio:.0f} | "
                f"{max(r.restarts for r in done)} |",
                flush=True,
            )
            if kind == default:
                slowest = max(done, key=lambda r: r.proposals)
                goals.append(
                    Goal(f"restarts, {label}: slowest run over the median (proposals)", ratio,
                         RATIO, "×", detail=f"restarts {kind}; {slowest.puzzle} seed "
                         f"{slowest.seed}; {len(puzzles)} puzzles × {len(SEEDS)} seeds")
                )  # fmt: skip
    print(f"\nOne puzzle, seeds {SPREAD_SEEDS[0]}-{SPREAD_SEEDS[-1]}:")
    print("| puzzle | restarts | solved | proposals median / mean / max (M) | max/median |")
    print("|---|---|---|---|---|")
    for label, (puzzles, done) in plain.items():
        spread_table(label, puzzles, done)
    return goals
