"""Metropolis solver goals: proposals per second per move set, tracing cost, Samurai and 16×16
success rates and times.

``python -m benchmarks metropolis`` measures the goals at the default temperatures;
``python -m benchmarks.bench_metropolis scan [SET ...] [--seeds K] [--max M] [--moves M]``
runs the temperature scan that chose them (sets: see ``SETS``).

Every run is one ``metropolis()`` call (set-up included, kernels loaded beforehand); every
solution is checked by :func:`ndoku.tasks.verify.problems`. Proposal counts are exact for a seed,
times depend on the machine and on what else runs on it.

Temperature scan
----------------
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
(``schedule.default_temperature``); at the default the multigrids lose 9 runs of 90
against 13 at the best fixed temperature.

Pruned chains (hybrid), 2026-11-23
----------------------------------
``python -m benchmarks.bench_metropolis scan SET --prune --temperatures …``: box moves after
pruning (``moves.pruned``: forced cells fixed, guided swaps, penalty 1), same
columns as above. Pruning alone solves every puzzle of the samurai, 16x16 and multigrid sets,
4 of the 10 of 9x9-hard and 8 of 9x9-easy; ``9x9-hardest`` (forum_hardest_1106, first 10,
about 58 cells left each) and ``16x16-wild`` (wild_16x16, the first 19: the 20th has clashing
givens) are puzzles it leaves work on. 9×9: 5 seeds, cap 10⁸; 16x16-wild: 3 seeds, cap 10⁸;
25x25-random (``bench_tempering``): 2 seeds, cap 2·10⁸. One thread, load average 1.5-3.

| pruned       | T=0.2   | 0.25       | 0.3         | 0.35        | 0.4        | 0.45        |
|--------------|---------|------------|-------------|-------------|------------|-------------|
| 9x9-hardest  | inf /29 | 77 (15) /3 | 23 (7.5)    | 20 (4.2)    | 4.6 (2.0)  | *7.5 (1.7)* |
| 9x9-hard     | inf /7  | 53 (0.01)  | 16 (0.01)   | 17 (0.00)   | 12 (0.00)  | *3.3 (0)*   |
| 16x16-wild   | —       | 0.4 (0.01) | *0.5 (0.01)*| 0.3 (0.02)  | 9.3 (0.23) | —           |
| 25x25-random | —       | inf /9     | *54 (16)*   | 84 (20)     | inf /38    | inf /40     |

(at 0.5: 9x9-hardest 4.2 (1.4), 9x9-hard 7.0 (0), 16x16-wild inf /45; at 0.6: 9x9-hardest
16 (7.6), 9x9-hard 31 (0.01); a geometric mean near 0: most puzzles of the set need no
proposal after pruning.) Hence ``PRUNED_TEMPERATURES``: 0.45 for 9×9, 0.3 from 16×16
(starred). The pruned chain makes
15-20 M proposals/s on 25×25 where the plain one makes 55-60 (same machine and load): a
guided swap reads a chain of tables (the cell's candidates, where the candidate is, the
pair's row) one after the other.

Row and single-site moves
-------------------------
``python -m benchmarks.bench_metropolis scan 9x9-easy 9x9-hard --moves row|single --seeds 5
--max 5e7 --temperatures …`` (5 seeds; 10 for single-site 9x9-easy at 0.33-0.45; cap 5·10⁷
proposals, 3·10⁷ for the first single-site row). Same columns as above; ``inf``: the worst
puzzle's median run was unsolved, ``/k`` of 50 runs (100 with 10 seeds) unsolved.

| single-site | T=0.3       | T=0.33      | T=0.36      | T=0.39      | T=0.42      | T=0.45      |
|-------------|-------------|-------------|-------------|-------------|-------------|-------------|
| 9x9-easy    | 2.85 (0.11) | 1.22 (0.10) | 0.57 (0.06) | 0.67 (0.05) | 0.90 (0.05) | 3.36 (0.09) |
| 9x9-hard    | inf /19     | *inf /21*   | inf /32     | inf /44     | inf /49     | —           |

(easy at 0.4: 0.30 (0.06), 0.5: 17.8 (0.18) /2, 0.6: /13, 0.8: /38, 5 seeds.) The energy is
the textbook's, and so is the easy optimum: 0.36-0.42 against its 0.39. Hard puzzles want a
colder chain (62% solved at 0.3, 58% at 0.33, 36% at 0.36); the default 0.33 costs the easy
set a factor 2 at most.

| row      | T=0.25 | T=0.3       | T=0.35      | T=0.4         | T=0.45      | T=0.5       | 0.6  |
|----------|--------|-------------|-------------|---------------|-------------|-------------|------|
| 9x9-easy | /14    | 35.1 (1.52) | 4.60 (0.31) | *0.91 (0.12)* | 0.31 (0.05) | 0.55 (0.05) | 4 /1 |
| 9x9-hard | /49    | inf /46     | inf /37     | *inf /36*     | inf /44     | inf /48     | /50  |

Row moves want a hotter chain than box moves; 0.4 is the hard set's best and near the easy
set's (0.45). Both defaults are used for every N: only 9×9 was measured.

Speed (``python -m benchmarks metropolis``; 5 top95 puzzles × 2·10⁷ proposals, kernel time,
5 repeats back to back, on 2 cores shared with other work): box 138 M/s (134-140), row 126
(117-129), single-site 165 (141-166). Tracing box moves costs 2.4% (-0.2 to 6.2) with a row
every 1000 proposals and 12% (7.4 to 15.2) every 100. Against the box chain before schedules
existed (same puzzle and seed, alternating, 3 × 2 runs): 133 against 138 M/s on a 9×9 and 119
against 130 on a Samurai in one series, 122-131 against 128-137 in another; calling the box
kernel through the schedule driver or directly on the same state made no difference beyond
the run-to-run spread, so the gap is within the machine's noise (about ±8% here).

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

from benchmarks._common import Goal, benchmark_data, median
from ndoku.limits import DEFAULT_MAX_PROPOSALS
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.chains import MOVES, default_temperature, metropolis
from ndoku.tasks.verify import problems

SEEDS = range(1, 21)
TIMEOUT = 60.0  # per run: long enough that "solved" never depends on the limit
GOOMII_LINES = 10
RATE_PUZZLES = 5
RATE_PROPOSALS = 20_000_000
REPEATS = 5
TRACE_EVERY = 1000  # a sensible stride: 10⁵ rows for a 10⁸-proposal run


@dataclass(frozen=True)
class Run:
    puzzle: str
    seed: int
    solved: bool
    proposals: int
    seconds: float  # the whole metropolis() call
    chain_seconds: float  # the kernel alone


def files(folder: str, pattern: str, layout: str | None = None) -> Iterator[tuple[str, Puzzle]]:
    for path in sorted(benchmark_data(folder).glob(pattern)):
        if not path.name.endswith((".sol.txt", ".solution.txt")):
            yield path.name, _one(read_puzzles(path, layout=layout))


def lines(relative: str, count: int) -> Iterator[tuple[str, Puzzle]]:
    """One-line puzzles (``puzzle,solution`` or ``id puzzle,solution status``)."""
    path = benchmark_data(relative)
    for number, line in enumerate(path.read_text().splitlines()[:count], 1):
        field = line.split()[1] if " " in line.strip() else line
        yield f"{path.stem}:{number}", _one(read_puzzles(text=field.split(",")[0]))


def _one(puzzles: list[Puzzle]) -> Puzzle:
    [puzzle] = puzzles
    return puzzle


def samurais() -> Iterator[tuple[str, Puzzle]]:
    yield from files("samurai", "*.txt")
    yield from (("janko " + n, p) for n, p in files("janko/samurai", "*.puzzle.txt"))


def sixteens() -> Iterator[tuple[str, Puzzle]]:
    yield from (("janko " + n, p) for n, p in files("janko/16x16", "*.puzzle.txt"))
    yield from lines("sudoku16/goomii_16x16_sample1500.txt", GOOMII_LINES)


SETS: dict[str, Callable[[], Iterator[tuple[str, Puzzle]]]] = {
    "samurai": samurais,
    "16x16": sixteens,
    "9x9-hard": lambda: lines("sudoku9/norvig_top95.txt", 10),
    "9x9-easy": lambda: lines("sudoku9/norvig_easy50.txt", 10),
    # pruning alone solves the Samurai, 16x16 and multigrid sets: these puzzles it does not
    "9x9-hardest": lambda: lines("sudoku9/forum_hardest_1106.txt", 10),
    "16x16-wild": lambda: lines("sudoku16/wild_16x16.txt", 19),  # the 20th has clashing givens
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
    moves: str = "box",
    timeout: float = TIMEOUT,
    prune: bool = False,
) -> Run:
    start = time.perf_counter()
    result = metropolis(
        puzzle,
        seed=seed,
        temperature=temperature,
        max_proposals=max_proposals,
        timeout=timeout,
        moves=moves,
        prune=prune,
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
    goals += move_set_goals()
    goals += tracing_goals()
    return goals


def _rate(moves: str, trace_every: int = 0) -> float:
    """Proposals per second (M/s) of the kernel alone over RATE_PUZZLES hard 9×9s, seed 1, at
    the move set's default temperature: long runs that rarely solve."""
    proposals = seconds = 0.0
    for _, puzzle in lines("sudoku9/norvig_top95.txt", RATE_PUZZLES):
        result = metropolis(
            puzzle, seed=1, moves=moves, max_proposals=RATE_PROPOSALS, trace_every=trace_every
        )
        proposals += result.proposals
        seconds += result.seconds
    return proposals / seconds / 1e6


