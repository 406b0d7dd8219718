"""Many puzzles of one layout, each with variant rules of its own, searched in one kernel
call: each puzzle's rule arrays are arranged, then searched, in turn.

One :func:`~ndoku.solvers.exact.solve_exact` call per puzzle spends some 20 µs in Python
and in starting its kernels, more than a small puzzle's search. A file of such puzzles
(:func:`~ndoku.solvers.exact.solve_batch`) pays that once here: its constraints are read as
arrays (:class:`~ndoku.model.constraints.Packed`), joined, and handed to :func:`search_each`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError
from ndoku.jit import kernel, ticks
from ndoku.limits import DEFAULT_LIMIT, DEFAULT_MAX_NODES, DEFAULT_TIMEOUT
from ndoku.model.constraints import Packed
from ndoku.model.frame import Frame
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.arrange import arrange_puzzle, most_written, work_length
from ndoku.solvers.bits import nonliteral
from ndoku.solvers.exact.kernels import REG_ACTIVE, STAT_NODES, STAT_TICKS, search
from ndoku.solvers.exact.solver import BatchResult, leave, solve_array, taken
from ndoku.solvers.implied import MOST_CELLS, SumGroups, search_room
from ndoku.solvers.tables import (
    IntArray,
    Locked,
    Probing,
    Topology,
    check_givens,
    joined_codes,
)


class Kept:
    """What a layout's :class:`~ndoku.solvers.exact.solver.Workspace` keeps for
    :func:`search_each` between batches: the layout's room for implied sums
    (:func:`~ndoku.solvers.implied.search_room`), its cell → unit CSR and implied-sum groups,
    and room for one puzzle's arranged rules and their work arrays, for puzzles of up to
    ``longest`` constraints and ``most_cells`` cells. Making its arrays for each batch took a
    killer 4×4 batch 3 µs of its 50."""

    def __init__(self, frame: Frame, longest: int, most_cells: int) -> None:
        self.longest, self.most_cells = longest, most_cells
        size = frame.size
        self.room = room = search_room(frame)
        groups: SumGroups = frame.table("implied-sum groups", SumGroups.of)
        self.sums = (*frame.cell_units, groups.ptr, groups.cells, groups.totals, groups.single)
        most, spare = longest + room, most_cells + room * MOST_CELLS
        # every place a puzzle reads is written first (arrange_puzzle, search_each), and each
        # is sliced to the puzzle's lengths: longer arrays serve
        self.laid = (
            np.empty(most, dtype=np.int32),
            np.empty(most + 1, dtype=np.int32),
            np.empty(spare, dtype=np.int32),
            np.empty(most, dtype=np.int64),
            np.empty(spare, dtype=np.int64),
            np.empty(most + 1, dtype=np.int32),
            np.empty(most * most_written(size), dtype=np.uint64),
            np.empty(work_length(size, frame.n_cells, longest, room), dtype=np.int64),
        )
        # the work arrays of the rules (tables.rule_work), for the longest puzzle's
        self.rule_work = (
            np.empty(spare, dtype=np.uint64),
            np.empty(spare, dtype=np.uint64),
            np.empty(8 * spare + 8, dtype=np.int64),
        )

    def holds(self, longest: int, most_cells: int) -> bool:
        """Whether these arrays have room for puzzles of ``longest`` constraints and
        ``most_cells`` cells."""
        return longest <= self.longest and most_cells <= self.most_cells


class Each:
    """The work arrays of :func:`search_each` for one batch: a :class:`Workspace` of the
    layout (its stack, queues and stamps, and what it keeps for these batches,
    :class:`Kept`) and the puzzles' constraints joined.

    It is what :func:`~ndoku.solvers.exact.solver.solve_array` runs a search through
    (:class:`~ndoku.solvers.exact.solver.Searching`).
    """

    def __init__(self, frame: Frame, packs: Sequence[Packed], probe: bool) -> None:
        """``packs``: each puzzle's constraints, at least one each."""
        topology = Topology.layout(frame)
        self.work = taken(topology, probe)
        self.kernel = search_each
        self.regs = self.work.regs
        flat = np.concatenate([p.flat for p in packs])
        starts, self.tables, longest, most_cells = joined_codes(flat, len(packs), frame.size)
        self.packed = (flat, starts)
        kept = self.work.each
        if not isinstance(kept, Kept):
            kept = Kept(frame, longest, most_cells)
        elif not kept.holds(longest, most_cells):
            kept = Kept(frame, max(longest, kept.longest), max(most_cells, kept.most_cells))
        self.kept = self.work.each = kept

    def arguments(
        self,
        givens: IntArray,
        marks: NDArray[np.uint64] | None,
        first: int,
        limit: int,
        max_nodes: int,
        call_nodes: int,
        pause_ticks: int,
        values: IntArray,
        stats: NDArray[np.int64],
    ) -> tuple[Any, ...]:
        """The arguments of :func:`search_each` for a call from puzzle ``first`` on (``marks``
        is always None: pencil-marked puzzles are searched one by one)."""
        work = self.work
        return (
            *work.arguments(
                givens, None, first, limit, max_nodes, call_nodes, pause_ticks, values, stats
            ),
            self.packed,
            self.kept.room,
            self.kept.sums,
            self.kept.laid,
            self.tables,
            self.kept.rule_work,
        )

    def compiling(self, kernel: Any) -> tuple[str, float, Any]:
        """What the compile notice says of :func:`search_each`: about what the search with
        variant rules takes (most of it), for the same grids."""
        what, seconds, _ = self.work.compiling(search, ruled=True)
        return f"{what}, many puzzles at once", seconds, kernel

    def grow(self) -> None:
        self.work.grow()

    def done(self) -> None:
        """Give the layout's workspace back for its next searches."""
        leave(self.work)


