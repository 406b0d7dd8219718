"""The exact search's rule arrays, arranged in one kernel call: a plain sum of cells that one
unit holds becomes a cage, a ``distinct`` group that one unit holds is dropped, the cages'
implied sums are added (by layers where cages overlap), and every cage gets the combinations
of its sum, matched to its cells (``MATCHED``).

:func:`ndoku.solvers.tables.search_tables` calls it; the same steps in Python, one constraint
at a time, cost a killer 9×9 more than the search itself (34 µs a puzzle against 27).
"""

from __future__ import annotations

from functools import cache
from math import comb

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import kernel
from ndoku.model.frame import Frame
from ndoku.solvers.bits import nonliteral
from ndoku.solvers.implied import MOST_CELLS, SumGroups, find_sums
from ndoku.solvers.narrowing import CAGE, DISTINCT, MATCHED, MOST_COMBINATIONS, SUM

#: The kind of a constraint left out (its cells' unit says as much).
_DROPPED = -1

Arrays = tuple[
    NDArray[np.int32],
    NDArray[np.int32],
    NDArray[np.int32],
    NDArray[np.int64],
    NDArray[np.int64],
    NDArray[np.int32],
    NDArray[np.uint64],
]


def arrange(
    frame: Frame,
    kinds: NDArray[np.int32],
    ptr: NDArray[np.int32],
    cells: NDArray[np.int32],
    numbers: NDArray[np.int64],
    weights: NDArray[np.int64],
    n: int,
    size: int,
) -> Arrays:
    """The first ``n`` constraints (as :func:`~ndoku.solvers.implied.constraint_arrays` lays
    them out, with its room for implied sums) arranged for the exact search: their kinds,
    cells (CSR), numbers and weights, then the cages' combinations (CSR).

    Examples
    --------
    >>> from ndoku.model.layout import load_layout
    >>> from ndoku.model.constraints import Constraint, Packed
    >>> from ndoku.solvers.implied import constraint_arrays, spare_room
    >>> frame = Frame.of(load_layout("4x4"))
    >>> sums = Packed.of([Constraint("sum", (0, 1), 7, (1, 1)), Constraint("distinct", (2, 3))])
    >>> codes = np.array([SUM, DISTINCT], dtype=np.int32)
    >>> arrays = constraint_arrays(sums, codes, sums.numbers, spare_room(frame))
    >>> kinds, ptr, cells, numbers, _, combo_ptr, combos = arrange(frame, *arrays, 2, 4)
    >>> kinds.tolist() == [MATCHED] * 3, cells.tolist()  # r1c3-c4 and r2c1-c2 implied
    (True, [0, 1, 2, 3, 4, 5])
    >>> numbers.tolist(), combo_ptr.tolist(), [bin(m) for m in combos.tolist()]
    ([7, 3, 3], [0, 1, 2, 3], ['0b1100', '0b11', '0b11'])
    """
    groups: SumGroups = frame.table("implied-sum groups", SumGroups.of)
    unit_ptr, unit_of = frame.cell_units
    room = len(kinds) - n
    combo_ptr = np.empty(len(kinds) + 1, dtype=np.int32)
    combos = np.empty(len(kinds) * most_written(size), dtype=np.uint64)
    work = np.empty(work_length(size, frame.n_cells, n, room), np.int64)
    _arrange(
        kinds, ptr, cells, numbers, weights, n, size, unit_ptr, unit_of, groups.ptr,
        groups.cells, groups.totals, groups.single, combo_ptr, combos, work,
    )  # fmt: skip
    kept, end, held = work[:3].tolist()
    return (
        kinds[:kept],
        ptr[: kept + 1],
        cells[:end],
        numbers[:kept],
        weights[:end],
        combo_ptr[: kept + 1],
        combos[:held],
    )


def work_length(size: int, n_cells: int, n: int, room: int) -> int:
    """The length of :func:`_arrange`'s work array for ``n`` constraints and ``room`` implied
    sums: where it leaves its counts (3), the value stack of the combinations (size + 1),
    then find_sums' arrays (owner and mark per cell, count and layer per constraint, the rows
    of a layer's sums, the sums found)."""
    return 3 + size + 1 + 2 * n_cells + 2 * n + room * (6 + MOST_CELLS)


@cache
def most_written(size: int) -> int:
    """The combinations :func:`_combinations` writes for one cage, at most."""
    return max(min(comb(size, k), MOST_COMBINATIONS + 1) for k in range(size + 1))


