"""The teaching searches of the search study: backtracking with a chosen propagation and
branching, its nodes counted as the student paper on sudoku as a constraint-satisfaction
problem counts them (:func:`search_study`).

Glossary
--------
propagation
    What a search does to the state a placement leaves (:data:`PROPAGATIONS`):

    - ``none``: plain backtracking. A value goes into the branching cell only when no placed
      peer holds it (each placement checked against its peers); nothing else is looked at,
      so a dead end is found only when the search reaches a cell with no value left.
    - ``forward``: forward checking. Every free cell keeps its candidates; a placement
      removes its value from its peers, and a peer left without a candidate (a *wipe-out*)
      fails the placement at once.
    - ``singles``: forward checking, then naked and hidden singles until neither finds
      anything (:func:`ndoku.solvers.propagation.settle`): cells with one candidate left, or
      values with one place left in a unit, are placed by propagation, not by the search.
    - ``full``: ndoku's own propagation, as :func:`ndoku.solvers.propagation.candidates`
      runs it: singles, locked candidates (from 16×16 on, and on multi-grids) and
      all-different matching. With ``mrv`` branching :func:`search_study` runs ndoku's
      solver itself (:func:`~ndoku.solvers.exact.solve_exact`), which adds its own
      branching rules and probes and counts nodes its own way (see ``node``).
branching
    Which cell the search fills next (:data:`BRANCHINGS`): ``first``, the first free cell in
    reading order (cell number); ``mrv``, the free cell with the fewest values left (minimum
    remaining values), the first of them on a tie. Either way the cell's values are tried in
    rising order, each one a branch of its own.
node
    As the paper counts them: the root (the givens, propagated) and every value the search
    places in its branching cell that passes its check (``none``: no placed peer holds it;
    the others: it is still a candidate), whether forward checking or propagation then finds
    it failed or not. Cells propagation fixes are no nodes, so a puzzle propagation solves
    takes one. (ndoku's solver, ``full`` with ``mrv``, branches two ways instead, ``cell =
    value`` then ``cell ≠ value``, and counts both.)
guess
    A node placed in a cell that had two values or more to choose from; a cell with one
    value left is placed without a guess.

With ``first`` branching, stronger propagation never searches more nodes: every node of the
stronger search maps to a distinct node of the weaker one, visited no later (both fill the
cells in one order and try values in one order, and the weaker state holds everything the
stronger one allows), so ``full ≤ singles ≤ forward ≤ none`` on every puzzle, node limits
included. With ``mrv`` the cells chosen differ once propagation differs, and no such order
holds in general, except that ``none`` and ``forward`` search the very same tree: the cell
with no value left that ``none`` picks next is the wipe-out ``forward`` stops at.
"""

from __future__ import annotations

import time

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import compile_notice, kernel, ticks
from ndoku.limits import DEFAULT_LIMIT, DEFAULT_MAX_NODES, DEFAULT_TIMEOUT
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.bits import copy, lowest, popcount
from ndoku.solvers.chains.checks import check_choice
from ndoku.solvers.exact.batch import solve_exact
from ndoku.solvers.exact.kernels import (
    N_REGS,
    N_STATS,
    REG_ACTIVE,
    REG_DEPTH,
    REG_GROW,
    STAT_COUNT,
    STAT_GUESSES,
    STAT_NODES,
    STAT_PROPAGATED,
    STAT_STOP,
    STAT_TICKS,
    STOP_COMPLETE,
    STOP_NODES,
    STOP_SOLUTIONS,
    STOP_TIMEOUT,
    TICK_CHECK,
    first_pause,
    next_pause,
    settle_row,
)
from ndoku.solvers.exact.solver import (
    PAUSE_SECONDS,
    BatchResult,
    ExactResult,
    check_limits,
    deepen,
    tick_seconds,
)
from ndoku.solvers.propagation import matching, restrict, start, write_values
from ndoku.solvers.tables import (
    IntArray,
    Locked,
    Probing,
    Scratch,
    Topology,
    WorkArrays,
    check_givens,
)

