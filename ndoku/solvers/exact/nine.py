"""The exact search of the classic 9×9 on bit boards: each digit's places band by band,
propagated by singles and the band and stack rules (:func:`search_nine`).

Glossary (terms of the package's glossary apply too)
----------------------------------------------------
band, stack
    Three rows of boxes (band ``b``: rows ``3b .. 3b+2``), three columns of boxes.
board
    A digit's places in one band: 27 bits, bit ``9r + c`` for row ``3b + r``, column ``c``.
    A state is the 27 boards (digit ``d``, band ``b`` at ``3d + b``), the free cells of each
    band and their number (:data:`_FREE`, :data:`_LEFT`). A fixed cell keeps its digit's bit.
triads
    The three cells of a row inside one box. A board's *triad pattern* (9 bits, bit
    ``3r + k`` for row ``r``, box ``k``) says which triads still hold the digit.
band rule
    A digit fills one triad in each row of a band and one in each box: its triads form a
    permutation of the 3 × 3 pattern. Triads in no permutation that fits the pattern go
    (pointing and claiming both, and more); no permutation is a contradiction.
stack rule
    The same across a stack, with columns of boxes: (band, column) pairs in place of (row, box).

weight
    Each unit (row, column, box) weighs the failures blamed on it: a contradiction on the
    units where it was found (a cell's three, or a band's rows and boxes, a stack's columns
    and boxes) and on those of the cell whose branch led to it. A failure adds an eighth more
    than the one before, so recent ones count most. A cell weighs the sum of its units.

A node is propagated to its fixed point by naked singles, the band and stack rules and hidden
singles (rows, boxes, columns), then branches on the heaviest cell with two candidates (fewest
candidates when none has two): ``cell = digit``, then ``cell ≠ digit``. Measured on the
forum-hardest sample (2 000): 168 nodes a puzzle, against 240 for the general search on
9×9 (singles and dom/wdeg) and 290 for the first two-candidate cell unweighted. The search
loop is the general kernel's (:func:`ndoku.solvers.exact.kernels.search`), with the same
statistics, limits and pauses; it answers the same counts on every 9×9 of rows, columns and
3×3 boxes.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import compiled, kernel, ticks
from ndoku.solvers.bits import copy, lowest
from ndoku.solvers.exact.kernels import (
    REG_ACTIVE,
    REG_DEPTH,
    STAT_COUNT,
    STAT_GUESSES,
    STAT_NODES,
    STAT_PROPAGATED,
    STOP_COMPLETE,
    STOP_NODES,
    STOP_SOLUTIONS,
    TICK_CHECK,
    first_pause,
    next_pause,
    settle_row,
)
from ndoku.solvers.tables import IntArray

#: Slots of a state row after the 27 boards: free cells of each band, free cells in all,
#: the boards as the digit rules last left them unchanged (a digit whose boards still equal
#: them has nothing new for its rules), and the units (bits) a contradiction is blamed on.
_FREE = 27
_LEFT = 30
_SEEN = 32
_BLAME = 59
#: The weights of the 27 units (rows, columns, boxes), then what the next failure adds.
N_WEIGHTS = 28
_BUMP = 27
WIDTH = 64
#: Levels of the stack: the root and one per fixed cell at most.
DEPTH = 82
#: Columns of a branch: band, cell bit, digit, whether ``cell = digit`` was tried.
_BAND, _BIT, _DIGIT, _TRIED = range(4)
_ALL = (1 << 27) - 1
_ROW = (1 << 9) - 1


def _tables() -> tuple[NDArray[np.int64], ...]:
    """The lookup tables of the rules, computed from their definitions."""
    # Which boxes of a row (9 bits) hold a place: 3 bits.
    row_boxes = np.array(
        [sum(1 << k for k in range(3) if x >> 3 * k & 7) for x in range(512)], dtype=np.int64
    )
    # A 3 × 3 pattern → the union of the permutations inside it (0: none).
    shapes = [sum(1 << (3 * r + p[r]) for r in range(3)) for p in permutations(range(3))]
    fits = np.array(
        [np.bitwise_or.reduce([m for m in shapes if t & m == m] + [0]) for t in range(512)],
        dtype=np.int64,
    )
    # A triad pattern → the cells of its triads.
    triad_cells = np.array(
        [
            sum(7 << (9 * r + 3 * k) for r in range(3) for k in range(3) if t >> (3 * r + k) & 1)
            for t in range(512)
        ],
        dtype=np.int64,
    )
    # Columns (9 bits) → their cells in a band.
    column_cells = np.array([x | x << 9 | x << 18 for x in range(512)], dtype=np.int64)
    # A cell of a band → the other cells of its row and box there.
    peers = np.zeros(27, dtype=np.int64)
    for pos in range(27):
        r, c = divmod(pos, 9)
        row = _ROW << 9 * r
        box = column_cells[7 << c // 3 * 3]
        peers[pos] = (row | box) & ~(1 << pos)
    # The rows, then the boxes, of a band.
    units = [_ROW << 9 * r for r in range(3)] + [column_cells[7 << 3 * k] for k in range(3)]
    return row_boxes, fits, triad_cells, column_cells, peers, np.array(units, dtype=np.int64)


_ROW_BOXES, _FITS, _TRIAD_CELLS, _COLUMN_CELLS, _PEERS, _BAND_UNITS = _tables()
#: Units are numbered rows 0-8, columns 9-17, boxes 18-26; a contradiction is blamed on a set
#: of them (bits): a band's rows and boxes, or a stack's columns and boxes.
_BAND_BLAME = np.array([7 << 3 * b | 7 << 18 + 3 * b for b in range(3)], dtype=np.int64)
_STACK_BLAME = np.array([7 << 9 + 3 * s | 0o111 << 18 + s for s in range(3)], dtype=np.int64)


@kernel(forceinline=True)
def _place(s: NDArray[np.int64], d: int, b: int, bit: int) -> bool:
    """Fix the free cell ``bit`` of band ``b`` to digit ``d``; False when ``d`` left it."""
    k = 3 * d + b
    if s[k] & bit == 0:
        return False
    pos = lowest(np.uint64(bit))
    s[k] &= ~_PEERS[pos]
    column = _COLUMN_CELLS[1 << pos % 9]
    for o in range(3):
        if o != b:
            s[3 * d + o] &= ~column
    for e in range(9):
        s[3 * e + b] &= ~bit
    s[k] |= bit
    s[_FREE + b] &= ~bit
    s[_LEFT] -= 1
    return True


@kernel(forceinline=True)
def _triads(w: int) -> int:
    """The triad pattern of a board."""
    boxes = _ROW_BOXES
    return int(boxes[w & _ROW] | boxes[w >> 9 & _ROW] << 3 | boxes[w >> 18 & _ROW] << 6)


@kernel(forceinline=True)
def _columns(w: int) -> int:
    """The columns (9 bits) where a board has a place."""
    return (w | w >> 9 | w >> 18) & _ROW


@kernel(forceinline=True)
def _unit_numbers(b: int, bit: int) -> tuple[int, int, int]:
    """The numbers of the row, column and box of cell ``bit`` of band ``b`` (rows 0-8,
    columns 9-17, boxes 18-26)."""
    r, c = divmod(lowest(np.uint64(bit)), 9)
    return 3 * b + r, 9 + c, 18 + 3 * b + c // 3


@kernel(forceinline=True)
def _units_of(b: int, bit: int) -> int:
    """The row, column and box of cell ``bit`` of band ``b``, as unit bits."""
    row, column, box = _unit_numbers(b, bit)
    return 1 << row | 1 << column | 1 << box


@kernel(forceinline=True)
def _blame(s: NDArray[np.int64], b: int, bit: int) -> None:
    """Blame a contradiction on the units of cell ``bit`` of band ``b``."""
    s[_BLAME] = _units_of(b, bit)


@kernel(forceinline=True)
def _weigh(weights: NDArray[np.int64], blamed: int) -> None:
    """Add a failure to the weights of the ``blamed`` units; later failures weigh more (each
    one an eighth more than the one before), so the search turns to where it fails now."""
    bump = weights[_BUMP]
    while blamed:
        unit = blamed & -blamed
        blamed ^= unit
        weights[lowest(np.uint64(unit))] += bump
    weights[_BUMP] = bump + (bump >> 3)
    if bump > 1 << 40:
        for u in range(_BUMP + 1):
            weights[u] >>= 20


@kernel()
def _naked_singles(s: NDArray[np.int64]) -> int:
    """Fix every free cell left with one digit; -1 when a free cell has none, else the
    number of cells fixed."""
    fixed = 0
    for b in range(3):
        one = 0
        two = 0
        for d in range(9):
            w = s[3 * d + b]
            two |= one & w
            one |= w
        free = s[_FREE + b]
        if free & ~one:
            _blame(s, b, free & ~one & -(free & ~one))
            return -1
        singles = free & ~two
        while singles:
            bit = singles & -singles
            singles ^= bit
            d = 0
            while d < 9 and s[3 * d + b] & bit == 0:
                d += 1
            # An earlier single of this pass took its digit from the cell.
            if d == 9 or not _place(s, d, b, bit):
                _blame(s, b, bit)
                return -1
            fixed += 1
    return fixed


@kernel(forceinline=True)
def _digit_rules(s: NDArray[np.int64], d: int) -> int:
    """The band and stack rules and hidden singles of digit ``d``: -1 on a contradiction,
    else 1 when anything changed, 0 when nothing did."""
    k = 3 * d
    changed = 0
    for b in range(3):
        w = s[k + b]
        t = _triads(w)
        a = _FITS[t]
        if a == 0:
            s[_BLAME] = _BAND_BLAME[b]
            return -1
        if a != t:
            s[k + b] = w & _TRIAD_CELLS[a]
            changed = 1
    c0 = _columns(s[k])
    c1 = _columns(s[k + 1])
    c2 = _columns(s[k + 2])
    for st in range(3):
        shift = 3 * st
        v = (c0 >> shift & 7) | (c1 >> shift & 7) << 3 | (c2 >> shift & 7) << 6
        a = _FITS[v]
        if a == 0:
            s[_BLAME] = _STACK_BLAME[st]
            return -1
        if a != v:
            gone = v & ~a
            for b in range(3):
                m = gone >> 3 * b & 7
                if m:
                    s[k + b] &= ~_COLUMN_CELLS[m << shift]
            changed = 1
    # Hidden singles: a row, box or column with one free place left (its digit is not fixed
    # there, or the fixing would have cleared that place).
    for b in range(3):
        w = s[k + b] & s[_FREE + b]
        for u in range(6):
            x = w & _BAND_UNITS[u]
            if x and x & (x - 1) == 0:
                _place(s, d, b, x)
                w = s[k + b] & s[_FREE + b]
                changed = 1
    one = 0
    two = 0
    for b in range(3):
        w = s[k + b] & s[_FREE + b]
        for r in range(3):
            x = w >> 9 * r & _ROW
            two |= one & x
            one |= x
    singles = one & ~two
    while singles:
        bit = singles & -singles
        singles ^= bit
        cells = _COLUMN_CELLS[bit]
        b = 0
        while b < 3 and s[k + b] & s[_FREE + b] & cells == 0:
            b += 1
        if b == 3:  # a single found earlier in this pass took the column's last place
            s[_BLAME] = bit << 9
            return -1
        _place(s, d, b, s[k + b] & s[_FREE + b] & cells)
        changed = 1
    return changed


@kernel()
def _propagate(s: NDArray[np.int64]) -> int:
    """Propagate a state to its fixed point: free cells left, -1 on a contradiction."""
    while True:
        changed = _naked_singles(s)
        if changed < 0:
            return -1
        for d in range(9):
            k = 3 * d
            seen = _SEEN + k
            if s[k] == s[seen] and s[k + 1] == s[seen + 1] and s[k + 2] == s[seen + 2]:
                continue
            c = _digit_rules(s, d)
            if c < 0:
                return -1
            if c == 0:
                for j in range(k, k + 3):
                    s[_SEEN + j] = s[j]
            changed |= c
        if s[_LEFT] == 0 or changed == 0:
            return s[_LEFT]  # type: ignore[no-any-return]


@kernel()
def _start(s: NDArray[np.int64], givens: IntArray) -> int:
    """The root state of a puzzle's givens, propagated: free cells left, -1 when none fits."""
    for k in range(27):
        s[k] = _ALL
        s[_SEEN + k] = 0
    for b in range(3):
        s[_FREE + b] = _ALL
    s[_LEFT] = 81
    for cell in range(81):
        v = givens[cell]
        if v:
            b = cell // 27
            bit = 1 << (cell - 27 * b)
            if s[_FREE + b] & bit == 0 or not _place(s, v - 1, b, bit):
                return -1
    return _propagate(s)


