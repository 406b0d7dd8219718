"""Exact solver: singles propagated on the units, then depth-first search, counting solutions.

Glossary
--------
candidates
    ``(cells,)`` uint64: bit ``v - 1`` of a cell's mask is set while value ``v`` is possible
    (N ≤ 64 symbols). A cell is *fixed* when one bit is left.
naked single
    A cell with one candidate: its value is removed from every peer.
hidden single
    A value that only one cell of a unit can still take: that cell is fixed to it.
locked candidates
    A value whose places in a unit A all lie where A crosses another unit B (a box and a row)
    is removed from the rest of B. Looked for from N = ``LOCKED_FROM`` on.
propagation
    Naked singles, hidden singles and locked candidates applied until none finds anything (or
    a cell or a unit is left without a candidate: a contradiction).
branching
    A node picks a cell and a value; it searches ``cell = value`` first, then ``cell ≠ value``.
    The cell has the fewest candidates (MRV) per weight, a cell weighing 1 + the contradictions
    its units caused so far (dom/wdeg): the search turns to where it keeps failing.
probe
    From N = ``PROBE_FROM`` on, a node first tries both sides of every two-way choice (a
    cell with two candidates, a value with two places in a unit) on a copy, propagating
    singles only. A side that fails is removed from the node (a *failed value*); of the
    choices whose sides both hold, the node branches on the one whose sides fix the most
    cells (product of the two). Probes are not nodes. A pass probes its choices in the order
    their sides did when last probed anywhere in the tree (the *history*: cells fixed, a
    failure counting most): failing sides are found early, and ties in the score go to
    choices that were strong before (40% fewer nodes than probing in cell order). Before
    probing, a node removes from each unit the values no one-to-one pairing of its free
    cells and missing values allows (all-different matching, :func:`_matching`): it halves
    the nodes, and costs less than the probes, which skip it.
node
    A state of the search tree that was propagated: the root, and each ``cell = value`` and
    ``cell ≠ value`` branch.
guess
    A ``cell = value`` branch (the ``cell ≠ value`` one is what is left, so it is a node but
    not a guess).
limit
    The search stops after this many solutions: 2 proves uniqueness (or its absence) cheaply.

The kernels see only units and peers (CSR arrays), never rows or boxes, so they serve every
layout. A batch of puzzles of one layout is a ``(puzzles, cells)`` array solved in one kernel
call; the search pauses every so many nodes so that the caller can check the clock, and
resumes where it stopped (its stack lives in arrays the caller keeps).
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError
from ndoku.jit import HAS_TICKS, compile_notice, kernel, ticks
from ndoku.limits import DEFAULT_LIMIT, DEFAULT_MAX_NODES, DEFAULT_TIMEOUT, MAX_SYMBOLS
from ndoku.model.frame import Frame
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.bits import copy, lowest, popcount

IntArray = NDArray[np.int32]
#: Kernel work arrays of every search: fix queue, hidden-single queue, cell weights, unit
#: change stamps, the stamp clock, the peers a fixed value was just removed from.
Scratch = tuple[IntArray, IntArray, IntArray, NDArray[np.int64], NDArray[np.int64], IntArray]
#: Locked candidates (from ``LOCKED_FROM``): the program of ``_crossings``, group check
#: stamps, the pieces' candidates.
Locked = tuple[IntArray, NDArray[np.int64], NDArray[np.uint64]]
#: All-different matching and probing (from ``PROBE_FROM``; matching alone for
#: :func:`candidates`): the work arrays of ``_hall``, the units' matching check stamps, the
#: values a probe pass implied, the probes' history, and a pass's two-way choices (cells,
#: values, order keys).
Probing = tuple[
    IntArray,
    NDArray[np.uint64],
    NDArray[np.int64],
    NDArray[np.uint64],
    IntArray,
    IntArray,
    NDArray[np.uint64],
    NDArray[np.int64],
]
Status = Literal["solved", "multiple", "none", "limit"]
Stop = Literal["complete", "solutions", "nodes", "timeout"]

#: A batch is handed to worker processes only when what is left of it would take longer than
#: this in one process: each worker spends about a second importing numba and loading kernels.
PARALLEL_SECONDS = 2.0
#: Locked candidates are looked for from this N on: below, singles alone search faster.
LOCKED_FROM = 16
#: Nodes probe their two-way choices from this N on: on 25×25 a probe costs less than the
#: subtrees it cuts (about 100 times fewer nodes); on 16×16 and below search is cheaper.
PROBE_FROM = 25

# Columns of the per-puzzle statistics array the kernel fills.
_STOP, _COUNT, _NODES, _GUESSES, _PROPAGATED, _TICKS = range(6)
_N_STATS = 6
# Stop codes, in the order of ``STOPS``.
STOPS: tuple[Stop, ...] = ("complete", "solutions", "nodes", "timeout")
_COMPLETE, _SOLUTIONS, _NODE_LIMIT, _TIMEOUT = range(4)
# Registers of a paused search: whether puzzle ``i`` is mid-search, its depth, a stack request.
_ACTIVE, _DEPTH, _GROW = range(3)

#: A puzzle pauses (so the caller can look at the clock) after this many seconds of search,
#: measured with the time-stamp counter every ``_TICK_CHECK`` nodes; without a counter,
#: after ``_PAUSE_NODES`` nodes.
_PAUSE_SECONDS = 0.005
_TICK_CHECK = 64
_PAUSE_NODES = 1 << 12
#: Nodes a kernel call runs over a batch before it returns (for progress and Ctrl-C).
_CALL_NODES = 1 << 17
_FIRST_DEPTH = 64
#: History of a probe side that failed: more than any number of cells fixed.
_FAILED = 1 << 16
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


# Untyped for mypy, which would see numpy integers where the kernels' ints are meant.
_int: Any = np.int64


# --- kernels ------------------------------------------------------------------------------
#
# ``net`` (read-only) is the layout: CSR of unit → cells, cell → units, cell → peers.
# ``scratch``, ``locked`` and ``probing``: see ``Scratch``, ``Locked`` and ``Probing``.
#
# Compile only what a puzzle needs: ``locked`` is None below ``LOCKED_FROM`` and ``probing``
# below ``PROBE_FROM``. numba compiles a kernel once per argument types and, for a None
# argument, drops the branches behind ``is None`` tests before typing, so a 9×9 never
# compiles locked candidates, matching or probes (each variant is cached on its own).
# For the same reason a number handed to a kernel that is called (not inlined) is never a
# plain constant, nor a counter started from one: numba types ``0`` as the literal 0, even
# when a loop later adds to it, and would compile the callee once more for that literal.
# ``_int(0)`` is an int64 0 that is no literal. A kernel marked ``inline="always"`` is copied
# into each caller and compiled there again, so only small ones are (and ``_settle``, the
# largest, only into the search loop and matching).


@kernel(inline="always")
def _weigh(u: int, net: tuple[IntArray, ...], weights: IntArray) -> None:
    """Unit ``u`` caused a contradiction: each of its cells weighs one more in branching."""
    for k in range(net[0][u], net[0][u + 1]):
        weights[net[1][k]] += 1


@kernel(inline="always")
def _blame(c: int, net: tuple[IntArray, ...], weights: IntArray) -> None:
    """Cell ``c`` was left without a candidate: every unit holding it is to blame."""
    for k in range(net[2][c], net[2][c + 1]):
        _weigh(net[3][k], net, weights)


@kernel(inline="always")
def _drop(
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
            u = cell_units[k]
            marks[u] = stamp
            slot = u * size + v
            left = counts[slot] - 1
            counts[slot] = left
            if left == 1:
                hidden[n_hidden] = slot
                n_hidden += 1
            elif left == 0:
                _weigh(u, net, weights)
                return -1
    return n_hidden


def _inline_settle(call: Any, caller: Any, callee: Any) -> bool:
    """numba's inlining choice for :func:`_settle`: into the search loop and matching only,
    where a call took 1-2% of a hard 9×9's and of a 25×25's time; everywhere else one
    compiled copy is called (each inlined copy costs a second of compiling)."""
    return bool(caller.func_id.func_qualname in (_search.__qualname__, _matching.__qualname__))


@kernel(inline=_inline_settle)
def _settle(
    cand: NDArray[np.uint64],
    counts: NDArray[np.int8],
    pending: int,
    n_hidden: int,
    free: int,
    net: tuple[IntArray, ...],
    locked: Locked | None,
    scratch: Scratch,
    size: int,
) -> int:
    """Propagate from the queues until nothing is forced; free cells left, -1 if stuck.

    The fix queue holds cells fixed but not yet removed from their peers; each cell enters
    it once, when its mask first drops to one bit, so ``free`` counts cells not yet fixed. A
    fixed value's counts are set to -1 in the cell's units: they never trigger again.
    Locked candidates (unless ``locked`` is None) are looked for only when singles find
    nothing more.
    """
    unit_ptr, unit_cells, cell_unit_ptr, cell_units, peer_ptr, peers = net
    queue, hidden, weights = scratch[:3]
    touched = scratch[5]
    head = 0
    hidden_head = 0
    while True:
        if head < pending:
            c = queue[head]
            head += 1
            free -= 1
            bit = cand[c]
            v = lowest(bit)
            # Every peer loses the value in one loop without branches; those that held it
            # are listed for the bookkeeping.
            for i in range(cell_unit_ptr[c], cell_unit_ptr[c + 1]):
                counts[cell_units[i] * size + v] = -1
            hit = 0
            for i in range(peer_ptr[c], peer_ptr[c + 1]):
                p = peers[i]
                m = cand[p]
                touched[hit] = p
                hit += (m & bit) != _ZERO
                cand[p] = m & ~bit
            for i in range(hit):
                p = touched[i]
                m = cand[p]
                if m == _ZERO:
                    _blame(p, net, weights)
                    return -1
                n_hidden = _drop(cand, counts, n_hidden, p, bit, net, scratch, size)
                if n_hidden < 0:
                    return -1
                if m & (m - _ONE) == _ZERO:
                    queue[pending] = p
                    pending += 1
        elif hidden_head < n_hidden:
            slot = hidden[hidden_head]
            hidden_head += 1
            if counts[slot] != 1:
                continue  # the value got fixed in the unit meanwhile
            u = slot // size
            bit = _ONE << np.uint64(slot - u * size)
            for k in range(unit_ptr[u], unit_ptr[u + 1]):
                c = unit_cells[k]
                m = cand[c]
                if m & bit:
                    if m != bit:
                        n_hidden = _drop(cand, counts, n_hidden, c, m ^ bit, net, scratch, size)
                        if n_hidden < 0:
                            return -1
                        queue[pending] = c
                        pending += 1
                    break
        else:
            if locked is None:
                return free
            pending, n_hidden, found = _locked(
                cand, counts, pending, n_hidden, net, locked, scratch, size
            )
            if n_hidden < 0:
                return -1
            if not found:
                return free


@kernel()
def _locked(
    cand: NDArray[np.uint64],
    counts: NDArray[np.int8],
    pending: int,
    n_hidden: int,
    net: tuple[IntArray, ...],
    locked: Locked,
    scratch: Scratch,
    size: int,
) -> tuple[int, int, bool]:
    """Locked candidates, by the program of :func:`_crossings`.

    Only groups whose unit changed since their last check are looked at: every change stamps
    its units with the clock, every pass advances the clock and stamps the groups it checks.
    (A state reached by backtracking differs from the stalled state it was copied from only
    by changes made since, all stamped later than any check.) Returns the new queue lengths
    and whether a candidate was removed; ``n_hidden`` is -1 on a contradiction.
    """
    program, seen, ors = locked
    queue, marks, clock = scratch[0], scratch[3], scratch[4]
    now = clock[0]
    clock[0] = now + 1
    found = False
    pos = 0
    g = 0
    while pos < len(program):
        end = pos + program[pos + 1]
        if marks[program[pos]] < seen[g]:
            pos = end
            g += 1
            continue
        seen[g] = now + 1
        g += 1
        q = pos + 2
        once = _ZERO
        fixed = _ZERO
        for k in range(q + 1, q + 1 + program[q]):
            m = cand[program[k]]
            once |= m
            fixed |= m & (_ZERO - np.uint64(m & (m - _ONE) == _ZERO))
        twice = _ZERO
        q += 1 + program[q]
        pieces = q + 1
        q = pieces
        for piece in range(program[pieces - 1]):
            mask = _ZERO
            for k in range(q + 1, q + 1 + program[q]):
                m = cand[program[k]]
                mask |= m
                fixed |= m & (_ZERO - np.uint64(m & (m - _ONE) == _ZERO))
            ors[piece] = mask
            twice |= once & mask
            once |= mask
            q += 1 + program[q]
        alone = once & ~twice & ~fixed
        if alone == _ZERO:
            pos = end
            continue
        base = program[pos] * size
        for piece in range(program[pieces - 1]):
            mask = ors[piece] & alone
            partners = program[q]
            q += 1
            for _ in range(partners):
                other = program[q] * size
                first = q + 2
                q = first + program[q + 1]
                # Values still in B outside the piece: B holds more of them than A, whose
                # places all lie in the piece.
                need = _ZERO
                rest = mask
                while rest != _ZERO:
                    v = lowest(rest)
                    rest &= rest - _ONE
                    if counts[other + v] > counts[base + v]:
                        need |= _ONE << np.uint64(v)
                if need == _ZERO:
                    continue
                for k in range(first, q):
                    c = program[k]
                    m = cand[c] & need
                    if m == _ZERO:
                        continue
                    left = cand[c] ^ m
                    if left == _ZERO:
                        _blame(c, net, scratch[2])
                        return pending, -1, True
                    found = True
                    n_hidden = _drop(cand, counts, n_hidden, c, m, net, scratch, size)
                    if n_hidden < 0:
                        return pending, -1, True
                    if left & (left - _ONE) == _ZERO:
                        queue[pending] = c
                        pending += 1
        pos = end
    return pending, n_hidden, found


@kernel(inline="always")
def _restrict(
    cand: NDArray[np.uint64],
    counts: NDArray[np.int8],
    c: int,
    m: np.uint64,
    free: int,
    net: tuple[IntArray, ...],
    locked: Locked | None,
    scratch: Scratch,
    size: int,
) -> int:
    """Remove the values of mask ``m`` from free cell ``c`` and propagate; free cells left, -1
    if stuck. (All but one value: ``c`` is fixed to it; one value: ``c ≠`` that value.)"""
    n_hidden = _drop(cand, counts, _int(0), c, m, net, scratch, size)
    if n_hidden < 0:
        return -1
    left = cand[c]
    pending = _int(0)
    if left & (left - _ONE) == _ZERO:
        scratch[0][0] = c
        pending += 1
    return _settle(cand, counts, pending, n_hidden, free, net, locked, scratch, size)


@kernel()
def _start(
    cand: NDArray[np.uint64],
    counts: NDArray[np.int8],
    givens: IntArray,
    net: tuple[IntArray, ...],
    locked: Locked | None,
    scratch: Scratch,
    probing: Probing | None,
    size: int,
) -> int:
    """Candidates of a puzzle after propagating its givens; free cells left, -1 if none."""
    full = _ONE << np.uint64(size - 1)
    full |= full - _ONE
    cand[:] = full
    counts[:] = size
    scratch[2][:] = 0
    scratch[3][:] = 0
    scratch[4][0] = 1
    if locked is not None:
        locked[1][:] = 0
    if probing is not None:
        probing[2][:] = 0
        probing[4][:] = 0
    n_hidden = _int(0)
    pending = _int(0)
    for c in range(len(givens)):
        v = givens[c]
        if v > 0:
            bit = _ONE << np.uint64(v - 1)
            n_hidden = _drop(cand, counts, n_hidden, c, full ^ bit, net, scratch, size)
            if n_hidden < 0:
                return -1
            scratch[0][pending] = c
            pending += 1
    return _settle(cand, counts, pending, n_hidden, len(givens), net, locked, scratch, size)


@kernel(inline="always")
def _branch(cand: NDArray[np.uint64], weights: IntArray) -> tuple[int, np.uint64]:
    """The (cell, value bit) to branch on: fewest candidates per weight (dom/wdeg).

    A cell's weight is 1 + the contradictions its units caused so far, so the search turns
    to where it keeps failing; with no failures yet this is plain MRV (first cell on ties).
    """
    best = -1
    fewest = 65
    heaviest = 1
    for c in range(len(cand)):
        n = popcount(cand[c])
        w = 1 + weights[c]
        if n * heaviest < fewest * w and n > 1:
            fewest = n
            heaviest = w
            best = c
    m = cand[best]
    return best, m & (~m + _ONE)


@kernel()
def _write_values(cand: NDArray[np.uint64], out: IntArray) -> None:
    """Fixed cells' values into ``out``; 0 where a cell is still free (or has no value left)."""
    for c in range(len(cand)):
        m = cand[c]
        out[c] = lowest(m) + 1 if m != _ZERO and m & (m - _ONE) == _ZERO else 0