@kernel()
def _arrange(
    kinds: NDArray[np.int32],
    ptr: NDArray[np.int32],
    cells: NDArray[np.int32],
    numbers: NDArray[np.int64],
    weights: NDArray[np.int64],
    n: int,
    size: int,
    unit_ptr: NDArray[np.int32],
    unit_of: NDArray[np.int32],
    group_ptr: NDArray[np.int64],
    group_cells: NDArray[np.int64],
    totals: NDArray[np.int64],
    single: NDArray[np.bool_],
    combo_ptr: NDArray[np.int32],
    combos: NDArray[np.uint64],
    work: NDArray[np.int64],
) -> None:
    """:func:`arrange`, in place; the constraints, cells and combinations kept in ``work[:3]``
    (the rest of it: work arrays, laid out as :func:`arrange` says)."""
    n_cells = len(unit_ptr) - 1
    room = len(kinds) - n
    stack = work[3 : 4 + size]
    owner = work[4 + size : 4 + size + n_cells]
    mark = work[4 + size + n_cells : 4 + size + 2 * n_cells]
    at = 4 + size + 2 * n_cells
    count = work[at : at + n]
    layer = work[at + n : at + 2 * n]
    at += 2 * n
    rows = work[at : at + room * (4 + MOST_CELLS)].reshape((room, 4 + MOST_CELLS))
    found = work[at + room * (4 + MOST_CELLS) : at + room * (6 + MOST_CELLS)].reshape((room, 2))
    cages = False
    for k in range(n):
        kind = kinds[k]
        start, end = ptr[k], ptr[k + 1]
        if kind in (SUM, DISTINCT) and end - start > 1:
            ones = True
            for i in range(start, end):
                ones = ones and weights[i] == 1
            if (kind == DISTINCT or ones) and _one_unit(cells, start, end, unit_ptr, unit_of):
                kinds[k] = CAGE if kind == SUM else _DROPPED
        cages = cages or kinds[k] == CAGE
    total = n
    if cages and room:
        layered = room > 0  # True, but no literal: add_implied's version serves
        total += find_sums(
            kinds, ptr, cells, numbers, weights, n, group_ptr, group_cells, totals, single,
            owner, mark, count, rows, layered, layer, found,
        )  # fmt: skip
    # left to right, each constraint kept moves to the next free place (never rightwards)
    kept = at = 0
    held = nonliteral(0)  # a literal 0 compiled _combinations twice
    combo_ptr[0] = 0
    end = ptr[0]
    for k in range(total):
        start, end = end, ptr[k + 1]
        kind = kinds[k]
        if kind == _DROPPED:
            continue
        kinds[kept] = MATCHED if kind == CAGE else kind
        numbers[kept] = numbers[k]
        for i in range(start, end):
            cells[at] = cells[i]
            weights[at] = weights[i]
            at += 1
        ptr[kept + 1] = at
        if kind == CAGE:
            held = _combinations(end - start, numbers[kept], size, combos, held, stack)
        combo_ptr[kept + 1] = held
        kept += 1
    work[0], work[1], work[2] = kept, at, held


@kernel()
def flat_places(flat: NDArray[np.int64], at: int) -> tuple[int, int, int, int, int, int, int, int]:
    """Where the parts of a puzzle's :attr:`~ndoku.model.constraints.Packed.flat` that starts
    at ``at`` are: its counts of constraints and of cells, where its kinds, numbers, ptr,
    cells and weights start, and where it ends.

    >>> from ndoku.model.constraints import Constraint, Packed
    >>> flat = Packed.of([Constraint("less", (4, 5)), Constraint("cage", (0, 1, 2), 9)]).flat
    >>> flat_places(flat, 0), len(flat)
    ((2, 5, 2, 4, 6, 9, 14, 19), 19)
    """
    n, e = flat[at], flat[at + 1]
    kinds = at + 2
    numbers = kinds + n
    ptr = numbers + n
    cells = ptr + n + 1  # a puzzle's CSR has n + 1 places
    weights = cells + e
    return n, e, kinds, numbers, ptr, cells, weights, weights + e