@kernel()
def _choose(s: NDArray[np.int64], branch: NDArray[np.int64], weights: NDArray[np.int64]) -> None:
    """Pick the branch of a state with free cells: of the cells with two candidates, the one
    whose units weigh most (first on ties; else the first with fewest candidates), and its
    lowest digit."""
    best = 10
    heaviest = -1
    for b in range(3):
        one = 0
        two = 0
        three = 0
        for d in range(9):
            w = s[3 * d + b]
            three |= two & w
            two |= one & w
            one |= w
        pairs = s[_FREE + b] & two & ~three
        while pairs:
            bit = pairs & -pairs
            pairs ^= bit
            row, column, box = _unit_numbers(b, bit)
            w = weights[row] + weights[column] + weights[box]
            if w > heaviest:
                heaviest = w
                best = 2
                branch[_BAND] = b
                branch[_BIT] = bit
    if best > 2:
        for b in range(3):
            free = s[_FREE + b]
            while free:
                bit = free & -free
                free ^= bit
                n = 0
                for d in range(9):
                    if s[3 * d + b] & bit:
                        n += 1
                if n < best:
                    best = n
                    branch[_BAND] = b
                    branch[_BIT] = bit
    b = branch[_BAND]
    bit = branch[_BIT]
    d = 0
    while s[3 * d + b] & bit == 0:
        d += 1
    branch[_DIGIT] = d
    branch[_TRIED] = 0


