"""General instances of Lloyd and Amos's ant-colony study: every method on 9×9, 16×16 and
25×25 grids with 0-100% of the cells given, several solutions allowed.

``python -m benchmarks acs`` runs every method of ``ndoku solve`` on the 630 instances of
``benchmarks/data/acs`` (sizes 9, 16, 25; fill 0, 5, …, 100%; instances 0-9), one seed, a 10 s
cap per run (their published setting), prints the table of solved runs and median seconds per
size and fill, draws :data:`FIGURE`, and checks the goals: ``hybrid`` and ``tempering`` solve
every instance, each within 1 s, with a median no slower than the ant colony's (about
0.5 ms). ``python -m benchmarks.bench_acs [--methods M,M] [--instances K] [--sizes 9,25]``
runs a part (the first K instances of each size and fill; no figure).

A run's seconds are the wall time of the whole :func:`ndoku.tasks.solve.solve` call
(pruning, hybrid's search, the start fill, the chain and the verification of the answer;
kernels compiled beforehand on the runs of ``WARM_FILLS``, and the layout's tables built
once per size, as for a batch),
on one core of a 2-core machine shared with other work (tempering uses both).

An instance counts as solved when ndoku returns a grid that holds every given and every
unit; an instance with several solutions is solved by any of them.

The instances' format (``inst{N}x{N}_{fill}_{k}.txt``: the box order, a flag, then N rows of
N tab-separated values, ``-1`` empty) is read here by :func:`read_instance`; it is not one
of ndoku's formats.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from benchmarks._common import REPO, Goal, benchmark_data, median
from ndoku.model.frame import Frame
from ndoku.model.puzzle import Puzzle, from_grid
from ndoku.tasks.solve import METHODS, Options, solve
from ndoku.text.formats import parse

#: Every method ``ndoku solve --method`` offers (``auto`` is ``exact``).
ACS_METHODS = tuple(m for m in METHODS if m != "auto")
TIMEOUT = 10.0
#: The whole set: instances per size and fill, and sizes.
COUNT = 10
SIZES = (9, 16, 25)
SEED = 0
#: The goals of ``hybrid`` and ``tempering``: the slowest run, and the median run (the ant
#: colony's median over the same instances, as published).
WORST_SECONDS = 1.0
MEDIAN_SECONDS = 0.0005
GOAL_METHODS = ("hybrid", "tempering")
FIGURE = REPO / "benchmarks" / "figures" / "acs.png"
#: Fills whose instances every method runs (capped at ``WARM_SECONDS``) before timing: the
#: dive alone fills most grids, so a kernel that only a few runs need (tempering's rounds on
#: 25×25: the first is 45 % #1) was compiled inside a timed run, 2.6-3.5 s instead of 0.8 s.
WARM_FILLS = (0, 45)
WARM_SECONDS = 2.0
_NAME = re.compile(r"inst(\d+)x\d+_(\d+)_(\d+)\.txt")


@dataclass(frozen=True)
class Run:
    method: str
    size: int
    fill: int
    instance: int
    solved: bool
    seconds: float


def read_instance(path: Path, frames: dict[tuple[int, int], Frame] | None = None) -> Puzzle:
    """An instance file as a puzzle: its N rows after the two header lines, ``-1`` empty
    (``frames``: the layouts already built, by shape, which the puzzle shares).

    >>> p = read_instance(benchmark_data("acs/inst9x9_100_0.txt"))
    >>> p.size, int((p.givens > 0).sum())
    (9, 81)
    """
    rows = path.read_text().split("\n")[2:]
    grid = [" ".join("0" if v == "-1" else v for v in row.split()) for row in rows if row.strip()]
    [parsed] = parse("\n".join(grid) + "\n", str(path))
    return from_grid(parsed, None, frames)


def instances(
    count: int = 10, sizes: tuple[int, ...] = (9, 16, 25)
) -> list[tuple[Path, int, int, int]]:
    """``(path, size, fill, instance)`` of the first ``count`` instances per size and fill,
    by size, fill and instance."""
    found = []
    for path in benchmark_data("acs").glob("inst*.txt"):
        size, fill, k = (int(g) for g in _NAME.fullmatch(path.name).groups())  # type: ignore[union-attr]
        if size in sizes and k < count:
            found.append((path, size, fill, k))
    return sorted(found, key=lambda f: f[1:])


def run_all(methods: tuple[str, ...], count: int, sizes: tuple[int, ...]) -> list[Run]:
    chosen = instances(count, sizes)
    frames: dict[tuple[int, int], Frame] = {}  # a layout's tables built once, as in a batch
    warm = Options(seed=SEED, timeout=WARM_SECONDS)
    for method in methods:  # compile or load every kernel the runs need, untimed
        for path, _, fill, _ in chosen:
            if fill in WARM_FILLS:
                solve(read_instance(path, frames), method, warm)
    runs = []
    for path, size, fill, k in chosen:
        puzzle = read_instance(path, frames)
        for method in methods:
            start = time.perf_counter()
            outcome = solve(puzzle, method, Options(seed=SEED, timeout=TIMEOUT))
            seconds = time.perf_counter() - start
            runs.append(Run(method, size, fill, k, outcome.answered, seconds))
    return runs


def table(runs: list[Run]) -> str:
    """Markdown: per size and fill, each method's solved runs and median seconds (ms)."""
    methods = list(dict.fromkeys(r.method for r in runs))
    cells: dict[tuple[int, int, str], list[Run]] = defaultdict(list)
    for r in runs:
        cells[r.size, r.fill, r.method].append(r)
    lines = ["| size | fill % | " + " | ".join(methods) + " |", "|---|---|" + "---|" * len(methods)]
    for size, fill in sorted({(r.size, r.fill) for r in runs}):
        row = []
        for m in methods:
            done = cells[size, fill, m]
            solved = sum(r.solved for r in done)
            ms = median([r.seconds for r in done]) * 1000
            row.append(f"{solved}/{len(done)} {ms:.3g}")
        lines.append(f"| {size}×{size} | {fill} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def plot(runs: list[Run], path: Path = FIGURE) -> None:
    """Share solved and median seconds against fill, a column per size, a line per method."""
    from ndoku.tasks.plot import pyplot

    plt = pyplot()
    sizes = sorted({r.size for r in runs})
    methods = list(dict.fromkeys(r.method for r in runs))
    fig, axes = plt.subplots(2, len(sizes), figsize=(4.2 * len(sizes), 6.5), squeeze=False)
    for col, size in enumerate(sizes):
        for m in methods:
            fills = sorted({r.fill for r in runs if r.size == size})
            done = [[r for r in runs if (r.size, r.fill, r.method) == (size, f, m)] for f in fills]
            share = [100 * sum(r.solved for r in d) / len(d) for d in done]
            seconds = [median([r.seconds for r in d]) for d in done]
            axes[0][col].plot(fills, share, marker=".", label=m)
            axes[1][col].plot(fills, seconds, marker=".", label=m)
        axes[0][col].set_title(f"{size}×{size}")
        axes[0][col].set_ylabel("solved within 10 s (%)")
        axes[1][col].set_yscale("log")
        axes[1][col].set_ylabel("median seconds")
        axes[1][col].set_xlabel("cells given (%)")
    axes[1][0].axhline(MEDIAN_SECONDS, color="grey", linestyle=":", label="ant colony median")
    axes[0][-1].legend(fontsize="small")
    axes[1][0].legend(fontsize="small")
    fig.suptitle("Lloyd–Amos general instances, one run each (seed 0)")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)


