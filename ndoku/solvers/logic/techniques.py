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

Each search is a compiled kernel (``_name``) over the board's arrays and the layout's tables;
it returns what the step needs (its unit or lines, its pattern and the candidates it removes),
and the technique makes the :class:`Step` of it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import kernel
from ndoku.model.units import BOX, COLUMN, ROW
from ndoku.solvers.bits import joined, nonliteral, popcount
from ndoku.solvers.logic.board import Board, BoolArray, IntArray

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


@kernel(refcounts=True)
def cell_bits(cand: BoolArray) -> NDArray[np.uint64]:
    """Each cell's candidates as bits (bit ``v - 1`` for value v)."""
    bits = np.zeros(cand.shape[0], dtype=np.uint64)
    for c in range(cand.shape[0]):
        for v in range(cand.shape[1]):
            if cand[c, v]:
                bits[c] |= np.uint64(1) << np.uint64(v)
    return bits


@kernel(refcounts=True)
def changed_near(
    cand: BoolArray,
    values: IntArray,
    before_cand: BoolArray,
    before_values: IntArray,
    peer_ptr: IntArray,
    peers: IntArray,
) -> BoolArray:
    """The candidates (``cell * N + value``) near a change since the board ``before``:
    every value of a cell that lost a candidate or took a value, and that value in its
    peers (what a search that read none of them reads the same on both boards). All of
    them when ``before`` is not this board with fewer or the same candidates (an empty
    ``before_cand``: no board)."""
    cells, size = cand.shape
    near = np.zeros(cells * size, dtype=np.bool_)
    changed = before_cand.shape[0] != cells
    for c in range(cells):
        if changed:
            break
        changed = before_values[c] != 0 and before_values[c] != values[c]
        for v in range(size):
            changed |= cand[c, v] and not before_cand[c, v]
            lost = before_cand[c, v] and not cand[c, v]
            if lost or (values[c] == v + 1 and not before_values[c]):
                near[c * size : (c + 1) * size] = True
                for i in range(peer_ptr[c], peer_ptr[c + 1]):
                    near[peers[i] * size + v] = True
    if changed:
        near[:] = True
    return near


#: The board of a memory before any: none (numbered −1; see :func:`changed_near`).
_NO_BOARD = (-1, np.zeros((0, 0), dtype=bool), np.zeros(0, dtype=np.int32))
_snapshots = itertools.count()


def _snapshot(board: Board) -> tuple[int, BoolArray, IntArray]:
    """The board's candidates and values as they are, numbered (once per state: what every
    memory kept in that state shares)."""
    return next(_snapshots), board.cand.copy(), board.values.copy()


def recall(
    board: Board, key: Hashable, nothing: tuple[Any, ...] = ()
) -> tuple[BoolArray, tuple[Any, ...]]:
    """What a technique kept under ``key`` of an earlier search (:func:`keep`; ``nothing``
    until it keeps something), and the candidates near a change since
    (:func:`changed_near`, once per state and board kept: every candidate until then)."""
    (number, before_cand, before_values), kept = board.memory.get(key, (_NO_BOARD, nothing))
    ptr, peers = board.puzzle.peers
    near = board.derived(
        ("near a change since", number),
        lambda b: changed_near(b.cand, b.values, before_cand, before_values, ptr, peers),
    )
    return near, kept


def keep(board: Board, key: Hashable, kept: tuple[Any, ...] = ()) -> None:
    """Keep ``kept`` under ``key`` in the board's memory, with the board as it is now."""
    board.memory[key] = (board.derived("snapshot", _snapshot), kept)


@kernel()
def _held(values: IntArray, cells: IntArray) -> np.uint64:
    """The values placed in ``cells``, as bits."""
    held = np.uint64(0)
    for c in cells:
        if values[c]:
            held |= np.uint64(1) << np.uint64(values[c] - 1)
    return held


@kernel()
def _places(cand: BoolArray, cells: IntArray, v: int) -> np.uint64:
    """Where ``cells`` have value ``v`` (from 0) as candidate, as bits of their positions."""
    places = np.uint64(0)
    for i in range(cells.shape[0]):
        if cand[cells[i], v]:
            places |= np.uint64(1) << np.uint64(i)
    return places