#: Propagation levels, weakest first, and branching rules (see the glossary).
PROPAGATIONS = ("none", "forward", "singles", "full")
BRANCHINGS = ("first", "mrv")
#: The propagation and branching of ndoku's own solver.
DEFAULT_PROPAGATION, DEFAULT_BRANCHING = "full", "mrv"
_NONE, _FORWARD, _SINGLES, _FULL = range(4)
_MRV = 1
#: Levels of a new stack (it doubles when a search gets deeper).
_FIRST_DEPTH = 64
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@kernel(inline="always")
def _taken(c: int, placed: IntArray, net: tuple[IntArray, ...]) -> np.uint64:
    """The values the placed peers of cell ``c`` hold, as a mask (bit ``v - 1``)."""
    used = _ZERO
    for k in range(net[4][c], net[4][c + 1]):
        v = placed[net[5][k]]
        if v > 0:
            used |= _ONE << np.uint64(v - 1)
    return used


@kernel(inline="always")
def _pick(
    level: int,
    branching: int,
    cand: NDArray[np.uint64],
    placed: IntArray,
    marks: NDArray[np.uint64],
    net: tuple[IntArray, ...],
) -> tuple[int, np.uint64]:
    """The branching cell of a state and the values to try there (may be none).

    ``none`` and ``forward``: the cells not placed yet, with the values their placed peers
    leave (``none``, found by looking at the peers) or their candidates (``forward``).
    ``singles`` and ``full``: the cells with two candidates or more.
    """
    best = -1
    best_mask = _ZERO
    fewest = 65
    for c in range(len(cand)):
        if level <= _FORWARD:
            if placed[c] > 0:
                continue
            m = marks[c] & ~_taken(c, placed, net) if level == _NONE else cand[c]
        else:
            m = cand[c]
            if m & (m - _ONE) == _ZERO:
                continue
        n = popcount(m)
        if n < fewest:
            fewest = n
            best = c
            best_mask = m
            # first: the first cell will do; mrv: none can have fewer values than this
            if branching != _MRV or n <= min(level, 2):
                break
    return best, best_mask


@kernel(inline="always")
def _root_checks(
    level: int,
    givens: IntArray,
    marks: NDArray[np.uint64],
    cand: NDArray[np.uint64],
    placed: IntArray,
    net: tuple[IntArray, ...],
) -> int:
    """The root of ``none`` and ``forward``: givens placed, checked against each other and
    the marks (and forward checked); free cells, -1 when the givens contradict each other."""
    free = 0
    for c in range(len(givens)):
        placed[c] = givens[c]
        cand[c] = marks[c]
        free += givens[c] == 0
    for c in range(len(givens)):
        v = givens[c]
        if v == 0:
            continue
        bit = _ONE << np.uint64(v - 1)
        if marks[c] & bit == _ZERO:
            return -1
        cand[c] = bit
        for k in range(net[4][c], net[4][c + 1]):
            p = net[5][k]
            if placed[p] == v:
                return -1
            if level == _FORWARD and placed[p] == 0:
                cand[p] &= ~bit
                if cand[p] == _ZERO:
                    return -1
    return free