def move_set_goals() -> list[Goal]:
    """Proposals per second per move set, measured back to back REPEATS times (median)."""
    rates: dict[str, list[float]] = {m: [] for m in MOVES}
    for _ in range(REPEATS):
        for moves in MOVES:
            rates[moves].append(_rate(moves))
    return [
        Goal(
            f"proposals per second, {moves} moves, hard 9×9 (one core)",
            median(rates[moves]),
            20.0,
            "M/s",
            higher_is_better=True,
            detail=f"T = {default_temperature(9, moves=moves)}; {REPEATS} repeats "
            f"{min(rates[moves]):.0f}-{max(rates[moves]):.0f}",
        )
        for moves in MOVES
    ]


def tracing_goals(every: int = TRACE_EVERY) -> list[Goal]:
    """Box moves with and without a trace, alternating, REPEATS pairs: the median slowdown."""
    slowdowns = []
    for _ in range(REPEATS):
        plain = _rate("box")
        traced = _rate("box", trace_every=every)
        slowdowns.append(100 * (1 - traced / plain))
    return [
        Goal(
            f"tracing cost, box moves, a row every {every} proposals",
            median(slowdowns),
            10.0,
            "%",
            detail=f"{REPEATS} pairs {min(slowdowns):.1f} to {max(slowdowns):.1f} %",
        )
    ]


def scan(
    names: list[str],
    temperatures: list[float | None],
    seeds: int,
    max_proposals: int,
    detail: bool,
    moves: str = "box",
    prune: bool = False,
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
                run(p_name, p, s, t, max_proposals, moves, prune=prune)
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
    parser.add_argument("command", choices=["scan"])
    parser.add_argument("sets", nargs="*", default=list(SETS))
    parser.add_argument("--temperatures", default="0.2,0.25,0.3,0.35,0.4,default")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--max", type=float, default=1e8, help="max proposals per run")
    parser.add_argument("--detail", action="store_true", help="a line per puzzle too")
    parser.add_argument("--moves", choices=MOVES, default="box", help="the move set")
    parser.add_argument("--prune", action="store_true", help="pruned chains (as hybrid runs)")
    args = parser.parse_args()
    temps = [None if t == "default" else float(t) for t in args.temperatures.split(",")]
    scan(args.sets, temps, args.seeds, int(args.max), args.detail, args.moves, args.prune)
    sys.exit(0)
