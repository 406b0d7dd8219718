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
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ndoku.solvers.logic.board import Board, BoolArray
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


def x_chain(least: int, most: int, rating: float) -> Callable[[Board], Step | None]:
    """X-chains of ``least`` .. ``most`` strong links, the shortest found first (rated one
    tenth more per strong link beyond ``least``)."""

    def find(board: Board) -> Step | None:
        sees = _sees(board)
        for v in range(board.tables.size):
            links = _strong_links(board, v)
            partners: dict[int, list[tuple[int, int]]] = {}
            for a, b, u in links:
                partners.setdefault(a, []).append((b, u))
                partners.setdefault(b, []).append((a, u))
            holders = np.flatnonzero(board.cand[:, v])
            for length in range(least, most + 1):
                for start in sorted(partners):
                    step = _x_from(board, v, start, length, partners, holders, sees)
                    if step is not None:
                        return Step("X-chain", rating + 0.1 * (length - least), *step)
        return None

    return find


def _x_from(
    board: Board,
    v: int,
    start: int,
    length: int,
    partners: dict[int, list[tuple[int, int]]],
    holders: np.ndarray,
    sees: BoolArray,
) -> _Found | None:
    """An X-chain of exactly ``length`` strong links from ``start`` that removes something."""
    stack: list[tuple[list[int], list[int]]] = [([start], [])]
    while stack:
        cells, units = stack.pop()
        here = cells[-1]
        for other, u in partners.get(here, []):
            if other in cells:
                continue
            chain, through = [*cells, other], [*units, u]
            strong = len(through)
            if strong == length:
                removed = _victims(board, v, [chain[0], chain[-1]], set(chain))
                if removed:
                    return tuple(chain), tuple(through), (v + 1,), (), tuple(removed)
                continue
            # a weak link on to the start of the next strong link
            for nxt in holders:
                n = int(nxt)
                if n not in chain and sees[other, n] and n in partners:
                    stack.append(([*chain, n], through))
    return None


def xy_chain(least: int, most: int, rating: float) -> Callable[[Board], Step | None]:
    """XY-chains of ``least`` .. ``most`` bivalue cells, the shortest found first (an XY-wing
    is the three-cell one; rated one tenth more per cell beyond ``least``)."""

    def find(board: Board) -> Step | None:
        sees = _sees(board)
        two = [int(c) for c in np.flatnonzero((board.values == 0) & (board.cand.sum(1) == 2))]
        pair = {c: tuple(int(v) for v in np.flatnonzero(board.cand[c])) for c in two}
        for cells in range(least, most + 1):
            for start in two:
                for a in pair[start]:
                    found = _xy_from(board, start, a, cells, two, pair, sees)
                    if found is not None:
                        chain, removed = found
                        name = "XY-wing" if cells == 3 else "XY-chain"
                        extra = 0.1 * (cells - least)
                        digits = tuple(sorted({v + 1 for c in chain for v in pair[c]}))
                        return Step(
                            name, rating + extra, tuple(chain), (), digits,
                            eliminations=tuple(removed),
                        )  # fmt: skip
        return None

    return find


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
                            return Step(
                                "W-wing", 4.4, cells, (), digits, eliminations=tuple(removed)
                            )
    return None
