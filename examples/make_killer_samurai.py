"""Make ``examples/killer_samurai.txt``: a killer Samurai built from the solution of
``examples/samurai.txt`` (janko.at's Samurai no. 1), there being no published one.

The solved canvas is cut into cages of 2 to 6 orthogonally connected cells with different
digits by ndoku's own cut (``ndoku.tasks.caging``, the one ``ndoku generate --rules killer``
uses; a fixed seed), each cage gets its sum, and then the Samurai's givens are removed one
at a time, in a seeded order, wherever ndoku's exact solver still proves the puzzle unique
(a given whose removal it cannot settle within the caps stays). Prints how many givens remain.

    python examples/make_killer_samurai.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.exact import solve_exact
from ndoku.solvers.random import generator
from ndoku.tasks.caging import cage_lines, cut_cages
from ndoku.tasks.verify import problems

HERE = Path(__file__).parent
SEED = 35
TIMEOUT = 5.0  # per uniqueness check, seconds


def unique(puzzle: Puzzle, givens: np.ndarray) -> bool:
    result = solve_exact(puzzle, givens=givens, timeout=TIMEOUT)
    return result.status == "solved" and result.unique is True


def main() -> None:
    source = HERE / "samurai.txt"
    [samurai] = read_puzzles(source)
    solved = solve_exact(samurai)
    if solved.values is None or not solved.unique or problems(samurai, solved.values):
        raise SystemExit(f"Error: {source} did not solve to one checked solution")
    rng = generator(SEED)
    cages = cut_cages(samurai, solved.values, rng)
    rules = cage_lines(samurai, solved.values, cages)
    grid = [line for line in source.read_text().splitlines() if not line.startswith("#")]
    grid = [line for line in grid if line.strip()]
    [killer] = read_puzzles(text="\n".join(grid) + "\n\n" + "\n".join(rules) + "\n")
    givens = killer.givens.copy()
    if not unique(killer, givens):
        raise SystemExit("Error: the Samurai with its cages is not unique")
    order = rng.permutation(np.flatnonzero(givens)).tolist()
    for cell in order:
        value, givens[cell] = givens[cell], 0
        if not unique(killer, givens):
            givens[cell] = value
    made = killer.canvas(givens)
    lines = [
        f"# A killer Samurai made by examples/make_killer_samurai.py (seed {SEED}): the",
        "# solution of examples/samurai.txt (janko.at's Samurai no. 1) cut into cages of 2-6",
        "# cells, then givens removed while ndoku's exact solver proves the puzzle unique.",
        *(" ".join("." if v < 0 else str(v) for v in row) for row in made.tolist()),
        "",
        *rules,
    ]
    (HERE / "killer_samurai.txt").write_text("\n".join(lines) + "\n")
    kept = int((givens > 0).sum())
    print(f"{len(cages)} cages; {kept} of {len(order)} givens remain")


if __name__ == "__main__":
    main()
