"""Which edges of a bipartite graph no perfect matching uses: the kernel of all-different
matching, on bitsets of up to 64 rows and columns."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import kernel
from ndoku.solvers.bits import lowest
from ndoku.solvers.tables import IntArray

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@kernel(inline="always")
def hall(n: int, masks: NDArray[np.uint64], ints: IntArray, size: int) -> int:
    """The edges of a bipartite graph that no perfect matching uses.

    Rows ``0 .. n-1`` have the column bitsets ``masks[:n]``. Returns -1 when there is no
    perfect matching at all, 0 when every edge is in one, else 1 and ``masks[size + i]``
    holds the columns of row i that no perfect matching pairs it with (the rest of
    ``masks`` is scratch). Given one matching, row i may take the column of row j only
    if j can move on, along matched pairs, back to i's column: j must reach i in the graph
    *i → j when i can take j's column* (i and j in one strongly connected component).
    ``ints``: matched column per row, row per column, search queue, parent per column.
    """
    used = _ZERO
    for i in range(n):
        ints[i] = -1
    for i in range(n):
        avail = masks[i] & ~used
        if avail != _ZERO:
            v = lowest(avail)
            used |= _ONE << np.uint64(v)
            ints[i] = v
            ints[size + v] = i
    for i in range(n):
        if ints[i] >= 0:
            continue
        # An augmenting path, breadth first.
        seen = _ZERO
        head = 0
        tail = 1
        ints[2 * size] = i
        free_v = -1
        while head < tail and free_v < 0:
            x = ints[2 * size + head]
            head += 1
            new = masks[x] & ~seen
            seen |= new
            while new != _ZERO:
                v = lowest(new)
                new &= new - _ONE
                ints[3 * size + v] = x
                if (used >> np.uint64(v)) & _ONE == _ZERO:
                    free_v = v
                    break
                ints[2 * size + tail] = ints[size + v]
                tail += 1
        if free_v < 0:
            return -1
        used |= _ONE << np.uint64(free_v)
        v = free_v
        while True:
            x = ints[3 * size + v]
            before = ints[x]
            ints[x] = v
            ints[size + v] = x
            if x == i:
                break
            v = before
    # Most often (four calls in five on 25×25) every row reaches every other, so no edge
    # goes. That is seen from row 0: forward by the values reached (a row is reached when its
    # matched value is), backward by the values of the rows that reach it, in rounds over
    # all rows, with no branch on the data.
    forward = masks[0]
    backward = _ONE << np.uint64(ints[0])
    while True:
        was_forward = forward
        was_backward = backward
        for i in range(n):
            v = np.uint64(ints[i])
            forward |= masks[i] & (_ZERO - ((forward >> v) & _ONE))
            backward |= np.uint64((masks[i] & backward) != _ZERO) << v
        if forward == was_forward and backward == was_backward:
            break
    if forward == used and backward == used:
        return 0
    # masks[size + i]: the rows i can push; masks[2 * size + i]: the rows that can push i.
    for i in range(n):
        masks[2 * size + i] = _ZERO
    for i in range(n):
        m = masks[i] & ~(_ONE << np.uint64(ints[i]))
        out = _ZERO
        while m != _ZERO:
            v = lowest(m)
            m &= m - _ONE
            j = ints[size + v]
            out |= _ONE << np.uint64(j)
            masks[2 * size + j] |= _ONE << np.uint64(i)
        masks[size + i] = out
    # Components one at a time: those reached from a row and reaching it, among the rows
    # left (a path out of the component and back would make it larger). masks[i] becomes
    # the component of row i.
    left = _ZERO - _ONE if n == 64 else (_ONE << np.uint64(n)) - _ONE
    while left != _ZERO:
        r = lowest(left)
        component = _ONE << np.uint64(r)
        for side in range(1, 3):
            seen = _ONE << np.uint64(r)
            todo = seen
            while todo != _ZERO:
                x = lowest(todo)
                todo &= todo - _ONE
                new = masks[side * size + x] & left & ~seen
                seen |= new
                todo |= new
            component = seen if side == 1 else component & seen
        left &= ~component
        rest = component
        while rest != _ZERO:
            i = lowest(rest)
            rest &= rest - _ONE
            masks[i] = component
    removed = _ZERO
    for i in range(n):
        o = masks[size + i] & ~masks[i]
        bad = _ZERO
        while o != _ZERO:
            j = lowest(o)
            o &= o - _ONE
            bad |= _ONE << np.uint64(ints[j])
        masks[size + i] = bad
        removed |= bad
    return int(removed != _ZERO)