@kernel()
def _next_group(
    masks: NDArray[np.uint64], n: int, k: int, at: IntArray, unions: NDArray[np.uint64]
) -> bool:
    """Move ``at`` to the next k of the first ``n`` masks (in the order of
    ``itertools.combinations``) whose union has k bits; False when there is none.

    Start with ``at[0] = -1`` (and ``at[1:] = n``); ``at`` is left on the group found, to go
    on from. A part whose union has more than k bits is not extended.
    """
    depth = 0
    while depth < k - 1 and at[depth + 1] < n:  # resume at the deepest chosen mask
        depth += 1
    while depth >= 0:
        i = at[depth] + 1
        union = np.uint64(0)
        while i <= n - (k - depth):
            union = (unions[depth - 1] if depth else np.uint64(0)) | masks[i]
            if popcount(union) <= k:
                break
            i += 1
        if i > n - (k - depth):
            at[depth] = n
            depth -= 1
            continue
        at[depth] = i
        unions[depth] = union
        if depth == k - 1:
            if popcount(union) == k:
                return True
        else:
            depth += 1
            at[depth] = i
    return False


@kernel()
def _full_house(values: IntArray, units: IntArray) -> int:
    """The first unit with one free cell, −1 for none."""
    for u in range(units.shape[0]):
        free = 0
        for c in units[u]:
            free += values[c] == 0
        if free == 1:
            return u
    return -1


@kernel()
def _hidden_single(
    values: IntArray, cand: BoolArray, units: IntArray, kind: NDArray[np.int8]
) -> tuple[int, int, int]:
    """(unit, cell, value from 0) of the first value with one place left in a unit that
    lacks it, boxes first, then by unit and value; unit −1 for none."""
    for boxes in (True, False):
        for u in range(units.shape[0]):
            if (kind[u] == BOX) != boxes:
                continue
            held = _held(values, units[u])
            for v in range(cand.shape[1]):
                if held >> np.uint64(v) & np.uint64(1):
                    continue
                places, spot = 0, -1
                for c in units[u]:
                    if cand[c, v]:
                        places += 1
                        spot = c
                if places == 1:
                    return u, spot, v
    return -1, -1, -1


@kernel()
def _naked_single(values: IntArray, cand: BoolArray) -> tuple[int, int]:
    """(cell, value from 0) of the first free cell with one candidate; cell −1 for none."""
    for c in range(cand.shape[0]):
        if values[c]:
            continue
        count, value = 0, -1
        for v in range(cand.shape[1]):
            if cand[c, v]:
                count += 1
                value = v
        if count == 1:
            return c, value
    return -1, -1


@kernel()
def _locked(
    cand: BoolArray,
    units: IntArray,
    pairs: IntArray,
    shared_ptr: IntArray,
    shared: IntArray,
    rest_ptr: IntArray,
    rest: IntArray,
) -> tuple[int, int]:
    """(crossing, value from 0) of the first value of a crossing's unit a whose places all
    lie in the crossing while b has it elsewhere; crossing −1 for none."""
    for x in range(pairs.shape[0]):
        a = pairs[x, 0]
        for v in range(cand.shape[1]):
            inside = 0
            for i in range(shared_ptr[x], shared_ptr[x + 1]):
                inside += cand[shared[i], v]
            if inside == 0:
                continue
            places = 0
            for c in units[a]:
                places += cand[c, v]
            if places != inside:
                continue
            for i in range(rest_ptr[x], rest_ptr[x + 1]):
                if cand[rest[i], v]:
                    return x, v
    return -1, -1


@kernel(refcounts=True)
def _naked_subset(values: IntArray, cand: BoolArray, units: IntArray, k: int) -> IntArray:
    """``[unit, k cells..., (cell, value from 1) removed...]`` of the first k free cells of a
    unit whose candidates are k values and that remove something; empty for none."""
    bits = cell_bits(cand)
    size = units.shape[1]
    free = np.empty(size, dtype=np.int32)
    small = np.empty(size, dtype=np.int32)
    masks = np.empty(size, dtype=np.uint64)
    at = np.empty(k, dtype=np.int32)
    unions = np.empty(k, dtype=np.uint64)
    removed = np.empty(2 * size * size, dtype=np.int32)
    head = np.empty(1 + k, dtype=np.int32)
    for u in range(units.shape[0]):
        n_free, n_small = 0, nonliteral(0)  # n_small goes to _next_group
        for c in units[u]:
            if values[c] == 0:
                free[n_free] = c
                n_free += 1
                if 2 <= popcount(bits[c]) <= k:
                    small[n_small] = c
                    masks[n_small] = bits[c]
                    n_small += 1
        if n_free <= k:
            continue
        at[0] = -1
        at[1:] = n_small
        while _next_group(masks, n_small, k, at, unions):
            union = unions[k - 1]
            count = 0
            for c in free[:n_free]:
                if bits[c] & union and not _among(c, small, at):
                    for v in range(size):
                        if bits[c] & union & (np.uint64(1) << np.uint64(v)):
                            removed[2 * count] = c
                            removed[2 * count + 1] = v + 1
                            count += 1
            if count:
                head[0] = u
                for i in range(k):
                    head[1 + i] = small[at[i]]
                return joined(head, removed[: 2 * count])
    return np.empty(0, dtype=np.int32)


