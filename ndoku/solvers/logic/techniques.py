"""Human solving techniques, each stated on units and peers so that it works on every layout.

A technique looks at a :class:`~ndoku.solvers.logic.board.Board` and returns the first
:class:`Step` it finds (units in their order, values rising), or None. It never changes the
board. Each step carries its rating on the scale people know from Sukaku Explainer's 9×9 ratings
(singles 1–2.3, intersections 2.6–2.8, subsets and fish 3–5.4); the path's order of
techniques is :data:`ndoku.solvers.logic.path.TECHNIQUES`.

Glossary (terms of the package glossary and of :mod:`.board` aside)
--------
full house
    The last free cell of a unit takes the one value the unit lacks.
hidden single
    A value the unit lacks has one place left in it.
naked single
    A free cell has one candidate left.
locked candidates
    A value whose places in unit A all lie where A crosses unit B is removed from the rest of
    B (A must take it there, and B holds it once). *Pointing* when A is a box and B a row or
    column, *claiming* the other way round.
naked subset
    k free cells of a unit whose candidates together are k values (a pair, triple, quad):
    those values go nowhere else in the unit.
hidden subset
    k values a unit lacks whose places together are k cells: those cells hold nothing else.
fish
    On one value, k rows of a sub-grid (the base) whose places for it lie in k of its columns
    (the cover), or the other way round: the value leaves the rest of the cover columns.
    X-wing, swordfish, jellyfish for k = 2, 3, 4.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from ndoku.model.units import BOX, COLUMN, ROW
from ndoku.solvers.logic.board import Board, IntArray

SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}
FISH_NAMES = {2: "X-wing", 3: "swordfish", 4: "jellyfish"}


@dataclass(frozen=True)
class Step:
    """One deduction: what it places and what it removes, and what it rests on.

    Attributes
    ----------
    technique : str
        Its name, as solvers know it (``hidden single``, ``naked pair``, ``X-wing``, …).
    rating : float
        Its difficulty on the Sukaku Explainer scale.
    cells : tuple of int
        The cells of the pattern (the single, the pair, the fish's base cells).
    units : tuple of int
        The units it rests on (the fish's base lines, then its cover lines).
    digits : tuple of int
        The values of the pattern.
    placements, eliminations : tuple of (cell, value)
        Values it places, and candidates it removes.
    chain : tuple of int
        A forcing chain's nodes, assumption to conclusion (``(cell * N + value - 1) * 2 +
        on``; see :mod:`.implications`); a cell or unit forcing chain's conclusion.
    """

    technique: str
    rating: float
    cells: tuple[int, ...]
    units: tuple[int, ...]
    digits: tuple[int, ...]
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    chain: tuple[int, ...] = ()


def full_house(board: Board) -> Step | None:
    """The last free cell of a unit."""
    units = board.tables.units
    free = board.values[units] == 0
    for u in np.flatnonzero(free.sum(axis=1) == 1):
        cell = int(units[u][free[u]][0])
        value = int(np.flatnonzero(board.lacking()[u])[0]) + 1
        return Step("full house", 1.0, (cell,), (int(u),), (value,), ((cell, value),))
    return None


def hidden_single(board: Board) -> Step | None:
    """A value with one place left in a unit; boxes first (the easier to see)."""
    found = board.hidden_singles()
    for boxes in (True, False):
        for u, cell, value in found:
            if (board.tables.kind[u] == BOX) == boxes:
                rating = 1.2 if boxes else 1.5
                return Step("hidden single", rating, (cell,), (u,), (value,), ((cell, value),))
    return None


def naked_single(board: Board) -> Step | None:
    """A free cell with one candidate."""
    single = board.naked_singles()
    if not single:
        return None
    cell, value = single[0]
    return Step("naked single", 2.3, (cell,), (), (value,), ((cell, value),))


def locked_candidates(board: Board) -> Step | None:
    """A value of unit A confined to A's crossing with unit B leaves the rest of B."""
    tables = board.tables
    cand = board.cand
    counts = cand[tables.units].sum(axis=1)
    for a, b, shared, rest in tables.crossings:
        inside = cand[shared].sum(axis=0)
        confined = (counts[a] == inside) & (inside > 0) & cand[rest].any(axis=0)
        for v in np.flatnonzero(confined):
            kinds = (int(tables.kind[a]), int(tables.kind[b]))
            if kinds[0] == BOX and kinds[1] in (ROW, COLUMN):
                name, rating = "pointing", 2.6
            elif kinds[1] == BOX and kinds[0] in (ROW, COLUMN):
                name, rating = "claiming", 2.8
            else:
                name, rating = "locked candidates", 2.8
            cells = tuple(int(c) for c in shared[cand[shared, v]])
            removed = tuple((int(c), int(v) + 1) for c in rest[cand[rest, v]])
            return Step(name, rating, cells, (a, b), (int(v) + 1,), eliminations=removed)
    return None


def naked_subset(k: int, rating: float) -> Callable[[Board], Step | None]:
    """k free cells of a unit whose candidates are k values in all."""

    def find(board: Board) -> Step | None:
        cand = board.cand
        for u, cells in enumerate(board.tables.units):
            free = cells[board.values[cells] == 0]
            if len(free) <= k:
                continue
            small = [c for c in free if 2 <= cand[c].sum() <= k]
            for group in combinations(small, k):
                union = cand[list(group)].any(axis=0)
                if union.sum() != k:
                    continue
                others = np.array([c for c in free if c not in group], dtype=np.int32)
                hit = cand[others][:, union]
                if hit.any():
                    values = np.flatnonzero(union) + 1
                    removed = tuple((int(others[i]), int(values[j])) for i, j in np.argwhere(hit))
                    digits = tuple(int(v) for v in values)
                    pattern = tuple(int(c) for c in group)
                    name = f"naked {SUBSET_NAMES[k]}"
                    return Step(name, rating, pattern, (u,), digits, eliminations=removed)
        return None

    return find


def hidden_subset(k: int, rating: float) -> Callable[[Board], Step | None]:
    """k values a unit lacks whose places are k cells in all."""

    def find(board: Board) -> Step | None:
        cand = board.cand
        lacking = board.lacking()
        for u, cells in enumerate(board.tables.units):
            missing = np.flatnonzero(lacking[u])
            if len(missing) <= k:
                continue
            places = cand[cells][:, missing]  # (N cells, missing values)
            small = [j for j in range(len(missing)) if 2 <= places[:, j].sum() <= k]
            for group in combinations(small, k):
                where = places[:, list(group)].any(axis=1)
                if where.sum() != k:
                    continue
                keep = np.zeros(board.tables.size, dtype=bool)
                keep[missing[list(group)]] = True
                spots = cells[where]
                hit = cand[spots] & ~keep
                if hit.any():
                    removed = tuple((int(spots[i]), int(v) + 1) for i, v in np.argwhere(hit))
                    digits = tuple(int(missing[j]) + 1 for j in group)
                    pattern = tuple(int(c) for c in spots)
                    name = f"hidden {SUBSET_NAMES[k]}"
                    return Step(name, rating, pattern, (u,), digits, eliminations=removed)
        return None

    return find


def fish(k: int, rating: float) -> Callable[[Board], Step | None]:
    """On one value, k lines of a sub-grid whose places lie in k crossing lines."""

    def find(board: Board) -> Step | None:
        tables = board.tables
        cand = board.cand
        lacking = board.lacking()
        for value in range(tables.size):
            for base, cover in _orientations(tables.lines):
                spots = [(line, np.flatnonzero(cand[tables.units[line], value])) for line in base]
                usable = [
                    (line, at) for line, at in spots if lacking[line, value] and 2 <= len(at) <= k
                ]
                for group in combinations(usable, k):
                    columns = np.unique(np.concatenate([at for _, at in group]))
                    if len(columns) != k:
                        continue
                    lines = sorted(int(line) for line, _ in group)
                    covers = [int(cover[j]) for j in columns]
                    inside = set(tables.units[lines].ravel().tolist())
                    removed = [
                        (int(c), value + 1)
                        for line in covers
                        for c in tables.units[line]
                        if cand[c, value] and int(c) not in inside
                    ]
                    if removed:
                        cells = tuple(
                            int(c)
                            for line, _ in group
                            for c in tables.units[line][cand[tables.units[line], value]]
                        )
                        units = (*lines, *covers)
                        return Step(
                            FISH_NAMES[k], rating, cells, units, (value + 1,),
                            eliminations=tuple(removed),
                        )  # fmt: skip
        return None

    return find


def _orientations(
    lines: list[tuple[IntArray, IntArray]],
) -> Iterator[tuple[IntArray, IntArray]]:
    """(base lines, cover lines) of every sub-grid: rows on columns, then columns on rows."""
    for rows, cols in lines:
        if len(rows) and len(cols):
            yield rows, cols
            yield cols, rows
