"""Metropolis solver goals: proposals per second, Samurai and 16×16 success rates and times.

``python -m benchmarks metropolis`` measures the goals at the default temperatures;
``python -m benchmarks.bench_metropolis sweep [SET ...] [--seeds K] [--max M]`` runs the
temperature sweep that chose them (sets: see ``SETS``).

Every run is one ``metropolis()`` call (set-up included, kernels loaded beforehand); every
solution is checked by :func:`ndoku.verify.problems`. Proposal counts are exact for a seed,
times depend on the machine and on what else runs on it.

Temperature sweep
-----------------
Per set: median proposals (millions) of the worst puzzle, in brackets the geometric mean of
the puzzles' medians, ``/k``: k runs unsolved within the proposal cap; ``—``: not run. Seeds
1..10 (5 for 25×25, 36×36 and the multigrids); cap 10⁸ proposals (2·10⁸ for 16×16 and
multigrids, 3·10⁸ for 25×25 and 36×36). Starred: the default
(for the multigrids it depends on the layout, see below).

| set            | T=0.2        | T=0.25         | T=0.3         | T=0.35       | T=0.4       |
|----------------|--------------|----------------|---------------|--------------|-------------|
| samurai (8)    | —            | 17.5 (0.76)    | *8.3 (0.33)*  | 38 (0.28) /1 | inf /10     |
| 9x9-easy (10)  | 15 (0.33) /1 | 4.7 (0.07)     | *0.57 (0.02)* | 0.26 (0.02)  | 0.28 (0.02) |
| 9x9-hard (10)  | inf /26      | 77 (25) /6     | *49 (16) /7*  | inf /11      | inf /55     |
| 16x16 (13)     | —            | 119 (9.8) /2   | *83 (5.1) /2* | —            | —           |
| 25x25 (5)      | 57 (2.2) /5  | *7.9 (1.7) /5* | —             | —            | —           |
| 36x36 (1)      | inf /5       | *93*           | inf /5        | —            | —           |
| multigrid (18) | —            | /48            | /23           | /13          | /49         |

More points: samurai 0.28: 9.8 (0.58), 0.32: 15.8 (0.30); 16×16 0.27: 149 (6.1) /4, 0.33: /21;
25×25 0.15: /12, 0.22: 14.5 (1.6) /5, 0.27: /10, 0.3: /15 (one of the five, 372 empty
cells, was never solved: that is its /5); multigrid 0.45: /63. Per layout the multigrids
peak at different temperatures: butterfly (3.0 energy units per cell) at 0.45 (worst 2.8 M
against 100 M at 0.3), windmill (2.43) at 0.35, sumo (2.32), shogun (2.28) and sohei (2.25)
at 0.35, gattai-8 (2.25) with two of three puzzles mostly unsolved at every T; the Samurai
(2.2) at 0.3
(its hardest, kyle, with the fewest givens; the others prefer 0.35-0.4). Hence the default:
0.3 up to N = 16, 0.25 from 25, raised linearly from 2.2 to 3.0 units per cell by up to half
(``ndoku.metropolis.default_temperature``); at the default the multigrids lose 9 runs of 90
against 13 at the best fixed temperature.

Also tried and dropped (same seeds, kyle_samurai at T = 0.3, 20-60 seeds): drawing a box
first, then a pair in it (6.3-9.1 M against 8.1-9.4 M: within the noise of the median, and
two random draws per proposal), drawing a free cell first (9.2-10.1 M), weighting pairs by
how many of the box's missing symbols both cells admit (7.3-12 M); restarting from a new
random state after a fixed number of proposals (every cut-off from the 10th to the 70th
percentile makes the median worse: 17 M at the 10th, 8.3 M at the 70th; the run lengths are
close to a shifted exponential).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from benchmarks._common import Goal, median, shared_data
from ndoku.metropolis import DEFAULT_MAX_PROPOSALS, default_temperature, metropolis
from ndoku.puzzle import Puzzle, read_puzzles
from ndoku.verify import problems

SEEDS = range(1, 21)
TIMEOUT = 60.0  # per run: long enough that "solved" never depends on the limit
GOOMII_LINES = 10


@dataclass(frozen=True)
class Run:
    puzzle: str
    seed: int
    solved: bool
    proposals: int
    seconds: float  # the whole metropolis() call
    chain_seconds: float  # the kernel alone


def files(folder: str, pattern: str, layout: str | None = None) -> Iterator[tuple[str, Puzzle]]:
    for path in sorted(shared_data(folder).glob(pattern)):
        if not path.name.endswith((".sol.txt", ".solution.txt")):
            yield path.name, _one(read_puzzles(path, layout=layout))


def lines(relative: str, count: int) -> Iterator[tuple[str, Puzzle]]:
    """One-line puzzles (``puzzle,solution`` or ``id puzzle,solution status``)."""
    path = shared_data(relative)
    for number, line in enumerate(path.read_text().splitlines()[:count], 1):
        field = line.split()[1] if " " in line.strip() else line
        yield f"{path.stem}:{number}", _one(read_puzzles(text=field.split(",")[0]))


def _one(puzzles: list[Puzzle]) -> Puzzle:
    [puzzle] = puzzles
    return puzzle


def samurais() -> Iterator[tuple[str, Puzzle]]:
    yield from files("multigrid/samurai", "*.txt")
    yield from (("janko " + n, p) for n, p in files("janko/samurai", "*.puzzle.txt"))


def sixteens() -> Iterator[tuple[str, Puzzle]]:
    yield from (("janko " + n, p) for n, p in files("janko/16x16", "*.puzzle.txt"))
    yield from lines("sudoku16/goomii_16x16_sample1500.txt", GOOMII_LINES)


SETS: dict[str, Callable[[], Iterator[tuple[str, Puzzle]]]] = {
    "samurai": samurais,
    "16x16": sixteens,
    "9x9-hard": lambda: lines("sudoku9/norvig_top95.txt", 10),
    "9x9-easy": lambda: lines("sudoku9/norvig_easy50.txt", 10),
    "25x25": lambda: lines("sudoku25/wild_25x25.txt", 5),
    "36x36": lambda: files("sudoku36", "*.txt"),
    "multigrid": lambda: (
        (f"janko {kind} {name}", p)
        for kind in ("butterfly", "sohei", "windmill", "gattai8", "shogun", "sumo")
        # a windmill's shape also fits other sets of sub-grids: it must be named
        for name, p in files(
            f"janko/{kind}", "*.puzzle.txt", "windmill" if kind == "windmill" else None
        )
    ),
}


def run(
    name: str,
    puzzle: Puzzle,
    seed: int,
    temperature: float | None = None,
    max_proposals: int = DEFAULT_MAX_PROPOSALS,
) -> Run:
    start = time.perf_counter()
    result = metropolis(
        puzzle, seed=seed, temperature=temperature, max_proposals=max_proposals, timeout=TIMEOUT
    )
    seconds = time.perf_counter() - start
    if result.solved and problems(puzzle, result.values):
        raise AssertionError(f"{name} seed {seed}: metropolis returned a wrong solution")
    return Run(name, seed, result.solved, result.proposals, seconds, result.seconds)


def runs(puzzles: Iterator[tuple[str, Puzzle]], seeds: range = SEEDS) -> list[Run]:
    return [run(name, puzzle, seed) for name, puzzle in puzzles for seed in seeds]


def _warm_up() -> None:
    metropolis(_one(read_puzzles(text="1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n")), seed=0)


def set_goals(label: str, done: list[Run], target: float) -> list[Goal]:
    """Solved share, and median time per puzzle (the worst puzzle) against ``target``."""
    names = list(dict.fromkeys(r.puzzle for r in done))
    per = {n: median([r.seconds for r in done if r.puzzle == n]) for n in names}
    proposals = {n: median([r.proposals for r in done if r.puzzle == n]) for n in names}
    worst = max(names, key=per.__getitem__)
    solved = 100.0 * sum(r.solved for r in done) / len(done)
    seeds = len(done) // len(names)
    over = [n for n in names if per[n] > target]
    return [
        Goal(
            f"{label}: solved, {len(names)} puzzles × {seeds} seeds",
            solved,
            100.0,
            "%",
            higher_is_better=True,
        ),
        Goal(
            f"{label}: median time of the worst puzzle",
            per[worst],
            target,
            "s",
            detail=f"{worst}, {proposals[worst] / 1e6:.1f} M proposals; "
            f"{len(over)} of {len(names)} puzzles over",
        ),
        Goal(
            f"{label}: median time over all runs",
            median([r.seconds for r in done]),
            target,
            "s",
            detail=f"median {median([r.proposals for r in done]) / 1e6:.2f} M proposals",
        ),
    ]


def main() -> list[Goal]:
    _warm_up()
    samurai = runs(samurais())
    janko = [r for r in samurai if r.puzzle.startswith("janko")]
    rate = sum(r.proposals for r in janko) / sum(r.chain_seconds for r in janko)
    goals = [
        Goal(
            "proposals per second, janko Samurais (one core)",
            rate / 1e6,
            20.0,
            "M/s",
            higher_is_better=True,
            detail=f"T = {default_temperature(9)}",
        )
    ]
    goals += set_goals("Samurai", samurai, 0.05)
    goals += set_goals("16×16", runs(sixteens()), 0.2)
    return goals


def sweep(
    names: list[str],
    temperatures: list[float | None],
    seeds: int,
    max_proposals: int,
    detail: bool,
) -> None:
    """Per set and temperature: median proposals (M) of the worst puzzle (and the geometric
    mean of the puzzles' medians); ``/k``: k runs unsolved within ``max_proposals``."""
    _warm_up()
    print(
        "| set | " + " | ".join("default" if t is None else f"T={t:g}" for t in temperatures) + " |"
    )
    print("|---" * (len(temperatures) + 1) + "|")
    for name in names:
        puzzles = list(SETS[name]())
        cells = []
        for t in temperatures:
            done = [
                run(p_name, p, s, temperature=t, max_proposals=max_proposals)
                for p_name, p in puzzles
                for s in range(1, seeds + 1)
            ]
            per = [
                median([r.proposals if r.solved else np.inf for r in done if r.puzzle == n])
                for n, _ in puzzles
            ]
            failed = sum(not r.solved for r in done)
            if detail:
                for (p_name, _), m in zip(puzzles, per, strict=True):
                    ok = sum(r.solved for r in done if r.puzzle == p_name)
                    print(f"    T={t} {p_name}: median {m / 1e6:.3f} M, {ok}/{seeds} solved")
            geo = float(np.exp(np.mean(np.log(np.maximum(per, 1.0)))))
            cell = f"{max(per) / 1e6:.2f} ({geo / 1e6:.2f})"
            cells.append(cell + (f" /{failed}" if failed else ""))
        print(f"| {name} ({len(puzzles)}) | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_metropolis")
    parser.add_argument("command", choices=["sweep"])
    parser.add_argument("sets", nargs="*", default=list(SETS))
    parser.add_argument("--temperatures", default="0.2,0.25,0.3,0.35,0.4,default")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--max", type=float, default=1e8, help="max proposals per run")
    parser.add_argument("--detail", action="store_true", help="a line per puzzle too")
    args = parser.parse_args()
    temps = [None if t == "default" else float(t) for t in args.temperatures.split(",")]
    sweep(args.sets, temps, args.seeds, int(args.max), args.detail)
    sys.exit(0)
