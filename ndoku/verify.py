"""Independent check of a solution: every given kept, every unit a permutation of 1..N.

This deliberately does not use the unit and peer arrays the solvers use: it re-reads the
rows, columns and boxes straight from the layout's corners on the canvas, the regions from
the region map and the extra units from their declared cells, so a bug in building units
cannot hide a wrong answer.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import VerificationError
from ndoku.grid import EMPTY, MISSING
from ndoku.puzzle import Puzzle


def problems(puzzle: Puzzle, values: NDArray[np.integer]) -> list[str]:
    """Every rule ``values`` break, as sentences (empty when it is a solution).

    >>> from ndoku.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 2 3 4\\n3 4 1 2\\n2 1 4 3\\n4 3 2 1\\n")
    >>> problems(p, p.givens)
    []
    >>> problems(p, p.givens[[1, 0, *range(2, 16)]])[0]
    'line 1, column 1: given 1 was changed to 2'
    """
    canvas = puzzle.canvas(np.asarray(values))
    given = puzzle.canvas(puzzle.givens)
    size = puzzle.size
    found: list[str] = []
    exists = given != MISSING
    for r, c in np.argwhere(exists & ((canvas < 1) | (canvas > size))):
        found.append(f"{puzzle.grid.locate(r, c)}: value {canvas[r, c]} is not a symbol 1..{size}")
    for r, c in np.argwhere(exists & (given != EMPTY) & (canvas != given)):
        found.append(
            f"{puzzle.grid.locate(r, c)}: given {given[r, c]} was changed to {canvas[r, c]}"
        )
    full = np.arange(1, size + 1)
    layout = puzzle.layout
    for r0, c0 in layout.corners:
        window = canvas[r0 : r0 + size, c0 : c0 + size]
        # One sort per kind of unit: rows of `lines` are the units, in reading order.
        kinds = [("row", window), ("column", window.T)]
        if layout.box is not None:
            bh, bw = layout.box
            boxes = window.reshape(size // bh, bh, size // bw, bw).swapaxes(1, 2)
            kinds.append(("box", boxes.reshape(size, size)))
        for name, lines in kinds:
            broken = np.flatnonzero((np.sort(lines, axis=1) != full).any(axis=1))
            found += [
                f"sub-grid at {r0},{c0}: {name} {k + 1} is not a permutation of 1..{size}"
                for k in broken
            ]
    if layout.regions is not None:
        for k in range(int(layout.regions.max()) + 1):
            if not np.array_equal(np.sort(canvas[layout.regions == k]), full):
                found.append(f"region {k + 1} is not a permutation of 1..{size}")
    for extra in layout.extras:
        rows, cols = zip(*extra.cells, strict=True)
        if not np.array_equal(np.sort(canvas[list(rows), list(cols)]), full):
            r, c = extra.cells[0]
            found.append(f"the {extra.kind} from canvas {r},{c} is not a permutation of 1..{size}")
    return found


def verify(puzzle: Puzzle, values: NDArray[np.integer]) -> None:
    """Raise :class:`~ndoku.errors.VerificationError` unless ``values`` solve the puzzle."""
    found = problems(puzzle, values)
    if found:
        more = f" (and {len(found) - 3} more)" if len(found) > 3 else ""
        raise VerificationError(
            f"{puzzle.source}: a solver returned a grid that breaks the rules: "
            + "; ".join(found[:3])
            + more
        )
