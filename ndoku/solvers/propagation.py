"""Propagation: what every solver shares, the kernels that narrow candidates on a layout's
units, and their Python API (:func:`propagate`, :func:`candidates`, :func:`fixed_values`).

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
    is removed from the rest of B. Looked for from N = ``LOCKED_FROM`` on, and on layouts of
    several grids (:func:`ndoku.solvers.tables.has_locked`).
propagation
    Naked singles, hidden singles and locked candidates applied until none finds anything (or
    a cell or a unit is left without a candidate: a contradiction).

The kernels see only units and peers (CSR arrays), never rows or boxes, so they serve every
layout. The exact search (:mod:`ndoku.solvers.exact`) calls them at every node; the Metropolis
chains prune with :func:`candidates`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import compile_notice, kernel
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.bits import idx, lowest, nonliteral
from ndoku.solvers.hall import hall
from ndoku.solvers.removal import blame, drop, weigh
from ndoku.solvers.rules import rules_pass
from ndoku.solvers.tables import (
    IntArray,
    Locked,
    Probing,
    Scratch,
    Topology,
    WorkArrays,
    check_givens,
)

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


# --- kernels ------------------------------------------------------------------------------
#
# ``net`` (read-only) is the layout: CSR of unit → cells, cell → units, cell → peers.
# ``scratch``, ``locked`` and ``probing``: see ``Scratch``, ``Locked`` and ``Probing`` in
# :mod:`ndoku.solvers.tables`.
#
# Compile only what a puzzle needs: ``locked`` is None on one grid below ``LOCKED_FROM`` and
# ``probing`` below the exact search's ``PROBE_FROM`` (unless :func:`candidates` asks for
# matching).
# numba compiles a kernel once per argument types and, for a None argument, drops the
# branches behind ``is None`` tests before typing, so a 9×9 never compiles locked
# candidates, matching or probes (each variant is cached on its own).
# For the same reason a number handed to a kernel that is called (not inlined) is never a
# plain constant, nor a counter started from one: numba types ``0`` as the literal 0, even
# when a loop later adds to it, and would compile the callee once more for that literal.
# ``nonliteral(0)`` is an int64 0 that is no literal. A kernel marked ``inline="always"`` is copied
# into each caller and compiled there again, so only small ones are (and ``settle``, the
# largest, only into the search loop and matching).
#
# The hot loops index through ``idx`` (:data:`ndoku.solvers.bits.idx`): unsigned, so that
# numba does not test each index for a negative value; every such index is a cell, unit,
# slot or queue position, never negative.


#: The kernels :func:`settle` is inlined into, by module and name: the exact search loop and
#: its probes (named, not imported: the exact solver is built on this module) and
#: :func:`matching`.
INLINE_SETTLE_INTO = frozenset(
    {
        ("ndoku.solvers.exact.kernels", "search"),
        ("ndoku.solvers.exact.kernels", "_side"),
        ("ndoku.solvers.propagation", "matching"),
    }
)


def _inline_settle(call: Any, caller: Any, callee: Any) -> bool:
    """numba's inlining choice for :func:`settle`: into the search loop, a probe and
    matching only, where a call took 1-2% of a hard 9×9's and 6% of a 25×25's time;
    everywhere else one compiled copy is called (each inlined copy costs a second of
    compiling)."""
    return (caller.func_id.modname, caller.func_id.func_qualname) in INLINE_SETTLE_INTO


@kernel(inline=_inline_settle)
def settle(
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
    A puzzle's variant rules (:mod:`ndoku.solvers.rules`) are narrowed only when singles find
    nothing more, and locked candidates (unless ``locked`` is None) looked for when neither
    does: with locked candidates forced on the janko killer 9×9 set, that order took the
    worst puzzle from 303 nodes to 165, the outside-sum set's from 51 to 13.
    """
    unit_ptr, unit_cells, cell_unit_ptr, cell_units, peer_ptr, peers = net
    queue, hidden, weights = scratch[:3]
    touched = scratch[5]
    head = 0
    hidden_head = 0
    while True:
        if head < pending:
            c = queue[idx(head)]
            head += 1
            free -= 1
            bit = cand[idx(c)]
            v = lowest(bit)
            # The peers that hold the value are listed in one loop without branches (and
            # without writing to the others), then lose it one by one.
            for i in range(cell_unit_ptr[c], cell_unit_ptr[c + 1]):
                counts[idx(cell_units[idx(i)] * size + v)] = -1
            hit = 0
            for i in range(peer_ptr[c], peer_ptr[c + 1]):
                p = peers[idx(i)]
                touched[idx(hit)] = p
                hit += (cand[idx(p)] & bit) != _ZERO
            for i in range(hit):
                p = touched[idx(i)]
                m = cand[idx(p)] & ~bit
                cand[idx(p)] = m
                if m == _ZERO:
                    blame(p, net, weights)
                    return -1
                n_hidden = drop(cand, counts, n_hidden, p, bit, net, scratch, size)
                if n_hidden < 0:
                    return -1
                if m & (m - _ONE) == _ZERO:
                    queue[idx(pending)] = p
                    pending += 1
        elif hidden_head < n_hidden:
            slot = hidden[idx(hidden_head)]
            hidden_head += 1
            if counts[idx(slot)] != 1:
                continue  # the value got fixed in the unit meanwhile
            u = slot // size
            bit = _ONE << np.uint64(slot - u * size)
            for k in range(unit_ptr[u], unit_ptr[u + 1]):
                c = unit_cells[idx(k)]
                m = cand[idx(c)]
                if m & bit:
                    if m != bit:
                        n_hidden = drop(cand, counts, n_hidden, c, m ^ bit, net, scratch, size)
                        if n_hidden < 0:
                            return -1
                        queue[pending] = c
                        pending += 1
                    break
        else:
            # A puzzle's variant rules, when it has any, then locked candidates (a full grid
            # that singles left consistent holds every unit: no crossing to check).
            pending, n_hidden, found = rules_pass(
                cand, counts, pending, n_hidden, net, scratch, size
            )
            if n_hidden < 0:
                return -1
            if not found and locked is not None and free > 0:
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
        end = pos + program[idx(pos + 1)]
        if marks[idx(program[idx(pos)])] < seen[idx(g)]:
            pos = end
            g += 1
            continue
        seen[idx(g)] = now + 1
        g += 1
        q = pos + 2
        once = _ZERO
        fixed = _ZERO
        for k in range(q + 1, q + 1 + program[idx(q)]):
            m = cand[idx(program[idx(k)])]
            once |= m
            fixed |= m & (_ZERO - np.uint64(m & (m - _ONE) == _ZERO))
        twice = _ZERO
        q += 1 + program[idx(q)]
        pieces = q + 1
        q = pieces
        for piece in range(program[idx(pieces - 1)]):
            mask = _ZERO
            for k in range(q + 1, q + 1 + program[idx(q)]):
                m = cand[idx(program[idx(k)])]
                mask |= m
                fixed |= m & (_ZERO - np.uint64(m & (m - _ONE) == _ZERO))
            ors[idx(piece)] = mask
            twice |= once & mask
            once |= mask
            q += 1 + program[idx(q)]
        alone = once & ~twice & ~fixed
        if alone == _ZERO:
            pos = end
            continue
        base = program[idx(pos)] * size
        for piece in range(program[idx(pieces - 1)]):
            mask = ors[idx(piece)] & alone
            partners = program[idx(q)]
            q += 1
            for _ in range(partners):
                other = program[idx(q)] * size
                first = q + 2
                q = first + program[idx(q + 1)]
                # Values still in B outside the piece: B holds more of them than A, whose
                # places all lie in the piece.
                need = _ZERO
                rest = mask
                while rest != _ZERO:
                    v = lowest(rest)
                    rest &= rest - _ONE
                    if counts[idx(other + v)] > counts[idx(base + v)]:
                        need |= _ONE << np.uint64(v)
                if need == _ZERO:
                    continue
                for k in range(first, q):
                    c = program[idx(k)]
                    m = cand[idx(c)] & need
                    if m == _ZERO:
                        continue
                    left = cand[idx(c)] ^ m
                    if left == _ZERO:
                        blame(c, net, scratch[2])
                        return pending, -1, True
                    found = True
                    n_hidden = drop(cand, counts, n_hidden, c, m, net, scratch, size)
                    if n_hidden < 0:
                        return pending, -1, True
                    if left & (left - _ONE) == _ZERO:
                        queue[idx(pending)] = c
                        pending += 1
        pos = end
    return pending, n_hidden, found