@kernel(inline="always")
def _hall(n: int, masks: NDArray[np.uint64], ints: IntArray, size: int) -> bool:
    """The edges of a bipartite graph that no perfect matching uses.

    Rows ``0 .. n-1`` have the column bitsets ``masks[:n]``. On return ``masks[size + i]``
    holds the columns of row i that no perfect matching pairs it with; False when there is
    no perfect matching at all. Given one matching, row i may take the column of row j only
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
            return False
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
    for i in range(n):
        o = masks[size + i] & ~masks[i]
        bad = _ZERO
        while o != _ZERO:
            j = lowest(o)
            o &= o - _ONE
            bad |= _ONE << np.uint64(ints[j])
        masks[size + i] = bad
    return True


@kernel()
def _matching(
    cand: NDArray[np.uint64],
    counts: NDArray[np.int8],
    free: int,
    net: tuple[IntArray, ...],
    locked: Locked | None,
    scratch: Scratch,
    probing: Probing,
    size: int,
) -> int:
    """All-different filtering of the units until it finds nothing; free cells left, -1 if
    stuck.

    In a unit, the free cells and the values they still miss must pair up one to one: a
    value leaves a cell when no such pairing gives it to the cell (:func:`_hall`). Only
    units changed since their last check are looked at, stamped as in :func:`_locked`.
    """
    unit_ptr, unit_cells = net[0], net[1]
    queue, marks, clock = scratch[0], scratch[3], scratch[4]
    ints, masks, checked = probing[0], probing[1], probing[2]
    found = True
    while found and free > 0:
        found = False
        n_hidden = _int(0)
        pending = _int(0)
        now = clock[0]
        clock[0] = now + 1
        for u in range(len(unit_ptr) - 1):
            if marks[u] < checked[u]:
                continue
            checked[u] = now + 1
            n = 0
            fixed = _ZERO
            for k in range(unit_ptr[u], unit_ptr[u + 1]):
                c = unit_cells[k]
                m = cand[c]
                if m & (m - _ONE):
                    ints[4 * size + n] = c
                    masks[n] = m
                    n += 1
                else:
                    fixed |= m
            if n < 2:
                continue
            for i in range(n):
                masks[i] &= ~fixed
            if not _hall(n, masks, ints, size):
                _weigh(u, net, scratch[2])
                return -1
            for i in range(n):
                bad = masks[size + i]
                c = ints[4 * size + i]
                if bad == _ZERO or cand[c] & bad == _ZERO:
                    continue
                found = True
                n_hidden = _drop(cand, counts, n_hidden, c, cand[c] & bad, net, scratch, size)
                if n_hidden < 0:
                    return -1
                left = cand[c]
                if left & (left - _ONE) == _ZERO:
                    queue[pending] = c
                    pending += 1
        if found:
            free = _settle(cand, counts, pending, n_hidden, free, net, locked, scratch, size)
    return free


@kernel()
def _two_way_choices(
    cand: NDArray[np.uint64],
    counts: NDArray[np.int8],
    net: tuple[IntArray, ...],
    probing: Probing,
    size: int,
) -> int:
    """List the two-way choices of a state; their number.

    Choice ``i`` is ``cell sides[2i] = value values[2i]`` or ``cell sides[2i + 1] = value
    values[2i + 1]``: the two candidates of a cell, or the two places of a value in a unit.
    Its key orders the probes: minus the product of (1 + history) of its sides, times
    ``len(keys)``, plus ``i``; sorted, the keys list the strongest choices first, ties in
    list order, and ``key % len(keys)`` is the choice.
    """
    history, sides, values, keys = probing[4:]
    n_cells = len(cand)
    n = 0
    for x in range(n_cells + len(counts)):
        if x < n_cells:
            m = cand[x]
            if popcount(m) != 2:
                continue
            c1 = c2 = x
            a = m & (~m + _ONE)
            b = m ^ a
        else:
            slot = x - n_cells
            if counts[slot] != 2:
                continue
            u = slot // size
            a = b = _ONE << np.uint64(slot - u * size)
            c1 = c2 = -1
            for k in range(net[0][u], net[0][u + 1]):
                c = net[1][k]
                if cand[c] & a:
                    if c1 < 0:
                        c1 = c
                    else:
                        c2 = c
        sides[2 * n] = c1
        sides[2 * n + 1] = c2
        values[2 * n] = a
        values[2 * n + 1] = b
        strength_a = 1 + np.int64(history[c1 * size + lowest(a)])
        strength = strength_a * (1 + np.int64(history[c2 * size + lowest(b)]))
        keys[n] = -strength * len(keys) + n
        n += 1
    return n


@kernel(inline="always")
def _sift(keys: NDArray[np.int64], root: int, end: int) -> None:
    """Move ``keys[root]`` down the heap ``keys[:end]`` until its children are smaller."""
    x = keys[root]
    child = 2 * root + 1
    while child < end:
        if child + 1 < end and keys[child + 1] > keys[child]:
            child += 1
        if keys[child] <= x:
            break
        keys[root] = keys[child]
        root = child
        child = 2 * root + 1
    keys[root] = x


@kernel()
def _sort(keys: NDArray[np.int64], n: int) -> None:
    """Sort ``keys[:n]`` in place, ascending (heapsort: it allocates nothing)."""
    for root in range(n // 2 - 1, -1, -1):
        _sift(keys, root, n)
    for end in range(n - 1, 0, -1):
        keys[0], keys[end] = keys[end], keys[0]
        _sift(keys, 0, end)


@kernel()
def _probe(
    stack: NDArray[np.uint64],
    tallies: NDArray[np.int8],
    t: int,
    free: int,
    net: tuple[IntArray, ...],
    locked: Locked | None,
    scratch: Scratch,
    probing: Probing,
    size: int,
) -> tuple[int, int, np.uint64]:
    """Probe the two-way choices of level ``t`` once, on level ``t + 1``; see the glossary.

    Returns the free cells left (0 solved, -1 stuck) and the (cell, value bit) of the best
    choice, cell -1 when there is none. A side already implied by a probe of this pass
    holds (propagation only adds to what it implied), so it is not probed again and its
    choice is not scored; the other side still is probed, for it may fail (on 25×25 that
    cut the nodes by a tenth, the worst puzzle's by a quarter).
    """
    cand = stack[t]
    counts = tallies[t]
    probed = stack[t + 1]
    queue = scratch[0]
    implied, history, sides, values, keys = probing[3:]
    implied[:] = _ZERO
    best = -1
    best_bit = _ZERO
    best_score = -1
    n = _two_way_choices(cand, counts, net, probing, size)
    _sort(keys, n)
    excluded = False
    for j in range(n):
        i = keys[j] % len(keys)
        c1 = sides[2 * i]
        c2 = sides[2 * i + 1]
        a = values[2 * i]
        b = values[2 * i + 1]
        # Values failed earlier in this pass may have decided the choice already.
        if cand[c1] & a == _ZERO or cand[c2] & b == _ZERO or cand[c1] == a or cand[c2] == b:
            continue
        left_a = 0
        for side in range(2):
            c = c1 if side == 0 else c2
            bit = a if side == 0 else b
            if implied[c] & bit:
                if side == 0:
                    left_a = -1
                    continue
                break
            copy(cand, probed)
            copy(counts, tallies[t + 1])
            # Singles only: locked candidates would cost more per probe than they prune.
            left = _restrict(
                probed, tallies[t + 1], c, probed[c] ^ bit, free, net, None, scratch, size
            )
            history[c * size + lowest(bit)] = free - left if left >= 0 else _FAILED
            if left < 0:
                free = _restrict(cand, counts, c, bit, free, net, None, scratch, size)
                if free <= 0:
                    return free, -1, _ZERO
                excluded = True
                break
            # The fix queue lists the cells the probe fixed, each once.
            for k in range(free - left):
                x = queue[k]
                implied[x] |= probed[x]
            if side == 0:
                left_a = left
            elif left_a >= 0:
                score = (1 + free - left_a) * (1 + free - left)
                if score > best_score:
                    best_score = score
                    best = c1
                    best_bit = a
    # Failed values propagated singles only, as probes do; locked candidates once at the end
    # (per failed value they cost more than the probes around them).
    if excluded and locked is not None:
        free = _settle(cand, counts, _int(0), _int(0), free, net, locked, scratch, size)
        if free <= 0:
            return free, -1, _ZERO
    # Later failed values may have fixed the best cell or taken its value.
    if best >= 0 and (cand[best] & best_bit == _ZERO or cand[best] == best_bit):
        best = -1
    return free, best, best_bit


@kernel(inline="always")
def _choose(
    stack: NDArray[np.uint64],
    tallies: NDArray[np.int8],
    t: int,
    free: int,
    net: tuple[IntArray, ...],
    locked: Locked | None,
    scratch: Scratch,
    probing: Probing | None,
    size: int,
) -> tuple[int, int, np.uint64]:
    """Probe level ``t`` (unless ``probing`` is None) and pick its branch; free cells left,
    as :func:`_probe`, with a branch whenever some cell is still free."""
    if probing is not None:
        free = _matching(stack[t], tallies[t], free, net, locked, scratch, probing, size)
        if free <= 0:
            return free, -1, _ZERO
        free, c, bit = _probe(stack, tallies, t, free, net, locked, scratch, probing, size)
        if c >= 0 or free <= 0:
            return free, c, bit
    c, bit = _branch(stack[t], scratch[2])
    return free, c, bit


@kernel()
def _search(
    givens: IntArray,
    first: int,
    limit: int,
    max_nodes: int,
    call_nodes: int,
    pause_ticks: int,
    net: tuple[IntArray, ...],
    size: int,
    stack: NDArray[np.uint64],
    tallies: NDArray[np.int8],
    free_at: NDArray[np.int64],
    cell_at: NDArray[np.int64],
    bit_at: NDArray[np.uint64],
    locked: Locked | None,
    scratch: Scratch,
    probing: Probing | None,
    regs: NDArray[np.int64],
    values: IntArray,
    stats: NDArray[np.int64],
) -> int:
    """Solve puzzles ``first ..`` of ``givens``; return the first one not finished.

    Level ``d`` of the stack holds a propagated (and probed) state (candidates, counts, free
    cells) and its branch: cell ``c = cell_at[d]`` and value ``bit_at[d]``; probes use the
    level above it. While ``c >= 0`` the branch
    ``c = value`` is still to try, on a copy at level ``d + 1``; then ``cell_at[d]`` becomes
    ``-1 - c`` and, once that subtree is done, ``c ≠ value`` is applied in place at level d,
    which then branches again. A puzzle pauses after ``pause_ticks`` ticks (or
    ``_PAUSE_NODES`` nodes when 0), or when the stack is full (``regs[_GROW]``), leaving
    ``regs[_ACTIVE]`` set; the next call resumes it. After a puzzle, the call returns once it
    has searched ``call_nodes`` nodes.
    """
    n_puzzles = givens.shape[0]
    cap = stack.shape[0]
    spent = 0
    i = first
    while i < n_puzzles:
        began = ticks()
        row = stats[i]
        if regs[_ACTIVE] == 0:
            row[:] = 0
            values[i, :] = 0
            free = _start(stack[0], tallies[0], givens[i], net, locked, scratch, probing, size)
            nodes = 1
            d = -1
            if free == 0:
                row[_PROPAGATED] = 1
            elif free > 0:
                free, cell_at[0], bit_at[0] = _choose(
                    stack, tallies, _int(0), free, net, locked, scratch, probing, size
                )
                free_at[0] = free
                if free > 0:
                    d = 0
            if free == 0:
                row[_COUNT] = 1
                _write_values(stack[0], values[i])
        else:
            nodes = row[_NODES]
            d = regs[_DEPTH]
        count = row[_COUNT]
        guesses = row[_GUESSES]
        resumed_at = nodes
        pause_at = nodes + (_TICK_CHECK if pause_ticks else _PAUSE_NODES)
        stop = _COMPLETE
        paused = False
        while d >= 0:
            if nodes >= max_nodes:
                stop = _NODE_LIMIT
                break
            if nodes >= pause_at:
                if pause_ticks == 0 or ticks() - began >= pause_ticks:
                    paused = True
                    break
                pause_at = nodes + _TICK_CHECK
            c = cell_at[d]
            if c >= 0:
                t = d + 1
                if t + 1 == cap:  # the child and its probes' level
                    regs[_GROW] = 1
                    paused = True
                    break
                copy(stack[d], stack[t])
                copy(tallies[d], tallies[t])
                cell_at[d] = -1 - c
                guesses += 1
                m = stack[t][c] ^ bit_at[d]  # c = value: every other value goes
            else:
                t = d
                c = -1 - c
                m = bit_at[d]  # c ≠ value
            free = _restrict(stack[t], tallies[t], c, m, free_at[d], net, locked, scratch, size)
            nodes += 1
            if free > 0:
                free, cell_at[t], bit_at[t] = _choose(
                    stack, tallies, t, free, net, locked, scratch, probing, size
                )
            if free > 0:
                free_at[t] = free
                d = t
                continue
            if free == 0:
                count += 1
                if count == 1:
                    _write_values(stack[t], values[i])
                if count >= limit:
                    stop = _SOLUTIONS
                    break
            if t == d:
                d -= 1
        row[_NODES] = nodes
        row[_GUESSES] = guesses
        row[_COUNT] = count
        row[_TICKS] += ticks() - began
        spent += nodes - resumed_at
        if paused:
            regs[_ACTIVE] = 1
            regs[_DEPTH] = d
            return i
        row[_STOP] = stop
        regs[_ACTIVE] = 0
        i += 1
        if spent >= call_nodes:
            break
    return i


@kernel()
def _propagate(
    givens: IntArray,
    net: tuple[IntArray, ...],
    size: int,
    locked: Locked | None,
    scratch: Scratch,
    probing: Probing | None,
    cand: NDArray[np.uint64],
    counts: NDArray[np.int8],
) -> bool:
    """Candidates after propagation (and all-different matching unless ``probing`` is None)
    into ``cand``; False on a contradiction. ``counts``: the (unit, value) counts, overwritten."""
    free = _start(cand, counts, givens, net, locked, scratch, probing, size)
    if probing is not None and free > 0:
        free = _matching(cand, counts, free, net, locked, scratch, probing, size)
    return free >= 0


@kernel()
def _tick_now() -> int:
    return ticks()  # type: ignore[no-any-return]


# --- Python side --------------------------------------------------------------------------


@dataclass(frozen=True)
class ExactResult:
    """What the exact search found for one puzzle.

    Attributes
    ----------
    status : str
        ``solved`` (one solution found; see ``unique``), ``multiple`` (``count`` ≥ 2 found),
        ``none`` (proved: no solution) or ``limit`` (node or time limit hit before any answer).
    values : ndarray of int32 or None
        The first solution found, None when there is none.
    count : int
        Solutions found (at most the limit).
    unique : bool or None
        True when proved unique, False when several were found, None when not checked
        (``limit=1``, or a node or time limit stopped the search after the first solution).
    nodes, guesses : int
        Search-tree nodes propagated (the root counts) and values guessed (see the glossary).
    propagated : bool
        Solved by propagation alone, without search.
    seconds : float
        Time spent on this puzzle.
    stop : str
        ``complete`` (the search space was exhausted), ``solutions`` (the limit was reached),
        ``nodes`` or ``timeout``.
    """

    status: Status
    values: IntArray | None
    count: int
    unique: bool | None
    nodes: int
    guesses: int
    propagated: bool
    seconds: float
    stop: Stop


@dataclass(frozen=True, eq=False)
class BatchResult:
    """Results of many puzzles as arrays, in input order; ``result(i)`` gives one.

    Attributes
    ----------
    values : ndarray of int32, shape (puzzles, cells)
        First solution of each puzzle, zeros where none was found.
    stats : ndarray of int64, shape (puzzles, 6)
        Stop code (index into ``STOPS``), count, nodes, guesses, propagated, kernel ticks.
    seconds : ndarray of float64
        Time spent on each puzzle: measured inside the kernel (Python overhead excluded) on
        x86, else around each puzzle's kernel call.
    limit : int
    """

    values: IntArray
    stats: NDArray[np.int64]
    seconds: NDArray[np.float64]
    limit: int

    def __len__(self) -> int:
        return len(self.stats)

    def __iter__(self) -> Iterator[ExactResult]:
        return (self.result(i) for i in range(len(self)))

    @property
    def counts(self) -> NDArray[np.int64]:
        return self.stats[:, _COUNT]

    @property
    def nodes(self) -> NDArray[np.int64]:
        return self.stats[:, _NODES]

    @property
    def guesses(self) -> NDArray[np.int64]:
        return self.stats[:, _GUESSES]

    def result(self, i: int) -> ExactResult:
        """The :class:`ExactResult` of puzzle ``i``."""
        row = self.stats[i]
        stop = STOPS[int(row[_STOP])]
        count = int(row[_COUNT])
        status: Status
        unique: bool | None
        if count >= 2:
            status, unique = "multiple", False
        elif count == 1:
            status, unique = "solved", (True if stop == "complete" else None)
        elif stop == "complete":
            status, unique = "none", None
        else:
            status, unique = "limit", None
        return ExactResult(
            status=status,
            values=self.values[i].copy() if count else None,
            count=count,
            unique=unique,
            nodes=int(row[_NODES]),
            guesses=int(row[_GUESSES]),
            propagated=bool(row[_PROPAGATED]),
            seconds=float(self.seconds[i]),
            stop=stop,
        )


@dataclass(frozen=True, eq=False)
class _Topology:
    """The arrays the kernels of one layout need (picklable, for worker processes).

    ``net`` is the kernels' view: CSR of unit → cells, cell → units and cell → peers;
    ``program`` the locked-candidates program (``n_groups`` groups), None below
    ``LOCKED_FROM``.
    """

    n_cells: int
    size: int
    net: tuple[IntArray, ...]
    program: IntArray | None
    n_groups: int

    @classmethod
    def of(cls, puzzle: Puzzle) -> _Topology:
        """The tables of ``puzzle``'s layout, built once per frame."""
        if puzzle.size > MAX_SYMBOLS:
            raise NdokuError(
                f"the exact solver handles up to {MAX_SYMBOLS} symbols, this puzzle has "
                f"{puzzle.size}"
            )
        return puzzle.frame.table("exact", cls._build)

    @classmethod
    def _build(cls, frame: Frame) -> _Topology:
        net = (frame.units.ptr, frame.units.cells, *frame.cell_units, *frame.peers)
        if frame.size < LOCKED_FROM:
            return cls(frame.n_cells, frame.size, net, None, 0)
        program, n_groups = _crossings(frame)
        return cls(frame.n_cells, frame.size, net, program, n_groups)

    @property
    def n_slots(self) -> int:
        """(unit, value) pairs: the length of a count array."""
        return (len(self.net[0]) - 1) * self.size


def _crossings(frame: Frame) -> tuple[IntArray, int]:
    """The locked-candidates program of a layout, and its number of groups.

    Unit B *crosses* unit A when they share two cells or more: the piece A ∩ B. A's pieces
    are put in groups of disjoint pieces (B's of one kind cut a box into rows, or into
    columns); the cells of A in no piece of a group are its *rest*. A value found in exactly
    one piece of a group, and not in its rest, has all its places in A there: it leaves the
    rest of every B crossing A in that piece. The program is a flat int32 array; per group::

        A, record length, rest count, rest cells…, piece count,
        per piece: cell count, cells…,
        per piece: partner count, per partner: B, count, cells of B \\ A…
    """
    units = frame.units
    ptr_u, of_cell = frame.cell_units
    program: list[int] = []
    n_groups = 0
    for a in range(len(units)):
        mine = set(units[a].tolist())
        partners: dict[frozenset[int], list[int]] = {}
        for c in sorted(mine):
            for b in of_cell[ptr_u[c] : ptr_u[c + 1]].tolist():
                shared = frozenset(mine.intersection(units[b].tolist()))
                if b != a and len(shared) >= 2 and b not in partners.get(shared, []):
                    partners.setdefault(shared, []).append(b)
        groups: list[list[frozenset[int]]] = []
        for piece in partners:
            home = next((g for g in groups if all(piece.isdisjoint(q) for q in g)), None)
            if home is None:
                groups.append([piece])
            else:
                home.append(piece)
        for group in groups:
            rest = sorted(mine.difference(*group))
            record = [len(rest), *rest, len(group)]
            for piece in group:
                record += [len(piece), *sorted(piece)]
            for piece in group:
                record.append(len(partners[piece]))
                for b in partners[piece]:
                    kill = [c for c in units[b].tolist() if c not in mine]
                    record += [b, len(kill), *kill]
            program += [a, len(record) + 2, *record]
            n_groups += 1
    return np.array(program, dtype=np.int32), n_groups


def solve_exact(
    puzzle: Puzzle,
    *,
    limit: int = DEFAULT_LIMIT,
    max_nodes: int = DEFAULT_MAX_NODES,
    timeout: float = DEFAULT_TIMEOUT,
    givens: IntArray | None = None,
) -> ExactResult:
    """Solve a puzzle exactly: propagation, then search, stopping after ``limit`` solutions.

    Parameters
    ----------
    puzzle : Puzzle
    limit : int
        Stop after this many solutions; 2 (the default) proves uniqueness, 1 only finds one.
    max_nodes : int
        Stop after this many search nodes (status ``limit``, stop ``nodes`` when no
        solution was found by then).
    timeout : float
        Stop after this many seconds (checked every few milliseconds).
    givens : ndarray, optional
        ``(cells,)`` values to use instead of the puzzle's givens (0 for free cells).

    Returns
    -------
    ExactResult
        Its ``values`` are not verified here: callers check them with
        :func:`ndoku.tasks.verify.verify` before reporting them.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> r = solve_exact(p)
    >>> r.status, r.unique, r.count, r.stop
    ('solved', True, 1, 'complete')
    >>> r.values.reshape(4, 4).tolist()[0]
    [1, 3, 2, 4]
    >>> solve_exact(p, givens=np.zeros(16, dtype=np.int32)).status
    'multiple'
    """
    topology = _Topology.of(puzzle)
    one = _check_givens(topology, puzzle.givens if givens is None else givens)
    start = time.perf_counter()
    batch = _solve_array(topology, one[None, :], limit, max_nodes, timeout)
    seconds = time.perf_counter() - start
    return dataclasses.replace(batch.result(0), seconds=seconds)


def solve_many(
    puzzle: Puzzle,
    givens: IntArray,
    *,
    limit: int = DEFAULT_LIMIT,
    max_nodes: int = DEFAULT_MAX_NODES,
    timeout: float = DEFAULT_TIMEOUT,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> BatchResult:
    """Solve many puzzles of ``puzzle``'s layout, given as a ``(puzzles, cells)`` array.

    Parameters
    ----------
    puzzle : Puzzle
        Any puzzle of the layout (only its units are used).
    givens : ndarray of int, shape (puzzles, cells)
        The givens of each puzzle, 0 for free cells.
    limit, max_nodes, timeout
        As in :func:`solve_exact`, for each puzzle.
    jobs : int
        Worker processes at most; 1 solves in this process. Workers take over only the part
        of the batch that would take longer than :data:`PARALLEL_SECONDS` here.
    progress : callable, optional
        Called with the number of puzzles finished so far, every few milliseconds.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> batch = solve_many(p, np.stack([p.givens, np.zeros(16, dtype=np.int32)]))
    >>> [r.status for r in batch], batch.counts.tolist()
    (['solved', 'multiple'], [1, 2])
    """
    topology = _Topology.of(puzzle)
    table = _check_givens(topology, givens, batch=True)
    if jobs < 1:
        raise NdokuError(f"jobs must be 1 or more, got {jobs}")
    if jobs == 1 or len(table) < 2:
        return _solve_array(topology, table, limit, max_nodes, timeout, progress)
    return _solve_spread(topology, table, limit, max_nodes, timeout, jobs, progress)


def solve_batch(
    puzzles: Sequence[Puzzle],
    *,
    limit: int = DEFAULT_LIMIT,
    max_nodes: int = DEFAULT_MAX_NODES,
    timeout: float = DEFAULT_TIMEOUT,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[ExactResult]:
    """Solve many puzzles; those of one layout share kernel calls. Results in input order.

    Parameters are as in :func:`solve_many`.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> text = "1000003004000002\\n" "0000000000000000\\n"
    >>> [r.status for r in solve_batch(read_puzzles(text=text))]
    ['solved', 'multiple']
    """
    results: list[ExactResult | None] = [None] * len(puzzles)
    groups: dict[object, list[int]] = {}
    for i, p in enumerate(puzzles):
        groups.setdefault(p.frame.key, []).append(i)
    finished = 0
    for members in groups.values():

        def report(done: int, base: int = finished) -> None:
            if progress is not None:
                progress(base + done)

        table = np.stack([puzzles[i].givens for i in members])
        batch = solve_many(
            puzzles[members[0]],
            table,
            limit=limit,
            max_nodes=max_nodes,
            timeout=timeout,
            jobs=jobs,
            progress=report,
        )
        for j, i in enumerate(members):
            results[i] = batch.result(j)
        finished += len(members)
    return [r for r in results if r is not None]


def propagate(puzzle: Puzzle, givens: IntArray | None = None) -> tuple[IntArray, bool]:
    """Fix every cell that naked and hidden singles (and locked candidates) force.

    Returns
    -------
    values : ndarray of int32
        The givens plus every forced value, 0 where a cell is still free (the givens alone
        when a contradiction was found).
    ok : bool
        False when the givens contradict each other (no solution).

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> values, ok = propagate(p)
    >>> ok, int((values == 0).sum())
    (True, 0)
    """
    masks, ok, checked = _candidate_masks(puzzle, givens, matching=False)
    return (fixed_values(masks), True) if ok else (checked, False)


def candidates(puzzle: Puzzle, givens: IntArray | None = None) -> tuple[NDArray[np.uint64], bool]:
    """Each cell's possible values after propagation and all-different matching.

    Bit ``v - 1`` of a cell's mask is set while value ``v`` may still go there: every
    solution of the puzzle has each cell's value among them. Propagation is as in
    :func:`propagate`; then in every unit the values that no one-to-one pairing of its free
    cells with its missing values allows are removed, and propagation runs again, until
    neither finds anything.

    Returns
    -------
    masks : ndarray of uint64, shape (cells,)
        The candidates of each cell (one bit for a given or forced cell).
    ok : bool
        False when a contradiction was found (no solution); the masks are then meaningless.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 0 0\\n0 0 0 0\\n0 0 0 2\\n")
    >>> masks, ok = candidates(p)
    >>> ok, [bin(int(m)) for m in masks[:4]]
    (True, ['0b1', '0b1110', '0b1110', '0b1100'])
    """
    masks, ok, _ = _candidate_masks(puzzle, givens, matching=True)
    return masks, ok


def fixed_values(masks: NDArray[np.uint64]) -> IntArray:
    """The value of each cell whose mask holds one bit, 0 elsewhere.

    Examples
    --------
    >>> fixed_values(np.array([1, 6, 0, 4], dtype=np.uint64)).tolist()
    [1, 0, 0, 3]
    """
    values = np.zeros(len(masks), dtype=np.int32)
    _write_values(np.ascontiguousarray(masks, dtype=np.uint64), values)
    return values


def _candidate_masks(
    puzzle: Puzzle, givens: IntArray | None, matching: bool
) -> tuple[NDArray[np.uint64], bool, IntArray]:
    """Candidates after propagation, whether no contradiction was found, the checked givens."""
    topology = _Topology.of(puzzle)
    one = _check_givens(topology, puzzle.givens if givens is None else givens)
    masks = np.zeros(topology.n_cells, dtype=np.uint64)
    work = _Workspace(topology, 1, probing=matching)
    arguments = (
        one,
        topology.net,
        topology.size,
        work.locked,
        work.scratch,
        work.probing,
        masks,
        work.tallies[0],
    )
    compile_notice(*work.compiling(_propagate), arguments)
    return masks, bool(_propagate(*arguments)), one


def _check_givens(
    topology: _Topology, givens: NDArray[np.integer], *, batch: bool = False
) -> IntArray:
    """``givens`` as contiguous int32, after checking their shape and values."""
    values = np.asarray(givens)
    shape = ("puzzles", topology.n_cells) if batch else (topology.n_cells,)
    if values.ndim != len(shape) or values.shape[-1] != topology.n_cells:
        wanted = ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "")
        raise NdokuError(f"givens must have shape ({wanted}), got {values.shape}")
    if not np.issubdtype(values.dtype, np.integer):
        raise NdokuError(f"givens must be integers, got {values.dtype}")
    if len(values) and (values.min() < 0 or values.max() > topology.size):
        raise NdokuError(f"givens must be 0 (free) or a value 1..{topology.size}")
    return np.ascontiguousarray(values, dtype=np.int32)


def _check_limits(limit: int, max_nodes: int, timeout: float) -> None:
    if limit < 1:
        raise NdokuError(f"the solution limit must be 1 or more, got {limit}")
    if max_nodes < 1:
        raise NdokuError(f"max nodes must be 1 or more, got {max_nodes}")
    if not (timeout > 0):
        raise NdokuError(f"timeout must be a positive number of seconds, got {timeout}")


class _Workspace:
    """Search stack and queues of one layout; the stack grows when a search gets deep."""

    def __init__(
        self, topology: _Topology, depth: int | None = None, *, probing: bool | None = None
    ) -> None:
        """``probing``: whether to make the matching and probing arrays (default: from
        ``PROBE_FROM``)."""
        cells = max(topology.n_cells, 1)
        n_units = len(topology.net[0]) - 1
        choices = cells + topology.n_slots
        self.scratch: Scratch = (
            np.zeros(cells, dtype=np.int32),
            np.zeros(max(topology.n_slots, 1), dtype=np.int32),
            np.zeros(cells, dtype=np.int32),
            np.zeros(n_units, dtype=np.int64),
            np.zeros(1, dtype=np.int64),
            np.zeros(int(np.diff(topology.net[4]).max(initial=0)) + 1, dtype=np.int32),
        )
        self.locked: Locked | None = None
        if topology.program is not None:
            self.locked = (
                topology.program,
                np.zeros(topology.n_groups, dtype=np.int64),
                np.zeros(topology.size, dtype=np.uint64),
            )
        wanted = topology.size >= PROBE_FROM if probing is None else probing
        self.probing: Probing | None = None
        if wanted:
            self.probing = (
                np.zeros(5 * topology.size, dtype=np.int32),
                np.zeros(3 * topology.size, dtype=np.uint64),
                np.zeros(n_units, dtype=np.int64),
                np.zeros(cells, dtype=np.uint64),
                np.zeros(cells * topology.size, dtype=np.int32),
                np.zeros(2 * choices, dtype=np.int32),
                np.zeros(2 * choices, dtype=np.uint64),
                np.zeros(choices, dtype=np.int64),
            )
        self.regs = np.zeros(3, dtype=np.int64)
        depth = min(_FIRST_DEPTH if depth is None else depth, cells + 1)
        self.stack = np.zeros((depth, cells), dtype=np.uint64)
        self.tallies = np.zeros((depth, max(topology.n_slots, 1)), dtype=np.int8)
        self.free_at = np.zeros(depth, dtype=np.int64)
        self.cell_at = np.zeros(depth, dtype=np.int64)
        self.bit_at = np.zeros(depth, dtype=np.uint64)

    def compiling(self, kernel: Any) -> tuple[str, float, Any]:
        """What the compile notice says of ``kernel`` (``_search`` or ``_propagate``) called
        with these arrays, about how many seconds compiling it takes, and the kernel.

        One version of the kernels is compiled for each set of arrays left None. The seconds
        are those of a first run on two cores (whole ``ndoku solve``: 4.3, 5.6 and 12 s).
        """
        small = self.locked is None
        grids = f"grids below {LOCKED_FROM}×{LOCKED_FROM}"
        if kernel is _search:
            if small:
                return f"the exact solver for {grids}", 4, kernel
            if self.probing is None:
                grids = f"{LOCKED_FROM}×{LOCKED_FROM} to {PROBE_FROM - 1}×{PROBE_FROM - 1} grids"
                return f"the exact solver for {grids}", 5, kernel
            return f"the exact solver for grids from {PROBE_FROM}×{PROBE_FROM} up", 11, kernel
        if not small:
            grids = f"grids from {LOCKED_FROM}×{LOCKED_FROM} up"
        if self.probing is None:
            return f"propagation for {grids}", 2 if small else 3, kernel
        return f"propagation and matching for {grids}", 4 if small else 6, kernel

    def grow(self) -> None:
        """Double the stack depth, keeping its levels."""
        for name in ("stack", "tallies", "free_at", "cell_at", "bit_at"):
            old = getattr(self, name)
            new = np.zeros((2 * len(old), *old.shape[1:]), dtype=old.dtype)
            new[: len(old)] = old
            setattr(self, name, new)


def _solve_array(
    topology: _Topology,
    givens: IntArray,
    limit: int,
    max_nodes: int,
    timeout: float,
    progress: Callable[[int], None] | None = None,
) -> BatchResult:
    """Run the search kernel over a checked ``(puzzles, cells)`` array, in this process."""
    _check_limits(limit, max_nodes, timeout)
    n = len(givens)
    values = np.zeros((n, topology.n_cells), dtype=np.int32)
    stats = np.zeros((n, _N_STATS), dtype=np.int64)
    seconds = np.zeros(n, dtype=np.float64)
    work = _Workspace(topology)
    tick_seconds = _tick_seconds()
    # Without a tick counter each puzzle gets its own call, timed here.
    call_nodes = _CALL_NODES if tick_seconds else 0
    pause_ticks = int(_PAUSE_SECONDS / tick_seconds) if tick_seconds else 0
    i = 0
    while i < n:
        arguments = (
            givens,
            i,
            limit,
            max_nodes,
            call_nodes,
            pause_ticks,
            topology.net,
            topology.size,
            work.stack,
            work.tallies,
            work.free_at,
            work.cell_at,
            work.bit_at,
            work.locked,
            work.scratch,
            work.probing,
            work.regs,
            values,
            stats,
        )
        compile_notice(*work.compiling(_search), arguments)
        before = time.perf_counter()
        i_next = _search(*arguments)
        now = time.perf_counter()
        if not tick_seconds:
            seconds[i] += now - before
        if work.regs[_GROW]:
            work.regs[_GROW] = 0
            work.grow()
        if work.regs[_ACTIVE]:
            spent = stats[i_next, _TICKS] * tick_seconds if tick_seconds else seconds[i_next]
            if spent > timeout:
                stats[i_next, _STOP] = _TIMEOUT
                work.regs[_ACTIVE] = 0
                i_next += 1
        i = i_next
        if progress is not None:
            progress(i)
    if tick_seconds:
        seconds[:] = stats[:, _TICKS] * tick_seconds
    return BatchResult(values, stats, seconds, limit)


def _solve_spread(
    topology: _Topology,
    givens: IntArray,
    limit: int,
    max_nodes: int,
    timeout: float,
    jobs: int,
    progress: Callable[[int], None] | None,
) -> BatchResult:
    """Solve here in doubling chunks while the rest looks quick, then hand the rest to workers.

    The time per puzzle measured so far estimates the rest, so a batch of easy 9×9 puzzles
    never pays for starting workers and one of 25×25 puzzles reaches them after one puzzle.
    """
    parts: list[BatchResult] = []
    done, spent, chunk = 0, 0.0, 1
    while done < len(givens):
        rest = givens[done:]

        def report(k: int, base: int = done) -> None:
            if progress is not None:
                progress(base + k)

        if spent / max(done, 1) * len(rest) > PARALLEL_SECONDS:
            parts.append(_solve_parallel(topology, rest, limit, max_nodes, timeout, jobs, report))
            break
        part = _solve_array(topology, rest[:chunk], limit, max_nodes, timeout, report)
        parts.append(part)
        done, spent, chunk = done + len(part), spent + float(part.seconds.sum()), 2 * chunk
    return _joined(parts, limit)


def _joined(parts: list[BatchResult], limit: int) -> BatchResult:
    return BatchResult(
        np.concatenate([p.values for p in parts]),
        np.concatenate([p.stats for p in parts]),
        np.concatenate([p.seconds for p in parts]),
        limit,
    )


def _solve_parallel(
    topology: _Topology,
    givens: IntArray,
    limit: int,
    max_nodes: int,
    timeout: float,
    jobs: int,
    progress: Callable[[int], None] | None,
) -> BatchResult:
    """Chunks of the batch over ``jobs`` worker processes (spawned: safe on every platform)."""
    _check_limits(limit, max_nodes, timeout)
    chunks = np.array_split(givens, min(len(givens), 4 * jobs))
    context = multiprocessing.get_context("spawn")
    done = 0
    parts: list[BatchResult] = []
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = [
            pool.submit(_solve_array, topology, chunk, limit, max_nodes, timeout)
            for chunk in chunks
        ]
        for future in futures:
            part = future.result()
            parts.append(part)
            done += len(part)
            if progress is not None:
                progress(done)
    return _joined(parts, limit)


_calibrated: list[float] = []


def _tick_seconds() -> float:
    """Seconds per time-stamp-counter tick (measured once), 0.0 without a counter."""
    if not HAS_TICKS:
        return 0.0
    if not _calibrated:
        _tick_now()  # compiled or loaded before the clock starts
        t0, k0 = time.perf_counter(), _tick_now()
        while time.perf_counter() - t0 < 0.01:
            pass
        t1, k1 = time.perf_counter(), _tick_now()
        _calibrated.append((t1 - t0) / (k1 - k0) if k1 > k0 else 0.0)
    return _calibrated[0]
