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

from ndoku.model.units import COLUMN, ROW
from ndoku.solvers.logic.board import Board, BoolArray
from ndoku.solvers.logic.forcing import arrays, node_of
from ndoku.solvers.logic.implications import forcing_chain
from ndoku.solvers.logic.techniques import Step

#: cells, units, digits, placements, eliminations of a step found
_Found = tuple[
    tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[()], tuple[tuple[int, int], ...]
]


def _sees(board: Board) -> BoolArray:
    return board.tables.sees


def _strong_links(board: Board, v: int) -> list[tuple[int, int, int]]:
    """(cell, cell, unit) of every unit where value ``v`` (0-based) has exactly two places."""
    links = []
    for u, cells in enumerate(board.tables.units):
        spots = cells[board.cand[cells, v]]
        if len(spots) == 2 and v + 1 not in board.values[cells]:
            links.append((int(spots[0]), int(spots[1]), u))
    return links


def _victims(board: Board, v: int, ends: list[int], skip: set[int]) -> list[tuple[int, int]]:
    """Cells (not in ``skip``) with value ``v`` as candidate that see every cell of ``ends``."""
    sees = _sees(board)
    mask = board.cand[:, v].copy()
    for end in ends:
        mask &= sees[end]
    return [(int(c), v + 1) for c in np.flatnonzero(mask) if int(c) not in skip]


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
        nodes = forcing_chain(board.cand, *arrays(board), True, False, 2 * strong + 1, False)
        if not len(nodes):
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
        removed = _victims(board, v, [cells[0], cells[-1]], set(cells))
        return Step(name, rating, tuple(cells), units, (v + 1,), eliminations=tuple(removed))

    return find


def _link_unit(board: Board, v: int, a: int, b: int) -> int:
    """A unit where ``a`` and ``b`` are value v's only two places (a line before a box)."""
    tables = board.tables
    both = np.flatnonzero(np.isin(tables.units, (a, b)).sum(axis=1) == 2)
    strong = [int(u) for u in both if board.cand[tables.units[u], v].sum() == 2]
    return min(strong, key=lambda u: (int(tables.kind[u]) not in (ROW, COLUMN), u))


def xy_wing(board: Board) -> Step | None:
    """A pivot x, y and two peers of it x, z and y, z: z leaves the cells seeing both."""
    sees = _sees(board)
    two = [int(c) for c in np.flatnonzero((board.values == 0) & (board.cand.sum(1) == 2))]
    pair = {c: tuple(int(v) for v in np.flatnonzero(board.cand[c])) for c in two}
    for start in two:
        for a in pair[start]:
            found = _xy_from(board, start, a, 3, two, pair, sees)
            if found is not None:
                chain, removed = found
                digits = tuple(sorted({v + 1 for c in chain for v in pair[c]}))
                return Step("XY-wing", 4.2, tuple(chain), (), digits, eliminations=tuple(removed))
    return None


def _xy_from(
    board: Board,
    start: int,
    a: int,
    cells: int,
    two: list[int],
    pair: dict[int, tuple[int, ...]],
    sees: BoolArray,
) -> tuple[list[int], list[tuple[int, int]]] | None:
    """A chain of exactly ``cells`` bivalue cells from ``start`` (not ``a``) ending in ``a``."""
    exit_value = pair[start][1] if pair[start][0] == a else pair[start][0]
    stack = [([start], exit_value)]
    while stack:
        chain, carry = stack.pop()
        for nxt in two:
            if nxt in chain or not sees[chain[-1], nxt] or carry not in pair[nxt]:
                continue
            other = pair[nxt][1] if pair[nxt][0] == carry else pair[nxt][0]
            longer = [*chain, nxt]
            if len(longer) == cells:
                if other == a:
                    removed = _victims(board, a, [start, nxt], set(longer))
                    if removed:
                        return longer, removed
                continue
            stack.append((longer, other))
    return None


def xyz_wing(board: Board) -> Step | None:
    """A pivot x, y, z and two peers x, z and y, z: z leaves the cells seeing all three."""
    sees = _sees(board)
    counts = board.cand.sum(1)
    free = board.values == 0
    for pivot in np.flatnonzero(free & (counts == 3)):
        mine = board.cand[pivot]
        wings = [
            int(c)
            for c in np.flatnonzero(free & (counts == 2) & sees[pivot])
            if not (board.cand[c] & ~mine).any()
        ]
        for i, w1 in enumerate(wings):
            for w2 in wings[i + 1 :]:
                shared = board.cand[w1] & board.cand[w2]
                if shared.sum() != 1 or (board.cand[w1] | board.cand[w2]).sum() != 3:
                    continue
                z = int(np.flatnonzero(shared)[0])
                trio = [int(pivot), w1, w2]
                removed = _victims(board, z, trio, set(trio))
                if removed:
                    return Step(
                        "XYZ-wing", 4.4, tuple(trio), (), (z + 1,), eliminations=tuple(removed)
                    )
    return None


def w_wing(board: Board) -> Step | None:
    """Two cells x, y (not peers) joined by a strong link on x: y leaves cells seeing both."""
    sees = _sees(board)
    two = np.flatnonzero((board.values == 0) & (board.cand.sum(1) == 2))
    for i, p in enumerate(two):
        for q in two[i + 1 :]:
            if sees[p, q] or not (board.cand[p] == board.cand[q]).all():
                continue
            x_y = [int(v) for v in np.flatnonzero(board.cand[p])]
            for k, x in enumerate(x_y):
                y = x_y[1 - k]
                for a, b, _ in _strong_links(board, x):
                    if a in (p, q) or b in (p, q):
                        continue
                    if (sees[p, a] and sees[q, b]) or (sees[p, b] and sees[q, a]):
                        removed = _victims(board, y, [int(p), int(q)], {int(p), int(q)})
                        if removed:
                            cells = (int(p), int(q), a, b)
                            digits = (x + 1, y + 1)
                            removed_t = tuple(removed)
                            return Step(
                                "W-wing", W_WING_RATING, cells, (), digits, eliminations=removed_t
                            )
    return None
