"""Exact solver: propagated states searched depth first, counting solutions.

Propagation and its terms (candidates, singles, locked candidates) are
:mod:`ndoku.solvers.propagation`'s; the search adds these.

Glossary
--------
branching
    A node picks a cell and a value; it searches ``cell = value`` first, then ``cell ≠ value``.
    The cell has the fewest candidates (MRV) per weight, a cell weighing 1 + the contradictions
    its units caused so far (dom/wdeg): the search turns to where it keeps failing.
probe
    From N = ``PROBE_FROM`` on, a node first tries both sides of every two-way choice (a
    cell with two candidates, a value with two places in a unit) on a copy, propagating
    singles only. A side that fails is removed from the node (a *failed value*); of the
    choices whose sides both hold, the node branches on the one whose sides fix the most
    cells (product of the two). Probes are not nodes. A pass probes its choices in the order
    their sides did when last probed anywhere in the tree (the *history*: cells fixed, a
    failure counting most): failing sides are found early, and ties in the score go to
    choices that were strong before (40% fewer nodes than probing in cell order). Before
    probing, a node removes from each unit the values no one-to-one pairing of its free
    cells and missing values allows (all-different matching,
    :func:`ndoku.solvers.propagation.matching`): it halves the nodes, and costs less than the
    probes, which skip it.
node
    A state of the search tree that was propagated: the root, and each ``cell = value`` and
    ``cell ≠ value`` branch.
guess
    A ``cell = value`` branch (the ``cell ≠ value`` one is what is left, so it is a node but
    not a guess).
limit
    The search stops after this many solutions: 2 proves uniqueness (or its absence) cheaply.

A batch of puzzles of one layout is a ``(puzzles, cells)`` array solved in one kernel call;
the search pauses every so many nodes so that the caller can check the clock, and resumes
where it stopped (its stack lives in arrays the caller keeps).
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError
from ndoku.jit import HAS_TICKS, compile_notice, kernel, ticks
from ndoku.limits import DEFAULT_LIMIT, DEFAULT_MAX_NODES, DEFAULT_TIMEOUT
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.bits import copy, lowest, popcount
from ndoku.solvers.propagation import (
    candidates,
    fixed_values,
    matching,
    propagate,
    restrict,
    settle,
    start,
    write_values,
)
from ndoku.solvers.tables import (
    LOCKED_FROM,
    IntArray,
    Locked,
    Probing,
    Scratch,
    Topology,
    WorkArrays,
    check_givens,
)

__all__ = [
    "LOCKED_FROM",
    "PARALLEL_SECONDS",
    "PROBE_FROM",
    "STOPS",
    "BatchResult",
    "ExactResult",
    "candidates",
    "fixed_values",
    "propagate",
    "solve_batch",
    "solve_exact",
    "solve_many",
]

Stop = Literal["complete", "solutions", "nodes", "timeout"]

# Columns of the per-puzzle statistics array the kernel fills.
STAT_STOP, STAT_COUNT, STAT_NODES, STAT_GUESSES, STAT_PROPAGATED, STAT_TICKS = range(6)
N_STATS = 6
# Stop codes, in the order of ``STOPS``.
STOPS: tuple[Stop, ...] = ("complete", "solutions", "nodes", "timeout")
STOP_COMPLETE, STOP_SOLUTIONS, STOP_NODES, STOP_TIMEOUT = range(4)
# Registers of a paused search: whether puzzle ``i`` is mid-search, its depth, a stack request.
REG_ACTIVE, REG_DEPTH, REG_GROW = range(3)

#: A search that pauses by the clock reads the time-stamp counter every ``_TICK_CHECK``
#: nodes; without a counter it pauses after ``_PAUSE_NODES`` nodes.
_TICK_CHECK = 64
_PAUSE_NODES = 1 << 12
#: History of a probe side that failed: more than any number of cells fixed.
_FAILED = 1 << 16
_ONE = np.uint64(1)
_ZERO = np.uint64(0)

# An int64 0 that numba does not type as the literal 0 (see the notes on kernels in
# :mod:`ndoku.solvers.propagation`); untyped for mypy, which would see a numpy integer.
_int: Any = np.int64


Status = Literal["solved", "multiple", "none", "limit"]

#: Nodes probe their two-way choices from this N on: on 25×25 a probe costs less than the
#: subtrees it cuts (about 100 times fewer nodes); on 16×16 and below search is cheaper.
PROBE_FROM = 25
#: A puzzle pauses (so the caller can look at the clock) after this many seconds of search.
_PAUSE_SECONDS = 0.005
#: Nodes a kernel call runs over a batch before it returns (for progress and Ctrl-C).
_CALL_NODES = 1 << 17
#: Levels of a new search stack (it doubles when a search gets deeper).
FIRST_DEPTH = 64


#: A batch is handed to worker processes only when what is left of it would take longer than
#: this in one process: each worker spends about a second importing numba and loading kernels.
PARALLEL_SECONDS = 2.0


# --- kernels -----------------------------------------------------------------------------


@kernel(inline="always")
def _branch(cand: NDArray[np.uint64], weights: IntArray) -> tuple[int, np.uint64]:
    """The (cell, value bit) to branch on: fewest candidates per weight (dom/wdeg).

    A cell's weight is 1 + the contradictions its units caused so far, so the search turns
    to where it keeps failing; with no failures yet this is plain MRV (first cell on ties).
    """
    best = -1
    fewest = 65
    heaviest = 1
    for c in range(len(cand)):
        n = popcount(cand[c])
        w = 1 + weights[c]
        if n * heaviest < fewest * w and n > 1:
            fewest = n
            heaviest = w
            best = c
    m = cand[best]
    return best, m & (~m + _ONE)


@kernel()
def _two_way_choices(
    cand: NDArray[np.uint64],
    counts: NDArray[np.int8],
    net: tuple[IntArray, ...],
    probing: Probing,
    size: int,
) -> int:
    """List the two-way choices of a state; their number.

    Choice ``i`` is ``cell sides[2i] = value values[2i]`` or ``cell sides[2i + 1] = value
    values[2i + 1]``: the two candidates of a cell, or the two places of a value in a unit.
    Its key orders the probes: minus the product of (1 + history) of its sides, times
    ``len(keys)``, plus ``i``; sorted, the keys list the strongest choices first, ties in
    list order, and ``key % len(keys)`` is the choice.
    """
    history, sides, values, keys = probing[4:]
    n_cells = len(cand)
    n = 0
    for x in range(n_cells + len(counts)):
        if x < n_cells:
            m = cand[x]
            if popcount(m) != 2:
                continue
            c1 = c2 = x
            a = m & (~m + _ONE)
            b = m ^ a
        else:
            slot = x - n_cells
            if counts[slot] != 2:
                continue
            u = slot // size
            a = b = _ONE << np.uint64(slot - u * size)
            c1 = c2 = -1
            for k in range(net[0][u], net[0][u + 1]):
                c = net[1][k]
                if cand[c] & a:
                    if c1 < 0:
                        c1 = c
                    else:
                        c2 = c
        sides[2 * n] = c1
        sides[2 * n + 1] = c2
        values[2 * n] = a
        values[2 * n + 1] = b
        strength_a = 1 + np.int64(history[c1 * size + lowest(a)])
        strength = strength_a * (1 + np.int64(history[c2 * size + lowest(b)]))
        keys[n] = -strength * len(keys) + n
        n += 1
    return n


@kernel(inline="always")
def _sift(keys: NDArray[np.int64], root: int, end: int) -> None:
    """Move ``keys[root]`` down the heap ``keys[:end]`` until its children are smaller."""
    x = keys[root]
    child = 2 * root + 1
    while child < end:
        if child + 1 < end and keys[child + 1] > keys[child]:
            child += 1
        if keys[child] <= x:
            break
        keys[root] = keys[child]
        root = child
        child = 2 * root + 1
    keys[root] = x


@kernel()
def sort(keys: NDArray[np.int64], n: int) -> None:
    """Sort ``keys[:n]`` in place, ascending (heapsort: it allocates nothing)."""
    for root in range(n // 2 - 1, -1, -1):
        _sift(keys, root, n)
    for end in range(n - 1, 0, -1):
        keys[0], keys[end] = keys[end], keys[0]
        _sift(keys, 0, end)


@kernel()
def _probe(
    stack: NDArray[np.uint64],
    tallies: NDArray[np.int8],
    t: int,
    free: int,
    net: tuple[IntArray, ...],
    locked: Locked | None,
    scratch: Scratch,
    probing: Probing,
    size: int,
) -> tuple[int, int, np.uint64]:
    """Probe the two-way choices of level ``t`` once, on level ``t + 1``; see the glossary.

    Returns the free cells left (0 solved, -1 stuck) and the (cell, value bit) of the best
    choice, cell -1 when there is none. A side already implied by a probe of this pass
    holds (propagation only adds to what it implied), so it is not probed again and its
    choice is not scored; the other side still is probed, for it may fail (on 25×25 that
    cut the nodes by a tenth, the worst puzzle's by a quarter).
    """
    cand = stack[t]
    counts = tallies[t]
    probed = stack[t + 1]
    queue = scratch[0]
    implied, history, sides, values, keys = probing[3:]
    implied[:] = _ZERO
    best = -1
    best_bit = _ZERO
    best_score = -1
    n = _two_way_choices(cand, counts, net, probing, size)
    sort(keys, n)
    excluded = False
    for j in range(n):
        i = keys[j] % len(keys)
        c1 = sides[2 * i]
        c2 = sides[2 * i + 1]
        a = values[2 * i]
        b = values[2 * i + 1]
        # Values failed earlier in this pass may have decided the choice already.
        if cand[c1] & a == _ZERO or cand[c2] & b == _ZERO or cand[c1] == a or cand[c2] == b:
            continue
        left_a = 0
        for side in range(2):
            c = c1 if side == 0 else c2
            bit = a if side == 0 else b
            if implied[c] & bit:
                if side == 0:
                    left_a = -1
                    continue
                break
            copy(cand, probed)
            copy(counts, tallies[t + 1])
            # Singles only: locked candidates would cost more per probe than they prune.
            left = restrict(
                probed, tallies[t + 1], c, probed[c] ^ bit, free, net, None, scratch, size
            )
            history[c * size + lowest(bit)] = free - left if left >= 0 else _FAILED
            if left < 0:
                free = restrict(cand, counts, c, bit, free, net, None, scratch, size)
                if free <= 0:
                    return free, -1, _ZERO
                excluded = True
                break
            # The fix queue lists the cells the probe fixed, each once.
            for k in range(free - left):
                x = queue[k]
                implied[x] |= probed[x]
            if side == 0:
                left_a = left
            elif left_a >= 0:
                score = (1 + free - left_a) * (1 + free - left)
                if score > best_score:
                    best_score = score
                    best = c1
                    best_bit = a
    # Failed values propagated singles only, as probes do; locked candidates once at the end
    # (per failed value they cost more than the probes around them).
    if excluded and locked is not None:
        free = settle(cand, counts, _int(0), _int(0), free, net, locked, scratch, size)
        if free <= 0:
            return free, -1, _ZERO
    # Later failed values may have fixed the best cell or taken its value.
    if best >= 0 and (cand[best] & best_bit == _ZERO or cand[best] == best_bit):
        best = -1
    return free, best, best_bit


@kernel(inline="always")
def _choose(
    stack: NDArray[np.uint64],
    tallies: NDArray[np.int8],
    t: int,
    free: int,
    net: tuple[IntArray, ...],
    locked: Locked | None,
    scratch: Scratch,
    probing: Probing | None,
    size: int,
) -> tuple[int, int, np.uint64]:
    """Probe level ``t`` (unless ``probing`` is None) and pick its branch; free cells left,
    as :func:`_probe`, with a branch whenever some cell is still free."""
    if probing is not None:
        free = matching(stack[t], tallies[t], free, net, locked, scratch, probing, size)
        if free <= 0:
            return free, -1, _ZERO
        free, c, bit = _probe(stack, tallies, t, free, net, locked, scratch, probing, size)
        if c >= 0 or free <= 0:
            return free, c, bit
    c, bit = _branch(stack[t], scratch[2])
    return free, c, bit


@kernel()
def search(
    givens: IntArray,
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
    scratch: Scratch,
    probing: Probing | None,
    regs: NDArray[np.int64],
    values: IntArray,
    stats: NDArray[np.int64],
) -> int:
    """Solve puzzles ``first ..`` of ``givens``; return the first one not finished.

    Level ``d`` of the stack holds a propagated (and probed) state (candidates, counts, free
    cells) and its branch: cell ``c = cell_at[d]`` and value ``bit_at[d]``; probes use the
    level above it. While ``c >= 0`` the branch
    ``c = value`` is still to try, on a copy at level ``d + 1``; then ``cell_at[d]`` becomes
    ``-1 - c`` and, once that subtree is done, ``c ≠ value`` is applied in place at level d,
    which then branches again. A puzzle pauses after ``pause_ticks`` ticks (or
    ``_PAUSE_NODES`` nodes when 0), or when the stack is full (``regs[REG_GROW]``), leaving
    ``regs[REG_ACTIVE]`` set; the next call resumes it. After a puzzle, the call returns once it
    has searched ``call_nodes`` nodes.
    """
    n_puzzles = givens.shape[0]
    cap = stack.shape[0]
    spent = 0
    i = first
    while i < n_puzzles:
        began = ticks()
        row = stats[i]
        if regs[REG_ACTIVE] == 0:
            row[:] = 0
            values[i, :] = 0
            free = start(stack[0], tallies[0], givens[i], net, locked, scratch, probing, size)
            nodes = 1
            d = -1
            if free == 0:
                row[STAT_PROPAGATED] = 1
            elif free > 0:
                free, cell_at[0], bit_at[0] = _choose(
                    stack, tallies, _int(0), free, net, locked, scratch, probing, size
                )
                free_at[0] = free
                if free > 0:
                    d = 0
            if free == 0:
                row[STAT_COUNT] = 1
                write_values(stack[0], values[i])
        else:
            nodes = row[STAT_NODES]
            d = regs[REG_DEPTH]
        count = row[STAT_COUNT]
        guesses = row[STAT_GUESSES]
        resumed_at = nodes
        pause_at = nodes + (_TICK_CHECK if pause_ticks else _PAUSE_NODES)
        stop = STOP_COMPLETE
        paused = False
        while d >= 0:
            if nodes >= max_nodes:
                stop = STOP_NODES
                break
            if nodes >= pause_at:
                if pause_ticks == 0 or ticks() - began >= pause_ticks:
                    paused = True
                    break
                pause_at = nodes + _TICK_CHECK
            c = cell_at[d]
            if c >= 0:
                t = d + 1
                if t + 1 == cap:  # the child and its probes' level
                    regs[REG_GROW] = 1
                    paused = True
                    break
                copy(stack[d], stack[t])
                copy(tallies[d], tallies[t])
                cell_at[d] = -1 - c
                guesses += 1
                m = stack[t][c] ^ bit_at[d]  # c = value: every other value goes
            else:
                t = d
                c = -1 - c
                m = bit_at[d]  # c ≠ value
            free = restrict(stack[t], tallies[t], c, m, free_at[d], net, locked, scratch, size)
            nodes += 1
            if free > 0:
                free, cell_at[t], bit_at[t] = _choose(
                    stack, tallies, t, free, net, locked, scratch, probing, size
                )
            if free > 0:
                free_at[t] = free
                d = t
                continue
            if free == 0:
                count += 1
                if count == 1:
                    write_values(stack[t], values[i])
                if count >= limit:
                    stop = STOP_SOLUTIONS
                    break
            if t == d:
                d -= 1
        row[STAT_NODES] = nodes
        row[STAT_GUESSES] = guesses
        row[STAT_COUNT] = count
        row[STAT_TICKS] += ticks() - began
        spent += nodes - resumed_at
        if paused:
            regs[REG_ACTIVE] = 1
            regs[REG_DEPTH] = d
            return i
        row[STAT_STOP] = stop
        regs[REG_ACTIVE] = 0
        i += 1
        if spent >= call_nodes:
            break
    return i


@kernel()
def tick_now() -> int:
    return ticks()  # type: ignore[no-any-return]


# --- Python side --------------------------------------------------------------------------


@dataclass(frozen=True)
class ExactResult:
    """What the exact search found for one puzzle.

    Attributes
    ----------
    status : str
        ``solved`` (one solution found; see ``unique``), ``multiple`` (``count`` ≥ 2 found),
        ``none`` (proved: no solution) or ``limit`` (node or time limit hit before any answer).
    values : ndarray of int32 or None
        The first solution found, None when there is none.
    count : int
        Solutions found (at most the limit).
    unique : bool or None
        True when proved unique, False when several were found, None when not checked
        (``limit=1``, or a node or time limit stopped the search after the first solution).
    nodes, guesses : int
        Search-tree nodes propagated (the root counts) and values guessed (see the glossary).
    propagated : bool
        Solved by propagation alone, without search.
    seconds : float
        Time spent on this puzzle.
    stop : str
        ``complete`` (the search space was exhausted), ``solutions`` (the limit was reached),
        ``nodes`` or ``timeout``.
    """

    status: Status
    values: IntArray | None
    count: int
    unique: bool | None
    nodes: int
    guesses: int
    propagated: bool
    seconds: float
    stop: Stop


@dataclass(frozen=True, eq=False)
class BatchResult:
    """Results of many puzzles as arrays, in input order; ``result(i)`` gives one.

    Attributes
    ----------
    values : ndarray of int32, shape (puzzles, cells)
        First solution of each puzzle, zeros where none was found.
    stats : ndarray of int64, shape (puzzles, 6)
        Stop code (index into ``STOPS``), count, nodes, guesses, propagated, kernel ticks.
    seconds : ndarray of float64
        Time spent on each puzzle: measured inside the kernel (Python overhead excluded) on
        x86, else around each puzzle's kernel call.
    limit : int
    """

    values: IntArray
    stats: NDArray[np.int64]
    seconds: NDArray[np.float64]
    limit: int

    def __len__(self) -> int:
        return len(self.stats)

    def __iter__(self) -> Iterator[ExactResult]:
        return (self.result(i) for i in range(len(self)))

    @property
    def counts(self) -> NDArray[np.int64]:
        return self.stats[:, STAT_COUNT]

    @property
    def nodes(self) -> NDArray[np.int64]:
        return self.stats[:, STAT_NODES]

    @property
    def guesses(self) -> NDArray[np.int64]:
        return self.stats[:, STAT_GUESSES]

    def result(self, i: int) -> ExactResult:
        """The :class:`ExactResult` of puzzle ``i``."""
        row = self.stats[i]
        stop = STOPS[int(row[STAT_STOP])]
        count = int(row[STAT_COUNT])
        status: Status
        unique: bool | None
        if count >= 2:
            status, unique = "multiple", False
        elif count == 1:
            status, unique = "solved", (True if stop == "complete" else None)
        elif stop == "complete":
            status, unique = "none", None
        else:
            status, unique = "limit", None
        return ExactResult(
            status=status,
            values=self.values[i].copy() if count else None,
            count=count,
            unique=unique,
            nodes=int(row[STAT_NODES]),
            guesses=int(row[STAT_GUESSES]),
            propagated=bool(row[STAT_PROPAGATED]),
            seconds=float(self.seconds[i]),
            stop=stop,
        )


def solve_exact(
    puzzle: Puzzle,
    *,
    limit: int = DEFAULT_LIMIT,
    max_nodes: int = DEFAULT_MAX_NODES,
    timeout: float = DEFAULT_TIMEOUT,
    givens: IntArray | None = None,
) -> ExactResult:
    """Solve a puzzle exactly: propagation, then search, stopping after ``limit`` solutions.

    Parameters
    ----------
    puzzle : Puzzle
    limit : int
        Stop after this many solutions; 2 (the default) proves uniqueness, 1 only finds one.
    max_nodes : int
        Stop after this many search nodes (status ``limit``, stop ``nodes`` when no
        solution was found by then).
    timeout : float
        Stop after this many seconds (checked every few milliseconds).
    givens : ndarray, optional
        ``(cells,)`` values to use instead of the puzzle's givens (0 for free cells).

    Returns
    -------
    ExactResult
        Its ``values`` are not verified here: callers check them with
        :func:`ndoku.tasks.verify.verify` before reporting them.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> r = solve_exact(p)
    >>> r.status, r.unique, r.count, r.stop
    ('solved', True, 1, 'complete')
    >>> r.values.reshape(4, 4).tolist()[0]
    [1, 3, 2, 4]
    >>> solve_exact(p, givens=np.zeros(16, dtype=np.int32)).status
    'multiple'
    """
    topology = Topology.of(puzzle)
    one = check_givens(topology, puzzle.givens if givens is None else givens)
    start = time.perf_counter()
    batch = solve_array(topology, one[None, :], limit, max_nodes, timeout)
    seconds = time.perf_counter() - start
    return dataclasses.replace(batch.result(0), seconds=seconds)


def check_limits(limit: int, max_nodes: int, timeout: float) -> None:
    if limit < 1:
        raise NdokuError(f"the solution limit must be 1 or more, got {limit}")
    if max_nodes < 1:
        raise NdokuError(f"max nodes must be 1 or more, got {max_nodes}")
    if not (timeout > 0):
        raise NdokuError(f"timeout must be a positive number of seconds, got {timeout}")


class Workspace(WorkArrays):
    """Search stack and queues of one layout; the stack grows when a search gets deep."""

    def __init__(self, topology: Topology) -> None:
        super().__init__(topology, probing=topology.size >= PROBE_FROM)
        cells = max(topology.n_cells, 1)
        self.regs = np.zeros(3, dtype=np.int64)
        depth = min(FIRST_DEPTH, cells + 1)
        self.stack = np.zeros((depth, cells), dtype=np.uint64)
        self.tallies = np.zeros((depth, max(topology.n_slots, 1)), dtype=np.int8)
        self.free_at = np.zeros(depth, dtype=np.int64)
        self.cell_at = np.zeros(depth, dtype=np.int64)
        self.bit_at = np.zeros(depth, dtype=np.uint64)

    def compiling(self, kernel: Any) -> tuple[str, float, Any]:
        """What the compile notice says of ``kernel`` (:func:`search`; other kernels as in
        :meth:`WorkArrays.compiling`) called with these arrays, about how many seconds
        compiling it takes, and the kernel.

        The seconds are those of a first run on two cores (whole ``ndoku solve``: 4.3, 5.6
        and 12 s).
        """
        if kernel is not search:
            return super().compiling(kernel)
        if self.locked is None:
            return f"the exact solver for grids below {LOCKED_FROM}×{LOCKED_FROM}", 4, kernel
        if self.probing is None:
            grids = f"{LOCKED_FROM}×{LOCKED_FROM} to {PROBE_FROM - 1}×{PROBE_FROM - 1} grids"
            return f"the exact solver for {grids}", 5, kernel
        return f"the exact solver for grids from {PROBE_FROM}×{PROBE_FROM} up", 11, kernel

    def grow(self) -> None:
        """Double the stack depth, keeping its levels."""
        for name in ("stack", "tallies", "free_at", "cell_at", "bit_at"):
            old = getattr(self, name)
            new = np.zeros((2 * len(old), *old.shape[1:]), dtype=old.dtype)
            new[: len(old)] = old
            setattr(self, name, new)


def solve_array(
    topology: Topology,
    givens: IntArray,
    limit: int,
    max_nodes: int,
    timeout: float,
    progress: Callable[[int], None] | None = None,
) -> BatchResult:
    """Run the search kernel over a checked ``(puzzles, cells)`` array, in this process."""
    check_limits(limit, max_nodes, timeout)
    n = len(givens)
    values = np.zeros((n, topology.n_cells), dtype=np.int32)
    stats = np.zeros((n, N_STATS), dtype=np.int64)
    seconds = np.zeros(n, dtype=np.float64)
    work = Workspace(topology)
    per_tick = tick_seconds()
    # Without a tick counter each puzzle gets its own call, timed here.
    call_nodes = _CALL_NODES if per_tick else 0
    pause_ticks = int(_PAUSE_SECONDS / per_tick) if per_tick else 0
    i = 0
    while i < n:
        arguments = (
            givens,
            i,
            limit,
            max_nodes,
            call_nodes,
            pause_ticks,
            topology.net,
            topology.size,
            work.stack,
            work.tallies,
            work.free_at,
            work.cell_at,
            work.bit_at,
            work.locked,
            work.scratch,
            work.probing,
            work.regs,
            values,
            stats,
        )
        compile_notice(*work.compiling(search), arguments)
        before = time.perf_counter()
        i_next = search(*arguments)
        now = time.perf_counter()
        if not per_tick:
            seconds[i] += now - before
        if work.regs[REG_GROW]:
            work.regs[REG_GROW] = 0
            work.grow()
        if work.regs[REG_ACTIVE]:
            spent = stats[i_next, STAT_TICKS] * per_tick if per_tick else seconds[i_next]
            if spent > timeout:
                stats[i_next, STAT_STOP] = STOP_TIMEOUT
                work.regs[REG_ACTIVE] = 0
                i_next += 1
        i = i_next
        if progress is not None:
            progress(i)
    if per_tick:
        seconds[:] = stats[:, STAT_TICKS] * per_tick
    return BatchResult(values, stats, seconds, limit)


_calibrated: list[float] = []


def tick_seconds() -> float:
    """Seconds per time-stamp-counter tick (measured once), 0.0 without a counter."""
    if not HAS_TICKS:
        return 0.0
    if not _calibrated:
        tick_now()  # compiled or loaded before the clock starts
        t0, k0 = time.perf_counter(), tick_now()
        while time.perf_counter() - t0 < 0.01:
            pass
        t1, k1 = time.perf_counter(), tick_now()
        _calibrated.append((t1 - t0) / (k1 - k0) if k1 > k0 else 0.0)
    return _calibrated[0]


def solve_many(
    puzzle: Puzzle,
    givens: IntArray,
    *,
    limit: int = DEFAULT_LIMIT,
    max_nodes: int = DEFAULT_MAX_NODES,
    timeout: float = DEFAULT_TIMEOUT,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> BatchResult:
    """Solve many puzzles of ``puzzle``'s layout, given as a ``(puzzles, cells)`` array.

    Parameters
    ----------
    puzzle : Puzzle
        Any puzzle of the layout (only its units are used).
    givens : ndarray of int, shape (puzzles, cells)
        The givens of each puzzle, 0 for free cells.
    limit, max_nodes, timeout
        As in :func:`solve_exact`, for each puzzle.
    jobs : int
        Worker processes at most; 1 solves in this process. Workers take over only the part
        of the batch that would take longer than :data:`PARALLEL_SECONDS` here.
    progress : callable, optional
        Called with the number of puzzles finished so far, every few milliseconds.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> batch = solve_many(p, np.stack([p.givens, np.zeros(16, dtype=np.int32)]))
    >>> [r.status for r in batch], batch.counts.tolist()
    (['solved', 'multiple'], [1, 2])
    """
    topology = Topology.of(puzzle)
    table = check_givens(topology, givens, batch=True)
    if jobs < 1:
        raise NdokuError(f"jobs must be 1 or more, got {jobs}")
    if jobs == 1 or len(table) < 2:
        return solve_array(topology, table, limit, max_nodes, timeout, progress)
    return _solve_spread(topology, table, limit, max_nodes, timeout, jobs, progress)


def solve_batch(
    puzzles: Sequence[Puzzle],
    *,
    limit: int = DEFAULT_LIMIT,
    max_nodes: int = DEFAULT_MAX_NODES,
    timeout: float = DEFAULT_TIMEOUT,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[ExactResult]:
    """Solve many puzzles; those of one layout share kernel calls. Results in input order.

    Parameters are as in :func:`solve_many`.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> text = "1000003004000002\\n" "0000000000000000\\n"
    >>> [r.status for r in solve_batch(read_puzzles(text=text))]
    ['solved', 'multiple']
    """
    results: list[ExactResult | None] = [None] * len(puzzles)
    groups: dict[object, list[int]] = {}
    for i, p in enumerate(puzzles):
        groups.setdefault(p.frame.key, []).append(i)
    finished = 0
    for members in groups.values():

        def report(done: int, base: int = finished) -> None:
            if progress is not None:
                progress(base + done)

        table = np.stack([puzzles[i].givens for i in members])
        batch = solve_many(
            puzzles[members[0]],
            table,
            limit=limit,
            max_nodes=max_nodes,
            timeout=timeout,
            jobs=jobs,
            progress=report,
        )
        for j, i in enumerate(members):
            results[i] = batch.result(j)
        finished += len(members)
    return [r for r in results if r is not None]


def _solve_spread(
    topology: Topology,
    givens: IntArray,
    limit: int,
    max_nodes: int,
    timeout: float,
    jobs: int,
    progress: Callable[[int], None] | None,
) -> BatchResult:
    """Solve here in doubling chunks while the rest looks quick, then hand the rest to workers.

    The time per puzzle measured so far estimates the rest, so a batch of easy 9×9 puzzles
    never pays for starting workers and one of 25×25 puzzles reaches them after one puzzle.
    """
    parts: list[BatchResult] = []
    done, spent, chunk = 0, 0.0, 1
    while done < len(givens):
        rest = givens[done:]

        def report(k: int, base: int = done) -> None:
            if progress is not None:
                progress(base + k)

        if spent / max(done, 1) * len(rest) > PARALLEL_SECONDS:
            parts.append(solve_parallel(topology, rest, limit, max_nodes, timeout, jobs, report))
            break
        part = solve_array(topology, rest[:chunk], limit, max_nodes, timeout, report)
        parts.append(part)
        done, spent, chunk = done + len(part), spent + float(part.seconds.sum()), 2 * chunk
    return _joined(parts, limit)


def _joined(parts: list[BatchResult], limit: int) -> BatchResult:
    return BatchResult(
        np.concatenate([p.values for p in parts]),
        np.concatenate([p.stats for p in parts]),
        np.concatenate([p.seconds for p in parts]),
        limit,
    )


def solve_parallel(
    topology: Topology,
    givens: IntArray,
    limit: int,
    max_nodes: int,
    timeout: float,
    jobs: int,
    progress: Callable[[int], None] | None,
) -> BatchResult:
    """Chunks of the batch over ``jobs`` worker processes (spawned: safe on every platform)."""
    check_limits(limit, max_nodes, timeout)
    chunks = np.array_split(givens, min(len(givens), 4 * jobs))
    context = multiprocessing.get_context("spawn")
    done = 0
    parts: list[BatchResult] = []
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = [
            pool.submit(solve_array, topology, chunk, limit, max_nodes, timeout) for chunk in chunks
        ]
        for future in futures:
            part = future.result()
            parts.append(part)
            done += len(part)
            if progress is not None:
                progress(done)
    return _joined(parts, limit)
