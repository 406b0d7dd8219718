"""Uniqueness techniques: unique rectangles and loops, and the bivalue universal grave (BUG).
They hold only for a puzzle known to have one solution: a path uses them when asked
(``assume_unique``, ``--assume-unique``).

Glossary (terms of :mod:`.techniques` and :mod:`.chains` aside)
--------
deadly pattern
    Free cells that all have the same two candidates x and y, in two colours, such that every
    unit holding any of them holds exactly two, one of each colour. In a solution where they
    all hold x or y, each colour holds one value (two cells of a unit differ), and swapping x
    and y in them leaves every unit with the values it had: a second solution. On a 9×9 it is
    four cells in two rows, two columns and two boxes (a rectangle), or a longer loop; on any
    layout it is what the units say (an X-sudoku diagonal through one corner of a rectangle
    holds one of its cells, and there is no pattern).
unique rectangle, unique loop
    A deadly pattern of four cells, or of six or more, some of whose cells have other
    candidates: one of them holds one, or the puzzle would not be unique.
bivalue universal grave (BUG)
    A board where every free cell has two candidates and every value a unit lacks has two
    places in it has no solution or several: taking each free cell's other candidate turns a
    solution into another (a unit lacking v had it in one of its two places, and now has it
    in the other). When removing some candidates would leave such a board, the solution holds
    one of them.
rescue
    Candidates one of which the solution holds: those beyond x and y of a pattern's cells,
    those whose removal leaves a grave. Each step draws one consequence from its rescue, by
    type (Sukaku Explainer's numbers): 1, the rescue lies in one cell, which loses its other
    candidates; 2, the rescue is one value, which leaves the cells that see all the rescue's
    cells; 3, the rescue's cells share a unit and act there as one cell holding one of the
    rescue's values, in a naked subset with other cells (for a pattern, also: at most one of
    two cells holds x or y, in a hidden subset); 4, two rescue cells share a unit where a
    value w has no other place: one holds w, so the other holds its rescue, and both lose the
    rest.

Both arguments use only that every rule of the puzzle is a full unit (N cells, each value
once), which is what ndoku reads on every layout (jigsaw regions, extra units, a cell in up
to six units of overlapping sub-grids), and that the cells they change are free: neither
givens (a user's entries count as givens) nor placed by a step. The second solution keeps
the givens, and each cell's values are among its candidates, so it is one of the puzzle's
too, pencil marks included. A rule that is not a unit (a killer cage) would break both.

Ratings, after Sukaku Explainer's: unique rectangles 4.5, loops a tenth more for six cells,
two for eight, five for ten or more; type 3 a tenth more per value of its naked subset past
one, or per cell of its hidden subset past one. BUG type 1 5.6, types 2 and 4 5.7, type 3
5.7 and a tenth per value of its subset past one. Among the steps found, the least rated is
taken (the least type at a tie), as Sukaku Explainer sorts them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import kernel
from ndoku.solvers.bits import lowest, nonliteral, popcount
from ndoku.solvers.logic.board import Board, BoolArray, IntArray
from ndoku.solvers.logic.techniques import Step, cell_bits

#: The names its steps carry: each technique and type.
STEP_NAMES = tuple(
    f"{name} type {k}" for name in ("unique rectangle", "unique loop", "BUG") for k in range(1, 5)
)
#: Rating of a unique rectangle of types 1, 2 and 4.
RECTANGLE_RATING = 4.5
#: Rating of each BUG type (type 3: and a tenth per value of its subset past one).
GRAVE_RATINGS = {1: 5.6, 2: 5.7, 3: 5.7, 4: 5.7}
#: The most cells of a deadly pattern searched: a bound on the search, which Sukaku Explainer
#: does without (loops that long are rare, and all rate 5.0).
MOST_PATTERN = 14
#: Numbers the pattern search may return (records of 3 + cells); past it, it stops.
ROOM = 4096
#: The largest subset of type 3 (quads, as the subsets of :mod:`.techniques`).
MOST_SUBSET = 4
#: A grave is looked for among at most this many cells of three candidates or more.
MOST_RESCUE_CELLS = 8


@dataclass(frozen=True)
class UniquenessStep(Step):
    """A step of a uniqueness technique: the rescue it rests on and how it used it.

    Attributes
    ----------
    rescue : tuple of (cell, value)
        Candidates one of which the solution holds (see the module glossary).
    subset : tuple of int
        Type 3: the other cells of its naked or hidden subset.
    subset_digits : tuple of int
        Type 3: the values of that subset.
    hidden : bool
        Type 3: the subset is hidden (else naked).
    link : int
        Type 4: the value whose only places in the unit are the two rescue cells.
    """

    rescue: tuple[tuple[int, int], ...] = ()
    subset: tuple[int, ...] = ()
    subset_digits: tuple[int, ...] = ()
    hidden: bool = False
    link: int = 0

    @property
    def kind(self) -> int:
        """The type (1 to 4): the last word of the technique's name."""
        return int(self.technique.rsplit(" ", 1)[1])


