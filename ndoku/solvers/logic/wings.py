"""Wings of four to seven cells (WXYZ-, VWXYZ-, UVWXYZ-, TUVWXYZ-wings): a pivot and peers of
it whose candidates are as many values as cells, all but one restricted.

Glossary (terms of :mod:`.chains` aside)
--------
restricted value
    A value of the wing whose cells (those holding it as a candidate) are all peers of each
    other: at most one of them holds it.
wing
    k free cells, a pivot and k − 1 of its peers, whose candidates are k values in all, of
    which exactly one, z, is not restricted. The k cells hold k different values, at most
    one of each restricted value, so one of them holds z: z leaves every cell that sees all
    the wing's cells holding it. The XY- and XYZ-wings are the wings of three cells.

Ratings, after Sukaku Explainer's, by the most candidates c of a wing's cell: WXYZ 5.5, or
5.6 when c = 3; VWXYZ 6.2 + (2 − |3 − c|)/10; UVWXYZ 6.6; TUVWXYZ 7.5. Among the wings of one
size the least rating is taken.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import kernel
from ndoku.solvers.bits import copy, lowest, popcount
from ndoku.solvers.logic.board import Board, BoolArray, IntArray
from ndoku.solvers.logic.techniques import Step, cell_bits, keep, recall

NAMES = {4: "WXYZ-wing", 5: "VWXYZ-wing", 6: "UVWXYZ-wing", 7: "TUVWXYZ-wing"}
#: The least rating of each size (what a found wing of least rating cannot beat).
BASE = {4: 5.5, 5: 6.2, 6: 6.6, 7: 7.5}


def rating(k: int, widest: int) -> float:
    """The rating of a wing of ``k`` cells whose widest cell has ``widest`` candidates."""
    if k == 4:
        return round(5.5 + (1 - abs(3 - widest)) / 10, 1) if widest == 3 else 5.5
    if k == 5:
        return round(6.2 + max(0, 2 - abs(3 - widest)) / 10, 1)
    return BASE[k]


@kernel(refcounts=True)
def find_wing(
    bits: NDArray[np.uint64],
    sees: BoolArray,
    peer_ptr: IntArray,
    peers: IntArray,
    k: int,
    widest_first: IntArray,
    pivots: BoolArray,
) -> IntArray:
    """The first wing of ``k`` cells that removes something, among those whose widest cell's
    candidates come first in ``widest_first`` (then by pivot, then by its peers in order),
    of the pivots marked in ``pivots``: ``[z, k cells..., victims...]``; empty when there
    is none."""
    cells = bits.shape[0]
    rank_of = np.full(k + 1, -1, dtype=np.int32)
    for r in range(widest_first.shape[0]):
        rank_of[widest_first[r]] = r
    chosen = np.empty(k, dtype=np.int32)
    # fits[d, :ends[d]]: the peers after chosen[d - 1] that fit with the cells chosen so
    # far (their union k values at most), in order: what position d may take
    fits = np.empty((k, cells), dtype=np.int32)
    ends = np.empty(k, dtype=np.int32)
    at = np.empty(k, dtype=np.int32)
    unions = np.empty(k, dtype=np.uint64)
    # values held by two chosen cells that are not peers: a wing has one such value (its
    # z), and more cells only break more values, so a part with two goes no further
    loose = np.empty(k, dtype=np.uint64)
    best = np.empty(0, dtype=np.int32)
    best_rank = widest_first.shape[0]
    # one pass, keeping the first wing of each rank better than the best so far
    for pivot in range(cells):
        n = popcount(bits[pivot])
        if n < 2 or n > k or not pivots[pivot]:
            continue
        size = 0
        for i in range(peer_ptr[pivot], peer_ptr[pivot + 1]):
            q = peers[i]
            m = popcount(bits[q])
            if m >= 2 and m <= k and popcount(bits[q] | bits[pivot]) <= k:
                fits[1, size] = q
                size += 1
        chosen[0] = pivot
        unions[0] = bits[pivot]
        loose[0] = 0
        ends[1] = size
        depth = 1
        at[1] = 0
        while depth >= 1:
            if depth == k:
                wide = 0
                for i in range(k):
                    wide = max(wide, popcount(bits[chosen[i]]))
                rank = rank_of[wide]
                # k values, of which one (z) is held by cells that are not peers
                full = popcount(unions[k - 1]) == k and popcount(loose[k - 1]) == 1
                if full and 0 <= rank < best_rank:
                    z = lowest(loose[k - 1])
                    found = _victims(chosen, k, z, bits, sees, peer_ptr, peers)
                    if found.shape[0]:
                        best = np.empty(1 + k + found.shape[0], dtype=np.int32)
                        best[0] = z
                        copy(chosen, best[1:])
                        copy(found, best[1 + k :])
                        best_rank = rank
                        if rank == 0:
                            return best
                depth -= 1
                continue
            i = at[depth]
            if ends[depth] - i < k - depth:  # too few left to fill the wing
                depth -= 1
                continue
            at[depth] = i + 1
            q = fits[depth, i]
            broken = loose[depth - 1]
            for j in range(depth):
                if not sees[chosen[j], q]:
                    broken |= bits[chosen[j]] & bits[q]
            if popcount(broken) > 1:
                continue
            union = unions[depth - 1] | bits[q]
            chosen[depth] = q
            unions[depth] = union
            loose[depth] = broken
            if depth + 1 < k:
                n = 0
                for r in range(i + 1, ends[depth]):
                    if popcount(union | bits[fits[depth, r]]) <= k:
                        fits[depth + 1, n] = fits[depth, r]
                        n += 1
                ends[depth + 1] = n
                at[depth + 1] = 0
            depth += 1
    return best


@kernel(refcounts=True)
def _victims(
    chosen: IntArray,
    k: int,
    z: int,
    bits: NDArray[np.uint64],
    sees: BoolArray,
    peer_ptr: IntArray,
    peers: IntArray,
) -> IntArray:
    """Cells outside the wing with z that see each of its cells holding z."""
    bit = np.uint64(1) << np.uint64(z)
    first = -1
    for i in range(k):
        if bits[chosen[i]] & bit:
            first = chosen[i]
            break
    out = np.empty(peer_ptr[first + 1] - peer_ptr[first], dtype=np.int32)
    count = 0
    for i in range(peer_ptr[first], peer_ptr[first + 1]):
        q = peers[i]
        if not bits[q] & bit:
            continue
        inside = False
        ok = True
        for j in range(k):
            if chosen[j] == q:
                inside = True
            elif bits[chosen[j]] & bit and not sees[q, chosen[j]]:
                ok = False
        if ok and not inside:
            out[count] = q
            count += 1
    return out[:count]


def wing(k: int) -> Callable[[Board], Step | None]:
    """The wings of ``k`` cells (4 to 7), the least rated first."""
    order = sorted(range(2, k + 1), key=lambda c: (rating(k, c), c))
    widest_first = np.array(order, dtype=np.int32)

    def find(board: Board) -> Step | None:
        bits = cell_bits(board.cand)
        ptr, peers = board.puzzle.peers
        # A wing rests on its pivot's and its peers' candidates, and fewer candidates leave
        # it fewer victims: since a search that found none, on candidates that were a
        # superset of these, only pivots near a change can have one.
        near, _ = recall(board, (NAMES[k], "none"))
        pivots = np.any(near.reshape(board.cand.shape), axis=1)
        found = find_wing(bits, board.tables.sees, ptr, peers, k, widest_first, pivots)
        if not len(found):
            keep(board, (NAMES[k], "none"))
            return None
        board.memory.pop((NAMES[k], "none"), None)
        z, cells = int(found[0]) + 1, tuple(int(c) for c in found[1 : 1 + k])
        widest = max(int(board.cand[c].sum()) for c in cells)
        removed = tuple((int(c), z) for c in found[1 + k :])
        digits = tuple(sorted({int(v) + 1 for c in cells for v in np.flatnonzero(board.cand[c])}))
        return Step(NAMES[k], rating(k, widest), cells, (), digits, eliminations=removed)

    return find
