"""What a combination (a set of as many values as a constraint has cells: a cage's, a
renban's window) leaves each cell: covering, as a person reads a combination, or matched to
the cells one value each.

Both keep what each cell holds of the combinations that fit in a mask per cell (``keep``);
the narrowing kernels (:mod:`ndoku.solvers.narrowing`) and the logic engine's cage steps
(:mod:`ndoku.solvers.logic.cages`) call them for each combination in turn.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import kernel

MaskArray = NDArray[np.uint64]

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@kernel()
def keep_covering(out: MaskArray, start: int, end: int, values: np.uint64, keep: MaskArray) -> bool:
    """Whether every cell meets the set ``values`` and the cells together cover it (a cage's
    combination, a renban's window); if so, each cell's part of it joins ``keep``."""
    union = _ZERO
    for i in range(start, end):
        m = out[i] & values
        if m == _ZERO:
            return False
        union |= m
    if union != values:
        return False
    for i in range(start, end):
        keep[i - start] |= out[i] & values
    return True


@kernel(inline="always")
def _keep_matched(left: MaskArray, k: int, values: np.uint64, keep: MaskArray) -> bool:
    """:func:`keep_matching` on two or three cells (``left``: each cell's part of ``values``),
    by trying every way to give the values out one each: the singles loop took a third of
    an outside-sum puzzle's search, nearly all of it on three cells."""
    a = values & (~values + _ONE)
    rest = values ^ a
    b = rest & (~rest + _ONE)
    c = rest ^ b  # zero for two cells
    x, y = left[0], left[1]
    z = left[2] if k == 3 else c
    kx = ky = kz = _ZERO
    # each order of the values over the cells (two cells: the orders with c last)
    for first, second, third in ((a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)):
        if x & first and y & second and (z & third or third == c == _ZERO):
            kx |= first
            ky |= second
            kz |= third
    if kx == _ZERO:
        return False
    keep[0] |= kx
    keep[1] |= ky
    if k == 3:
        keep[2] |= kz
    return True


@kernel(inline="always")  # into the loop over a cage's combinations: a call per combination
def keep_matching(
    out: MaskArray, start: int, end: int, values: np.uint64, keep: MaskArray, left: MaskArray
) -> bool:
    """Whether the cells can take the set ``values`` one value each (a cage's combination of
    as many values as cells); if so, what each cell is left joins ``keep`` (``left``: a work
    array, a place per cell). Two or three cells try every order of the values (exact);
    more go by singles, a cell left one value of it giving it up to no other, a value left
    one cell taking it, and keep what pairs or triples of cells would exclude."""
    k = end - start
    for i in range(k):
        left[i] = out[start + i] & values
        if left[i] == _ZERO:
            return False
    if k == 2 or k == 3:
        return _keep_matched(left, k, values, keep)
    while True:
        seen = _ZERO
        twice = _ZERO
        single = False
        for i in range(k):
            m = left[i]
            twice |= seen & m
            seen |= m
            single |= m & (m - _ONE) == _ZERO
        if seen != values:
            return False  # a value no cell can take
        hidden = seen & ~twice  # values one cell alone can take
        changed = False
        for i in range(k):
            m = left[i]
            mine = m & hidden
            if mine != _ZERO and mine != m:
                if mine & (mine - _ONE) != _ZERO:
                    return False  # two values only this cell can take
                left[i] = mine
                changed = True
            elif single and m & (m - _ONE) == _ZERO:
                for j in range(k):
                    if j != i and left[j] & m != _ZERO:
                        left[j] &= ~m
                        if left[j] == _ZERO:
                            return False
                        changed = True
        if not changed:
            break
    for i in range(k):
        keep[i] |= left[i]
    return True
