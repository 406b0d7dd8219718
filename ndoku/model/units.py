"""Units and peers: the constraint structure every solver works on, as CSR arrays.

Glossary
--------
CSR
    ``(ptr, idx)`` int32 arrays: the items of ``i`` are ``idx[ptr[i]:ptr[i + 1]]``; this is
    how kernels see units (unit → cells, cell → units) and peers (cell → peers). The peer
    graph itself (networkx) is built only for people, by :mod:`ndoku.model.graph`.

Cells, units and peers are as in the package glossary (:mod:`ndoku`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import LayoutError
from ndoku.model.layout import Layout

ROW, COLUMN, BOX, EXTRA = 0, 1, 2, 3
KIND_NAMES = ("row", "column", "box", "extra unit")

IntArray = NDArray[np.int32]


@dataclass(frozen=True, eq=False)
class Units:
    """The units of a layout, as CSR arrays over cell numbers.

    Attributes
    ----------
    ptr, cells : ndarray of int32
        Unit ``u`` holds cells ``cells[ptr[u]:ptr[u + 1]]``.
    kind : ndarray of int8
        ``ROW``, ``COLUMN`` or ``BOX`` per unit.
    """

    ptr: IntArray
    cells: IntArray
    kind: NDArray[np.int8]

    def __len__(self) -> int:
        return len(self.kind)

    def __getitem__(self, unit: int | np.integer) -> IntArray:
        return self.cells[self.ptr[unit] : self.ptr[unit + 1]]

    def select(self, keep: NDArray[np.bool_]) -> Units:
        """The units where ``keep`` is True, in order."""
        chosen = [self[u] for u in np.flatnonzero(keep)]
        return Units(*csr(chosen), self.kind[keep])

    def of_cells(self, n_cells: int) -> tuple[IntArray, IntArray]:
        """CSR of cell → the units holding it."""
        lists: list[list[int]] = [[] for _ in range(n_cells)]
        for u in range(len(self)):
            for cell in self[u]:
                lists[cell].append(u)
        return csr(lists)


def number_cells(mask: NDArray[np.bool_]) -> tuple[IntArray, IntArray]:
    """Cell numbers on the canvas (-1 where missing) and each cell's (row, col).

    >>> import numpy as np
    >>> index, rc = number_cells(np.array([[True, False], [True, True]]))
    >>> index.tolist(), rc.tolist()
    ([[0, -1], [1, 2]], [[0, 0], [1, 0], [1, 1]])
    """
    index = np.full(mask.shape, -1, dtype=np.int32)
    rc = np.argwhere(mask).astype(np.int32)
    index[rc[:, 0], rc[:, 1]] = np.arange(len(rc), dtype=np.int32)
    return index, rc


def build_units(layout: Layout, index: IntArray) -> Units:
    """Rows and columns of every sub-grid, its boxes (or the regions), the extra units;
    each distinct unit once.

    >>> from ndoku.model.layout import load_layout
    >>> layout = load_layout("samurai")
    >>> index, _ = number_cells(layout.mask)
    >>> len(build_units(layout, index))  # 5 × 27 units, 4 shared boxes counted once
    131
    """
    size = layout.size
    blocks: list[tuple[int, IntArray]] = []
    for r0, c0 in layout.corners:
        window = index[r0 : r0 + size, c0 : c0 + size]
        blocks += [(ROW, window[i, :]) for i in range(size)]
        blocks += [(COLUMN, window[:, j]) for j in range(size)]
        if layout.box is not None:
            bh, bw = layout.box
            blocks += [
                (BOX, window[i : i + bh, j : j + bw].ravel())
                for i in range(0, size, bh)
                for j in range(0, size, bw)
            ]
    if layout.regions is not None:
        blocks += [(BOX, index[layout.regions == k]) for k in range(int(layout.regions.max()) + 1)]
    for extra in layout.extras:
        rows, cols = zip(*extra.cells, strict=True)
        blocks.append((EXTRA, index[list(rows), list(cols)]))
    kind_of: dict[tuple[int, ...], int] = {}
    for kind, cells in blocks:
        key = tuple(sorted(int(c) for c in cells))
        # A jigsaw region that is also a row stays a box: Metropolis moves only within boxes.
        if key not in kind_of or kind == BOX:
            kind_of[key] = kind
    lists = [list(key) for key in kind_of]
    units = Units(*csr(lists), np.array(list(kind_of.values()), dtype=np.int8))
    boxes_per_cell = np.bincount(units.select(units.kind == BOX).cells, minlength=index.max() + 1)
    if (boxes_per_cell > 1).any():
        (r, c), *_ = np.argwhere(index == np.argmax(boxes_per_cell > 1))
        raise LayoutError(
            f"the sub-grids {layout.corners_text()} overlap in part of a box (at canvas row "
            f"{r + 1}, column {c + 1}); overlapping sub-grids must share whole boxes"
        )
    return units


def peers_of(
    units: Units, n_cells: int, more: Sequence[tuple[int, int]] = ()
) -> tuple[IntArray, IntArray]:
    """CSR of cell → peers (the cells sharing a unit with it, and the pairs of ``more``),
    each cell's peers rising.

    >>> from ndoku.model.layout import load_layout
    >>> layout = load_layout("4x4")
    >>> index, _ = number_cells(layout.mask)
    >>> ptr, peers = peers_of(build_units(layout, index), 16)
    >>> peers[ptr[0] : ptr[1]].tolist()  # row 0, column 0, the rest of the top-left box
    [1, 2, 3, 4, 5, 8, 12]
    """
    lengths = np.diff(units.ptr).astype(np.int64)
    unit_of = np.repeat(np.arange(len(units)), lengths)
    # every ordered pair of cells of each unit: (cell, partner)
    partners = np.repeat(lengths, lengths)
    cells = np.repeat(units.cells.astype(np.int64), partners)
    starts = np.repeat(units.ptr[:-1].astype(np.int64)[unit_of], partners)
    offsets = np.arange(len(cells)) - np.repeat(np.cumsum(partners) - partners, partners)
    others = units.cells[starts + offsets].astype(np.int64)
    pairs = cells[cells != others] * n_cells + others[cells != others]
    if more:
        a, b = np.array(more, dtype=np.int64).T
        pairs = np.concatenate([pairs, a * n_cells + b, b * n_cells + a])
    pairs = np.unique(pairs)
    ptr = np.zeros(n_cells + 1, dtype=np.int32)
    ptr[1:] = np.cumsum(np.bincount(pairs // n_cells, minlength=n_cells))
    return ptr, (pairs % n_cells).astype(np.int32)


def csr(lists: Sequence[Sequence[int] | IntArray]) -> tuple[IntArray, IntArray]:
    """Pointers and items (int32) of a list of lists: list i is ``items[ptr[i]:ptr[i + 1]]``."""
    ptr = np.zeros(len(lists) + 1, dtype=np.int32)
    ptr[1:] = np.cumsum([len(items) for items in lists])
    flat = [np.asarray(items, dtype=np.int32) for items in lists]
    return ptr, np.concatenate(flat) if flat else np.zeros(0, dtype=np.int32)