def loop_bonus(cells: int) -> float:
    """What a pattern of ``cells`` cells adds to a rectangle's rating."""
    return 0.5 if cells >= 10 else 0.2 if cells >= 8 else 0.1 if cells >= 6 else 0.0


@kernel(refcounts=True)
def _open_unit(
    chosen: IntArray, depth: int, count: IntArray, cell_ptr: IntArray, cell_units: IntArray
) -> int:
    """The first unit (by the chosen cells' order) holding one chosen cell, −1 for none."""
    for i in range(depth):
        c = chosen[i]
        for k in range(cell_ptr[c], cell_ptr[c + 1]):
            if count[cell_units[k]] == 1:
                return int(cell_units[k])
    return -1


@kernel(refcounts=True)
def find_patterns(
    bits: NDArray[np.uint64],
    cell_ptr: IntArray,
    cell_units: IntArray,
    units: IntArray,
    most: int,
    room: int,
) -> IntArray:
    """Every deadly pattern of at most ``most`` cells with a cell of exactly its two values
    and at most two cells of more (any number when those have one more value in all), each
    once (grown from its least cell of exactly two values): records ``[x, y, k, k cells]``,
    x < y from 0, at most ``room`` numbers.

    A pattern grows one cell at a time into a unit that holds one of its cells (an open unit):
    the new cell takes the other colour, and may enter no unit that holds two of its cells or
    one of its own colour. It is whole when no unit is open."""
    n = bits.shape[0]
    size = units.shape[1]
    count = np.zeros(units.shape[0], dtype=np.int32)
    colour_of = np.zeros(units.shape[0], dtype=np.int8)  # of a unit's first pattern cell
    inside = np.zeros(n, dtype=np.bool_)
    chosen = np.empty(most, dtype=np.int32)
    unit = np.empty(most + 1, dtype=np.int32)  # the open unit each depth fills
    at = np.zeros(most + 1, dtype=np.int32)  # the next place of that unit to try
    loose = np.zeros(most + 1, dtype=np.int32)  # cells with more than the two values
    beyond = np.zeros(most + 1, dtype=np.uint64)  # their other values
    out = np.empty(room, dtype=np.int32)
    used = 0
    for start in range(n):
        pair = bits[start]
        if popcount(pair) != 2:
            continue
        chosen[0] = start
        inside[start] = True
        for k in range(cell_ptr[start], cell_ptr[start + 1]):
            count[cell_units[k]] = 1
            colour_of[cell_units[k]] = 0
        depth = 1
        unit[1] = _open_unit(chosen, nonliteral(1), count, cell_ptr, cell_units)
        at[1] = 0
        while True:
            u = unit[depth]
            if u < 0:
                if used + 3 + depth > room:
                    return out[:used]
                out[used] = lowest(pair)
                out[used + 1] = lowest(pair & (pair - np.uint64(1)))
                out[used + 2] = depth
                for i in range(depth):
                    out[used + 3 + i] = chosen[i]
                used += 3 + depth
            elif depth < most:
                colour = 1 - colour_of[u]
                picked = -1
                while picked < 0 and at[depth] < size:
                    q = units[u, at[depth]]
                    at[depth] += 1
                    b = bits[q]
                    if inside[q] or b & pair != pair:
                        continue
                    more = b & ~pair
                    if more == 0 and q < start:  # found from q
                        continue
                    if more and loose[depth] >= 2 and popcount(beyond[depth] | more) != 1:
                        continue
                    fits = True
                    for k in range(cell_ptr[q], cell_ptr[q + 1]):
                        w = cell_units[k]
                        if count[w] >= 2 or (count[w] == 1 and colour_of[w] == colour):
                            fits = False
                    if fits:
                        picked = q
                if picked >= 0:
                    chosen[depth] = picked
                    inside[picked] = True
                    for k in range(cell_ptr[picked], cell_ptr[picked + 1]):
                        w = cell_units[k]
                        if count[w] == 0:
                            colour_of[w] = colour
                        count[w] += 1
                    more = bits[picked] & ~pair
                    loose[depth + 1] = loose[depth] + (1 if more else 0)
                    beyond[depth + 1] = beyond[depth] | more
                    depth += 1
                    unit[depth] = _open_unit(chosen, depth, count, cell_ptr, cell_units)
                    at[depth] = 0
                    continue
            # this depth is done: take its last cell out and go on one depth up
            depth -= 1
            if depth == 0:
                break
            gone = chosen[depth]
            inside[gone] = False
            for k in range(cell_ptr[gone], cell_ptr[gone + 1]):
                count[cell_units[k]] -= 1
        inside[start] = False
        for k in range(cell_ptr[start], cell_ptr[start + 1]):
            count[cell_units[k]] = 0
    return out[:used]


