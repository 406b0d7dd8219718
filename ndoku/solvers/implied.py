"""Sums a puzzle's cages imply (the 45 rule, made general): where cages with sums cover a unit,
or a few neighbouring rows or columns, all but a few of its cells, those cells sum to what the
cages leave (innies); where the cages that meet it cover it whole, the cells they hold outside
it sum to what they add beyond it (outies).

A unit holds 1..N once, so its cells sum to N(N+1)/2, and k neighbouring rows to k times that.
The implied constraints hold in every solution; the search narrows with them as with any rule,
and finds far fewer dead ends on killer puzzles (the cages alone leave a 9×9 sum's digits
open where the unit's total closes them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import kernel
from ndoku.model.constraints import KIND_NUMBERS, Constraint, Packed
from ndoku.model.frame import Frame
from ndoku.model.units import COLUMN, ROW
from ndoku.solvers.bits import nonliteral
from ndoku.solvers.narrowing import CAGE, SUM

#: Innies or outies of more cells than this are left out: they narrow little and cost a pass.
MOST_CELLS = 3
#: Neighbouring rows (or columns) taken together, at most.
MOST_LINES = 3
#: The exact search adds implied sums on grids of this many values or more. On smaller ones
#: the search is quicker without them: finding them costs more than the nodes they save
#: (janko's killer 6×6, 101 puzzles: median 15.3 → 7.4 µs a puzzle; 4×4: 4.5 → 2.1 µs).
SEARCH_FROM = 7


@dataclass(frozen=True)
class Implied:
    """An implied sum and what it rests on (what the logic engine says of it).

    Attributes
    ----------
    constraint : Constraint
        The sum: a ``cage`` (cells of one unit) or a ``sum``.
    units : tuple of int
        The unit, or the neighbouring rows or columns, whose total it takes.
    cages : tuple of int
        The cages it takes from that total (indices in the constraints given).
    innies : bool
        Innies (the cells of the units the cages leave), else outies (the cells the cages
        hold beyond the units).
    """

    constraint: Constraint
    units: tuple[int, ...]
    cages: tuple[int, ...]
    innies: bool


def implied_sums(constraints: Sequence[Constraint], frame: Frame) -> list[Constraint]:
    """The innie and outie sums of ``constraints``' cages on the frame's units (and on 2 to
    :data:`MOST_LINES` neighbouring rows or columns of a sub-grid), each of at most
    :data:`MOST_CELLS` cells, none twice and none that is already a cage. Cages that overlap
    (outside sums written as cages) imply nothing here.

    >>> from ndoku.model.layout import load_layout
    >>> frame = Frame.of(load_layout("4x4"))
    >>> cages = [Constraint("cage", (0, 1), 3), Constraint("cage", (2, 3, 7), 8)]
    >>> for c in implied_sums(cages, frame):  # row 1 whole: its cage (2, 3, 7) leaves r2c4
    ...     print(c.kind, c.cells, c.number)
    cage (2, 3) 7
    cage (4, 5) 7
    cage (6,) 2
    sum (4, 5, 6) 9
    sum (7,) 1
    """
    return [sum_ for sum_, _, _ in _implied(constraints, frame)]


def implied_sources(constraints: Sequence[Constraint], frame: Frame) -> list[Implied]:
    """:func:`implied_sums`, each with the units and cages it rests on.

    >>> from ndoku.model.layout import load_layout
    >>> frame = Frame.of(load_layout("4x4"))
    >>> cages = [Constraint("cage", (0, 1), 3), Constraint("cage", (2, 3, 7), 8)]
    >>> first = implied_sources(cages, frame)[0]
    >>> first.constraint.cells, first.units, first.cages, first.innies
    ((2, 3), (0,), (0,), True)
    """
    groups: SumGroups = frame.table("implied-sum groups", SumGroups.of)
    cages = [k for k, c in enumerate(constraints) if c.kind == "cage"]
    implied = []
    for sum_, g, innie in _implied(constraints, frame):
        members = set(groups.cells[groups.ptr[g] : groups.ptr[g + 1]].tolist())
        # innies rest on the cages inside the group, outies on those that meet it
        test = members.issuperset if innie else members.intersection
        rests = tuple(k for k in cages if test(constraints[k].cells))
        implied.append(Implied(sum_, groups.units[g], rests, innie))
    return implied


def _implied(constraints: Sequence[Constraint], frame: Frame) -> list[tuple[Constraint, int, bool]]:
    """:func:`implied_sums`, each with its group and whether it is an innie."""
    n = len(constraints)
    packed = Packed.of(constraints)
    codes = np.where(packed.kinds == KIND_NUMBERS["cage"], CAGE, -1).astype(np.int32)
    arrays = constraint_arrays(packed, codes, packed.numbers, spare_room(frame))
    sources = add_implied(frame, *arrays, n).tolist()
    starts, flat, numbers = arrays[1].tolist(), arrays[2].tolist(), arrays[3].tolist()
    implied = []
    for i, (g, innie) in enumerate(sources, n):
        found = tuple(flat[starts[i] : starts[i + 1]])
        if arrays[0][i] == CAGE:
            sum_ = Constraint("cage", found, numbers[i])
        else:
            sum_ = Constraint("sum", found, numbers[i], (1,) * len(found))
        implied.append((sum_, g, bool(innie)))
    return implied


def constraint_arrays(
    packed: Packed, codes: NDArray[np.int32], numbers: NDArray[np.int64], room: int
) -> tuple[
    NDArray[np.int32], NDArray[np.int32], NDArray[np.int32], NDArray[np.int64], NDArray[np.int64]
]:
    """The ``packed`` constraints as the rule kernels read them: their kernels' ``codes``,
    cells (CSR), ``numbers`` and weights, with ``room`` more constraints of up to
    :data:`MOST_CELLS` cells after them, zeros (where :func:`add_implied` writes). The
    arrays are new: the kernels arrange them in place.

    >>> packed = Packed.of([Constraint("cage", (2, 3), 5), Constraint("sum", (0, 1), 4, (1, 2))])
    >>> codes, numbers = np.array([3, 2], dtype=np.int32), packed.numbers
    >>> kinds, ptr, cells, numbers, weights = constraint_arrays(packed, codes, numbers, 1)
    >>> kinds.tolist(), ptr.tolist(), cells.tolist(), weights.tolist()
    ([3, 2, 0], [0, 2, 4, 0], [2, 3, 0, 1, 0, 0, 0], [1, 1, 1, 2, 1, 1, 1])
    """
    n = len(codes)
    ptr = np.zeros(n + room + 1, dtype=np.int32)
    ptr[: n + 1] = packed.ptr
    spare = room * MOST_CELLS
    weights = np.ones(len(packed.weights) + spare, dtype=np.int64)
    weights[: len(packed.weights)] = packed.weights
    return (
        _padded(codes, room),
        ptr,
        _padded(packed.cells, spare),
        _padded(numbers, room),
        weights,
    )


def _padded(values: NDArray[Any], room: int) -> NDArray[Any]:
    """``values`` with ``room`` zeros after them."""
    padded = np.zeros(len(values) + room, dtype=values.dtype)
    padded[: len(values)] = values
    return padded


def spare_room(frame: Frame) -> int:
    """The implied sums on ``frame``, at most (:func:`add_implied` writes up to this many
    constraints, of up to :data:`MOST_CELLS` cells each): an innie and an outie per group."""
    groups: SumGroups = frame.table("implied-sum groups", SumGroups.of)
    return 2 * len(groups.units)


def search_room(frame: Frame) -> int:
    """The implied sums the exact search adds on ``frame``, at most: :func:`spare_room`, or
    none below :data:`SEARCH_FROM` values.

    >>> from ndoku.model.layout import load_layout
    >>> search_room(Frame.of(load_layout("4x4"))), search_room(Frame.of(load_layout("9x9")))
    (0, 114)
    """
    return spare_room(frame) if frame.size >= SEARCH_FROM else 0


def add_implied(
    frame: Frame,
    kinds: NDArray[np.int32],
    ptr: NDArray[np.int32],
    cells: NDArray[np.int32],
    numbers: NDArray[np.int64],
    weights: NDArray[np.int64],
    n: int,
    layered: bool = False,
) -> NDArray[np.int64]:
    """Write the implied sums of the first ``n`` constraints' cages after them: each one's
    kernel (``CAGE`` within one unit, else ``SUM``), cells (from ``cells[ptr[n]]`` on),
    number and weights (1 each); the arrays hold :func:`spare_room` more constraints (sums
    past that room are left out). The constraints are given as
    :func:`ndoku.solvers.tables.rule_tables` gives them (its ``CAGE`` kind marks the cages).
    Cages that overlap imply nothing, or with ``layered``, what each layer of cages that do
    not implies (a cage in the first layer it overlaps nothing of: an outside-sum 9×9's
    columns' cages, then its rows'). Returns each implied sum's group and whether it is an
    innie (1) or an outie (0), ``(sums, 2)``: their count."""
    groups: SumGroups = frame.table("implied-sum groups", SumGroups.of)
    owner = np.empty(frame.n_cells, dtype=np.int64)
    mark = np.empty(frame.n_cells, dtype=np.int64)
    rows = np.empty((2 * len(groups.units), 4 + MOST_CELLS), dtype=np.int64)
    count = np.empty(n, dtype=np.int64)
    layer = np.empty(n, dtype=np.int64)
    found = np.empty((len(kinds) - n, 2), dtype=np.int64)
    kept = find_sums(
        kinds, ptr, cells, numbers, weights, n, groups.ptr, groups.cells, groups.totals,
        groups.single, owner, mark, count, rows, layered, layer, found,
    )  # fmt: skip
    return found[:kept]


@kernel()
def find_sums(
    kinds: NDArray[np.int32],
    ptr: NDArray[np.int32],
    cells: NDArray[np.int32],
    numbers: NDArray[np.int64],
    weights: NDArray[np.int64],
    n: int,
    group_ptr: NDArray[np.int64],
    group_cells: NDArray[np.int64],
    totals: NDArray[np.int64],
    single: NDArray[np.bool_],
    owner: NDArray[np.int64],
    mark: NDArray[np.int64],
    count: NDArray[np.int64],
    rows: NDArray[np.int64],
    layered: bool,
    layer: NDArray[np.int64],
    found: NDArray[np.int64],
) -> int:
    """The kernel of :func:`add_implied` (and of :mod:`ndoku.solvers.arrange`); returns the
    number of sums written, each one's group and innie in ``found``. ``owner``, ``mark`` (per
    cell), ``count`` and ``layer`` (per constraint) are work arrays; ``rows`` holds a layer's
    sums, one per row (group, innie, number, cell count, cells), innies from row 0, outies
    from the number of groups on."""
    mark[:] = 0  # the last group + 1 a cell was seen in
    count[:] = 0  # a cage's cells in the group; -1 inside it, -2 meeting it, -3 gone over
    layer[:] = -1  # a cage's layer, -1 for none yet
    kept: int = nonliteral(0)  # a literal 0 compiled _layer_sums twice (0.7 s)
    depth = 0
    while True:
        owner[:] = 0  # each cell's cage of the layer + 1, 0 for none
        placed = False
        for k in range(n):
            if kinds[k] != CAGE or layer[k] >= 0:
                continue
            free = True
            for j in range(ptr[k], ptr[k + 1]):
                if owner[cells[j]]:
                    free = False
                    break
            if not free:
                if not layered:
                    return 0  # overlapping cages (outside sums written as cages)
                continue
            layer[k] = depth
            placed = True
            for j in range(ptr[k], ptr[k + 1]):
                owner[cells[j]] = k + 1
        if not placed:
            return kept
        kept = _layer_sums(
            kinds, ptr, cells, numbers, weights, n, group_ptr, group_cells, totals, single,
            owner, mark, count, rows, found, kept,
        )  # fmt: skip
        depth += 1


@kernel()
def _layer_sums(
    kinds: NDArray[np.int32],
    ptr: NDArray[np.int32],
    cells: NDArray[np.int32],
    numbers: NDArray[np.int64],
    weights: NDArray[np.int64],
    n: int,
    group_ptr: NDArray[np.int64],
    group_cells: NDArray[np.int64],
    totals: NDArray[np.int64],
    single: NDArray[np.bool_],
    owner: NDArray[np.int64],
    mark: NDArray[np.int64],
    count: NDArray[np.int64],
    rows: NDArray[np.int64],
    found: NDArray[np.int64],
    kept: int,
) -> int:
    """The sums one layer of disjoint cages (``owner``) implies, written after the ``kept``
    ones before (none twice, none a cage already, none past the arrays' room); returns the
    new ``kept``."""
    n_groups = len(group_ptr) - 1
    innies, outies = 0, n_groups
    for g in range(n_groups):
        start, end = group_ptr[g], group_ptr[g + 1]
        uncovered = 0
        for j in range(start, end):
            mark[group_cells[j]] = g + 1
            k = owner[group_cells[j]]
            if k:
                count[k - 1] += 1
            else:
                uncovered += 1
        inside = inside_sum = meets = meets_sum = 0
        for j in range(start, end):
            k = owner[group_cells[j]]
            if k and count[k - 1] > 0:  # the cage's first cell here
                length = ptr[k] - ptr[k - 1]
                meets += length
                meets_sum += numbers[k - 1]
                if count[k - 1] == length:
                    inside += length
                    inside_sum += numbers[k - 1]
                    count[k - 1] = -1
                else:
                    count[k - 1] = -2
        size = end - start
        if inside > 0 and 0 < size - inside <= MOST_CELLS:
            row = rows[innies]
            innies += 1
            row[0], row[1], row[2], row[3] = g, 1, totals[g] - inside_sum, 0
            for j in range(start, end):
                k = owner[group_cells[j]]
                if k == 0 or count[k - 1] != -1:
                    row[4 + row[3]] = group_cells[j]
                    row[3] += 1
        if uncovered == 0 and 0 < meets - size <= MOST_CELLS:
            row = rows[outies]
            outies += 1
            row[0], row[1], row[2], row[3] = g, 0, meets_sum - totals[g], 0
            for j in range(start, end):
                k = owner[group_cells[j]]
                if count[k - 1] < -2:
                    continue
                count[k - 1] = -3
                for i in range(ptr[k - 1], ptr[k]):
                    cell = cells[i]
                    if mark[cell] != g + 1:  # in order: insertion
                        at = 4 + row[3]
                        while at > 4 and row[at - 1] > cell:
                            row[at] = row[at - 1]
                            at -= 1
                        row[at] = cell
                        row[3] += 1
        for j in range(start, end):
            k = owner[group_cells[j]]
            if k:
                count[k - 1] = 0
    for t in range(innies + outies - n_groups):
        if kept == found.shape[0]:
            break  # no room left: a sum less to narrow with, none wrong
        row = rows[t if t < innies else n_groups + t - innies]
        length = row[3]
        # already a cage: the one of the layer holding its first cell, the cells the same
        # (another layer's cage that is the same sum is left: a sum narrowed twice)
        k = owner[row[4]] - 1
        known = k >= 0 and ptr[k + 1] - ptr[k] == length
        for i in range(length):
            if not known:
                break
            known = cells[ptr[k] + i] == row[4 + i]
        for q in range(kept):  # or an implied sum before
            if known:
                break
            if ptr[n + q + 1] - ptr[n + q] == length:
                known = True
                for i in range(length):
                    if cells[ptr[n + q] + i] != row[4 + i]:
                        known = False
                        break
        if known:
            continue
        at = n + kept
        kinds[at] = CAGE if row[1] and single[row[0]] else SUM
        numbers[at] = row[2]
        ptr[at + 1] = ptr[at] + length
        for i in range(length):
            cells[ptr[at] + i] = row[4 + i]
            weights[ptr[at] + i] = 1
        found[kept, 0], found[kept, 1] = row[0], row[1]
        kept += 1
    return kept


@dataclass(frozen=True)
class SumGroups:
    """Every unit, then runs of 2 to :data:`MOST_LINES` rows (or columns) that lie side by
    side over the same span (a frame's table, :meth:`of`).

    Attributes
    ----------
    ptr, cells : ndarray of int64
        Each group's cells (CSR), in order.
    units : list of tuple of int
        Each group's units.
    single : ndarray of bool
        Whether the group is one unit (its cells differ).
    totals : ndarray of int64
        The sum of each group's values.
    """

    ptr: NDArray[np.int64]
    cells: NDArray[np.int64]
    units: list[tuple[int, ...]]
    single: NDArray[np.bool_]
    totals: NDArray[np.int64]

    @classmethod
    def of(cls, frame: Frame) -> SumGroups:
        """The groups of ``frame``."""
        units, cell_rc = frame.units, frame.cell_rc
        found: list[tuple[list[int], tuple[int, ...]]] = [
            (units[u].tolist(), (u,)) for u in range(len(units))
        ]
        for kind, along, across in ((ROW, 0, 1), (COLUMN, 1, 0)):
            runs: dict[tuple[int, int, int], int] = {}
            for line in np.flatnonzero(units.kind == kind).tolist():
                spot = cell_rc[units[line]]
                key = (int(spot[0, along]), int(spot[:, across].min()), int(spot[:, across].max()))
                runs[key] = line
            for (at, low, high), first in sorted(runs.items()):
                run = [first]
                for k in range(1, MOST_LINES):
                    more = runs.get((at + k, low, high))
                    if more is None:
                        break
                    run.append(more)
                    found.append(([c for v in run for c in units[v].tolist()], tuple(run)))
        lines = np.array([len(run) for _, run in found], dtype=np.int64)
        ptr = np.zeros(len(found) + 1, dtype=np.int64)
        np.cumsum([len(cells) for cells, _ in found], out=ptr[1:])
        return cls(
            ptr=ptr,
            cells=np.array([c for cells, _ in found for c in sorted(cells)], dtype=np.int64),
            units=[run for _, run in found],
            single=lines == 1,
            totals=lines * (frame.size * (frame.size + 1) // 2),
        )
