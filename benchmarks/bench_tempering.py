"""Parallel tempering goals: 25×25 puzzles solved within 2·10⁸ proposals, median ≤ 5 s.

``python -m benchmarks tempering`` measures the goals with the default (pruned) ladder and
exchange interval, and on the same runs, for comparison, unpruned tempering (the default
before pruning), one pruned chain (as ``hybrid`` runs it) and one unpruned chain, each at its
default; ``python -m benchmarks.bench_tempering scan [SET ...] [--ladders ...] [--every ...]
[--no-prune]`` runs the scan that chose the defaults (sets: those of ``bench_metropolis``
plus ``25x25-public``, ``25x25-wild`` and ``25x25-random``).

The 25×25 sets: ``25x25-public`` is every public 25×25 puzzle of the benchmark sets (the 6
minimal Gecode puzzles of ``gecode_25x25_shared6.txt`` and the 20 collected from the wild in
``wild_25x25.txt``, see ``benchmarks/data/SOURCES.md``); ``25x25-random`` is 20 puzzles with
55% of the cells blanked from solved 25×25 grids that ndoku's own generator made
(``make_random25``, seeds 1..20), kept in ``random55_25x25.txt``: the generator takes the
exact solver's first solution, so the grids changed with the solver's search order. Figures
before the goal run of 2026-11-23 below (the unpruned goal run and scan) were on an earlier
set of grids (set A); the pruned scans partly on another (set B, the pruned scan 1), and
from the pruned scan 3 on the set in the file (set C).
Every solution is checked by :func:`ndoku.tasks.verify.problems`. Proposal counts are exact for a
seed and do not depend on the thread count; times depend on the machine and its load.
Proposals are always counted over all replicas together.

Goal run (``python -m benchmarks tempering``: pruned, default ladder 0.279-0.369 and
interval, both cores, seeds 1-3, load average 1.75 before and 2.23 after; 2026-11-23)
-------------------------------------------------------------------------------------------
25×25 public: 76.9% solved within 2·10⁸ (goal 95%: missed by 18 points), median 2.29 s and
16.6 M proposals (goal 5 s: met). Unsolved: all 18 runs of the six Gecode minimal puzzles;
every run of the 20 wild puzzles solved (wild 2, 8 and 13 failed some runs unpruned). Without
the Gecode puzzles the set cannot pass 76.9%, so the goal needs them solved.

25×25 random 55% (set C): 100% solved (goal met), median 0.65 s and 16.4 M proposals (met).
Again on 2026-11-24 (load average 0.9 before, 1.15 after): the same runs solved with the same
proposals (public 76.9%, random 100%), medians 0.18 s and 0.17 s on a quieter machine.

With the dive start of pruned chains (``chains/fill.py``; 2026-11-24, load average 6.1
before and 7.8 after): the same shares (public 76.9%, the Gecode six unsolved; random 100%),
medians 0.013 s and 0.061 s with 0 proposals (a replica's dive fills the grid); one pruned
chain 77% and 100%, medians 0.01 s / 0 M and 0.21 s / 6.5 M proposals.

The same runs, for comparison (solved, median time, median proposals):

| method                            | public             | random 55%          |
|-----------------------------------|--------------------|---------------------|
| *pruned tempering (the default)*  | 77%, 2.29 s, 16.6 M | 100%, 0.65 s, 16.4 M |
| unpruned tempering (``--no-prune``) | 67%, 0.07 s, 9.8 M | 70%, 0.82 s, 120 M  |
| one pruned chain (hybrid, T = 0.3) | 72%, 1.40 s, 42.4 M | 98%, 0.48 s, 15.1 M |
| one unpruned chain (T = 0.25)     | 65%, 0.23 s, 29.1 M | 67%, 0.89 s, 106 M  |

(a pruned run's time includes pruning, about 0.03 s, and its proposals are 3-4 times slower
than plain ones: see ``bench_metropolis``.)

Why the Gecode puzzles stay out of reach: pruning leaves 322-340 free cells with 5.3-5.6
candidates each (of 25). Trying every candidate of every cell with propagation (singleton
consistency, outside ndoku) removes almost nothing more (gecode19: 5.36 → 5.27 candidates per
cell). Pruned ladders between 0.26 and 0.44 (4 to 8 rungs) bring each of the six to energy
2-4 within 2·10⁸ proposals and never to 0; colder (0.15-0.18) or hotter (0.4-0.5) ones stop
higher (6-14). 2·10⁹ proposals do not solve gecode19, 20 or 24 either (0.28-0.38 in 6 rungs,
0.12-0.4 in 10). The energy-2 states found lie 146-173 cells away from the solution
(gecode19 and 20, seeds 1-2): these puzzles have many near-solutions far apart, and the
chains do not cross between them. The exact solver solves each in about a second.

Cluster moves do not cross them either (2026-11-24, a prototype outside ndoku: pruned box
swaps plus Kempe-chain moves, which swap two symbols a and b over the connected a/b cells,
and the Wang-Swendsen-Kotecký variant with row and column bonds kept with probability
1 − exp(−1/T); 4 rungs 0.28-0.37, 2·10⁸ proposals, a cluster move counted as one). 99.5-99.8%
of cluster moves meet a fixed cell (47% of cells are fixed after pruning, and a component
meets one after about 2 cells); the rest are mostly 4-cell rectangles. Over the 6 puzzles,
seeds 1-3 and more: 1 of 144 cluster runs solved (gecode19, once in 10 tries of that
setting), 0 of 40 without; the runs end at energy 2-4, 140-230 cells from the solution. At
each known solution no (cell, symbol) pair has a component free of fixed cells (which is
what uniqueness means). On three wild 25×25 puzzles they cost about 5% and changed nothing.

Goal run before pruning (unpruned default ladder 0.23-0.26, seeds 1-3, load average 0.4
before and 1.2 after, set A): public 66.7%, median 0.065 s and 9.8 M proposals (unsolved:
the 18 Gecode runs and some runs of wild 2, 8 and 13); random 55% 68.3%, median 0.52 s and
103 M; one chain at T = 0.25: 65% and 85%.

Pruned chains (the default since 2026-11-23; one thread)
--------------------------------------------------------
Scan 1, penalty and share of guided swaps (``moves.PENALTY``, ``GUIDED_SHARE``):
25x25-random (set A for the first four rows, B after) and wild 3, 8, 9 and 13, seeds 1-3,
cap 2·10⁸; runs solved of 72 and the 50th/75th/90th/95th percentiles of proposals (M):

| penalty, share | =0.28/0.31/0.34/0.37 | =0.3/0.33/0.36/0.4   | =0.32/0.35/0.38/0.42 |
|----------------|----------------------|----------------------|----------------------|
| 1, 1           | 72, 15/27/41/67      | 71, 18/39/65/99      | 72, 23/37/82/110     |
| 1, 0.9         | 72, 19/30/46/60      | 72, 14/25/64/76      | 71, 23/52/80/94      |
| 1, 0.75        | 72, 16/27/43/66      | 72, 15/43/61/71      | 71, 24/43/72/111     |
| 2, 1           | 69, 29/47/77/150     | 71, 24/45/71/86      | 72, 27/49/98/118     |
| 2, 0.9         | 71, 33/50/79/90      | 70, 28/52/78/112     | 70, 25/48/89/143     |

Again on set C with the default ladder (0.279-0.369), same puzzles and seeds: *penalty 1,
share 0.9*: 72, 16/38/54/94; penalty 2, share 0.9: 72, 36/57/93/144; penalty 1, share 1:
72, 21/41/62/86. A penalty of 2 doubles the proposals; the share makes no difference beyond
the noise, and 0.9 keeps every state reachable (``ndoku.solvers.chains.moves`` glossary).

Unpruned at the same ladders the random set fails (0.3-0.4: 0/20 runs, 0.26-0.42 in 6 rungs:
3/20, seed 1): pruning, not the warmer ladder, makes the difference. The pruned ladder wants
to be warmer than the plain one (the default 0.23-0.26 solved 14 of 20, 0.3-0.4 19 of 19, a
first look on set A, seed 1, 19 of the puzzles).

Scan 3, ladders (``a:b:R``: R rungs from a to b times the pruned default T, 0.3 on 25×25),
set C, seeds 1-3, cap 2·10⁸ (10⁸ for 9×9 and 16×16, seeds 1-5): the worst puzzle's median
and the geometric mean of the puzzles' medians (M), runs solved (of 60, 50 or 95), and for
25×25 the 50th/75th/90th/95th percentiles (M):

| set (× 3 seeds) | 0.85:1.15:4 | *0.93:1.23:4* | 1.0:1.33:4 | 0.9:1.4:5 |
|---|---|---|---|---|
| 25x25-random | 72 (25), 60 | 52 (17.5), 60 | 94 (19.7), 60 | 125 (24.8), 60 |
|  | 25/45/72/82 | 16/36/51/59 | 20/37/68/82 | 23/49/72/92 |
| 25x25-wild | 27 (0.08), 59 | 124 (0.24), 60 | inf, 39 | 43 (0.14), 60 |
|  | 1.8/4.3/8.0/24 | 9.1/21/41/55 | 89/inf/inf/inf | 4.7/8.5/22/40 |

| set (× 5 seeds) | 0.7:1.1:4 | *0.8:1.1:4* | 0.9:1.2:4 | 0.9:1.3:4 |
|---|---|---|---|---|
| 9x9-hardest | 6.4 (2.6), 50 | 4.4 (1.7), 50 | 8.4 (2.4), 50 | 4.1 (1.3), 50 |
| 9x9-hard | 2.8 (0), 50 | 4.4 (0), 50 | 15 (0), 50 | 5.6 (0), 50 |
| 16x16-wild | 1.6 (0.02), 95 | 0.8 (0.02), 95 | *0.7 (0.02), 95* | 0.4 (0.02), 95 |

Hence ``LADDER_SPANS``: 0.8-1.1 of the pruned default T (0.45) up to 9×9, 0.9-1.2 (of 0.3)
for 16×16, 0.93-1.23 (of 0.3) from 25×25; 4 rungs. The wild 25×25 puzzles (some nearly
empty, with many solutions) want a colder ladder than the random ones: 0.3-0.4 loses a third
of their runs, 0.255-0.345 is slower on the random ones. Exchange rates on 25×25 are 40-60%
per pair of neighbours. Not measured pruned: multigrids that pruning leaves work on (none in
the benchmark sets), whose ladder takes the 9×9 spans around the overlap-warmed T.

The ``bench_metropolis`` sets with the default ladder, seeds 1-3, cap 10⁸ (``scan samurai
16x16 9x9-hard 9x9-easy 9x9-hardest 16x16-wild``; solved, p50/p75/p90/p95 of proposals, M),
against unpruned tempering (the table below, and ``--no-prune`` runs):

| set               | pruned                  | unpruned                                |
|-------------------|-------------------------|-----------------------------------------|
| samurai (8)       | 24/24, 0 (pruning alone) | 24/24, median 0.8, p75 2.8             |
| 16x16 (13)        | 39/39, 0 (pruning alone) | 38/39, median 5.2, p75 14.8            |
| 9x9-hard (10)     | 30/30, 0.1/2.0/4.4/7.3  | 29/30, median 24.9, p75 35              |
| 9x9-easy (10)     | 30/30, 0.0/0.0/0.0/0.1  | 30/30, median 0.1, p75 0.2              |
| 9x9-hardest (10)  | 30/30, 2.0/3.0/3.8/4.3  | 30/30, 6.0/10.9/19.3/29.0               |
| 16x16-wild (19)   | 57/57, 0.1/0.2/0.2/0.3  | 54/57, 0.5/0.8/1.9/inf                  |

Plain chains (``--no-prune``; the default before pruning), set A
----------------------------------------------------------------
Per set and setting: runs solved within the cap, and the median and 75th percentile of
proposals per run (an unsolved run counts as infinite). Exchanges every 10 000 proposals per
replica unless said; ``a:b`` ladders are 4 rungs from a to b times the default temperature,
``=`` ladders given temperatures; ``fixed`` is one Metropolis chain at the default T.

25×25 random 55% (20 puzzles), cap 2·10⁸:

| setting                      | seeds | solved  | median, p75 (M) |
|------------------------------|-------|---------|-----------------|
| fixed T = 0.25               | 1-5   | 83/100  | 71, 153         |
| *=0.23/0.24/0.25/0.26*       | 1-5   | 73/100  | 108, inf        |
| =0.24/0.25/0.26/0.27         | 1-5   | 74/100  | 105, inf        |
| =0.225/0.235/0.245/0.255     | 1-5   | 67/100  | 118, inf        |
| =0.23/0.24/0.25/0.26, every 1 000   | 1-2 | 29/40 | 108, inf     |
| =0.23/0.24/0.25/0.26, every 100 000 | 1-2 | 29/40 | 99, inf      |
| =0.22/0.235/0.25/0.265       | 1-2   | 28/40   | 118, inf        |
| =0.22/0.24/0.26/0.28         | 1-2   | 26/40   | 105, inf        |
| =0.22/0.24/0.26/0.28/0.30    | 1-2   | 27/40   | 165, inf        |
| =0.23/0.245/0.26             | 1-2   | 31/40   | 122, 193        |
| =0.24/0.26                   | 1-2   | 28/40   | 117, inf        |
| 4 rungs 0.2 … 0.35           | 1-2   | 20/39   | 200, inf        |

Exchange rates: 0.23-0.26 takes 60-70% of exchanges per pair, 0.22-0.30 (5 rungs) 25-50%,
0.2-0.35 (5 rungs) 30-50% between its two coldest rungs, 5-15% between the next two and
1-4% above 0.26: the hot
replicas of a wide ladder hardly ever hand a state down, they only spend proposals. With the
cap counted over all replicas no ladder beat the single chain on these puzzles; on the four
that the chain finds hardest (random55:3, 8, 13 and 18, seeds 1-2, cap 10⁹) 0.23-0.26
solved 8/8 with median 2.2·10⁸ against the chain's 8/8 with 3.0·10⁸, 0.22-0.30 8/8, 0.2-0.35
6/8. The Gecode minimal puzzles (gecode19, 20, 23: 355-357 empty cells, unique) were not
solved within 10⁹ proposals by 0.2-0.35 (5 rungs), 0.18-0.36 (7) or 0.22-0.32 (4).

Other sizes, cap 10⁸ (the chain's own runs capped there too):

| set (puzzles × seeds)  | fixed         | 0.9:1.1       | 0.9:1.2       | 0.8:1.4       |
|------------------------|---------------|---------------|---------------|---------------|
| samurai (8 × 3)        | 24, 1.0, 4.1  | 24, 1.0, 3.8  | *24, 0.8, 2.8* | 24, 0.9, 1.2  |
| 16x16 (13 × 3)         | 38, 2.8, 14.2 | *38, 5.2, 14.8* | 36, 3.7, 17.0 | 35, 5.7, 22.4 |
| 9x9-hard (10 × 3)      | 25, 18.5, 43  | 29, 15.5, 39  | *29, 24.9, 35* | 27, 21.7, 46  |
| 9x9-easy (10 × 3)      | 30, 0.0, 0.1  | 30, 0.1, 0.2  | *30, 0.1, 0.2* | 30, 0.1, 0.2  |

(runs solved, median and p75 proposals in millions; starred: the default.) Hence
``LADDER_SPANS``: 0.9-1.2 up to N = 9 (multigrids included: their default temperature
already carries the overlap), 0.9-1.1 for 16, 0.92-1.04 from 25 (starred above), 4 rungs.

Throughput (random55:3, 4 rungs 0.23-0.26, 4·10⁷ proposals, load average 0.2): one chain
115 M/s; tempering on one thread 93-125 M/s; on two threads 140-155 M/s exchanging every
1 000 proposals, 170-177 every 10 000, 176-192 every 100 000 (hence the default 10 000).
Again later (load 0.8, three repeats): 223-236 M/s every 10 000, 223-240 every 100 000; with
``OMP_WAIT_POLICY=passive`` (threads sleep instead of spinning at the barrier) 144-150 every
10 000 and 212-229 every 100 000.
While another process kept one core busy, two threads fell to 5-25 M/s (numba's OpenMP
threads wait for each other at every exchange, and the one sharing a core waits most) where
one thread kept 50-80 M/s: on a busy machine, ``threads=1`` is faster.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from benchmarks._common import Goal, median
from benchmarks.bench_metropolis import SETS as CHAIN_SETS
from benchmarks.bench_metropolis import Run, lines
from benchmarks.bench_metropolis import run as chain_run
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.chains import (
    DEFAULT_EXCHANGE_EVERY,
    geometric_ladder,
    metropolis,
    puzzle_temperature,
    tempering,
)
from ndoku.tasks.generate import layout_puzzle, puzzle_line, random_solution
from ndoku.tasks.verify import problems

#: The 25x25-random set, as ``make_random25`` wrote it on 2026-11-23 (``python -m
#: benchmarks.bench_tempering random-set`` writes it again, from the solver of the day).
RANDOM_FILE = Path(__file__).with_name("random55_25x25.txt")
CAP = 200_000_000  # the goal: solved within this many proposals (all replicas together)
TIMEOUT = 120.0  # per run: the proposal cap, not the clock, decides "unsolved"
SEEDS = range(1, 4)
BLANK = 0.55
RANDOM_PUZZLES = 20


def public25() -> Iterator[tuple[str, Puzzle]]:
    yield from lines("sudoku25/gecode_25x25_shared6.txt", 6)
    yield from wild25()


def wild25() -> Iterator[tuple[str, Puzzle]]:
    yield from lines("sudoku25/wild_25x25.txt", 20)


def random25() -> Iterator[tuple[str, Puzzle]]:
    """The puzzles of :data:`RANDOM_FILE`, written by :func:`make_random25`."""
    for number, line in enumerate(RANDOM_FILE.read_text().split(), 1):
        [puzzle] = read_puzzles(text=line)
        yield f"random55:{number}", puzzle


def make_random25(count: int = RANDOM_PUZZLES) -> Iterator[tuple[str, Puzzle]]:
    """55% of the cells blanked from solved grids ndoku generates itself (seeds 1..count).

    The grids come from the exact solver's first solution from random scattered givens, so
    they change whenever its search order does: the benchmark reads them from a file."""
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
    "25x25-public": public25,
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
    prune: bool = True,
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
        prune=prune,
    )
    seconds = time.perf_counter() - start
    if result.solved and problems(puzzle, result.values):
        raise AssertionError(f"{name} seed {seed}: tempering returned a wrong solution")
    return Run(name, seed, result.solved, result.proposals, seconds, result.seconds)


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


def comparison(what: str, done: list[Run]) -> str:
    solved = 100.0 * sum(r.solved for r in done) / len(done)
    return (
        f"     for comparison, {what}: {solved:.0f}% solved, median "
        f"{median([r.seconds for r in done]):.2f} s, "
        f"{median([r.proposals for r in done]) / 1e6:.1f} M proposals"
    )


#: What the goal run compares the default with: the unpruned ladder (the default before
#: pruning), one pruned chain (hybrid's) and one unpruned chain, each at its default.
COMPARED: dict[str, Callable[[str, Puzzle, int], Run]] = {
    "unpruned tempering": lambda n, p, s: run(n, p, s, prune=False),
    "one pruned chain": lambda n, p, s: chain_run(n, p, s, None, CAP, timeout=TIMEOUT, prune=True),
    "one unpruned chain": lambda n, p, s: chain_run(n, p, s, None, CAP, timeout=TIMEOUT),
}


def main() -> list[Goal]:
    _warm_up()
    print(f"     load average before: {os.getloadavg()[0]:.2f}", flush=True)
    found: list[Goal] = []
    for label, puzzles in (("25×25 public", public25), ("25×25 random 55%", random25)):
        chosen = list(puzzles())
        found += goals(label, [run(n, p, s) for n, p in chosen for s in SEEDS])
        for what, other in COMPARED.items():
            done = [other(n, p, s) for n, p in chosen for s in SEEDS]
            print(comparison(f"{what} on {label}", done), flush=True)
    print(f"     load average after: {os.getloadavg()[0]:.2f}", flush=True)
    return found


def scan(
    names: list[str],
    ladders: list[str],
    intervals: list[int],
    seeds: int,
    max_proposals: int,
    prune: bool = True,
) -> None:
    """Per set, ladder and interval: median proposals (M) of the worst puzzle, the geometric
    mean of the puzzles' medians, and ``/k`` for k runs unsolved within ``max_proposals``;
    then the share solved and the 50th, 75th, 90th and 95th percentiles of all runs'
    proposals (M; an unsolved run counts as infinite).

    A ladder is ``default``, ``COLD:HOT:RUNGS`` as multiples of the default temperature, or
    ``=T1/T2/…`` for given temperatures."""
    _warm_up()
    print(
        "| set | ladder | every | worst (geo. mean) /unsolved | median s | solved | p50/75/90/95 |"
    )
    print("|---|---|---|---|---|---|---|")
    for name in names:
        puzzles = list(SETS[name]())
        for spec in ladders:
            for every in intervals:
                done = []
                for p_name, p in puzzles:
                    ladder = _ladder(spec, p, prune)
                    done += [
                        run(p_name, p, s, ladder, every, max_proposals, threads=1, prune=prune)
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
                runs = [r.proposals if r.solved else np.inf for r in done]
                tail = "/".join(f"{q / 1e6:.1f}" for q in np.percentile(runs, [50, 75, 90, 95]))
                share = f"{sum(r.solved for r in done)}/{len(done)}"
                print(
                    f"| {name} ({len(puzzles)}) | {spec} | {every} | {cell} | {seconds:.2f} "
                    f"| {share} | {tail} |"
                )
                sys.stdout.flush()


def _ladder(spec: str, puzzle: Puzzle, prune: bool) -> tuple[float, ...] | None:
    if spec == "default":
        return None
    if spec.startswith("="):
        return tuple(float(t) for t in spec[1:].split("/"))
    cold, hot, rungs = spec.split(":")
    middle = puzzle_temperature(puzzle, pruned=prune)
    return geometric_ladder(float(cold) * middle, float(hot) * middle, int(rungs))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_tempering")
    parser.add_argument("command", choices=["scan", "random-set"])
    parser.add_argument("sets", nargs="*", default=["25x25-public", "25x25-random"])
    parser.add_argument("--ladders", default="default")
    parser.add_argument("--every", default=str(DEFAULT_EXCHANGE_EVERY))
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--max", type=float, default=CAP, help="max proposals per run")
    parser.add_argument("--no-prune", action="store_true", help="the plain, unpruned chains")
    args = parser.parse_args()
    if args.command == "random-set":
        empty = layout_puzzle("25x25")
        made = [puzzle_line(empty, p.givens) for _, p in make_random25()]
        RANDOM_FILE.write_text("\n".join(made) + "\n")
        sys.exit(0)
    scan(
        args.sets,
        args.ladders.split(","),
        [int(k) for k in args.every.split(",")],
        args.seeds,
        int(args.max),
        not args.no_prune,
    )
    sys.exit(0)
