"""The logic engine's board: each cell's value or candidates, and the layout's unit tables.

Glossary
--------
board
    What a human solver sees: the placed values (givens and values placed since) and, for
    each free cell, its candidates (pencil marks), as ``cand[cell, value - 1]`` booleans.
    Placing a value removes it from the candidates of every peer; a technique removes
    candidates or places values, never anything else.
full unit
    A unit of N cells holds every value exactly once; every unit ndoku builds is full (rows,
    columns, boxes, regions and extra units all have N cells), which is what hidden singles,
    hidden subsets and fish rely on.
crossing
    Two units that share two cells or more; locked candidates work across every crossing (a
    box and a row, the shared box of a Samurai and a row of either sub-grid, a jigsaw region
    and a column, an extra unit and a box).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import numpy as np
from numpy.typing import NDArray

from ndoku.model.frame import Frame
from ndoku.model.puzzle import Puzzle
from ndoku.model.units import COLUMN, ROW, csr

IntArray = NDArray[np.int32]
BoolArray = NDArray[np.bool_]
T = TypeVar("T")


@dataclass(frozen=True, eq=False)
class Tables:
    """What the techniques read of a layout, built once per frame.

    Attributes
    ----------
    units : ndarray of int32, shape (units, N)
        The cells of each unit (every unit holds N cells).
    kind : ndarray of int8
        ``ROW``, ``COLUMN``, ``BOX`` or ``EXTRA`` per unit.
    grid_of : ndarray of int32
        The first sub-grid whose window holds the whole unit, -1 for none (an extra unit
        spread over several sub-grids).
    pairs : ndarray of int32, shape (crossings, 2)
        The units (a, b) of each of :attr:`Frame.crossings
        <ndoku.model.frame.Frame.crossings>` (both ways round).
    shared, rest : (ndarray, ndarray) of int32
        Per crossing, the cells a and b share, and b's cells outside a (CSR: pointers, cells).
    fish_lines : (ndarray, ndarray) of int32, shape (orientations, width)
        The base and cover sets of fish: per sub-grid, its rows on its columns, then its
        columns on its rows (unit numbers, top to bottom, left to right; −1 pads).
    sees : ndarray of bool, shape (cells, cells)
        ``sees[a, b]``: cells a and b are peers (what wings and chains ask most).
    """

    size: int
    units: IntArray
    kind: NDArray[np.int8]
    grid_of: IntArray
    pairs: IntArray
    shared: tuple[IntArray, IntArray]
    rest: tuple[IntArray, IntArray]
    fish_lines: tuple[IntArray, IntArray]
    sees: BoolArray

    @classmethod
    def of(cls, frame: Frame) -> Tables:
        return frame.table("logic", cls._build)

    @classmethod
    def _build(cls, frame: Frame) -> Tables:
        size = frame.size
        units = frame.units.cells.reshape(-1, size)
        kind = frame.units.kind
        rc = frame.cell_rc
        # within[g, u]: sub-grid g's window holds unit u (a row or column of overlapping
        # sub-grids can be in several: a fish of each sees all of its lines)
        within = np.zeros((len(frame.layout.corners), len(units)), dtype=bool)
        for u, cells in enumerate(units):
            rows, cols = rc[cells, 0], rc[cells, 1]
            for g, (r0, c0) in enumerate(frame.layout.corners):
                inside = (rows >= r0) & (rows < r0 + size) & (cols >= c0) & (cols < c0 + size)
                within[g, u] = inside.all()
        grid_of = np.where(within.any(axis=0), within.argmax(axis=0), -1).astype(np.int32)
        pairs = np.array([(a, b) for a, b, _ in frame.crossings], dtype=np.int32).reshape(-1, 2)
        shared = csr([cells for _, _, cells in frame.crossings])
        rest = csr([units[b][~np.isin(units[b], units[a])] for a, b, _ in frame.crossings])
        orientations = []
        for g in range(len(frame.layout.corners)):
            rows = np.flatnonzero(within[g] & (kind == ROW))
            cols = np.flatnonzero(within[g] & (kind == COLUMN))
            if len(rows) and len(cols):
                # top to bottom, left to right
                rows = rows[np.argsort(rc[units[rows, 0], 0], kind="stable")]
                cols = cols[np.argsort(rc[units[cols, 0], 1], kind="stable")]
                orientations += [(rows, cols), (cols, rows)]
        width = max((len(lines) for pair in orientations for lines in pair), default=0)
        padded = np.full((len(orientations), 2, width), -1, dtype=np.int32)
        for o, pair in enumerate(orientations):
            for i, lines in enumerate(pair):
                padded[o, i, : len(lines)] = lines
        fish_lines = (padded[:, 0].copy(), padded[:, 1].copy())
        ptr, peers = frame.peers
        sees = np.zeros((frame.n_cells, frame.n_cells), dtype=bool)
        sees[np.repeat(np.arange(frame.n_cells), np.diff(ptr)), peers] = True
        return cls(
            size,
            units.astype(np.int32),
            kind,
            grid_of,
            pairs,
            shared,
            rest,
            fish_lines,
            sees,
        )


@dataclass(eq=False)
class Board:
    """Placed values and candidates of a puzzle being solved by logic.

    Attributes
    ----------
    values : ndarray of int32, shape (cells,)
        The placed value of each cell, 0 while it is free.
    cand : ndarray of bool, shape (cells, N)
        ``cand[c, v - 1]``: value v is still possible in free cell c (all False once placed).

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> board = Board.start(p)
    >>> board.free, board.candidates(1)
    (12, [2, 3])
    """

    puzzle: Puzzle
    tables: Tables
    values: IntArray
    cand: BoolArray
    # what derived() made of the board in the state _state (its values and candidates)
    _derived: dict[Hashable, Any] = field(default_factory=dict, init=False, repr=False)
    _state: bytes = field(default=b"", init=False, repr=False)
    #: What a technique keeps from one state of the board to a later one, by its key (each
    #: checks what it keeps against the board it is given).
    memory: dict[Hashable, Any] = field(default_factory=dict, init=False, repr=False)

    @classmethod
    def start(
        cls,
        puzzle: Puzzle,
        values: IntArray | None = None,
        candidates: NDArray[np.uint64] | None = None,
    ) -> Board:
        """The givens (or ``values``: givens and a solver's own entries) placed, and every
        other cell's candidates: the values no peer holds, and only those of ``candidates``
        (``(cells,)`` bits, bit ``v - 1`` for value v; default: the puzzle's pencil marks,
        if it has them)."""
        placed = puzzle.givens if values is None else values
        marks = puzzle.candidates if candidates is None else candidates
        board = cls(
            puzzle,
            Tables.of(puzzle.frame),
            np.zeros(puzzle.n_cells, dtype=np.int32),
            np.ones((puzzle.n_cells, puzzle.size), dtype=bool),
        )
        for c in np.flatnonzero(placed):
            board.place(int(c), int(placed[c]))
        if marks is not None:
            values_of = np.arange(puzzle.size, dtype=np.uint64)
            board.cand &= (marks[:, None] >> values_of) & np.uint64(1) == 1
        return board

    @property
    def free(self) -> int:
        """Cells without a value yet."""
        return int((self.values == 0).sum())

    def candidates(self, cell: int) -> list[int]:
        """The values still possible in ``cell``, rising."""
        return [int(v) + 1 for v in np.flatnonzero(self.cand[cell])]

    def place(self, cell: int, value: int) -> None:
        """Put ``value`` in ``cell`` and remove it from the candidates of every peer."""
        ptr, peers = self.puzzle.peers
        self.values[cell] = value
        self.cand[cell] = False
        self.cand[peers[ptr[cell] : ptr[cell + 1]], value - 1] = False

    def lacking(self) -> BoolArray:
        """``lacking[u, v - 1]``: unit u does not hold value v yet."""
        units = self.tables.units
        held = np.zeros((len(units), self.tables.size + 1), dtype=bool)
        held[np.arange(len(units))[:, None], self.values[units]] = True
        return ~held[:, 1:]

    def naked_singles(self) -> list[tuple[int, int]]:
        """(cell, value) of every free cell with one candidate, cells rising."""
        single = np.flatnonzero((self.values == 0) & (self.cand.sum(axis=1) == 1))
        return [(int(c), int(np.flatnonzero(self.cand[c])[0]) + 1) for c in single]

    def hidden_singles(self) -> list[tuple[int, int, int]]:
        """(unit, cell, value) of every value a unit lacks that has one place left in it,
        by unit, then value."""
        units = self.tables.units
        places = self.cand[units].sum(axis=1)  # (units, N)
        found = []
        for u, v in np.argwhere((places == 1) & self.lacking()):
            cells = units[u]
            found.append((int(u), int(cells[self.cand[cells, v]][0]), int(v) + 1))
        return found

    def contradiction(self) -> bool:
        """A free cell without candidates, or a value a unit lacks with no place left in it."""
        # numpy, not the kernel ``tallies``: a first path's singles compile nothing for it
        if ((self.values == 0) & ~self.cand.any(axis=1)).any():
            return True
        return bool((self.lacking() & ~self.cand[self.tables.units].any(axis=1)).any())

    def derived(self, key: Hashable, make: Callable[[Board], T]) -> T:
        """``make(self)``, made once per ``key`` and state of the board (its values and
        candidates): what several techniques of one round read (an implication graph) is
        made by the first of them. The state is compared whole, so the arrays may be
        changed in place."""
        state = self.values.tobytes() + self.cand.tobytes()
        if state != self._state:
            self._derived.clear()
            self._state = state
        if key not in self._derived:
            self._derived[key] = make(self)
        return cast(T, self._derived[key])

    def copy(self) -> Board:
        return Board(self.puzzle, self.tables, self.values.copy(), self.cand.copy())