@kernel()
def _write(s: NDArray[np.int64], values: IntArray) -> None:
    """The digits of a solved state into ``values`` (81 cells, row by row)."""
    for d in range(9):
        for b in range(3):
            w = s[3 * d + b]
            while w:
                bit = w & -w
                w ^= bit
                values[27 * b + lowest(np.uint64(bit))] = d + 1


@kernel()
def search_nine(
    givens: IntArray,
    first: int,
    limit: int,
    max_nodes: int,
    call_nodes: int,
    pause_ticks: int,
    stack: NDArray[np.int64],
    branches: NDArray[np.int64],
    weights: NDArray[np.int64],
    regs: NDArray[np.int64],
    values: IntArray,
    stats: NDArray[np.int64],
) -> int:
    """Solve 9×9 puzzles ``first ..`` of ``givens`` (``(puzzles, 81)``); return the first one
    not finished. Arguments and pauses are those of
    :func:`ndoku.solvers.exact.kernels.search`: ``stack`` is ``(DEPTH, WIDTH)`` states,
    ``branches`` their ``(DEPTH, 4)`` branches (band, cell bit, digit, tried)."""
    n_puzzles = givens.shape[0]
    spent = 0
    i = first
    while i < n_puzzles:
        began = ticks()
        row = stats[i]
        if regs[REG_ACTIVE] == 0:
            row[:] = 0
            values[i, :] = 0
            weights[:] = 0
            weights[_BUMP] = 1 << 10
            left = _start(stack[0], givens[i])
            nodes = 1
            d = -1
            if left == 0:
                row[STAT_PROPAGATED] = 1
                row[STAT_COUNT] = 1
                _write(stack[0], values[i])
            elif left > 0:
                _choose(stack[0], branches[0], weights)
                d = 0
        else:
            nodes = row[STAT_NODES]
            d = regs[REG_DEPTH]
        count = row[STAT_COUNT]
        guesses = row[STAT_GUESSES]
        resumed_at = nodes
        pause_at = nodes + first_pause(pause_ticks, TICK_CHECK)
        stop = STOP_COMPLETE
        paused = False
        while d >= 0:
            if nodes >= max_nodes:
                stop = STOP_NODES
                break
            pause_at = next_pause(nodes, pause_at, pause_ticks, began, TICK_CHECK)
            if pause_at < 0:
                paused = True
                break
            branch = branches[d]
            b = branch[_BAND]
            bit = branch[_BIT]
            digit = branch[_DIGIT]
            if branch[_TRIED] == 0:
                branch[_TRIED] = 1
                t = d + 1
                copy(stack[d], stack[t])
                guesses += 1
                _place(stack[t], digit, b, bit)
            else:
                t = d
                stack[d][3 * digit + b] &= ~bit
            left = _propagate(stack[t])
            nodes += 1
            if left > 0:
                _choose(stack[t], branches[t], weights)
                d = t
                continue
            if left < 0:  # the failure's units, and those of the cell that led to it
                _weigh(weights, stack[t][_BLAME] | _units_of(b, bit))
            if left == 0:
                count += 1
                if count == 1:
                    _write(stack[t], values[i])
                if count >= limit:
                    stop = STOP_SOLUTIONS
                    break
            if t == d:
                d -= 1
        settle_row(row, regs, nodes, guesses, count, began, paused, d, stop)
        spent += nodes - resumed_at
        if paused:
            return i
        i += 1
        if spent >= call_nodes:
            break
    return i


def warm_parts() -> None:
    """Compile (or load) the parts of :func:`search_nine` that do not wait on one another and
    that its own compile reaches late: a second process beside a first ``rate`` or
    ``generate`` (:mod:`ndoku.tasks.warming`) has them cached by the time the search needs
    them. The types are those of the search's calls, so it loads them rather than compiling
    them again."""
    state = np.zeros(WIDTH, dtype=np.int64)
    compiled(_digit_rules, (state, 0))
    compiled(_choose, (state, state, state))
    compiled(_weigh, (state, 0))
    compiled(_write, (state, np.zeros(81, dtype=np.int32)))
