"""Make ``examples/killer_samurai.txt``: a killer Samurai built from the solution of
``examples/samurai.txt`` (janko.at's Samurai no. 1), there being no published one.

The solved canvas is cut into cages of 2 to 5 orthogonally connected cells with different
digits (a fixed seed), each cage gets its sum, and then the Samurai's givens are removed one
at a time, in a seeded order, wherever ndoku's exact solver still proves the puzzle unique
(a given whose removal it cannot settle within the caps stays). Prints how many givens remain.

    python examples/make_killer_samurai.py
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.exact import solve_exact
from ndoku.tasks.verify import problems

HERE = Path(__file__).parent
SEED = 35
SIZES = (2, 5)  # cells per cage, least and most
TRIES = 1000  # cuts tried before giving up (each is cheap)
TIMEOUT = 5.0  # per uniqueness check, seconds
STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def cut(canvas: np.ndarray, rng: random.Random) -> list[list[tuple[int, int]]]:
    """Cages covering every cell of ``canvas`` (its values, -1 where no cell is): each of
    2 to 5 orthogonally connected cells holding different digits.

    Raises
    ------
    RuntimeError
        When :data:`TRIES` cuts all left a cell no cage could take.
    """
    cells = [(int(r), int(c)) for r, c in np.argwhere(canvas > 0)]
    for _ in range(TRIES):
        cages = _try_cut(canvas, cells, rng)
        if cages is not None:
            return cages
    raise RuntimeError(f"no cut into cages of {SIZES[0]}-{SIZES[1]} cells in {TRIES} tries")


def _try_cut(
    canvas: np.ndarray, cells: list[tuple[int, int]], rng: random.Random
) -> list[list[tuple[int, int]]] | None:
    """One cut: grow a cage from each cell not yet taken (in a random order) to a random
    size; a cage left with one cell joins a neighbouring cage that lacks its digit and has
    room, or the cut fails (None)."""
    owner: dict[tuple[int, int], int] = {}
    cages: list[list[tuple[int, int]]] = []
    order = cells[:]
    rng.shuffle(order)
    for start in order:
        if start in owner:
            continue
        cage = [start]
        owner[start] = len(cages)
        want = rng.randint(*SIZES)
        while len(cage) < want:
            digits = {int(canvas[p]) for p in cage}
            frontier = [
                q
                for p in cage
                for q in _neighbours(canvas, p)
                if q not in owner and int(canvas[q]) not in digits
            ]
            if not frontier:
                break
            grown = rng.choice(frontier)
            owner[grown] = len(cages)
            cage.append(grown)
        cages.append(cage)
    for k, cage in enumerate(cages):
        if len(cage) > 1:
            continue
        [cell] = cage
        hosts = [
            owner[q]
            for q in _neighbours(canvas, cell)
            if len(cages[owner[q]]) < SIZES[1]
            and int(canvas[cell]) not in {int(canvas[p]) for p in cages[owner[q]]}
        ]
        if not hosts:
            return None
        host = rng.choice(hosts)
        cages[host].append(cell)
        owner[cell] = host
        cages[k] = []
    return sorted(sorted(cage) for cage in cages if cage)


def _neighbours(canvas: np.ndarray, cell: tuple[int, int]) -> list[tuple[int, int]]:
    rows, cols = canvas.shape
    r, c = cell
    return [
        (r + dr, c + dc)
        for dr, dc in STEPS
        if 0 <= r + dr < rows and 0 <= c + dc < cols and canvas[r + dr, c + dc] > 0
    ]


def unique(puzzle: Puzzle, givens: np.ndarray) -> bool:
    result = solve_exact(puzzle, givens=givens, timeout=TIMEOUT)
    return result.status == "solved" and result.unique is True


def main() -> None:
    source = HERE / "samurai.txt"
    [samurai] = read_puzzles(source)
    solved = solve_exact(samurai)
    if solved.values is None or not solved.unique or problems(samurai, solved.values):
        raise SystemExit(f"Error: {source} did not solve to one checked solution")
    canvas = samurai.canvas(solved.values)
    rng = random.Random(SEED)
    cages = cut(canvas, rng)
    rules = [
        f"cage {sum(int(canvas[p]) for p in cage)}: "
        + " ".join(f"r{r + 1}c{c + 1}" for r, c in cage)
        for cage in cages
    ]
    grid = [line for line in source.read_text().splitlines() if not line.startswith("#")]
    grid = [line for line in grid if line.strip()]
    [killer] = read_puzzles(text="\n".join(grid) + "\n\n" + "\n".join(rules) + "\n")
    givens = killer.givens.copy()
    if not unique(killer, givens):
        raise SystemExit("Error: the Samurai with its cages is not unique")
    order = [int(cell) for cell in np.flatnonzero(givens)]
    rng.shuffle(order)
    for cell in order:
        value, givens[cell] = givens[cell], 0
        if not unique(killer, givens):
            givens[cell] = value
    made = killer.canvas(givens)
    lines = [
        f"# A killer Samurai made by examples/make_killer_samurai.py (seed {SEED}): the",
        "# solution of examples/samurai.txt (janko.at's Samurai no. 1) cut into cages of 2-5",
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
