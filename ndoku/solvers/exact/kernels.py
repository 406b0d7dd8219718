"""The exact search's kernels: probing two-way choices, choosing a branch, and the
depth-first search loop over a batch of puzzles (the terms are the package's glossary)."""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import kernel, ticks
from ndoku.solvers.bits import copy, lowest, nonliteral, popcount
from ndoku.solvers.propagation import matching, restrict, settle, start, write_values
from ndoku.solvers.tables import IntArray, Locked, Probing, Scratch

Stop = Literal["complete", "solutions", "nodes", "timeout"]

# Columns of the per-puzzle statistics array the kernel fills.
STAT_STOP, STAT_COUNT, STAT_NODES, STAT_GUESSES, STAT_PROPAGATED, STAT_TICKS = range(6)
N_STATS = 6
# Stop codes, in the order of ``STOPS``.
STOPS: tuple[Stop, ...] = ("complete", "solutions", "nodes", "timeout")
STOP_COMPLETE, STOP_SOLUTIONS, STOP_NODES, STOP_TIMEOUT = range(4)
# Registers of a paused search: whether puzzle ``i`` is mid-search, its depth, a stack
# request; and whether a new puzzle keeps the branching history the caller set (a part of a
# split search, see :mod:`ndoku.solvers.exact.split`).
REG_ACTIVE, REG_DEPTH, REG_GROW, REG_KEEP = range(4)
N_REGS = 4

#: A search that pauses by the clock reads the time-stamp counter every ``TICK_CHECK``
#: nodes, and every node from ``PROBE_FROM`` up (a probing node there can take milliseconds:
#: 64 of them overshot a 64×64's timeout by a quarter); without a counter it pauses after
#: ``_PAUSE_NODES`` nodes.
TICK_CHECK = 64
_PAUSE_NODES = 1 << 12
#: History of a probe side that failed: more than any side's score.
_FAILED = 1 << 20
#: What a cell a probe side fixes, and one it leaves with two candidates, add to the
#: side's score (the candidates it removes count 1 each): on the ten tuning puzzles and the
#: shared six, 2 and 1 searched 235 488 nodes, 4 and 5 215 008 (2 and 3: 220 634; 2 and
#: 6: 237 830; counting values left with two places in a unit too cost more than it cut);
#: on 24 isomorphs of the first eight, 516 392 and 533 146 (geometric mean 2% lower).
_FIXED = 4
_PAIR = 5
#: More than the cells of any grid: :func:`_tally` counts candidates in its multiples.
_PER_CANDIDATE = 1 << 16
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


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


@kernel(inline="always")
def key_shift(keys: NDArray[np.int64]) -> np.uint64:
    """Bits a choice's number takes in its key: enough for any number below ``len(keys)``."""
    shift = 1
    while (1 << shift) < len(keys):
        shift += 1
    return np.uint64(shift)


@kernel()
def _two_way_choices(
    cand: NDArray[np.uint64],
    counts: NDArray[np.int8],
    net: tuple[IntArray, ...],
    probing: Probing,
    size: int,
    shift: np.uint64,
) -> int:
    """List the two-way choices of a state; their number.

    Choice ``i`` is ``cell sides[2i] = value values[2i]`` or ``cell sides[2i + 1] = value
    values[2i + 1]``: the two candidates of a cell, or the two places of a value in a unit.
    Its key orders the probes: minus the product of (1 + history) of its sides, shifted left
    by ``shift`` (:func:`key_shift`), plus ``i``; sorted, the keys list the strongest choices first,
    ties in list order, and the key's low bits are the choice. Cells are looked at without
    branching on their candidates (which have two is anyone's guess; counts of two are rare
    enough to branch on).
    """
    history, sides, values, keys = probing[4:8]
    n = 0
    for x in range(len(cand)):
        m = cand[x]
        a = m & (~m + _ONE)
        sides[2 * n] = x
        sides[2 * n + 1] = x
        values[2 * n] = a
        values[2 * n + 1] = m ^ a
        n += popcount(m) == 2
    for slot in range(len(counts)):
        if counts[slot] != 2:
            continue
        u = slot // size
        a = _ONE << np.uint64(slot - u * size)
        c1 = c2 = -1
        for k in range(net[0][u], net[0][u + 1]):
            c = net[1][k]
            if cand[c] & a:
                if c1 >= 0:
                    c2 = c
                    break
                c1 = c
        sides[2 * n] = c1
        sides[2 * n + 1] = c2
        values[2 * n] = a
        values[2 * n + 1] = a
        n += 1
    for i in range(n):
        strength_a = 1 + np.int64(history[sides[2 * i] * size + lowest(values[2 * i])])
        side_b = sides[2 * i + 1] * size + lowest(values[2 * i + 1])
        strength = strength_a * (1 + np.int64(history[side_b]))
        keys[i] = (-strength << shift) + i
    return n


