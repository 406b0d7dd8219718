"""Make the minimal 25×25 sets of ``bench_minimal25``: ``ndoku generate 25x25`` by seed, then
every given left checked once more without the generator's node cap.

``ndoku generate`` counts a removal check that needs more than ``thinning.CHECK_NODES``
search nodes as failed, so its "minimal" 25×25 puzzles are those the exact search proves
unique within that cap: easy for it by construction. Here each puzzle is then made minimal
for good (:func:`strict`): every given left is checked again with ``STRICT_NODES`` nodes;
a given whose removal leaves the puzzle unique goes, one that leaves two solutions stays,
and one whose check hits the cap stays too and is counted as undecided.

``python -m benchmarks.make_minimal25 FIRST COUNT OUT`` makes the puzzles of seeds
``FIRST .. FIRST + COUNT - 1`` and appends one line per puzzle to OUT as it is made:
``seedS PUZZLE givens=G removed=R undecided=U`` (625 characters, ``0`` empty, ``1-9A-P``;
R givens taken by the strict pass, U of those left undecided). Puzzles only: the solutions
are not written. The first line says how they were made and by which ndoku commit.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from benchmarks._common import REPO
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.exact import solve_table
from ndoku.solvers.random import generator
from ndoku.tasks.generate import IntArray, generate, layout_puzzle, puzzle_line

#: Seconds per puzzle for ``generate``: a minimal 25×25 takes one to a few minutes on a busy
#: core.
TIMEOUT = 900.0
#: Nodes a strict removal check may search (deterministic, unlike a time limit; on the
#: search of ndoku 2026-11 about half a minute).
STRICT_NODES = 200_000
#: Nodes of the first checks, which only sort out the givens that are needed.
SORTING_NODES = 20_000


def commit() -> str:
    """The ndoku commit the puzzles are made with (``+`` when ``ndoku/`` has changes)."""
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "ndoku"], cwd=REPO, capture_output=True, text=True
    ).stdout.strip()
    return head + ("+" if dirty else "")


def strict(puzzle: Puzzle, givens: IntArray, seed: int) -> tuple[IntArray, int, int]:
    """Remove givens from a unique puzzle until each one left is needed: (givens, removed,
    undecided).

    First every given is checked at once (a batch of the puzzle less each one, each check
    within ``SORTING_NODES``): those that leave two solutions are needed for good (fewer
    givens never make a puzzle unique again). The others are checked again one at a time,
    in a random order of ``seed``, on the puzzle as it is then: a given goes when the
    puzzle stays unique, and stays, undecided, when the check hits ``STRICT_NODES``.
    """
    givens = givens.copy()
    pending = generator(seed).permutation(np.flatnonzero(givens))
    rows = np.repeat(givens[None, :], len(pending), axis=0)
    rows[np.arange(len(pending)), pending] = 0
    batch = solve_table(puzzle, rows, limit=2, max_nodes=SORTING_NODES, timeout=1e6)
    removed = undecided = 0
    for cell in pending[batch.counts < 2]:
        trial = givens.copy()
        trial[cell] = 0
        [check] = solve_table(puzzle, trial[None, :], limit=2, max_nodes=STRICT_NODES, timeout=1e6)
        if check.unique:
            givens = trial
            removed += 1
        elif check.count < 2:
            undecided += 1
    return givens, removed, undecided


def main(first: int, count: int, out: Path) -> None:
    layout = layout_puzzle("25x25")
    with out.open("a") as f:
        f.write(
            f"# ndoku generate 25x25 --seed S --timeout {TIMEOUT:g}, then strict removal "
            f"({STRICT_NODES} nodes a check), ndoku {commit()}\n"
        )
        for seed in range(first, first + count):
            start = time.process_time()
            made = generate(layout, seed=seed, timeout=TIMEOUT)
            givens, removed, undecided = strict(layout, made.puzzle.givens, seed)
            line = puzzle_line(made.puzzle, givens)
            n = int((givens > 0).sum())
            f.write(f"seed{seed} {line} givens={n} removed={removed} undecided={undecided}\n")
            f.flush()
            seconds = time.process_time() - start
            print(f"seed {seed}: {made.stop}, {n} givens, {seconds:.0f} s", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]))