def deadly_patterns(board: Board) -> list[tuple[int, int, tuple[int, ...]]]:
    """(x, y, cells) of every deadly pattern :func:`find_patterns` finds, values from 1,
    cells rising.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 2 0 0\\n0 0 1 2\\n2 1 0 0\\n0 0 2 1\\n")
    >>> deadly_patterns(Board.start(p))  # r1c3, r1c4, r3c3, r3c4 hold 3 and 4 either way
    [(3, 4, (2, 3, 10, 11)), (3, 4, (4, 5, 12, 13))]
    """
    ptr, of_cell = board.puzzle.frame.cell_units
    flat = find_patterns(
        cell_bits(board.cand), ptr, of_cell, board.tables.units, MOST_PATTERN, ROOM
    )
    found = []
    i = 0
    while i < len(flat):
        k = int(flat[i + 2])
        cells = tuple(sorted(int(c) for c in flat[i + 3 : i + 3 + k]))
        found.append((int(flat[i]) + 1, int(flat[i + 1]) + 1, cells))
        i += 3 + k
    return found


class _Consequence(NamedTuple):
    """What a rescue removes, by one type (see :class:`UniquenessStep`)."""

    kind: int
    bonus: float  # the rating past the technique's
    eliminations: list[tuple[int, int]]
    units: tuple[int, ...] = ()
    subset: tuple[int, ...] = ()
    subset_digits: tuple[int, ...] = ()
    hidden: bool = False
    link: int = 0


def _consequences(
    board: Board, lacking: BoolArray, rescue: dict[int, list[int]], pair: tuple[int, int] | None
) -> Iterator[_Consequence]:
    """What a rescue (cell → values from 0, one of which the solution holds) removes, by
    type; with the ``pair`` (x, y from 0) of a pattern, hidden subsets of type 3 too
    (``lacking``: :meth:`Board.lacking`)."""
    cand = board.cand
    tables = board.tables
    holders = sorted(rescue)
    values = sorted({v for vs in rescue.values() for v in vs})
    if not holders:  # a deadly pattern as it stands: no unique puzzle gets here
        return
    if len(holders) == 1:
        [c] = holders
        removed = [(c, int(v) + 1) for v in np.flatnonzero(cand[c]) if v not in rescue[c]]
        if removed:
            yield _Consequence(1, 0.0, removed)
        return
    if len(values) == 1:
        [z] = values
        seeing = cand[:, z] & tables.sees[holders].all(axis=0)  # no cell sees itself
        removed = [(int(c), z + 1) for c in np.flatnonzero(seeing)]
        if removed:
            yield _Consequence(2, 0.0, removed)
    ptr, of_cell = board.puzzle.frame.cell_units
    for u in of_cell[ptr[holders[0]] : ptr[holders[0] + 1]]:
        cells = tables.units[u]
        held = (cells[:, None] == holders).any(axis=1)
        if held.sum() < len(holders):
            continue
        if len(holders) == 2:
            yield from _linked(board, rescue, int(u), cells, lacking[u])
        if len(values) >= 2:
            yield from _naked(board, rescue, int(u), cells[(board.values[cells] == 0) & ~held])
        if pair is not None and len(holders) == 2:
            yield from _hidden(board, rescue, int(u), cells[~held], pair, lacking[u])