_BYTE = np.uint64(255)
_SIGN = np.uint64(1 << 63)


@kernel()
def sort(keys: NDArray[np.int64], n: int, spare: NDArray[np.int64]) -> None:
    """Sort ``keys[:n]`` in place, ascending; ``spare`` holds ``n + 256`` int64 or more.

    Least significant digit first (a byte a pass, skipping bytes that all keys share), each
    pass stable: no comparison branches, which a pass's keys mispredict (a heapsort took a
    fifteenth of a 25×25's time).
    """
    same = _ZERO - _ONE
    seen = _ZERO
    for i in range(n):
        k = np.uint64(keys[i]) ^ _SIGN
        same &= k
        seen |= k
    varies = same ^ seen
    buckets = spare[n : n + 256]
    source = keys
    target = spare
    flipped = False
    for shift in range(0, 64, 8):
        s = np.uint64(shift)
        if (varies >> s) & _BYTE == _ZERO:
            continue
        buckets[:] = 0
        for i in range(n):
            buckets[((np.uint64(source[i]) ^ _SIGN) >> s) & _BYTE] += 1
        total = 0
        for b in range(256):
            count = buckets[b]
            buckets[b] = total
            total += count
        for i in range(n):
            k = source[i]
            digit = ((np.uint64(k) ^ _SIGN) >> s) & _BYTE
            target[buckets[digit]] = k
            buckets[digit] += 1
        source, target = target, source
        flipped = not flipped
    if flipped:
        for i in range(n):
            keys[i] = source[i]


@kernel(inline="always")
def _tally(cand: NDArray[np.uint64]) -> int:
    """The candidates of a state times ``_PER_CANDIDATE``, plus its cells with two
    candidates: what :func:`_probe` scores a side's narrowing by."""
    tally = 0
    for x in range(len(cand)):
        k = popcount(cand[x])
        tally += _PER_CANDIDATE * k + (k == 2)
    return tally


