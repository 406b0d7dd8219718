"""The last resorts of a path: a trial (a candidate whose placement leads, by singles alone,
to a contradiction, so it goes) and, failing that, a guess (a value taken from the one
solution the exact search proved). Both count as guesses in a rating."""

from __future__ import annotations

import numpy as np

from ndoku.solvers.logic.board import Board, IntArray
from ndoku.solvers.logic.techniques import Step, full_house, hidden_single, naked_single

#: Singles a trial runs at most before it gives up on a candidate.
TRIAL_STEPS = 200


def trial(board: Board) -> Step | None:
    """A candidate that, placed, makes singles reach a contradiction: it is removed. Cells
    with the fewest candidates are tried first."""
    free = np.flatnonzero(board.values == 0)
    order = free[np.argsort(board.cand[free].sum(axis=1), kind="stable")]
    for cell in order:
        for v in np.flatnonzero(board.cand[cell]):
            if _fails(board, int(cell), int(v) + 1):
                return Step(
                    "trial", 8.0, (int(cell),), (), (int(v) + 1,),
                    eliminations=((int(cell), int(v) + 1),),
                )  # fmt: skip
    return None


def _fails(board: Board, cell: int, value: int) -> bool:
    """Whether singles, from ``value`` placed in ``cell``, reach a contradiction."""
    tried = board.copy()
    tried.place(cell, value)
    for _ in range(TRIAL_STEPS):
        if tried.contradiction():
            return True
        step = full_house(tried) or hidden_single(tried) or naked_single(tried)
        if step is None:
            return False
        for c, v in step.placements:
            tried.place(c, v)
    return False


def guess(board: Board, solution: IntArray) -> Step | None:
    """The solution's value of the free cell with the fewest candidates."""
    free = np.flatnonzero(board.values == 0)
    if not len(free):
        return None
    cell = int(free[np.argmin(board.cand[free].sum(axis=1))])
    value = int(solution[cell])
    return Step("guess", 10.0, (cell,), (), (value,), ((cell, value),))
