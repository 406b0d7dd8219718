"""Cutting a solution into killer cages: groups of orthogonally neighbouring cells with
different values, each with its sum, on any layout.

A cut grows a cage from each cell not yet taken, in a random order, to a size drawn from
:data:`SIZES` (sizes a setter uses: mostly two to four cells), adding a random neighbour whose
value the cage lacks. A cage left with one cell joins a neighbouring cage that lacks its value
and has room; when none can take it, the cut is drawn again (at most :data:`CUTS` times). Cages
cross the sub-grids of a multi-grid like any other cell pair: a cage is a rule of the canvas.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError
from ndoku.model.puzzle import Puzzle
from ndoku.model.rules import Rule, rule_text

IntArray = NDArray[np.int32]

#: Cells per cage and how often each size is drawn (a cage may end smaller where its
#: neighbours run out).
SIZES = {2: 0.3, 3: 0.35, 4: 0.25, 5: 0.1}
#: The most cells a cage takes when it adopts a lone cell.
MOST_CELLS = 6
#: Cuts drawn before giving up on a layout (a cut fails only where lone cells have no room).
CUTS = 100

#: Canvas steps to a cell's neighbours: orthogonal ones (a cage's), or a king's move (a line's).
ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
KING = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)


def neighbours(puzzle: Puzzle, steps: tuple[tuple[int, int], ...] = ORTHOGONAL) -> list[list[int]]:
    """Each cell's neighbours on the canvas, one of ``steps`` away, as cell numbers.

    >>> from ndoku.tasks.generate import layout_puzzle
    >>> neighbours(layout_puzzle("4x4"))[:2]
    [[1, 4], [2, 5, 0]]
    >>> neighbours(layout_puzzle("4x4"), KING)[0]
    [1, 4, 5]
    """
    index = puzzle.index
    rows, cols = index.shape
    return [
        [
            int(index[r + dr, c + dc])
            for dr, dc in steps
            if 0 <= r + dr < rows and 0 <= c + dc < cols and index[r + dr, c + dc] >= 0
        ]
        for r, c in puzzle.cell_rc.tolist()
    ]


def cut_cages(
    puzzle: Puzzle, solution: IntArray, rng: np.random.Generator
) -> list[tuple[int, ...]]:
    """Cages covering every cell of ``puzzle``, each of cells with different values of
    ``solution``, sorted; raises :class:`~ndoku.errors.NdokuError` when :data:`CUTS` cuts
    all left a lone cell no cage could take.

    >>> from ndoku.solvers.random import generator
    >>> from ndoku.tasks.generate import layout_puzzle, random_solution
    >>> p = layout_puzzle("6x6")
    >>> solution = random_solution(p, generator(1), float("inf"))
    >>> cages = cut_cages(p, solution, generator(1))
    >>> sorted(c for cage in cages for c in cage) == list(range(36))
    True
    >>> all(len({int(solution[c]) for c in cage}) == len(cage) for cage in cages)
    True
    """
    return _cuts(neighbours(puzzle), solution, rng, [])


def recut_cages(
    puzzle: Puzzle,
    solution: IntArray,
    cages: list[tuple[int, ...]],
    cells: NDArray[np.integer],
    rng: np.random.Generator,
) -> list[tuple[int, ...]]:
    """``cages`` with those that hold one of ``cells`` (or a neighbour of one) cut again: where
    a puzzle still needs givens, its cages leave the values there open, and other cages may
    close them.

    >>> from ndoku.solvers.random import generator
    >>> from ndoku.tasks.generate import layout_puzzle, random_solution
    >>> p = layout_puzzle("6x6")
    >>> solution = random_solution(p, generator(1), float("inf"))
    >>> cages = cut_cages(p, solution, generator(1))
    >>> again = recut_cages(p, solution, cages, np.array([0]), generator(2))
    >>> freed = {0, 1, 6}  # r1c1 and its neighbours; the other cages stay (one may adopt a cell)
    >>> all(any(set(c) <= set(a) for a in again) for c in cages if not freed.intersection(c))
    True
    >>> sorted(c for cage in again for c in cage) == list(range(36))
    True
    """
    near = neighbours(puzzle)
    freed = {int(c) for c in cells} | {q for c in cells for q in near[int(c)]}
    kept = [cage for cage in cages if not freed.intersection(cage)]
    return _cuts(near, solution, rng, kept)


def _cuts(
    near: list[list[int]],
    solution: IntArray,
    rng: np.random.Generator,
    kept: list[tuple[int, ...]],
) -> list[tuple[int, ...]]:
    """The first of :data:`CUTS` cuts of the cells outside ``kept`` that leaves no lone cell,
    with ``kept``."""
    sizes = np.array(list(SIZES), dtype=np.int64)
    weights = np.array(list(SIZES.values()))
    for _ in range(CUTS):
        wanted = rng.choice(sizes, size=len(near), p=weights / weights.sum())
        cages = _cut(near, solution, rng, wanted, kept)
        if cages is not None:
            return cages
    raise NdokuError(f"no cut of the layout into cages was found in {CUTS} tries")


def _cut(
    near: list[list[int]],
    solution: IntArray,
    rng: np.random.Generator,
    wanted: NDArray[np.int64],
    kept: list[tuple[int, ...]],
) -> list[tuple[int, ...]] | None:
    """One cut of the cells outside ``kept`` (which stay, and may adopt a lone cell), or None
    when a lone cell finds no cage to join."""
    owner = np.full(len(near), -1, dtype=np.int64)
    cages: list[list[int]] = [list(cage) for cage in kept]
    for k, cage in enumerate(cages):
        owner[cage] = k
    for start in rng.permutation(len(near)).tolist():
        if owner[start] >= 0:
            continue
        cage = [start]
        owner[start] = len(cages)
        while len(cage) < wanted[start]:
            held = {int(solution[c]) for c in cage}
            frontier = sorted(
                {q for p in cage for q in near[p] if owner[q] < 0 and int(solution[q]) not in held}
            )
            if not frontier:
                break
            grown = frontier[int(rng.integers(len(frontier)))]
            owner[grown] = len(cages)
            cage.append(grown)
        cages.append(cage)
    for k, cage in enumerate(cages):
        if len(cage) != 1:
            continue
        [cell] = cage
        value = int(solution[cell])
        hosts = sorted(
            {
                int(owner[q])
                for q in near[cell]
                if len(cages[owner[q]]) < MOST_CELLS
                and value not in {int(solution[c]) for c in cages[owner[q]]}
            }
        )
        if not hosts:
            return None
        host = hosts[int(rng.integers(len(hosts)))]
        cages[host].append(cell)
        owner[cell] = host
        cages[k] = []
    return sorted(tuple(sorted(cage)) for cage in cages if cage)


def cage_lines(puzzle: Puzzle, solution: IntArray, cages: list[tuple[int, ...]]) -> list[str]:
    """A killer cage rule for each of ``cages``, summing ``solution``'s values, as text.

    >>> from ndoku.tasks.generate import layout_puzzle
    >>> solution = np.array([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1], dtype=np.int32)
    >>> cage_lines(layout_puzzle("4x4"), solution, [(0, 1), (2, 3, 7)])
    ['cage 3: r1c1 r1c2', 'cage 9: r1c3 r1c4 r2c4']
    """
    return [
        rule_text(Rule("cage", cage, int(solution[list(cage)].sum())), puzzle.cell_rc)
        for cage in cages
    ]
