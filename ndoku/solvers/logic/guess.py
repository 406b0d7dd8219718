"""The last resort of a path: a guess, the proved solution's value for a cell (said as such,
and counted)."""

from __future__ import annotations

import numpy as np

from ndoku.solvers.logic.board import Board, IntArray
from ndoku.solvers.logic.techniques import Step


def guess(board: Board, solution: IntArray) -> Step | None:
    """The solution's value of the free cell with the fewest candidates."""
    free = np.flatnonzero(board.values == 0)
    if not len(free):
        return None
    cell = int(free[np.argmin(board.cand[free].sum(axis=1))])
    value = int(solution[cell])
    return Step("guess", 10.0, (cell,), (), (value,), ((cell, value),))