@kernel()
def _among(cell: int, pool: IntArray, at: IntArray) -> bool:
    """``cell`` is one of ``pool[at]``."""
    found = False
    for i in at:
        found |= pool[i] == cell
    return found


@kernel(refcounts=True)
def _hidden_subset(values: IntArray, cand: BoolArray, units: IntArray, k: int) -> IntArray:
    """``[unit, k values from 1..., k cells..., (cell, value from 1) removed...]`` of the first
    k values a unit lacks whose places are k cells and that remove something; empty for
    none."""
    size = units.shape[1]
    small = np.empty(size, dtype=np.int32)
    masks = np.empty(size, dtype=np.uint64)
    at = np.empty(k, dtype=np.int32)
    unions = np.empty(k, dtype=np.uint64)
    removed = np.empty(2 * size * size, dtype=np.int32)
    head = np.empty(1 + 2 * k, dtype=np.int32)
    for u in range(units.shape[0]):
        cells = units[u]
        held = _held(values, cells)
        if size - popcount(held) <= k:
            continue
        n_small = nonliteral(0)
        for v in range(size):
            if held >> np.uint64(v) & np.uint64(1):
                continue
            places = _places(cand, cells, v)
            if 2 <= popcount(places) <= k:
                small[n_small] = v
                masks[n_small] = places
                n_small += 1
        at[0] = -1
        at[1:] = n_small
        while _next_group(masks, n_small, k, at, unions):
            spots = unions[k - 1]
            count = 0
            for i in range(size):
                if not spots >> np.uint64(i) & np.uint64(1):
                    continue
                for v in range(size):
                    if cand[cells[i], v] and not _among(v, small, at):
                        removed[2 * count] = cells[i]
                        removed[2 * count + 1] = v + 1
                        count += 1
            if count:
                head[0] = u
                spot = 0
                for i in range(size):
                    if spots >> np.uint64(i) & np.uint64(1):
                        head[1 + k + spot] = cells[i]
                        spot += 1
                for i in range(k):
                    head[1 + i] = small[at[i]] + 1
                return joined(head, removed[: 2 * count])
    return np.empty(0, dtype=np.int32)


@kernel(refcounts=True)
def _fish(
    values: IntArray,
    cand: BoolArray,
    units: IntArray,
    base: IntArray,
    cover: IntArray,
    k: int,
) -> IntArray:
    """``[value from 1, k base lines..., k cover lines..., (cell, value from 1) removed...]``
    of the first fish of k lines that removes something: by value, then by orientation
    (``base[o]`` on ``cover[o]``, lines padded with −1), then by group of base lines; empty
    for none."""
    size = units.shape[1]
    width = base.shape[1]
    lines = np.empty(width, dtype=np.int32)
    masks = np.empty(width, dtype=np.uint64)
    at = np.empty(k, dtype=np.int32)
    unions = np.empty(k, dtype=np.uint64)
    inside = np.zeros(cand.shape[0], dtype=np.bool_)
    removed = np.empty(2 * k * size, dtype=np.int32)
    head = np.empty(1 + 2 * k, dtype=np.int32)
    for v in range(size):
        bit = np.uint64(1) << np.uint64(v)
        for o in range(base.shape[0]):
            n = nonliteral(0)  # goes to _next_group
            for line in base[o]:
                if line < 0:
                    break
                if _held(values, units[line]) & bit:
                    continue
                places = _places(cand, units[line], v)
                if 2 <= popcount(places) <= k:
                    lines[n] = line
                    masks[n] = places
                    n += 1
            at[0] = -1
            at[1:] = n
            while _next_group(masks, n, k, at, unions):
                for line in lines[at]:
                    for c in units[line]:
                        inside[c] = True
                count = 0
                covers = unions[k - 1]
                j = 0
                for i in range(size):
                    if covers >> np.uint64(i) & np.uint64(1):
                        head[1 + k + j] = cover[o, i]
                        j += 1
                        for c in units[cover[o, i]]:
                            if cand[c, v] and not inside[c]:
                                removed[2 * count] = c
                                removed[2 * count + 1] = v + 1
                                count += 1
                for line in lines[at]:
                    for c in units[line]:
                        inside[c] = False
                if count:
                    head[0] = v + 1
                    for i in range(k):
                        head[1 + i] = lines[at[i]]
                    return joined(head, removed[: 2 * count])
    return np.empty(0, dtype=np.int32)


