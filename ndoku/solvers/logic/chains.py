"""Wings and chains: patterns of links between candidates, on peers and units of any layout.

Glossary (terms of :mod:`.techniques` aside)
--------
strong link
    Two places of a value that are its only two in some unit: if one does not hold it, the
    other does.
weak link
    Two peers that both have a value as candidate: at most one holds it.
bivalue cell
    A free cell with two candidates: if it does not hold one, it holds the other.
X-chain
    On one value, places linked strong, weak, strong, …, strong: one of its two ends holds
    the value, so every cell that sees both ends loses it. Skyscraper, two-string kite and
    turbot fish are X-chains of three links.
XY-chain
    Bivalue cells, each a peer of the next, each sharing a value with the next; if the first
    cell is not ``a`` the chain forces the last to be ``a``: cells that see both ends lose
    ``a``. An XY-wing is an XY-chain of three cells.
XYZ-wing
    A pivot with candidates x, y, z and two peers of it with x, z and y, z: one of the three
    holds z, so the cells that see all three lose it.
W-wing
    Two bivalue cells with the same two candidates x, y, not peers, and a strong link on x
    whose ends see one cell each: one of the two cells holds y, so cells seeing both lose it.
    Rated 7.1, as the alternating inference chain of eight nodes it is.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ndoku.jit import kernel
from ndoku.model.units import COLUMN, ROW
from ndoku.solvers.bits import joined, nonliteral
from ndoku.solvers.logic.board import Board, BoolArray, IntArray
from ndoku.solvers.logic.forcing import node_of, search_anew
from ndoku.solvers.logic.implications import forcing_chain
from ndoku.solvers.logic.techniques import Step


@kernel(refcounts=True)
def _victims(
    cand: BoolArray, sees: BoolArray, v: int | np.int32, ends: IntArray, skip: IntArray
) -> IntArray:
    """Cells (not in ``skip``) with value ``v`` (from 0) as candidate that see every cell of
    ``ends``, rising."""
    out = np.empty(cand.shape[0], dtype=np.int32)
    count = 0
    for c in range(cand.shape[0]):
        if not cand[c, v]:
            continue
        ok = True
        for e in ends:
            ok &= sees[e, c]
        for e in skip:
            ok &= e != c
        if ok:
            out[count] = c
            count += 1
    return out[:count]


@kernel(refcounts=True)
def _bivalue(values: IntArray, cand: BoolArray) -> tuple[IntArray, IntArray, IntArray]:
    """The free cells with two candidates, rising, and each cell's two values (from 0;
    −1 for the others)."""
    cells, size = cand.shape
    two = np.empty(cells, dtype=np.int32)
    first = np.full(cells, -1, dtype=np.int32)
    second = np.full(cells, -1, dtype=np.int32)
    count = 0
    for c in range(cells):
        if values[c]:
            continue
        n = 0
        for v in range(size):
            if cand[c, v]:
                n += 1
                if n == 1:
                    first[c] = v
                elif n == 2:
                    second[c] = v
        if n == 2:
            two[count] = c
            count += 1
        else:
            first[c] = -1
            second[c] = -1
    return two[:count], first, second


@kernel()
def _other(first: IntArray, second: IntArray, c: int, v: int) -> int:
    """The value of bivalue cell ``c`` that is not ``v``; −1 when ``v`` is not one of them."""
    if first[c] == v:
        return int(second[c])
    if second[c] == v:
        return int(first[c])
    return -1


@kernel(refcounts=True)
def _xy_wing(values: IntArray, cand: BoolArray, sees: BoolArray) -> IntArray:
    """``[start, middle, end, a, victims...]`` of the first XY-wing that removes something:
    by start cell, its value a, the middle cell (falling), then the end cell; empty for
    none."""
    two, first, second = _bivalue(values, cand)
    head = np.empty(4, dtype=np.int32)  # the three cells, then the value they remove
    trio = head[:3]
    ends = np.empty(2, dtype=np.int32)  # contiguous, as every caller's: one compiled _victims
    for start in two:
        for a in (first[start], second[start]):
            carry = _other(first, second, start, nonliteral(a))  # an int64, as carry2's calls
            for i in range(two.shape[0] - 1, -1, -1):
                middle = two[i]
                if middle == start or not sees[start, middle]:
                    continue
                carry2 = _other(first, second, middle, carry)
                if carry2 < 0:
                    continue
                for end in two:
                    if end in (start, middle) or not sees[middle, end]:
                        continue
                    if _other(first, second, end, carry2) != a:
                        continue
                    trio[0], trio[1], trio[2] = start, middle, end
                    ends[0], ends[1] = start, end
                    found = _victims(cand, sees, a, ends, trio)
                    if found.shape[0]:
                        head[3] = a
                        return joined(head, found)
    return np.empty(0, dtype=np.int32)


@kernel(refcounts=True)
def _xyz_wing(values: IntArray, cand: BoolArray, sees: BoolArray) -> IntArray:
    """``[pivot, wing, wing, z, victims...]`` of the first XYZ-wing that removes something:
    by pivot, then by pair of wings; empty for none."""
    cells, size = cand.shape
    two, first, second = _bivalue(values, cand)
    wings = np.empty(two.shape[0], dtype=np.int32)
    head = np.empty(4, dtype=np.int32)  # the three cells, then the value they remove
    trio = head[:3]
    for pivot in range(cells):
        if values[pivot]:
            continue
        mine = 0
        for v in range(size):
            mine += cand[pivot, v]
        if mine != 3:
            continue
        n = 0
        for c in two:
            if sees[pivot, c] and cand[pivot, first[c]] and cand[pivot, second[c]]:
                wings[n] = c
                n += 1
        for i in range(n):
            for j in range(i + 1, n):
                w1, w2 = wings[i], wings[j]
                z = -1
                if first[w1] == first[w2] or first[w1] == second[w2]:
                    z = first[w1]
                elif second[w1] == first[w2] or second[w1] == second[w2]:
                    z = second[w1]
                # one shared value, and three in all
                if z < 0 or (first[w1] == first[w2] and second[w1] == second[w2]):
                    continue
                trio[0], trio[1], trio[2] = pivot, w1, w2
                found = _victims(cand, sees, np.int32(z), trio, trio)
                if found.shape[0]:
                    head[3] = z
                    return joined(head, found)
    return np.empty(0, dtype=np.int32)


@kernel(refcounts=True)
def _w_wing(values: IntArray, cand: BoolArray, sees: BoolArray, units: IntArray) -> IntArray:
    """``[p, q, a, b, x, victims...]`` of the first W-wing that removes something: cells p, q
    (not peers) with values x, y, and a strong link a–b on x, a seeing p and b seeing q (or
    the other way round); by p, q, x, then unit; victims lose y. Empty for none."""
    two, first, second = _bivalue(values, cand)
    pair = np.empty(2, dtype=np.int32)
    spots = np.empty(2, dtype=np.int32)
    for i in range(two.shape[0]):
        p = two[i]
        for j in range(i + 1, two.shape[0]):
            q = two[j]
            if sees[p, q] or first[p] != first[q] or second[p] != second[q]:
                continue
            pair[0], pair[1] = p, q
            for k in range(2):
                x = first[p] if k == 0 else second[p]
                y = second[p] if k == 0 else first[p]
                for u in range(units.shape[0]):
                    n = 0
                    held = False
                    for c in units[u]:
                        held |= values[c] == x + 1
                        if cand[c, x]:
                            if n < 2:
                                spots[n] = c
                            n += 1
                    if n != 2 or held:
                        continue
                    a, b = spots[0], spots[1]
                    if a in (p, q) or b in (p, q):
                        continue
                    if (sees[p, a] and sees[q, b]) or (sees[p, b] and sees[q, a]):
                        found = _victims(cand, sees, y, pair, pair)
                        if found.shape[0]:
                            head = np.array([p, q, a, b, x], dtype=np.int32)
                            return joined(head, found)
    return np.empty(0, dtype=np.int32)


#: A W-wing's rating: that of the alternating inference chain of eight nodes it is.
W_WING_RATING = 7.1

#: Least rating of an X-chain by its strong links (when all are parallel lines).
STRONG_BASE = {2: 4.0, 3: 5.4, 4: 5.8}


def x_chain(strong: int) -> Callable[[Board], Step | None]:
    """X-chains of ``strong`` strong links (2 to 4; fewer where fewer do), found as the
    shortest forcing chain on one value (:mod:`.implications`); every cell that sees both
    ends loses the value. Rated after Sukaku Explainer's strong link patterns: the base
    when every strong link lies in parallel lines (rows only, or columns only), a tenth
    more when a link lies in a box (region, extra unit), a tenth more when rows and columns
    mix. With two links: a skyscraper, a two-string kite (a row and a column) or a turbot
    fish (a box)."""

    def find(board: Board) -> Step | None:
        nodes = board.derived("X-chain", _shortest_x_chain)
        if not len(nodes) or len(nodes) > 2 * strong + 2:
            return None
        size = board.tables.size
        cells = [node_of(int(n), size)[0] for n in nodes[1:-1]]
        v = node_of(int(nodes[0]), size)[1] - 1
        units = tuple(_link_unit(board, v, cells[i], cells[i + 1]) for i in range(0, len(cells), 2))
        kinds = {int(board.tables.kind[u]) for u in units}
        box = bool(kinds - {ROW, COLUMN})
        mixed = {ROW, COLUMN} <= kinds
        links = max(2, len(units))
        rating = round(STRONG_BASE[links] + 0.1 * (box + mixed), 1)
        name = "X-chain"
        if links == 2:
            name = "turbot fish" if box else "two-string kite" if mixed else "skyscraper"
        ends = np.array([cells[0], cells[-1]], dtype=np.int32)
        # v as int32: the version the wing kernels compile
        found = _victims(
            board.cand, board.tables.sees, np.int32(v), ends, np.array(cells, dtype=np.int32)
        )
        removed = tuple((int(c), v + 1) for c in found)
        return Step(name, rating, tuple(cells), units, (v + 1,), eliminations=removed)

    return find


def _shortest_x_chain(board: Board) -> IntArray:
    """The shortest X-chain of at most four strong links: searched once per board for all
    of :func:`x_chain` (the first of the shortest, and so the same chain as a search
    bounded by fewer links, if it is that short)."""
    most = 2 * max(STRONG_BASE) + 1
    return search_anew(
        board,
        "strong links",
        False,
        lambda g, sources: forcing_chain(g[1], g[4], g[5], most, False, sources),
    )


def _link_unit(board: Board, v: int, a: int, b: int) -> int:
    """A unit where ``a`` and ``b`` are value v's only two places (a line before a box)."""
    tables = board.tables
    both = np.flatnonzero(np.isin(tables.units, (a, b)).sum(axis=1) == 2)
    strong = [int(u) for u in both if board.cand[tables.units[u], v].sum() == 2]
    return min(strong, key=lambda u: (int(tables.kind[u]) not in (ROW, COLUMN), u))