@kernel(nogil=True)
def search_each(
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
    plain: tuple[IntArray, IntArray, IntArray, NDArray[np.int64], NDArray[np.int64], IntArray],
    probing: Probing | None,
    regs: NDArray[np.int64],
    values: IntArray,
    stats: NDArray[np.int64],
    packed: Any,
    room_of: int,
    sums: Any,
    laid: Any,
    tables: NDArray[np.uint64],
    rule_work: tuple[NDArray[np.uint64], NDArray[np.uint64], NDArray[np.int64]],
) -> int:
    """Solve puzzles ``first ..`` of ``givens``, puzzle ``k`` under the rules ``packed`` holds
    for it (as :func:`~ndoku.solvers.arrange.arrange_puzzle` reads them), by
    :func:`~ndoku.solvers.exact.kernels.search`; return the first one not finished. A paused
    puzzle (``regs[REG_ACTIVE]``) keeps its arranged rules in ``laid`` and resumes there. Its
    arranging counts in its ticks. After a puzzle, the call returns once it has searched
    ``call_nodes`` nodes."""
    n_puzzles = givens.shape[0]
    kinds, ptr, cells, numbers, weights, combo_ptr, combos, work = laid
    saved, out, room = rule_work
    spent = 0
    k = first
    while k < n_puzzles:
        arranged = 0
        if regs[REG_ACTIVE] == 0:
            began = ticks()
            arrange_puzzle(k, size, packed, room_of, sums, laid)
            end = work[1]
            saved[:end] = 0
            out[:end] = 0
            room[: 8 * end + 8] = 0
            arranged = ticks() - began
        kept, end, held = work[0], work[1], work[2]
        rules = (
            kinds[:kept], ptr[: kept + 1], cells[:end], numbers[:kept], weights[:end], tables,
            combo_ptr[: kept + 1], combos[:held], saved[:end], out[:end], room[: 8 * end + 8],
        )  # fmt: skip
        scratch = (plain[0], plain[1], plain[2], plain[3], plain[4], plain[5], rules)
        # call_nodes 0: back after this puzzle (not a literal: it would compile another search)
        after = search(
            givens, marks, k, limit, max_nodes, nonliteral(0), pause_ticks, net, size, stack,
            tallies, free_at, cell_at, bit_at, locked, scratch, probing, regs, values, stats,
        )  # fmt: skip
        stats[k, STAT_TICKS] += arranged
        if after == k:  # paused
            return k
        spent += stats[k, STAT_NODES]
        k = after
        if spent >= call_nodes:
            break
    return k


def solve_each(
    puzzles: Sequence[Puzzle],
    *,
    limit: int = DEFAULT_LIMIT,
    max_nodes: int = DEFAULT_MAX_NODES,
    timeout: float = DEFAULT_TIMEOUT,
    progress: Callable[[int], None] | None = None,
    probe: bool = True,
) -> BatchResult:
    """Solve puzzles of one layout, each with constraints of its own and without pencil
    marks, in one kernel call (or a few: it pauses for the clock and for progress).

    Parameters
    ----------
    puzzles : sequence of Puzzle
        Their frames are equal (:attr:`~ndoku.model.frame.Frame.key`), and each has
        constraints.
    limit, max_nodes, timeout, progress, probe
        As in :func:`~ndoku.solvers.exact.solve_table`, for each puzzle.

    Returns
    -------
    BatchResult
        In the order of ``puzzles``; the same results as one
        :func:`~ndoku.solvers.exact.solve_exact` per puzzle.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> text = "1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 {}\\n\\nthermo: {}\\n\\n"
    >>> puzzles = read_puzzles(text=text.format(2, "r4c2 r4c1") + text.format(0, "r4c2 r4c1"))
    >>> batch = solve_each(puzzles)
    >>> batch.statuses.tolist(), batch.counts.tolist()
    (['solved', 'multiple'], [1, 2])
    >>> batch.result(0).values[12:].tolist()
    [3, 1, 4, 2]
    """
    if not puzzles:
        raise NdokuError("no puzzles to solve")
    frame = puzzles[0].frame
    for i, puzzle in enumerate(puzzles):
        if puzzle.frame.key != frame.key:
            raise NdokuError(f"puzzle {i + 1} is not of the first puzzle's layout")
        if puzzle.candidates is not None or not len(puzzle.lowered.packed.kinds):
            raise NdokuError(f"puzzle {i + 1} has pencil marks or no constraints")
    return solve_grouped(puzzles, limit, max_nodes, timeout, progress, probe)


def solve_grouped(
    puzzles: Sequence[Puzzle],
    limit: int,
    max_nodes: int,
    timeout: float,
    progress: Callable[[int], None] | None,
    probe: bool = True,
) -> BatchResult:
    """:func:`solve_each` on puzzles already known to hold what it asks of them (grouped so
    by :func:`~ndoku.solvers.exact.solve_batch`), without checking it again.

    >>> from ndoku.model.puzzle import read_puzzles
    >>> puzzles = read_puzzles(text="1000\\n0030\\n0400\\n0002\\n\\nthermo: r4c2 r4c1\\n")
    >>> solve_grouped(puzzles, 2, 10**6, 10.0, None).statuses.tolist()
    ['solved']
    """
    frame = puzzles[0].frame
    topology = Topology.layout(frame)
    # np.array, not np.stack: 1.2 µs against 3.2 for a few puzzles (the shapes are equal)
    givens = check_givens(topology, np.array([p.givens for p in puzzles]), batch=True)
    work = Each(frame, [p.lowered.packed for p in puzzles], probe)
    return solve_array(topology, givens, limit, max_nodes, timeout, progress, None, probe, work)