def goals(runs: list[Run]) -> list[Goal]:
    found = []
    for m in GOAL_METHODS:
        done = [r for r in runs if r.method == m]
        if not done:
            continue
        slowest = max(done, key=lambda r: r.seconds)
        where = f"{slowest.size}×{slowest.size} {slowest.fill}% #{slowest.instance}"
        found += [
            Goal(f"ACS {m}: solved", 100 * sum(r.solved for r in done) / len(done), 100.0, "%",
                 higher_is_better=True, detail=f"{len(done)} instances"),
            Goal(f"ACS {m}: slowest run", slowest.seconds, WORST_SECONDS, "s", detail=where),
            Goal(f"ACS {m}: median run", median([r.seconds for r in done]) * 1000,
                 MEDIAN_SECONDS * 1000, "ms", detail="ant colony: 0.5 ms"),
        ]  # fmt: skip
    return found


def main(
    methods: tuple[str, ...] = ACS_METHODS, count: int = COUNT, sizes: tuple[int, ...] = SIZES
) -> list[Goal]:
    whole = (methods, count, sizes) == (ACS_METHODS, COUNT, SIZES)
    if whole:
        from ndoku.tasks.plot import pyplot

        pyplot()  # a missing plot extra fails here, not after the minutes of the run
    runs = run_all(methods, count, sizes)
    print(table(runs), flush=True)
    if whole:
        plot(runs)
        print(f"figure: {FIGURE.relative_to(REPO)}")
    else:  # the README's figure shows the whole set
        print("figure: not drawn for a part of the set")
    return goals(runs)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_acs")
    parser.add_argument("--methods", default=",".join(ACS_METHODS))
    parser.add_argument("--instances", type=int, default=COUNT, help="first K per size and fill")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    args = parser.parse_args()
    chosen_sizes = tuple(int(s) for s in args.sizes.split(","))
    for goal in main(tuple(args.methods.split(",")), args.instances, chosen_sizes):
        print(goal.line())
    sys.exit(0)
