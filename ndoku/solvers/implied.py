"""Sums a puzzle's cages imply (the 45 rule, made general): where cages with sums cover a unit,
or a few neighbouring rows or columns, all but a few of its cells, those cells sum to what the
cages leave (innies); where the cages that meet it cover it whole, the cells they hold outside
it sum to what they add beyond it (outies).

A unit holds 1..N once, so its cells sum to N(N+1)/2, and k neighbouring rows to k times that.
The implied constraints hold in every solution; the search narrows with them as with any rule,
and finds far fewer dead ends on killer puzzles (the cages alone leave a 9×9 sum's digits
open where the unit's total closes them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndoku.model.constraints import Constraint
from ndoku.model.frame import Frame
from ndoku.model.units import COLUMN, ROW

#: Innies or outies of more cells than this are left out: they narrow little and cost a pass.
MOST_CELLS = 3
#: Neighbouring rows (or columns) taken together, at most.
MOST_LINES = 3


@dataclass(frozen=True)
class Implied:
    """An implied sum and what it rests on (what the logic engine says of it).

    Attributes
    ----------
    constraint : Constraint
        The sum: a ``cage`` (cells of one unit) or a ``sum``.
    units : tuple of int
        The unit, or the neighbouring rows or columns, whose total it takes.
    cages : tuple of int
        The cages it takes from that total (indices in the constraints given).
    innies : bool
        Innies (the cells of the units the cages leave), else outies (the cells the cages
        hold beyond the units).
    """

    constraint: Constraint
    units: tuple[int, ...]
    cages: tuple[int, ...]
    innies: bool


def implied_sums(constraints: Sequence[Constraint], frame: Frame) -> list[Constraint]:
    """The innie and outie sums of ``constraints``' cages on the frame's units (and on 2 to
    :data:`MOST_LINES` neighbouring rows or columns of a sub-grid), each of at most
    :data:`MOST_CELLS` cells, none twice and none that is already a cage. Cages that overlap
    (outside sums written as cages) imply nothing here.

    >>> from ndoku.model.layout import load_layout
    >>> frame = Frame.of(load_layout("4x4"))
    >>> cages = [Constraint("cage", (0, 1), 3), Constraint("cage", (2, 3, 7), 8)]
    >>> for c in implied_sums(cages, frame):  # row 1 whole: its cage (2, 3, 7) leaves r2c4
    ...     print(c.kind, c.cells, c.number)
    cage (2, 3) 7
    cage (4, 5) 7
    cage (6,) 2
    sum (4, 5, 6) 9
    sum (7,) 1
    """
    # the solver's every call: without the cages each sum rests on, which only steps name
    return [found.constraint for found in _implied(constraints, frame, sources=False)]


def implied_sources(constraints: Sequence[Constraint], frame: Frame) -> list[Implied]:
    """:func:`implied_sums`, each with the units and cages it rests on.

    >>> from ndoku.model.layout import load_layout
    >>> frame = Frame.of(load_layout("4x4"))
    >>> cages = [Constraint("cage", (0, 1), 3), Constraint("cage", (2, 3, 7), 8)]
    >>> first = implied_sources(cages, frame)[0]
    >>> first.constraint.cells, first.units, first.cages, first.innies
    ((2, 3), (0,), (0,), True)
    """
    return _implied(constraints, frame, sources=True)


def _implied(constraints: Sequence[Constraint], frame: Frame, sources: bool) -> list[Implied]:
    """:func:`implied_sources`; without ``sources``, each one's ``cages`` left empty."""
    index = [k for k, c in enumerate(constraints) if c.kind == "cage"]
    cages = [constraints[k] for k in index]
    if not cages:
        return []
    member = np.zeros((len(cages), frame.n_cells), dtype=np.float32)  # cage × cell
    lengths = [len(c.cells) for c in cages]
    member[np.repeat(np.arange(len(cages)), lengths), [c for g in cages for c in g.cells]] = 1
    covered = member.sum(axis=0)
    if (covered > 1).any():
        return []
    groups, lines, units_of = frame.table("implied-sum groups", _groups)
    sums = np.array([c.number for c in cages], dtype=np.float32)
    # products of 0/1 matrices in floats (BLAS): exact counts, far quicker than integers
    meets = (member @ groups.T > 0).astype(np.float32)  # cage × group
    inside = meets * (member @ (1 - groups).T == 0)
    totals = lines * (frame.size * (frame.size + 1) // 2)
    in_group = groups > 0
    rest = in_group & ~(inside.T @ member > 0)
    beyond = (meets.T @ member > 0) & ~in_group
    whole = ~(in_group & (covered == 0)).any(axis=1)
    found: list[Implied] = []
    known = {c.cells for c in cages}

    def used(column: NDArray[np.float32]) -> tuple[int, ...]:
        return tuple(index[i] for i in np.flatnonzero(column)) if sources else ()

    innies = (inside.sum(axis=0) > 0) & _sized(rest)
    lefts = (totals - sums @ inside).astype(np.int64).tolist()  # what each group's cages leave
    extras = (sums @ meets - totals).astype(np.int64).tolist()  # what they add beyond it
    single = (lines == 1).tolist()
    for g, cells in _cells_of(rest, innies):
        if cells not in known:
            # a unit's cells differ
            kind, weights = ("cage", ()) if single[g] else ("sum", (1,) * len(cells))
            sum_ = Constraint(kind, cells, lefts[g], weights)
            found.append(Implied(sum_, units_of[g], used(inside[:, g]), True))
            known.add(cells)
    for g, cells in _cells_of(beyond, whole & _sized(beyond)):
        if cells not in known:
            sum_ = Constraint("sum", cells, extras[g], (1,) * len(cells))
            found.append(Implied(sum_, units_of[g], used(meets[:, g]), False))
            known.add(cells)
    return found


def _sized(cells: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Groups (rows) of 1 to :data:`MOST_CELLS` cells."""
    sizes = cells.sum(axis=1)
    return (sizes > 0) & (sizes <= MOST_CELLS)  # type: ignore[no-any-return]


def _cells_of(
    cells: NDArray[np.bool_], chosen: NDArray[np.bool_]
) -> list[tuple[int, tuple[int, ...]]]:
    """``(group, its cells)`` of the chosen rows of a group × cell matrix, in one pass."""
    rows, columns = np.nonzero(cells[chosen])
    index = np.flatnonzero(chosen).tolist()
    starts = np.searchsorted(rows, np.arange(len(index) + 1)).tolist()
    flat = columns.tolist()
    return [(g, tuple(flat[starts[k] : starts[k + 1]])) for k, g in enumerate(index)]


def _groups(
    frame: Frame,
) -> tuple[NDArray[np.float32], NDArray[np.int64], list[tuple[int, ...]]]:
    """Every unit, then runs of 2 to :data:`MOST_LINES` rows (or columns) that lie side by
    side over the same span: each group's cells (group × cell, 0 or 1), its number of
    lines and its units."""
    units, cell_rc = frame.units, frame.cell_rc
    found: list[tuple[NDArray[np.int32], tuple[int, ...]]] = [
        (units[u], (u,)) for u in range(len(units))
    ]
    for kind, along, across in ((ROW, 0, 1), (COLUMN, 1, 0)):
        runs: dict[tuple[int, int, int], int] = {}
        for line in np.flatnonzero(units.kind == kind).tolist():
            spot = cell_rc[units[line]]
            key = (int(spot[0, along]), int(spot[:, across].min()), int(spot[:, across].max()))
            runs[key] = line
        for (at, low, high), first in sorted(runs.items()):
            run = [first]
            for k in range(1, MOST_LINES):
                more = runs.get((at + k, low, high))
                if more is None:
                    break
                run.append(more)
                found.append((np.concatenate([units[v] for v in run]), tuple(run)))
    groups = np.zeros((len(found), frame.n_cells), dtype=np.float32)
    for g, (cells, _) in enumerate(found):
        groups[g, cells] = 1
    lines = np.array([len(run) for _, run in found], dtype=np.int64)
    return groups, lines, [run for _, run in found]
