"""The move kernels: proposals of swaps or single-site changes at one temperature's acceptance
table, and that table.

Each proposal draws one 64-bit random number: its high half picks the move, its low half is
compared with ``2**32 · exp(−ΔE/T)`` to accept an uphill move. A guided swap draws two more:
one for its cell, one for the candidate the cell takes.

A kernel runs up to a budget of proposals and keeps its counts in an int64 ``stats`` array
(energy, best energy, the proposal of the best, proposals, acceptances) and its random stream
in a one-element state array, so that a caller can cut a chain into calls at will.

A puzzle's rules (``rules``, :mod:`.broken`) add the change of the broken counts of the
constraints a move touches; without any, ``rules`` is None and numba compiles the kernels
without that part (a classic puzzle's chain runs the code it always ran).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import kernel
from ndoku.solvers.bits import copy
from ndoku.solvers.chains.broken import ChainRules, change
from ndoku.solvers.chains.moves import (
    GUIDE_COUNT,
    GUIDE_GROUP,
    GUIDE_OPTIONS,
    GUIDE_POSITION,
    MIX_GUIDED,
    MIX_PAIRS,
    MIX_PENALTY,
    REPEATED,
    SEEN,
    GuideArray,
    IntArray,
    PairArray,
)
from ndoku.solvers.random import advance, below

_LOW32 = np.uint64(0xFFFFFFFF)
_ONE = np.uint64(1)
_TWO = np.uint64(2)
_A = np.uint64(3)  # column of a pair's first changed unit of a (of b: _A + width)


def acceptance_thresholds(temperature: float, largest: int) -> NDArray[np.uint64]:
    """``t[d] = ⌊2**32 · exp(-d / T)⌋``, for d up to ``largest`` (e.g. a system's
    ``largest_change``).

    A move raising the energy by d is taken when 32 random bits fall below ``t[d]``, that is
    with probability exp(-d / T) to within 2**-32.

    >>> acceptance_thresholds(0.25, 2).tolist()  # exp(-4) · 2**32, exp(-8) · 2**32
    [4294967296, 78665070, 1440801]
    """
    thresholds = np.zeros(largest + 1, dtype=np.uint64)
    fill_thresholds(thresholds, temperature)
    return thresholds


@kernel(refcounts=True)
def fill_thresholds(thresholds: NDArray[np.uint64], temperature: float) -> None:
    """``thresholds[d] = ⌊2**32 · exp(-d / T)⌋``, rewriting only the entries that were or become
    non-zero (a single-site table is long and mostly zeros)."""
    thresholds[0] = np.uint64(1) << np.uint64(32)
    for d in range(1, len(thresholds)):
        # T underflows to 0 after long exponential cooling: then only downhill moves
        value = math.floor(math.exp(-d / temperature) * 2.0**32) if temperature > 0 else 0.0
        if value == 0 and thresholds[d] == 0:
            break  # both the old and the new table are zero from here on
        thresholds[d] = np.uint64(value)


@kernel(refcounts=True, inline="always")
def _change(masks: NDArray[np.uint64], u: int, x: np.uint64, y: np.uint64) -> np.int64:
    """ΔE of unit ``u`` when one of its cells changes from ``x`` to ``y``.

    Losing x costs 1 unless x is repeated; gaining y saves 1 unless y is already there.
    """
    already = np.int64((masks[u, SEEN] >> y) & _ONE)
    repeated = np.int64((masks[u, REPEATED] >> x) & _ONE)
    return already - repeated


@kernel(refcounts=True, inline="always")
def _shift(counts: NDArray[np.int32], masks: NDArray[np.uint64], u: int, x: int, y: int) -> None:
    """One cell of unit ``u`` changes from ``x`` to ``y``: counts and masks follow."""
    counts[u, x] -= 1
    counts[u, y] += 1
    bx = _ONE << np.uint64(x)
    by = _ONE << np.uint64(y)
    if counts[u, x] == 0:
        masks[u, SEEN] &= ~bx
    elif counts[u, x] == 1:
        masks[u, REPEATED] &= ~bx
    if counts[u, y] == 1:
        masks[u, SEEN] |= by
    elif counts[u, y] == 2:
        masks[u, REPEATED] |= by


@kernel(refcounts=True, inline="always")
def _outside(allowed: NDArray[np.uint64], c: int, s: np.uint64) -> np.int64:
    """1 when symbol ``s`` is not a candidate of cell ``c``, else 0."""
    return np.int64(((allowed[c] >> s) & _ONE) ^ _ONE)


@kernel(refcounts=True, inline="always")
def _registers(
    stats: NDArray[np.int64],
) -> tuple[np.int64, np.int64, np.int64, np.int64, np.int64]:
    """A move kernel's registers from ``stats``: energy, best, best_at, proposals, accepted."""
    return stats[0], stats[1], stats[2], stats[3], stats[4]