def _linked(
    board: Board, rescue: dict[int, list[int]], u: int, cells: IntArray, lacking: BoolArray
) -> Iterator[_Consequence]:
    """Type 4: a value w not in the rescue whose only places in unit ``u`` are its two
    cells: one holds w, the other its rescue; both lose the rest."""
    cand = board.cand
    two = sorted(rescue)
    places = cand[cells].sum(axis=0)
    for w in np.flatnonzero(lacking & (places == 2) & cand[two].all(axis=0)):
        if any(w in rescue[c] for c in two):
            continue
        removed = [
            (c, int(v) + 1)
            for c in two
            for v in np.flatnonzero(cand[c])
            if v != w and v not in rescue[c]
        ]
        if removed:
            yield _Consequence(4, 0.0, removed, (u,), link=int(w) + 1)


def _naked(
    board: Board, rescue: dict[int, list[int]], u: int, free: IntArray
) -> Iterator[_Consequence]:
    """Type 3: the rescue's cells, all in unit ``u``, hold one of its values, so with k − 1
    of its ``free`` cells whose candidates and those values are k values in all, they hold
    those k values: the unit's other free cells lose them."""
    size = board.tables.size
    wanted = sum(1 << v for v in {v for vs in rescue.values() for v in vs})
    masks = [int(m) for m in board.cand[free] @ (1 << np.arange(size, dtype=np.int64))]
    small = [i for i, m in enumerate(masks) if 2 <= m.bit_count() <= MOST_SUBSET]
    for k in range(max(2, wanted.bit_count()), MOST_SUBSET + 1):
        for group in combinations(small, k - 1):
            union = wanted
            for i in group:
                union |= masks[i]
            if union.bit_count() != k:
                continue
            removed = [
                (int(free[i]), v + 1)
                for i, m in enumerate(masks)
                if i not in group and m & union
                for v in range(size)
                if (m & union) >> v & 1
            ]
            if removed:
                digits = tuple(v + 1 for v in range(size) if union >> v & 1)
                cells = tuple(int(free[i]) for i in group)
                yield _Consequence(3, round(0.1 * (k - 1), 1), removed, (u,), cells, digits)


def _hidden(
    board: Board,
    rescue: dict[int, list[int]],
    u: int,
    others: IntArray,
    pair: tuple[int, int],
    lacking: BoolArray,
) -> Iterator[_Consequence]:
    """Type 3 of a pattern: at most one of its two rescue cells in unit ``u`` holds x or y
    (both would make the pattern deadly), so k values the unit lacks, x and y among them and
    no rescue value, placed only in those two and k − 1 of its ``others`` cells, fill those
    k − 1."""
    cand = board.cand
    if not lacking[list(pair)].all():
        return
    rescued = {v for vs in rescue.values() for v in vs}
    rest = [int(v) for v in np.flatnonzero(lacking) if v not in pair and v not in rescued]
    places = cand[others]
    for k in range(2, MOST_SUBSET + 1):
        for more in combinations(rest, k - 2):
            hidden = [*pair, *more]
            where = places[:, hidden].any(axis=1)
            if where.sum() != k - 1:
                continue
            spots = others[where]
            keep = np.zeros(cand.shape[1], dtype=bool)
            keep[hidden] = True
            hit = cand[spots] & ~keep
            if hit.any():
                removed = [(int(spots[i]), int(v) + 1) for i, v in np.argwhere(hit)]
                digits = tuple(sorted(v + 1 for v in hidden))
                cells = tuple(int(c) for c in spots)
                yield _Consequence(
                    3, round(0.1 * (k - 2), 1), removed, (u,), cells, digits, hidden=True
                )


def _step(
    name: str, rating: float, cells: tuple[int, ...], digits: tuple[int, ...],
    rescue: dict[int, list[int]], found: _Consequence,
) -> UniquenessStep:  # fmt: skip
    return UniquenessStep(
        f"{name} type {found.kind}",
        round(rating + found.bonus, 1),
        cells,
        found.units,
        digits,
        eliminations=tuple(found.eliminations),
        rescue=tuple((c, v + 1) for c in sorted(rescue) for v in rescue[c]),
        subset=found.subset,
        subset_digits=found.subset_digits,
        hidden=found.hidden,
        link=found.link,
    )


def _least(steps: Iterator[UniquenessStep]) -> UniquenessStep | None:
    """The least rated step, the least type at a tie, the first found at a tie of both."""
    return min(steps, key=lambda s: (s.rating, s.kind), default=None)