@kernel()
def _study(
    givens: IntArray,
    marks: NDArray[np.uint64],
    level: int,
    branching: int,
    limit: int,
    max_nodes: int,
    pause_ticks: int,
    net: tuple[IntArray, ...],
    size: int,
    locked: Locked | None,
    scratch: Scratch,
    probing: Probing,
    stack: NDArray[np.uint64],
    tallies: NDArray[np.int8],
    placed: IntArray,
    cell_at: NDArray[np.int64],
    rest_at: NDArray[np.uint64],
    free_at: NDArray[np.int64],
    wide_at: NDArray[np.int64],
    regs: NDArray[np.int64],
    values: IntArray,
    row: NDArray[np.int64],
) -> None:
    """Search one puzzle with propagation ``level`` and ``branching`` (their indices) until
    ``limit`` solutions or ``max_nodes`` nodes; pause after ``pause_ticks`` ticks (without a
    clock, after so many nodes), or when the stack is full (``regs[REG_GROW]``), leaving
    ``regs[REG_ACTIVE]`` set: the next call resumes.

    Level ``d`` holds a state: candidates ``stack[d]`` (and ``tallies[d]``, propagation's
    (unit, value) counts), its free cells ``free_at[d]``, its branching cell ``cell_at[d]``,
    the values still to try there ``rest_at[d]`` and whether there were two or more
    (``wide_at[d]``). ``none`` and ``forward`` place one cell a level, in ``placed`` (the
    value, 0 while free), and free it again when its level is done.
    """
    began = ticks()
    cap = stack.shape[0]
    if regs[REG_ACTIVE] == 0:
        row[:] = 0
        values[:] = 0
        if level <= _FORWARD:
            free = _root_checks(level, givens, marks, stack[0], placed, net)
        elif level == _SINGLES:
            free = start(stack[0], tallies[0], givens, marks, net, None, scratch, probing, size)
        else:
            free = start(stack[0], tallies[0], givens, marks, net, locked, scratch, probing, size)
            if free > 0:
                free = matching(stack[0], tallies[0], free, net, locked, scratch, probing, size)
        row[STAT_NODES] = 1
        d = -1
        if free == 0:
            row[STAT_PROPAGATED] = 1
            row[STAT_COUNT] = 1
            if level <= _FORWARD:
                copy(placed, values)
            else:
                write_values(stack[0], values)
        elif free > 0:
            cell_at[0], rest_at[0] = _pick(level, branching, stack[0], placed, marks, net)
            free_at[0] = free
            wide_at[0] = popcount(rest_at[0]) > 1
            d = 0
    else:
        d = regs[REG_DEPTH]
    nodes = row[STAT_NODES]
    guesses = row[STAT_GUESSES]
    count = row[STAT_COUNT]
    # full propagation (matching) can take a millisecond a node on large grids
    every = 1 if level == _FULL else TICK_CHECK
    pause_at = nodes + first_pause(pause_ticks, every)
    stop = STOP_COMPLETE
    paused = False
    while d >= 0:
        rest = rest_at[d]
        c = cell_at[d]
        if rest == _ZERO:  # every value of this level tried: back up
            if level <= _FORWARD:
                placed[c] = 0
            d -= 1
            continue
        if nodes >= max_nodes:
            stop = STOP_NODES
            break
        pause_at = next_pause(nodes, pause_at, pause_ticks, began, every)
        if pause_at < 0:
            paused = True
            break
        t = d + 1
        if t == cap:
            regs[REG_GROW] = 1
            paused = True
            break
        bit = rest & (~rest + _ONE)
        rest_at[d] = rest ^ bit
        nodes += 1
        guesses += wide_at[d]
        child = stack[t]
        if level <= _FORWARD:
            placed[c] = lowest(bit) + 1
            free = free_at[d] - 1
            if level == _FORWARD:
                copy(stack[d], child)
                child[c] = bit
                for k in range(net[4][c], net[4][c + 1]):
                    p = net[5][k]
                    if placed[p] == 0:
                        m = child[p] & ~bit
                        child[p] = m
                        if m == _ZERO:  # a wipe-out
                            free = -1
                            break
        else:
            copy(stack[d], child)
            copy(tallies[d], tallies[t])
            m = child[c] ^ bit
            if level == _SINGLES:
                free = restrict(child, tallies[t], c, m, free_at[d], net, None, scratch, size)
            else:
                free = restrict(child, tallies[t], c, m, free_at[d], net, locked, scratch, size)
                if free > 0:
                    free = matching(child, tallies[t], free, net, locked, scratch, probing, size)
        if free == 0:
            count += 1
            if count == 1:
                if level <= _FORWARD:
                    copy(placed, values)
                else:
                    write_values(child, values)
            if count >= limit:
                stop = STOP_SOLUTIONS
                break
        elif free > 0:
            cell_at[t], rest_at[t] = _pick(level, branching, child, placed, marks, net)
            free_at[t] = free
            wide_at[t] = popcount(rest_at[t]) > 1
            d = t
    settle_row(row, regs, nodes, guesses, count, began, paused, d, stop)


class _Search:
    """The arrays of one teaching search: its stack grows when the search gets deep."""

    def __init__(self, topology: Topology, givens: IntArray) -> None:
        cells = max(topology.n_cells, 1)
        depth = min(_FIRST_DEPTH, int((givens == 0).sum()) + 2)
        self.work = WorkArrays(topology, probing=True)
        assert self.work.probing is not None
        self.probing: Probing = self.work.probing
        self.stack = np.zeros((depth, cells), dtype=np.uint64)
        self.tallies = np.zeros((depth, max(topology.n_slots, 1)), dtype=np.int8)
        self.cell_at = np.zeros(depth, dtype=np.int64)
        self.rest_at = np.zeros(depth, dtype=np.uint64)
        self.free_at = np.zeros(depth, dtype=np.int64)
        self.wide_at = np.zeros(depth, dtype=np.int64)
        self.placed = np.zeros(cells, dtype=np.int32)
        self.regs = np.zeros(N_REGS, dtype=np.int64)
        self.values = np.zeros((1, topology.n_cells), dtype=np.int32)
        self.stats = np.zeros((1, N_STATS), dtype=np.int64)

    def grow(self) -> None:
        """Double the stack depth, keeping its levels (:func:`deepen`)."""
        names = ("stack", "tallies", "cell_at", "rest_at", "free_at", "wide_at")
        deepen(self, names, len(self.placed))