@kernel()
def _side(
    cand: NDArray[np.uint64],
    counts: NDArray[np.int8],
    probed: NDArray[np.uint64],
    probed_counts: NDArray[np.int8],
    c: int,
    bit: np.uint64,
    free: int,
    net: tuple[IntArray, ...],
    scratch: Scratch,
    size: int,
) -> int:
    """Probe one side, cell ``c`` = value ``bit``, on a copy of the state in ``probed``
    (singles only: locked candidates would cost more per probe than they prune); free cells
    left, -1 if it fails. :func:`~ndoku.solvers.propagation.settle` is inlined here, as in
    the search loop: probes take half a 25×25's time."""
    copy(cand, probed)
    copy(counts, probed_counts)
    return restrict(probed, probed_counts, c, probed[c] ^ bit, free, net, None, scratch, size)


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
    choice, cell -1 when there is none: the one whose sides both narrow the state most
    (product of their scores: candidates removed, cells fixed and cells left with two
    candidates; scoring by cells fixed alone searched a third more nodes on tuning puzzles).
    A side already implied by a probe of this pass holds (propagation only adds to what it
    implied), so it is not probed again and its choice is not scored; the other side still
    is probed, for it may fail (on 25×25 that cut the nodes by a tenth, the worst puzzle's
    by a quarter).
    """
    cand = stack[t]
    counts = tallies[t]
    probed = stack[t + 1]
    queue = scratch[0]
    implied, history, sides, values, keys, stamps, spare = probing[3:]
    # Probes narrow a copy: their changes must not send matching and locked candidates
    # back to the units they touched (on 25×25 that was a fifth of the units matched).
    quiet = (queue, scratch[1], scratch[2], stamps, *scratch[4:])
    implied[:] = _ZERO
    best = -1
    best_bit = _ZERO
    best_score = -1
    before = _tally(cand)
    shift = key_shift(keys)
    n = _two_way_choices(cand, counts, net, probing, size, shift)
    mask = (1 << np.int64(shift)) - 1
    sort(keys, n, spare)
    excluded = False
    for j in range(n):
        i = keys[j] & mask
        c1 = sides[2 * i]
        c2 = sides[2 * i + 1]
        a = values[2 * i]
        b = values[2 * i + 1]
        # Values failed earlier in this pass may have decided the choice already.
        if cand[c1] & a == _ZERO or cand[c2] & b == _ZERO or cand[c1] == a or cand[c2] == b:
            continue
        narrowed_a = 0
        for side in range(2):
            c = c1 if side == 0 else c2
            bit = a if side == 0 else b
            if implied[c] & bit:
                if side == 0:
                    narrowed_a = -1
                    continue
                break
            left = _side(cand, counts, probed, tallies[t + 1], c, bit, free, net, quiet, size)
            if left < 0:
                history[c * size + lowest(bit)] = _FAILED
                free = restrict(cand, counts, c, bit, free, net, None, scratch, size)
                if free <= 0:
                    return free, -1, _ZERO
                excluded = True
                before = _tally(cand)
                break
            # How much the side narrowed the state: the candidates it removed, plus
            # ``_FIXED`` for each cell it fixed and ``_PAIR`` for each it left with two (a
            # new two-way choice). The fix queue lists the cells the probe fixed, each once.
            after = _tally(probed)
            pairs = after % _PER_CANDIDATE - before % _PER_CANDIDATE
            narrowed = before // _PER_CANDIDATE - after // _PER_CANDIDATE
            narrowed += _PAIR * pairs + _FIXED * (free - left)
            for k in range(free - left):
                x = queue[k]
                implied[x] |= probed[x]
                narrowed += _PAIR * (popcount(cand[x]) == 2)
            history[c * size + lowest(bit)] = narrowed
            if side == 0:
                narrowed_a = narrowed
            elif narrowed_a >= 0:
                score = (1 + narrowed_a) * (1 + narrowed)
                if score > best_score:
                    best_score = score
                    best = c1
                    best_bit = a
    # Failed values propagated singles only, as probes do; locked candidates once at the end
    # (per failed value they cost more than the probes around them).
    if excluded and locked is not None:
        free = settle(cand, counts, nonliteral(0), nonliteral(0), free, net, locked, scratch, size)
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
        free = matching(stack[t], tallies[t], free, net, locked, scratch, probing, size)
        if free <= 0:
            return free, -1, _ZERO
        free, c, bit = _probe(stack, tallies, t, free, net, locked, scratch, probing, size)
        if c >= 0 or free <= 0:
            return free, c, bit
    c, bit = _branch(stack[t], scratch[2])
    return free, c, bit


@kernel(inline="always")
def next_pause(nodes: int, pause_at: int, pause_ticks: int, began: int, every: int) -> int:
    """When a search at ``nodes`` next looks at the clock: ``pause_at`` until then, -1 when
    it should pause now (``pause_ticks`` since ``began``; with no clock, ``pause_at`` itself
    ends the call), else in ``every`` nodes. The first ``pause_at`` is
    ``nodes + first_pause(pause_ticks, every)``."""
    if nodes < pause_at:
        return pause_at
    if pause_ticks == 0 or ticks() - began >= pause_ticks:
        return -1
    return nodes + every


@kernel(inline="always")
def first_pause(pause_ticks: int, every: int) -> int:
    """Nodes before a search first looks at the clock (or pauses, without one)."""
    return every if pause_ticks else _PAUSE_NODES


@kernel(inline="always")
def settle_row(
    row: NDArray[np.int64],
    regs: NDArray[np.int64],
    nodes: int,
    guesses: int,
    count: int,
    began: int,
    paused: bool,
    depth: int,
    stop: int,
) -> None:
    """Write a puzzle's statistics after a call, and the registers: paused at ``depth`` (to
    resume), or finished with ``stop``."""
    row[STAT_NODES] = nodes
    row[STAT_GUESSES] = guesses
    row[STAT_COUNT] = count
    row[STAT_TICKS] += ticks() - began
    if paused:
        regs[REG_ACTIVE] = 1
        regs[REG_DEPTH] = depth
    else:
        row[STAT_STOP] = stop
        regs[REG_ACTIVE] = 0


@kernel(nogil=True)  # a split search runs it in several threads at once
def search(
    givens: IntArray,
    marks: NDArray[np.uint64],
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
    """Solve puzzles ``first ..`` of ``givens``, each cell within its pencil marks (``marks``:
    a row per puzzle, or one row for all); return the first one not finished.

    Level ``d`` of the stack holds a propagated (and probed) state (candidates, counts, free
    cells) and its branch: cell ``c = cell_at[d]`` and value ``bit_at[d]``; probes use the
    level above it. While ``c >= 0`` the branch
    ``c = value`` is still to try, on a copy at level ``d + 1``; then ``cell_at[d]`` becomes
    ``-1 - c`` and, once that subtree is done, ``c ≠ value`` is applied in place at level d,
    which then branches again. A puzzle pauses after ``pause_ticks`` ticks (or
    ``_PAUSE_NODES`` nodes when 0), or when the stack is full (``regs[REG_GROW]``), leaving
    ``regs[REG_ACTIVE]`` set; the next call resumes it. After a puzzle, the call returns once it
    has searched ``call_nodes`` nodes. A level whose ``bit_at`` the caller set to 0 while
    paused has no ``c ≠ value`` branch left: it was handed to another search.
    """
    n_puzzles = givens.shape[0]
    every = 1 if probing is not None else TICK_CHECK
    cap = stack.shape[0]
    spent = 0
    i = first
    while i < n_puzzles:
        began = ticks()
        row = stats[i]
        if regs[REG_ACTIVE] == 0:
            row[:] = 0
            values[i, :] = 0
            if regs[REG_KEEP] == 0:
                scratch[2][:] = 0
                if probing is not None:
                    probing[4][:] = 0
            within = marks[min(i, len(marks) - 1)]
            free = start(
                stack[0], tallies[0], givens[i], within, net, locked, scratch, probing, size
            )
            nodes = 1
            d = -1
            if free == 0:
                row[STAT_PROPAGATED] = 1
            elif free > 0:
                free, cell_at[0], bit_at[0] = _choose(
                    stack, tallies, nonliteral(0), free, net, locked, scratch, probing, size
                )
                free_at[0] = free
                if free > 0:
                    d = 0
            if free == 0:
                row[STAT_COUNT] = 1
                write_values(stack[0], values[i])
        else:
            nodes = row[STAT_NODES]
            d = regs[REG_DEPTH]
        count = row[STAT_COUNT]
        guesses = row[STAT_GUESSES]
        resumed_at = nodes
        pause_at = nodes + first_pause(pause_ticks, every)
        stop = STOP_COMPLETE
        paused = False
        while d >= 0:
            if nodes >= max_nodes:
                stop = STOP_NODES
                break
            pause_at = next_pause(nodes, pause_at, pause_ticks, began, every)
            if pause_at < 0:
                paused = True
                break
            c = cell_at[d]
            if c >= 0:
                t = d + 1
                if t + 1 == cap:  # the child and its probes' level
                    regs[REG_GROW] = 1
                    paused = True
                    break
                copy(stack[d], stack[t])
                copy(tallies[d], tallies[t])
                cell_at[d] = -1 - c
                guesses += 1
                m = stack[t][c] ^ bit_at[d]  # c = value: every other value goes
            else:
                m = bit_at[d]  # c ≠ value
                if m == _ZERO:  # handed to another search
                    d -= 1
                    continue
                t = d
                c = -1 - c
            free = restrict(stack[t], tallies[t], c, m, free_at[d], net, locked, scratch, size)
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
                    write_values(stack[t], values[i])
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


@kernel()
def tick_now() -> int:
    return ticks()  # type: ignore[no-any-return]