def _pairs(flat: IntArray) -> tuple[tuple[int, int], ...]:
    """(cell, value) pairs of a kernel's flat list."""
    return tuple((int(flat[i]), int(flat[i + 1])) for i in range(0, len(flat), 2))


def full_house(board: Board) -> Step | None:
    """The last free cell of a unit."""
    u = _full_house(board.values, board.tables.units)
    if u < 0:
        return None
    cells = board.tables.units[u]
    cell = int(cells[board.values[cells] == 0][0])
    value = int(np.setdiff1d(np.arange(1, board.tables.size + 1), board.values[cells])[0])
    return Step("full house", 1.0, (cell,), (u,), (value,), ((cell, value),))


def hidden_single(board: Board) -> Step | None:
    """A value with one place left in a unit; boxes first (the easier to see)."""
    u, cell, v = _hidden_single(board.values, board.cand, board.tables.units, board.tables.kind)
    if u < 0:
        return None
    rating = 1.2 if board.tables.kind[u] == BOX else 1.5
    return Step("hidden single", rating, (cell,), (u,), (v + 1,), ((cell, v + 1),))


def naked_single(board: Board) -> Step | None:
    """A free cell with one candidate."""
    cell, v = _naked_single(board.values, board.cand)
    if cell < 0:
        return None
    return Step("naked single", 2.3, (cell,), (), (v + 1,), ((cell, v + 1),))


def locked_candidates(board: Board) -> Step | None:
    """A value of unit A confined to A's crossing with unit B leaves the rest of B."""
    tables = board.tables
    x, v = _locked(board.cand, tables.units, tables.pairs, *tables.shared, *tables.rest)
    if x < 0:
        return None
    a, b = (int(u) for u in tables.pairs[x])
    kinds = (int(tables.kind[a]), int(tables.kind[b]))
    if kinds[0] == BOX and kinds[1] in (ROW, COLUMN):
        name, rating = "pointing", 2.6
    elif kinds[1] == BOX and kinds[0] in (ROW, COLUMN):
        name, rating = "claiming", 2.8
    else:
        name, rating = "locked candidates", 2.8
    shared = tables.shared[1][tables.shared[0][x] : tables.shared[0][x + 1]]
    rest = tables.rest[1][tables.rest[0][x] : tables.rest[0][x + 1]]
    cells = tuple(int(c) for c in shared[board.cand[shared, v]])
    removed = tuple((int(c), v + 1) for c in rest[board.cand[rest, v]])
    return Step(name, rating, cells, (a, b), (v + 1,), eliminations=removed)


def naked_subset(k: int, rating: float) -> Callable[[Board], Step | None]:
    """k free cells of a unit whose candidates are k values in all."""

    def find(board: Board) -> Step | None:
        found = _naked_subset(board.values, board.cand, board.tables.units, k)
        if not len(found):
            return None
        cells = tuple(int(c) for c in found[1 : 1 + k])
        digits = tuple(int(v) + 1 for v in np.flatnonzero(board.cand[list(cells)].any(axis=0)))
        return Step(
            f"naked {SUBSET_NAMES[k]}", rating, cells, (int(found[0]),), digits,
            eliminations=_pairs(found[1 + k :]),
        )  # fmt: skip

    return find


def hidden_subset(k: int, rating: float) -> Callable[[Board], Step | None]:
    """k values a unit lacks whose places are k cells in all."""

    def find(board: Board) -> Step | None:
        found = _hidden_subset(board.values, board.cand, board.tables.units, k)
        if not len(found):
            return None
        return Step(
            f"hidden {SUBSET_NAMES[k]}", rating, tuple(int(c) for c in found[1 + k : 1 + 2 * k]),
            (int(found[0]),), tuple(int(v) for v in found[1 : 1 + k]),
            eliminations=_pairs(found[1 + 2 * k :]),
        )  # fmt: skip

    return find


def fish(k: int, rating: float) -> Callable[[Board], Step | None]:
    """On one value, k lines of a sub-grid whose places lie in k crossing lines."""

    def find(board: Board) -> Step | None:
        tables = board.tables
        found = _fish(board.values, board.cand, tables.units, *tables.fish_lines, k)
        if not len(found):
            return None
        value, base = int(found[0]), [int(line) for line in found[1 : 1 + k]]
        cells = tuple(
            int(c)
            for line in base
            for c in tables.units[line][board.cand[tables.units[line], value - 1]]
        )
        units = (*sorted(base), *(int(line) for line in found[1 + k : 1 + 2 * k]))
        return Step(
            FISH_NAMES[k], rating, cells, units, (value,), eliminations=_pairs(found[1 + 2 * k :])
        )

    return find