def unique_loops(board: Board) -> Step | None:
    """Unique rectangles and loops: a deadly pattern some of whose cells have other
    candidates, and what that rescue removes (see the module glossary).

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="0 0 0 0\\n" * 4)
    >>> board = Board.start(p)
    >>> board.cand[[0, 1, 8]] = [True, True, False, False]  # r1c1, r1c2, r3c1: 1 or 2
    >>> board.cand[9] = [True, True, True, False]  # r3c2: 1, 2 or 3
    >>> step = unique_loops(board)
    >>> step.technique, step.cells, step.eliminations
    ('unique rectangle type 1', (0, 1, 8, 9), ((9, 1), (9, 2)))
    """

    def steps() -> Iterator[UniquenessStep]:
        patterns = deadly_patterns(board)
        if not patterns:
            return
        lacking = board.lacking()
        for x, y, cells in patterns:
            rescue = {
                c: [int(v) for v in np.flatnonzero(board.cand[c]) if v not in (x - 1, y - 1)]
                for c in cells
            }
            rescue = {c: vs for c, vs in rescue.items() if vs}
            name = "unique rectangle" if len(cells) == 4 else "unique loop"
            rating = RECTANGLE_RATING + loop_bonus(len(cells))
            for found in _consequences(board, lacking, rescue, (x - 1, y - 1)):
                yield _step(name, rating, cells, (x, y), rescue, found)

    return _least(steps())


def grave_rescue(board: Board) -> dict[int, list[int]] | None:
    """The candidates (cell → values from 0) whose removal leaves a bivalue universal grave,
    None when there are none (or more than :data:`MOST_RESCUE_CELLS` cells to look at).

    Each free cell must keep two candidates, each value a unit lacks two places in it: a
    cell of c candidates loses c − 2 of them, each a value with too many places in every
    unit of the cell; the first choice (cells rising, values rising) that leaves every unit
    exactly two places is taken.
    """
    cand = board.cand
    free = board.values == 0
    counts = cand.sum(axis=1)
    if (counts[free] < 2).any():
        return None
    wide = [int(c) for c in np.flatnonzero(free & (counts > 2))]
    if not wide or len(wide) > MOST_RESCUE_CELLS:
        return None
    lacking = board.lacking()
    places = cand[board.tables.units].sum(axis=1)
    if (places[~lacking] > 0).any() or (places[lacking] < 2).any():
        return None
    excess = np.where(lacking, places - 2, 0)
    ptr, of_cell = board.puzzle.frame.cell_units
    homes = [of_cell[ptr[c] : ptr[c + 1]] for c in wide]
    # each removal takes one place from every unit of its cell: the totals must agree
    if excess.sum() != sum((counts[c] - 2) * len(h) for c, h in zip(wide, homes, strict=True)):
        return None
    rescue: dict[int, list[int]] = {}

    def choose(i: int) -> bool:
        if i == len(wide):
            return not excess.any()
        c, units = wide[i], homes[i]
        options = [int(v) for v in np.flatnonzero(cand[c]) if (excess[units, v] > 0).all()]
        for drop in combinations(options, int(counts[c]) - 2):
            at = (units[:, None], list(drop))
            excess[at] -= 1
            if (excess[units] >= 0).all() and choose(i + 1):
                rescue[c] = list(drop)
                return True
            excess[at] += 1
        return False

    return rescue if choose(0) else None


def bivalue_universal_grave(board: Board) -> Step | None:
    """BUG: candidates whose removal would leave a bivalue universal grave, one of which the
    solution holds, and what that rescue removes (see the module glossary).

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="0 0 0 0\\n" * 4)
    >>> board = Board.start(p)
    >>> one = np.array([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1])  # a solution
    >>> other = one + np.where(one % 2, 1, -1)  # 1 and 2, 3 and 4 swapped: another
    >>> board.cand[:] = False
    >>> board.cand[np.arange(16), one - 1] = board.cand[np.arange(16), other - 1] = True
    >>> board.cand[0, 2] = True  # r1c1: 1, 2 or 3
    >>> step = bivalue_universal_grave(board)
    >>> step.technique, step.rescue, step.eliminations
    ('BUG type 1', ((0, 3),), ((0, 1), (0, 2)))
    """
    rescue = grave_rescue(board)
    if rescue is None:
        return None
    lacking = board.lacking()
    cells = tuple(sorted(rescue))
    digits = tuple(sorted({v + 1 for vs in rescue.values() for v in vs}))
    return _least(
        _step("BUG", GRAVE_RATINGS[found.kind], cells, digits, rescue, found)
        for found in _consequences(board, lacking, rescue, None)
    )
