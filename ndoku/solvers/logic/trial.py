"""The last resorts of a path: a trial, which tries a value and follows singles, and,
failing that, a guess.

Glossary (terms of :mod:`.techniques` aside)
--------
settle
    Place every naked and hidden single of a board, again and again, until none is left or
    a contradiction shows (two singles that clash count as one).
trial
    A candidate whose placement settles into a contradiction: it is removed.
guess
    A value taken from the one solution the exact search proved (said as such; a rating
    counts it).
"""

from __future__ import annotations

import numpy as np

from ndoku.solvers.logic.board import Board, IntArray
from ndoku.solvers.logic.techniques import Step

#: Rounds of singles a settle runs at most (each places every single it finds).
SETTLE_ROUNDS = 200


def settle(board: Board) -> bool:
    """Place naked and hidden singles until none is left; False on a contradiction."""
    for _ in range(SETTLE_ROUNDS):
        if board.contradiction():
            return False
        found = dict(board.naked_singles())
        for _, cell, value in board.hidden_singles():
            if found.setdefault(cell, value) != value:
                return False  # one cell, two values forced
        if not found:
            return True
        for cell, value in found.items():
            if not board.cand[cell, value - 1]:
                return False  # an earlier single of this round took it
            board.place(cell, value)
    return True


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
    """Whether ``value`` placed in ``cell`` settles into a contradiction."""
    tried = board.copy()
    tried.place(cell, value)
    return not settle(tried)


def guess(board: Board, solution: IntArray) -> Step | None:
    """The solution's value of the free cell with the fewest candidates."""
    free = np.flatnonzero(board.values == 0)
    if not len(free):
        return None
    cell = int(free[np.argmin(board.cand[free].sum(axis=1))])
    value = int(solution[cell])
    return Step("guess", 10.0, (cell,), (), (value,), ((cell, value),))