@kernel(refcounts=True, inline="always")
def _keep(
    state: NDArray[np.uint64],
    stats: NDArray[np.int64],
    s: np.uint64,
    energy: np.int64,
    best: np.int64,
    best_at: np.int64,
    done: np.int64,
    taken: np.int64,
) -> None:
    """Store a move kernel's generator state and registers for the next call."""
    state[0] = s
    stats[0] = energy
    stats[1] = best
    stats[2] = best_at
    stats[3] = done
    stats[4] = taken


@kernel(refcounts=True)
def swap_chain(
    values: IntArray,
    best_values: IntArray,
    place: IntArray,
    counts: NDArray[np.int32],
    masks: NDArray[np.uint64],
    pairs: PairArray,
    cell_unit_ptr: IntArray,
    cell_units: IntArray,
    allowed: NDArray[np.uint64],
    free: IntArray,
    guide: GuideArray,
    group_pairs: PairArray,
    mix: NDArray[np.int64],
    rules: ChainRules | None,
    thresholds: NDArray[np.uint64],
    state: NDArray[np.uint64],
    stats: NDArray[np.int64],
    budget: int,
) -> None:
    """Run up to ``budget`` swap proposals (box or row moves); ``stats`` = energy, best,
    best_at, proposals, accepted.

    A draw below the uniform pair slots picks that pair; above, it picks a free cell c for a
    guided swap (see :class:`~.moves.SwapSystem` and the glossary in :mod:`.moves`).
    """
    energy, best, best_at, done, taken = _registers(stats)
    n_pairs = np.uint64(mix[MIX_PAIRS])
    penalty = mix[MIX_PENALTY]
    n_free = free.shape[0]
    n_moves = mix[MIX_PAIRS] + mix[MIX_GUIDED] * n_free
    width = np.uint64((pairs.shape[1] - 3) // 2)
    s = state[0]
    for _ in range(budget):
        if energy == 0:
            break
        done += 1
        s, bits = advance(s)
        i = below(bits, n_moves)
        if i >= n_pairs:
            # guided: c trades its symbol x, a candidate, for another candidate y, which the
            # cell d of its group holds; a c holding no candidate proposes nothing. Two more
            # draws pick c and y (a division of i would cost more).
            s, more = advance(s)
            c = free[below(more, n_free)]
            x = np.uint64(values[c])
            options = guide[c, GUIDE_COUNT]
            if _outside(allowed, c, x) or options < 2:
                continue
            s, more = advance(s)
            y = np.uint64(guide[c, GUIDE_OPTIONS + np.int64(below(more, options - 1))])
            last = np.uint64(guide[c, GUIDE_OPTIONS + options - 1])
            y = last if y == x else y  # the draw was among k − 1: the last stands in for x
            g = guide[c, GUIDE_GROUP]
            d = place[g, y]
            # the pair (c, d) in the table: group g's pairs in order of positions lo < hi
            at_c = np.uint64(guide[c, GUIDE_POSITION])
            at_d = np.uint64(guide[d, GUIDE_POSITION])
            lo = min(at_c, at_d)
            hi = max(at_c, at_d)
            m = np.uint64(group_pairs[g, 1])
            i = np.uint64(group_pairs[g, 0]) + lo * m - lo * (lo + _ONE) // _TWO + hi - lo - _ONE
        a = pairs[i, 0]
        b = pairs[i, 1]
        x = np.uint64(values[a])
        y = np.uint64(values[b])
        # a's changed units lose x and gain y, b's lose y and gain x. The first two of each
        # side are always read (padded) so that most pairs run no loop; indices are unsigned
        # so that numba leaves out its negative-index wraparound.
        delta = _change(masks, pairs[i, _A], x, y) + _change(masks, pairs[i, _A + width], y, x)
        j = _A + _ONE
        delta += _change(masks, pairs[i, j], x, y) + _change(masks, pairs[i, j + width], y, x)
        for k in range(_A + _TWO, _A + pairs[i, 2]):
            delta += _change(masks, pairs[i, k], x, y) + _change(masks, pairs[i, k + width], y, x)
        if penalty:
            gained = _outside(allowed, a, y) + _outside(allowed, b, x)
            delta += penalty * (gained - _outside(allowed, a, x) - _outside(allowed, b, y))
        if rules is not None:
            delta += change(rules, values, a, values[b], b, values[a])
        if delta > 0 and (bits & _LOW32) >= thresholds[delta]:
            continue
        taken += 1
        for p in range(cell_unit_ptr[a], cell_unit_ptr[a + 1]):
            _shift(counts, masks, cell_units[p], values[a], values[b])
        for q in range(cell_unit_ptr[b], cell_unit_ptr[b + 1]):
            _shift(counts, masks, cell_units[q], values[b], values[a])
        values[a], values[b] = values[b], values[a]
        g = guide[a, GUIDE_GROUP]
        place[g, y] = a
        place[g, x] = b
        energy += delta
        if energy < best:
            best = energy
            best_at = done
            copy(values, best_values)
    _keep(state, stats, s, energy, best, best_at, done, taken)


@kernel(refcounts=True)
def single_site_chain(
    values: IntArray,
    best_values: IntArray,
    conflicts: NDArray[np.int32],
    free: IntArray,
    free_peer_ptr: IntArray,
    free_peers: IntArray,
    rules: ChainRules | None,
    thresholds: NDArray[np.uint64],
    state: NDArray[np.uint64],
    stats: NDArray[np.int64],
    budget: int,
) -> None:
    """Run up to ``budget`` single-site proposals; ``stats`` as for :func:`swap_chain`."""
    energy, best, best_at, done, taken = _registers(stats)
    others = np.uint64(conflicts.shape[1] - 2)  # N − 1 values to move to
    n_moves = free.shape[0] * (conflicts.shape[1] - 2)
    s = state[0]
    for _ in range(budget):
        if energy == 0:
            break
        done += 1
        s, bits = advance(s)
        # one draw among free cells × other values: the quotient is the cell, the rest the value
        m = below(bits, n_moves)
        i = m // others
        c = free[i]
        x = values[c]
        y = np.int32(m - i * others) + np.int32(1)
        if y >= x:
            y += np.int32(1)
        delta = np.int64(conflicts[c, y]) - np.int64(conflicts[c, x])
        if rules is not None:
            delta += change(rules, values, c, y, c, y)
        if delta > 0 and (bits & _LOW32) >= thresholds[delta]:
            continue
        taken += 1
        for p in range(free_peer_ptr[i], free_peer_ptr[i + _ONE]):
            q = free_peers[p]
            conflicts[q, x] -= 1
            conflicts[q, y] += 1
        values[c] = y
        energy += delta
        if energy < best:
            best = energy
            best_at = done
            copy(values, best_values)
    _keep(state, stats, s, energy, best, best_at, done, taken)