@kernel()
def arrange_puzzle(
    k: int,
    size: int,
    packed: tuple[NDArray[np.int64], NDArray[np.int64]],
    room_of: int,
    sums: tuple[
        NDArray[np.int32],
        NDArray[np.int32],
        NDArray[np.int64],
        NDArray[np.int64],
        NDArray[np.int64],
        NDArray[np.bool_],
    ],
    laid: tuple[
        NDArray[np.int32],
        NDArray[np.int32],
        NDArray[np.int32],
        NDArray[np.int64],
        NDArray[np.int64],
        NDArray[np.int32],
        NDArray[np.uint64],
        NDArray[np.int64],
    ],
) -> None:
    """Arrange puzzle ``k`` of a batch, as :func:`arrange` does one puzzle, into ``laid``;
    its counts (constraints, cells and combinations kept) in ``laid[7][:3]``.

    ``packed``: the batch's constraints, one puzzle's
    :attr:`~ndoku.model.constraints.Packed.flat` after another with kernel codes and numbers
    (:func:`~ndoku.solvers.tables.joined_codes`), and where each puzzle's starts;
    ``room_of``: the layout's room for implied sums
    (:func:`~ndoku.solvers.implied.search_room`), a puzzle's where it has a cage or a sum, as
    :func:`~ndoku.solvers.tables.search_tables` has it; ``sums``: the layout's cell → unit CSR
    and :class:`~ndoku.solvers.implied.SumGroups`' arrays; ``laid``: the arrays of
    :func:`arrange` and :func:`_arrange`'s work, long enough for any puzzle of the batch.
    """  # fmt: skip
    flat, starts = packed
    kinds_to, ptr_to, cells_to, numbers_to, weights_to, combo_ptr, combos, work = laid
    n, e, codes, numbers, ptr, cells, weights, _ = flat_places(flat, starts[k])
    room = 0
    for i in range(codes, codes + n):
        if flat[i] == CAGE or flat[i] == SUM:
            room = room_of
    m, spare = n + room, room * MOST_CELLS
    # loops, not slice copies: numba copies a slice's source unless it can tell the arrays
    # apart, and these kernels run without its allocator
    for i in range(m):
        kinds_to[i] = flat[codes + i] if i < n else 0
        numbers_to[i] = flat[numbers + i] if i < n else 0
    for i in range(m + 1):
        ptr_to[i] = flat[ptr + i] if i <= n else 0
    for i in range(e + spare):
        cells_to[i] = flat[cells + i] if i < e else 0
        weights_to[i] = flat[weights + i] if i < e else 1
    most = len(combos) // (len(combo_ptr) - 1)
    _arrange(
        kinds_to[:m], ptr_to[: m + 1], cells_to[: e + spare], numbers_to[:m],
        weights_to[: e + spare], n, size, sums[0], sums[1], sums[2], sums[3], sums[4], sums[5],
        combo_ptr[: m + 1], combos[: m * most], work,
    )  # fmt: skip


@kernel()
def _one_unit(
    cells: NDArray[np.int32],
    start: int,
    end: int,
    unit_ptr: NDArray[np.int32],
    unit_of: NDArray[np.int32],
) -> bool:
    """Whether one unit holds every cell of ``cells[start:end]``."""
    first = cells[start]
    for j in range(unit_ptr[first], unit_ptr[first + 1]):
        unit = unit_of[j]
        every = True
        for i in range(start + 1, end):
            cell = cells[i]
            held = False
            for q in range(unit_ptr[cell], unit_ptr[cell + 1]):
                held = held or unit_of[q] == unit
            if not held:
                every = False
                break
        if every:
            return True
    return False


@kernel()
def _combinations(
    count: int, total: int, size: int, out: NDArray[np.uint64], at: int, stack: NDArray[np.int64]
) -> int:
    """Write the sets (bit masks) of ``count`` different values of 1..``size`` that sum to
    ``total`` from ``out[at]`` on, in the order of
    :func:`ndoku.solvers.tables.combinations`; returns where they end, ``at`` itself when
    there are none or more than :data:`MOST_COMBINATIONS`. ``stack``: ``size + 1`` places."""
    first = at
    depth = 0
    value = 1  # the next value to try at this depth
    left = total  # what the values still to choose must sum to
    mask = np.uint64(0)
    while True:
        still = count - depth  # values to choose, this one included
        # none from ``value`` on fits: the least sum of ``still`` values from it is too much,
        # or the most sum of ``still`` values too little
        least = value * still + still * (still - 1) // 2
        most = still * size - still * (still - 1) // 2
        if still <= 0 or value > size or least > left or most < left:
            if depth == 0:
                return at
            depth -= 1
            value = stack[depth]
            left += value
            mask ^= np.uint64(1) << np.uint64(value - 1)
            value += 1
        elif still == 1:
            if value == left:
                out[at] = mask | np.uint64(1) << np.uint64(value - 1)
                at += 1
                if at - first > MOST_COMBINATIONS:
                    return first
            value += 1
        else:
            stack[depth] = value
            mask |= np.uint64(1) << np.uint64(value - 1)
            left -= value
            depth += 1
            value += 1
