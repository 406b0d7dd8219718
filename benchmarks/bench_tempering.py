"""Parallel tempering goals: 25×25 puzzles solved within 2·10⁸ proposals, median ≤ 5 s.

``python -m benchmarks tempering`` measures the goals with the default ladder and exchange
interval, and fixed-T Metropolis on the same runs for comparison;
``python -m benchmarks.bench_tempering sweep [SET ...] [--ladders ...] [--every ...]`` runs
the sweep that chose the defaults (sets: those of ``bench_metropolis`` plus ``25x25-shared``
and ``25x25-random``).

The 25×25 sets: ``25x25-shared`` is every puzzle of the shared ``sudoku25`` folder (6 Gecode
minimal puzzles, 20 collected from the wild); ``25x25-random`` blanks 55% of the cells of a
solved 25×25 grid that ndoku's own generator makes (``random_solution``, seeds 1..20).
Every solution is checked by :func:`ndoku.verify.problems`. Proposal counts are exact for a
seed and do not depend on the thread count; times depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from benchmarks._common import Goal, median
from benchmarks.bench_metropolis import SETS as CHAIN_SETS
from benchmarks.bench_metropolis import lines
from ndoku.generate import layout_puzzle, puzzle_line, random_solution
from ndoku.metropolis import default_temperature, metropolis, units_per_cell
from ndoku.puzzle import Puzzle, read_puzzles
from ndoku.tempering import DEFAULT_EXCHANGE_EVERY, geometric_ladder, tempering
from ndoku.verify import problems

CAP = 200_000_000  # the goal: solved within this many proposals (all replicas together)
TIMEOUT = 120.0  # per run: the proposal cap, not the clock, decides "unsolved"
SEEDS = range(1, 4)
BLANK = 0.55
RANDOM_PUZZLES = 20


@dataclass(frozen=True)
class Run:
    puzzle: str
    seed: int
    solved: bool
    proposals: int
    seconds: float  # the whole call, set-up included


def shared25() -> Iterator[tuple[str, Puzzle]]:
    yield from lines("sudoku25/gecode_25x25_shared6.txt", 6)
    yield from wild25()


def wild25() -> Iterator[tuple[str, Puzzle]]:
    yield from lines("sudoku25/wild_25x25.txt", 20)


def random25(count: int = RANDOM_PUZZLES) -> Iterator[tuple[str, Puzzle]]:
    """55% of the cells blanked from solved grids ndoku generates itself (seeds 1..count)."""
    empty = layout_puzzle("25x25")
    for seed in range(1, count + 1):
        rng = np.random.default_rng(seed)
        solution = random_solution(empty, rng, time.perf_counter() + 60)
        if solution is None:
            raise RuntimeError(f"no 25×25 grid generated for seed {seed}")
        givens = solution.copy()
        givens[rng.choice(empty.n_cells, round(BLANK * empty.n_cells), replace=False)] = 0
        [puzzle] = read_puzzles(text=puzzle_line(empty, givens))
        yield f"random55:{seed}", puzzle


SETS: dict[str, Callable[[], Iterator[tuple[str, Puzzle]]]] = {
    **CHAIN_SETS,
    "25x25-shared": shared25,
    "25x25-wild": wild25,
    "25x25-random": random25,
}


def run(
    name: str,
    puzzle: Puzzle,
    seed: int,
    ladder: tuple[float, ...] | None = None,
    exchange_every: int = DEFAULT_EXCHANGE_EVERY,
    max_proposals: int = CAP,
    threads: int | None = None,
) -> Run:
    start = time.perf_counter()
    result = tempering(
        puzzle,
        temperatures=ladder,
        exchange_every=exchange_every,
        seed=seed,
        max_proposals=max_proposals,
        timeout=TIMEOUT,
        threads=threads,
    )
    seconds = time.perf_counter() - start
    if result.solved and problems(puzzle, result.values):
        raise AssertionError(f"{name} seed {seed}: tempering returned a wrong solution")
    return Run(name, seed, result.solved, result.proposals, seconds)


def chain_run(name: str, puzzle: Puzzle, seed: int) -> Run:
    start = time.perf_counter()
    result = metropolis(puzzle, seed=seed, max_proposals=CAP, timeout=TIMEOUT)
    seconds = time.perf_counter() - start
    if result.solved and problems(puzzle, result.values):
        raise AssertionError(f"{name} seed {seed}: metropolis returned a wrong solution")
    return Run(name, seed, result.solved, result.proposals, seconds)


def _warm_up() -> None:
    [p] = read_puzzles(text="1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n")
    tempering(p, seed=0)
    metropolis(p, seed=0)


def goals(label: str, done: list[Run]) -> list[Goal]:
    solved = 100.0 * sum(r.solved for r in done) / len(done)
    names = len({r.puzzle for r in done})
    unsolved = sorted({r.puzzle for r in done if not r.solved})
    return [
        Goal(
            f"{label}: solved within 2e8 proposals, {names} puzzles × {len(done) // names} seeds",
            solved,
            95.0,
            "%",
            higher_is_better=True,
            detail=f"unsolved: {', '.join(unsolved)}" if unsolved else "",
        ),
        Goal(
            f"{label}: median time over all runs (unsolved count as their time)",
            median([r.seconds for r in done]),
            5.0,
            "s",
            detail=f"median {median([r.proposals for r in done]) / 1e6:.1f} M proposals",
        ),
    ]


def comparison(label: str, done: list[Run]) -> str:
    solved = 100.0 * sum(r.solved for r in done) / len(done)
    return (
        f"     for comparison, fixed-T Metropolis on {label}: {solved:.0f}% solved, median "
        f"{median([r.seconds for r in done]):.2f} s, "
        f"{median([r.proposals for r in done]) / 1e6:.1f} M proposals"
    )


def main() -> list[Goal]:
    _warm_up()
    print(f"     load average before: {os.getloadavg()[0]:.2f}", flush=True)
    found: list[Goal] = []
    for label, puzzles in (("25×25 shared", shared25), ("25×25 random 55%", random25)):
        chosen = list(puzzles())
        found += goals(label, [run(n, p, s) for n, p in chosen for s in SEEDS])
        print(comparison(label, [chain_run(n, p, s) for n, p in chosen for s in SEEDS]))
    print(f"     load average after: {os.getloadavg()[0]:.2f}", flush=True)
    return found


def sweep(
    names: list[str],
    ladders: list[str],
    intervals: list[int],
    seeds: int,
    max_proposals: int,
) -> None:
    """Per set, ladder and interval: median proposals (M) of the worst puzzle, the geometric
    mean of the puzzles' medians, and ``/k`` for k runs unsolved within ``max_proposals``.

    A ladder is ``default``, ``COLD:HOT:RUNGS`` as multiples of the default temperature, or
    ``=T1/T2/…`` for given temperatures."""
    _warm_up()
    print("| set | ladder | every | worst (geo. mean) /unsolved | median s |")
    print("|---|---|---|---|---|")
    for name in names:
        puzzles = list(SETS[name]())
        for spec in ladders:
            for every in intervals:
                done = []
                for p_name, p in puzzles:
                    ladder = _ladder(spec, p)
                    done += [
                        run(p_name, p, s, ladder, every, max_proposals, threads=1)
                        for s in range(1, seeds + 1)
                    ]
                per = [
                    median([r.proposals if r.solved else np.inf for r in done if r.puzzle == n])
                    for n, _ in puzzles
                ]
                failed = sum(not r.solved for r in done)
                geo = float(np.exp(np.mean(np.log(np.maximum(per, 1.0)))))
                cell = f"{max(per) / 1e6:.2f} ({geo / 1e6:.2f})" + (f" /{failed}" if failed else "")
                seconds = median([r.seconds for r in done])
                print(f"| {name} ({len(puzzles)}) | {spec} | {every} | {cell} | {seconds:.2f} |")
                sys.stdout.flush()


def _ladder(spec: str, puzzle: Puzzle) -> tuple[float, ...] | None:
    if spec == "default":
        return None
    if spec.startswith("="):
        return tuple(float(t) for t in spec[1:].split("/"))
    cold, hot, rungs = spec.split(":")
    middle = default_temperature(puzzle.size, units_per_cell(puzzle))
    return geometric_ladder(float(cold) * middle, float(hot) * middle, int(rungs))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_tempering")
    parser.add_argument("command", choices=["sweep"])
    parser.add_argument("sets", nargs="*", default=["25x25-shared", "25x25-random"])
    parser.add_argument("--ladders", default="default")
    parser.add_argument("--every", default=str(DEFAULT_EXCHANGE_EVERY))
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--max", type=float, default=CAP, help="max proposals per run")
    args = parser.parse_args()
    sweep(
        args.sets,
        args.ladders.split(","),
        [int(k) for k in args.every.split(",")],
        args.seeds,
        int(args.max),
    )
    sys.exit(0)
