"""What puzzles of one layout share: numbered cells, units, peers and the solvers' tables.

A frame is built once per layout and handed to every puzzle of it, so that units and peers
are built once per batch, and a solver's per-layout tables (the propagation kernels'
topology and locked-candidates program, …) once per frame. Whether two puzzles have the same
layout is decided in one place: their frames' :attr:`Frame.key`.

Variant rules that are units or peers (``disjoint``, a ``region`` of N cells, ``antiknight``,
``antiking``: :mod:`ndoku.model.constraints`) make a frame of their own, its units and peers
those of the layout and theirs, so that every solver that reads units and peers sees them;
its key tells it apart from the layout's.

Frames are kept for reuse (:func:`Frame.of`, the latest :data:`MOST_FRAMES` used): a server
that reads the same layout in request after request, or a file of grids of a few layouts,
numbers the cells, builds the units and peers and the solvers' tables once per layout, not
once per read. What a frame holds depends only on its layout and the units and peers added,
which are the key of the store; every table in it is read, never written, by the solvers.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from ndoku.model.cover import Corner
from ndoku.model.kept import Kept
from ndoku.model.layout import Extra, Layout
from ndoku.model.units import Units, build_units, number_cells, peers_of
from ndoku.text.grid import Grid

IntArray = NDArray[np.int32]
#: Unit cells :meth:`Frame.repeated` holds at once (32 MB of int64), whatever the batch.
_REPEAT_ENTRIES = 1 << 22

_T = TypeVar("_T")

#: Frames kept for reuse, the latest used, and the cells they may hold in all (a logic
#: table is cells × cells: a few large layouts must not keep hundreds of MB).
MOST_FRAMES = 16
MOST_KEPT_CELLS = 8192


@dataclass(frozen=True, eq=False)
class Frame:
    """A layout with its cells numbered and its units built.

    Attributes
    ----------
    index : ndarray of int32, shape (rows, cols)
        Cell number of each canvas position, -1 where missing.
    cell_rc : ndarray of int32, shape (cells, 2)
        Canvas row and column of each cell.
    added : tuple of (int, int)
        Peers beyond the units' (an anti-knight's pairs of cells, smaller first).

    Examples
    --------
    >>> from ndoku.model.layout import load_layout
    >>> frame = Frame.of(load_layout("9x9"))
    >>> len(frame.units), int(frame.peers[0][1])  # 27 units; 20 peers per cell
    (27, 20)
    >>> frame.key == Frame.of(load_layout("9x9")).key
    True
    """

    layout: Layout
    index: IntArray
    cell_rc: IntArray
    units: Units
    _tables: dict[str, Any] = field(default_factory=dict, repr=False)
    added: tuple[tuple[int, int], ...] = ()

    @classmethod
    def of(
        cls,
        layout: Layout,
        units: Sequence[Sequence[Corner]] = (),
        peers: Sequence[tuple[int, int]] = (),
    ) -> Frame:
        """The frame of a layout, with more units (N canvas positions each) and more peers
        (pairs of cell numbers, smaller first) when rules add them.

        >>> from ndoku.model.layout import load_layout
        >>> plain = Frame.of(load_layout("4x4"))
        >>> knight = Frame.of(load_layout("4x4"), peers=[(0, 6)])
        >>> int(knight.peers[0][1]) - int(plain.peers[0][1]), knight.key == plain.key
        (1, False)
        >>> Frame.of(load_layout("4x4")) is plain  # kept: built once per layout
        True
        """
        more = tuple(tuple(unit) for unit in units)
        added = tuple(peers)

        def build() -> Frame:
            index, cell_rc = number_cells(layout.mask)
            extras = tuple(Extra("rule", unit) for unit in more)
            built = replace(layout, extras=(*layout.extras, *extras)) if extras else layout
            return cls(layout, index, cell_rc, build_units(built, index), added=added)

        return _KEPT.get_or_build((_layout_key(layout), more, added), build)

    @property
    def size(self) -> int:
        """N: symbols per unit."""
        return self.layout.size

    @property
    def n_cells(self) -> int:
        return len(self.cell_rc)

    @cached_property
    def key(self) -> tuple[int, tuple[int, ...], bytes, bytes, bytes, bytes, bytes]:
        """Equal for two frames exactly when their cells lie at the same canvas positions and
        their units (and unit kinds) and peers are the same: puzzles of one layout."""
        units = self.units
        mask = self.layout.mask
        return (
            self.size,
            mask.shape,
            np.packbits(mask).tobytes(),
            units.ptr.tobytes(),
            units.cells.tobytes(),
            units.kind.tobytes(),
            np.array(sorted(set(self.added)), dtype=np.int32).tobytes(),
        )

    @cached_property
    def peers(self) -> tuple[IntArray, IntArray]:
        """CSR of cell → peers, each cell's peers rising."""
        return peers_of(self.units, self.n_cells, self.added)

    @cached_property
    def cell_units(self) -> tuple[IntArray, IntArray]:
        """CSR of cell → the units holding it."""
        return self.units.of_cells(self.n_cells)

    @cached_property
    def crossings(self) -> list[tuple[int, int, IntArray]]:
        """``(a, b, shared)`` for every ordered pair of units that share two cells or more:
        by a rising, each a's partners in the order its cells (rising) meet them; ``shared``
        the cells of a ∩ b, rising. Locked candidates work across these."""
        ptr, of_cell = self.cell_units
        units = self.units
        found = []
        for a in range(len(units)):
            mine = set(units[a].tolist())
            met = {a}
            for c in sorted(mine):
                for b in of_cell[ptr[c] : ptr[c + 1]].tolist():
                    if b in met:
                        continue
                    met.add(b)
                    shared = sorted(mine.intersection(units[b].tolist()))
                    if len(shared) >= 2:
                        found.append((a, b, np.array(shared, dtype=np.int32)))
        return found

    def table(self, name: str, build: Callable[[Frame], _T]) -> _T:
        """A solver's table for this layout, built by ``build(frame)`` on first use."""
        if name not in self._tables:
            self._tables[name] = build(self)
        return self._tables[name]  # type: ignore[no-any-return]

    def givens(self, grids: Sequence[Grid]) -> IntArray:
        """The cell values of grids of this layout, ``(grids, cells)``."""
        rows, cols = self.cell_rc[:, 0], self.cell_rc[:, 1]
        return np.stack([g.values[rows, cols] for g in grids]).astype(np.int32)

    def repeated(self, givens: IntArray) -> NDArray[np.bool_]:
        """Per row of ``givens`` ``(grids, cells)``: whether one of the units (of N cells
        each) holds a value twice.

        >>> from ndoku.model.layout import load_layout
        >>> frame = Frame.of(load_layout("4x4"))
        >>> frame.repeated(np.array([[1, 0, 0, 1] + [0] * 12, [1, 0, 0, 2] + [0] * 12]))
        array([ True, False])
        """
        cells = self.units.cells.reshape(-1, self.size)
        values = np.asarray(givens, dtype=np.int64)
        found = np.zeros(len(values), dtype=np.bool_)
        step = max(1, _REPEAT_ENTRIES // cells.size)
        for start in range(0, len(values), step):
            held = values[start : start + step][:, cells]  # (grids, units, N)
            # Each value is one bit: a unit's bits add up to more than their union when a
            # value comes twice. numpy rather than a kernel: a first solve skips a compile.
            bits = np.left_shift(1, np.maximum(held - 1, 0)) * (held > 0)
            found[start : start + step] = (bits.sum(-1) != np.bitwise_or.reduce(bits, -1)).any(-1)
        return found


#: The frames kept (see the module docstring).
_KEPT: Kept[Hashable, Frame] = Kept(MOST_FRAMES, lambda frame: frame.n_cells, MOST_KEPT_CELLS)


def _layout_key(layout: Layout) -> Hashable:
    """Every field of a layout, its arrays as their type, shape and bytes: equal exactly
    for layouts equal in everything a frame is built from and shows (name too)."""
    return tuple(
        (value.dtype.str, value.shape, value.tobytes()) if isinstance(value, np.ndarray) else value
        for value in (getattr(layout, f.name) for f in fields(layout))
    )