def _removed(found: IntArray, value: int) -> tuple[tuple[int, int], ...]:
    return tuple((int(c), value) for c in found)


def xy_wing(board: Board) -> Step | None:
    """A pivot x, y and two peers of it x, z and y, z: z leaves the cells seeing both."""
    found = _xy_wing(board.values, board.cand, board.tables.sees)
    if not len(found):
        return None
    chain = tuple(int(c) for c in found[:3])
    digits = tuple(int(v) + 1 for v in np.flatnonzero(board.cand[list(chain)].any(axis=0)))
    return Step(
        "XY-wing", 4.2, chain, (), digits, eliminations=_removed(found[4:], int(found[3]) + 1)
    )


def xyz_wing(board: Board) -> Step | None:
    """A pivot x, y, z and two peers x, z and y, z: z leaves the cells seeing all three."""
    found = _xyz_wing(board.values, board.cand, board.tables.sees)
    if not len(found):
        return None
    z = int(found[3]) + 1
    trio = tuple(int(c) for c in found[:3])
    return Step("XYZ-wing", 4.4, trio, (), (z,), eliminations=_removed(found[4:], z))


def w_wing(board: Board) -> Step | None:
    """Two cells x, y (not peers) joined by a strong link on x: y leaves cells seeing both."""
    found = _w_wing(board.values, board.cand, board.tables.sees, board.tables.units)
    if not len(found):
        return None
    cells = tuple(int(c) for c in found[:4])
    x = int(found[4]) + 1
    y = next(v + 1 for v in np.flatnonzero(board.cand[cells[0]]) if v + 1 != x)
    return Step(
        "W-wing", W_WING_RATING, cells, (), (x, int(y)), eliminations=_removed(found[5:], int(y))
    )