@kernel(inline="always")
def restrict(
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
    n_hidden = drop(cand, counts, nonliteral(0), c, m, net, scratch, size)
    if n_hidden < 0:
        return -1
    left = cand[c]
    pending = nonliteral(0)
    if left & (left - _ONE) == _ZERO:
        scratch[0][0] = c
        pending += 1
    return settle(cand, counts, pending, n_hidden, free, net, locked, scratch, size)


@kernel()
def start(
    cand: NDArray[np.uint64],
    counts: NDArray[np.int8],
    givens: IntArray,
    marks: NDArray[np.uint64] | None,
    net: tuple[IntArray, ...],
    locked: Locked | None,
    scratch: Scratch,
    probing: Probing | None,
    size: int,
) -> int:
    """Candidates of a puzzle after propagating its givens, each cell kept within its
    ``marks`` (pencil marks; None: no such limit); free cells left, -1 if none. The
    exact search's branching weights and history are its own to reset.

    The givens are laid out at once, not fixed one by one: each leaves its peers, then every
    unit's counts are taken from its cells (a given's value counts -1, as a fixed one's
    does in :func:`settle`), and the singles this leaves start the queues. One by one, each
    given's own removals and its peers' were counted apart: on 27×27 clueless layouts with
    180 givens that took most of a search without branches.
    """
    unit_ptr, unit_cells, cell_unit_ptr, cell_units, peer_ptr, peers = net
    queue, hidden = scratch[0], scratch[1]
    full = _ONE << np.uint64(size - 1)
    full |= full - _ONE
    scratch[3][:] = 0
    scratch[4][0] = 1
    if locked is not None:
        locked[1][:] = 0
    if probing is not None:
        probing[2][:] = 0
    n_cells = len(givens)
    fixed = 0
    for c in range(n_cells):
        v = givens[c]
        cand[c] = _ONE << np.uint64(v - 1) if v > 0 else full
        fixed += v > 0
    for c in range(n_cells):
        if givens[c] > 0:
            bit = _ONE << np.uint64(givens[c] - 1)
            for i in range(peer_ptr[c], peer_ptr[c + 1]):
                p = peers[idx(i)]
                cand[idx(p)] &= ~bit
    for u in range(len(unit_ptr) - 1):
        base = u * size
        unfixed = 0  # cells that can still take every value
        for v in range(size):
            counts[idx(base + v)] = 0
        for k in range(unit_ptr[u], unit_ptr[u + 1]):
            m = cand[idx(unit_cells[idx(k)])]
            if m == full:
                unfixed += 1
                continue
            # a fixed loop, not one over the set bits: that one's end mispredicts (a 16×16's
            # search 25 % quicker, the clueless 1 set's 18 %)
            for v in range(size):
                counts[idx(base + v)] += np.int8((m >> np.uint64(v)) & _ONE)
        if unfixed:
            for v in range(size):
                counts[idx(base + v)] += unfixed
    pending = nonliteral(0)
    for c in range(n_cells):
        m = cand[c]
        if m == _ZERO:  # a given seen by its own value, or a cell left without any
            return -1
        if givens[c] > 0:
            v = givens[c] - 1
            for i in range(cell_unit_ptr[c], cell_unit_ptr[c + 1]):
                counts[idx(cell_units[idx(i)] * size + v)] = -1
        elif m & (m - _ONE) == _ZERO:
            queue[pending] = c
            pending += 1
    n_hidden = nonliteral(0)
    for slot in range(len(counts)):
        n = counts[slot]
        if n == 0:
            return -1
        hidden[n_hidden] = slot
        n_hidden += n == 1
    if marks is not None:
        for c in range(n_cells):
            was = cand[c]
            m = was & ~marks[c]
            if m == _ZERO:
                continue
            n_hidden = drop(cand, counts, n_hidden, c, m, net, scratch, size)
            left = cand[c]
            if n_hidden < 0 or left == _ZERO:
                return -1
            if was & (was - _ONE) != _ZERO and left & (left - _ONE) == _ZERO:
                queue[pending] = c
                pending += 1
    return settle(cand, counts, pending, n_hidden, n_cells - fixed, net, locked, scratch, size)


@kernel()
def write_values(cand: NDArray[np.uint64], out: IntArray) -> None:
    """Fixed cells' values into ``out``; 0 where a cell is still free (or has no value left)."""
    for c in range(len(cand)):
        m = cand[c]
        out[c] = lowest(m) + 1 if m != _ZERO and m & (m - _ONE) == _ZERO else 0


@kernel()
def matching(
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
    value leaves a cell when no such pairing gives it to the cell (:func:`hall`). Only
    units changed since their last check are looked at, stamped as in :func:`_locked`.
    """
    unit_ptr, unit_cells = net[0], net[1]
    queue, marks, clock = scratch[0], scratch[3], scratch[4]
    ints, masks, checked = probing[0], probing[1], probing[2]
    found = True
    while found and free > 0:
        found = False
        n_hidden = nonliteral(0)
        pending = nonliteral(0)
        now = clock[0]
        clock[0] = now + 1
        for u in range(len(unit_ptr) - 1):
            if marks[idx(u)] < checked[idx(u)]:
                continue
            checked[idx(u)] = now + 1
            n = 0
            fixed = _ZERO
            # Free cells listed and fixed values gathered without branches (which cells are
            # fixed is anyone's guess).
            for k in range(unit_ptr[u], unit_ptr[u + 1]):
                c = unit_cells[idx(k)]
                m = cand[idx(c)]
                free_cell = m & (m - _ONE) != _ZERO
                ints[idx(4 * size + n)] = c
                masks[idx(n)] = m
                n += free_cell
                fixed |= m & (np.uint64(free_cell) - _ONE)
            if n < 2:
                continue
            for i in range(n):
                masks[idx(i)] &= ~fixed
            pruned = hall(n, masks, ints, size)
            if pruned < 0:
                weigh(u, net, scratch[2])
                return -1
            if pruned == 0:
                continue
            for i in range(n):
                bad = masks[idx(size + i)]
                c = ints[idx(4 * size + i)]
                if bad == _ZERO or cand[idx(c)] & bad == _ZERO:
                    continue
                found = True
                n_hidden = drop(cand, counts, n_hidden, c, cand[idx(c)] & bad, net, scratch, size)
                if n_hidden < 0:
                    return -1
                left = cand[idx(c)]
                if left & (left - _ONE) == _ZERO:
                    queue[idx(pending)] = c
                    pending += 1
        if found:
            free = settle(cand, counts, pending, n_hidden, free, net, locked, scratch, size)
    return free


@kernel()
def _propagate(
    givens: IntArray,
    marks: NDArray[np.uint64] | None,
    net: tuple[IntArray, ...],
    size: int,
    locked: Locked | None,
    scratch: Scratch,
    probing: Probing | None,
    cand: NDArray[np.uint64],
    counts: NDArray[np.int8],
) -> bool:
    """Candidates after propagation (and all-different matching unless ``probing`` is None),
    within ``marks`` unless None, into ``cand``; False on a contradiction. ``counts``: the
    (unit, value) counts, overwritten."""
    free = start(cand, counts, givens, marks, net, locked, scratch, probing, size)
    if probing is not None and free > 0:
        free = matching(cand, counts, free, net, locked, scratch, probing, size)
    return free >= 0


# --- Python side --------------------------------------------------------------------------


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
    masks, ok, checked = candidate_masks(puzzle, givens, matching=False)
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
    masks, ok, _ = candidate_masks(puzzle, givens, matching=True)
    return masks, ok


def fixed_values(masks: NDArray[np.uint64]) -> IntArray:
    """The value of each cell whose mask holds one bit, 0 elsewhere.

    Examples
    --------
    >>> fixed_values(np.array([1, 6, 0, 4], dtype=np.uint64)).tolist()
    [1, 0, 0, 3]
    """
    values = np.zeros(len(masks), dtype=np.int32)
    write_values(np.ascontiguousarray(masks, dtype=np.uint64), values)
    return values


def candidate_masks(
    puzzle: Puzzle, givens: IntArray | None, matching: bool
) -> tuple[NDArray[np.uint64], bool, IntArray]:
    """Candidates after propagation, whether no contradiction was found, the checked givens;
    each cell within the puzzle's pencil marks, when it has them."""
    topology = Topology.of(puzzle)
    one = check_givens(topology, puzzle.givens if givens is None else givens)
    marks = puzzle.candidates
    masks = np.zeros(topology.n_cells, dtype=np.uint64)
    counts = np.zeros(max(topology.n_slots, 1), dtype=np.int8)
    work = WorkArrays(topology, probing=matching)
    arguments = (
        one,
        marks,
        topology.net,
        topology.size,
        work.locked,
        work.scratch,
        work.probing,
        masks,
        counts,
    )
    compile_notice(*work.compiling(_propagate), arguments)
    return masks, bool(_propagate(*arguments)), one