def search_study(
    puzzle: Puzzle,
    propagation: str,
    branching: str,
    *,
    limit: int = DEFAULT_LIMIT,
    max_nodes: int = DEFAULT_MAX_NODES,
    timeout: float = DEFAULT_TIMEOUT,
    givens: IntArray | None = None,
) -> ExactResult:
    """Search ``puzzle`` exactly with a teaching ``propagation`` and ``branching``.

    Parameters
    ----------
    puzzle : Puzzle
        Any layout; a puzzle read from pencil marks keeps every cell within them.
    propagation : str
        One of :data:`PROPAGATIONS` (see the module glossary).
    branching : str
        One of :data:`BRANCHINGS`. ``full`` with ``mrv`` is ndoku's own solver,
        :func:`~ndoku.solvers.exact.solve_exact`.
    limit, max_nodes, timeout, givens
        As in :func:`~ndoku.solvers.exact.solve_exact`: 2 solutions (the default) prove
        uniqueness, ``max_nodes`` counts nodes as the glossary says.

    Returns
    -------
    ExactResult
        Its ``values`` are not verified here (see :func:`~ndoku.solvers.exact.solve_exact`).

    Raises
    ------
    ndoku.errors.NdokuError
        An unknown propagation or branching, limits that are not positive, givens that do
        not fit the puzzle.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> plain, singles = search_study(p, "none", "first"), search_study(p, "singles", "mrv")
    >>> (plain.status, plain.nodes), (singles.status, singles.nodes)
    (('solved', 19), ('solved', 1))
    >>> plain.values.tolist() == search_study(p, "full", "mrv").values.tolist()  # ndoku's
    True
    """
    check_choice(propagation, PROPAGATIONS, "propagation")
    check_choice(branching, BRANCHINGS, "branching")
    if (propagation, branching) == (DEFAULT_PROPAGATION, DEFAULT_BRANCHING):
        return solve_exact(puzzle, limit=limit, max_nodes=max_nodes, timeout=timeout, givens=givens)
    check_limits(limit, max_nodes, timeout)
    topology = Topology.of(puzzle)
    one = check_givens(topology, puzzle.givens if givens is None else givens)
    every = np.uint64((1 << topology.size) - 1)
    marks = np.full(topology.n_cells, every, dtype=np.uint64)
    if puzzle.candidates is not None:
        marks &= puzzle.candidates
    run = _Search(topology, one)
    per_tick = tick_seconds()
    pause_ticks = int(PAUSE_SECONDS / per_tick) if per_tick else 0
    level, rule = PROPAGATIONS.index(propagation), BRANCHINGS.index(branching)
    began = time.perf_counter()
    while True:
        arguments = (
            one, marks, level, rule, limit, max_nodes, pause_ticks, topology.net,
            topology.size, run.work.locked, run.work.scratch, run.probing, run.stack,
            run.tallies, run.placed, run.cell_at, run.rest_at, run.free_at, run.wide_at,
            run.regs, run.values[0], run.stats[0],
        )  # fmt: skip
        compile_notice("the teaching searches", 23, _study, arguments)
        _study(*arguments)
        if run.regs[REG_GROW]:
            run.regs[REG_GROW] = 0
            run.grow()
        if not run.regs[REG_ACTIVE]:
            break
        spent = run.stats[0, STAT_TICKS] * per_tick or time.perf_counter() - began
        if spent > timeout:
            run.stats[0, STAT_STOP] = STOP_TIMEOUT
            break
    seconds = run.stats[0, STAT_TICKS] * per_tick or time.perf_counter() - began
    return BatchResult(run.values, run.stats, np.array([seconds]), limit).result(0)
