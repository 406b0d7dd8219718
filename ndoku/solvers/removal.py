"""Removing candidates as propagation does: the (unit, value) counts and the hidden singles
they reveal (:func:`drop`), and the branching weights of the cells a contradiction blames
(:func:`blame`, :func:`weigh`).

Apart from :mod:`ndoku.solvers.propagation` so that the narrowing of variant rules
(:mod:`ndoku.solvers.rules`), which propagation calls, removes the same way.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import kernel
from ndoku.solvers.bits import idx, lowest
from ndoku.solvers.tables import IntArray, Scratch

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@kernel(inline="always")
def weigh(u: int, net: tuple[IntArray, ...], weights: IntArray) -> None:
    """Unit ``u`` caused a contradiction: each of its cells weighs one more in branching."""
    for k in range(net[0][u], net[0][u + 1]):
        weights[net[1][k]] += 1


@kernel(inline="always")
def blame(c: int, net: tuple[IntArray, ...], weights: IntArray) -> None:
    """Cell ``c`` was left without a candidate: every unit holding it is to blame."""
    for k in range(net[2][c], net[2][c + 1]):
        weigh(net[3][k], net, weights)


@kernel(inline="always")
def drop(
    cand: NDArray[np.uint64],
    counts: NDArray[np.int8],
    n_hidden: int,
    c: int,
    m: np.uint64,
    net: tuple[IntArray, ...],
    scratch: Scratch,
    size: int,
) -> int:
    """Remove the values of mask ``m`` from cell ``c``; new ``n_hidden``, -1 if stuck.

    Each (unit, value) count that drops to 1 is a hidden single, queued in ``scratch[1]``;
    one that drops to 0 is a value no cell of the unit can take any more.
    """
    cell_unit_ptr, cell_units = net[2], net[3]
    hidden, weights, marks = scratch[1], scratch[2], scratch[3]
    stamp = scratch[4][0]
    cand[c] &= ~m
    while m != _ZERO:
        v = lowest(m)
        m &= m - _ONE
        for k in range(cell_unit_ptr[c], cell_unit_ptr[c + 1]):
            u = cell_units[idx(k)]
            marks[idx(u)] = stamp
            slot = u * size + v
            left = counts[idx(slot)] - 1
            counts[idx(slot)] = left
            # Queued without a branch: whether a count falls to one is anyone's guess.
            hidden[idx(n_hidden)] = slot
            n_hidden += left == 1
            if left == 0:
                weigh(u, net, weights)
                return -1
    return n_hidden
