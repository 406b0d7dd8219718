"""The exact search from Python: its results, its work arrays, and the loop that runs the
search kernel over a batch in this process, pausing for the clock (:func:`solve_exact`)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal, Protocol

import numpy as np
from numpy.typing import NDArray

from ndoku.jit import HAS_TICKS, compile_notice, compiled
from ndoku.limits import (
    check_count,
    check_timeout,
)
from ndoku.solvers.exact.kernels import (
    N_REGS,
    N_STATS,
    REG_ACTIVE,
    REG_GROW,
    STAT_COUNT,
    STAT_GUESSES,
    STAT_NODES,
    STAT_PROPAGATED,
    STAT_STOP,
    STAT_TICKS,
    STOP_TIMEOUT,
    STOPS,
    Stop,
    search,
    tick_now,
)
from ndoku.solvers.exact.nine import DEPTH, N_WEIGHTS, WIDTH, search_nine
from ndoku.solvers.tables import LOCKED_FROM, IntArray, Topology, WorkArrays

Status = Literal["solved", "multiple", "none", "limit"]

#: Nodes probe their two-way choices from this N on: on 25×25 a probe costs less than the
#: subtrees it cuts (about 100 times fewer nodes); on 16×16 and below search is cheaper.
PROBE_FROM = 25
#: A puzzle pauses (so the caller can look at the clock) after this many seconds of search.
PAUSE_SECONDS = 0.005
#: Nodes a kernel call runs over a batch before it returns (for progress and Ctrl-C).
_CALL_NODES = 1 << 17
#: Levels of a new search stack (it doubles when a search gets deeper).
FIRST_DEPTH = 64


@dataclass(eq=False)
class ExactResult:
    """What the exact search found for one puzzle (not frozen: a frozen one took 0.7 µs more
    to make, a third of a killer 4×4's search in a batch).

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
        """Each puzzle's :class:`ExactResult`, in order (the arrays read, and the values
        copied, once and not per puzzle: 1.7 µs a puzzle by :meth:`result`, about half of it
        here)."""
        for row, values, seconds in zip(
            self.stats.tolist(), self.values.copy(), self.seconds.tolist(), strict=True
        ):
            yield _result(row, values, seconds)

    @property
    def counts(self) -> NDArray[np.int64]:
        return self.stats[:, STAT_COUNT]

    @property
    def nodes(self) -> NDArray[np.int64]:
        return self.stats[:, STAT_NODES]

    @property
    def guesses(self) -> NDArray[np.int64]:
        return self.stats[:, STAT_GUESSES]

    @cached_property
    def statuses(self) -> NDArray[np.str_]:
        """Each puzzle's status (see :class:`ExactResult`): ``multiple`` from two solutions,
        ``solved`` with one, ``none`` when the search was complete without any, else
        ``limit``."""
        counts = self.counts
        complete = self.stats[:, STAT_STOP] == STOPS.index("complete")
        found = np.select(
            [counts >= 2, counts == 1, complete], ["multiple", "solved", "none"], "limit"
        )
        return found

    def result(self, i: int) -> ExactResult:
        """The :class:`ExactResult` of puzzle ``i``."""
        return _result(self.stats[i].tolist(), self.values[i].copy(), float(self.seconds[i]))


def _result(row: list[int], values: IntArray, seconds: float) -> ExactResult:
    """One puzzle's :class:`ExactResult` from its row of statistics, its values (kept, not
    copied) and seconds."""
    stop, count = STOPS[row[STAT_STOP]], row[STAT_COUNT]
    # statuses' rule for one puzzle (a single solve: without numpy's select, 15 µs)
    status: Status = "multiple" if count >= 2 else "solved" if count == 1 else "limit"
    if count == 0 and stop == "complete":
        status = "none"
    unique = False if count >= 2 else (True if count == 1 and stop == "complete" else None)
    # by place, in the fields' order: by name took 0.25 µs more a puzzle
    return ExactResult(
        status,
        values if count else None,
        count,
        unique,
        row[STAT_NODES],
        row[STAT_GUESSES],
        bool(row[STAT_PROPAGATED]),
        seconds,
        stop,
    )


def check_limits(limit: int, max_nodes: int, timeout: float) -> None:
    """Refuse a solution limit, node limit or timeout outside what the kernels take (counts
    up to :data:`~ndoku.limits.MAX_COUNT`: they are int64 there)."""
    check_count(limit, "the solution limit", 1)
    check_count(max_nodes, "max nodes", 1)
    check_timeout(timeout)


class Workspace(WorkArrays):
    """Search stack and queues of one layout; the stack grows when a search gets deep."""

    def __init__(self, topology: Topology, probe: bool = True) -> None:
        super().__init__(topology, probing=probe and topology.size >= PROBE_FROM)
        self.topology = topology
        self.kernel = search
        cells = max(topology.n_cells, 1)
        self.regs = np.zeros(N_REGS, dtype=np.int64)
        depth = min(FIRST_DEPTH, cells + 1)
        self.stack = np.zeros((depth, cells), dtype=np.uint64)
        self.tallies = np.zeros((depth, max(topology.n_slots, 1)), dtype=np.int8)
        self.free_at = np.zeros(depth, dtype=np.int64)
        self.cell_at = np.zeros(depth, dtype=np.int64)
        self.bit_at = np.zeros(depth, dtype=np.uint64)
        # The pencil marks of puzzles without any: the search always takes marks, so that
        # one version of it is compiled (a first 25×25 `ndoku solve` compiled both: 4 s more).
        self.unmarked = np.full((1, cells), (1 << topology.size) - 1, dtype=np.uint64)
        # what batches with variant rules keep here between calls (each.Kept, made by them)
        self.each: object = None

    def compiling(self, kernel: Any, ruled: bool | None = None) -> tuple[str, float, Any]:
        """What the compile notice says of ``kernel`` (:func:`search`; other kernels as in
        :meth:`WorkArrays.compiling`) called with these arrays, about how many seconds
        compiling it takes, and the kernel; ``ruled``: whether the search has variant rules,
        when these arrays do not say (by default, whether they hold rules).

        The seconds are what compiling adds to a first ``ndoku solve`` on two cores, measured on
        2026-11-28 (whole first runs: 16.0, 18.9 and 49.4 s; warm ones about 2 s). A puzzle with
        variant rules compiles a version of its own, with the rules' kernels: 35 s more below
        16×16 (a first solve of a 4×4 with a thermometer, 37.5 s); the larger sizes' figures
        are scaled by the same share.
        """
        if kernel is not search:
            return super().compiling(kernel)
        ruled = len(self.scratch) > 6 if ruled is None else ruled
        rules = " with variant rules" if ruled else ""
        if self.locked is None:
            grids = f"single grids below {LOCKED_FROM}×{LOCKED_FROM}"
            return f"the exact solver{rules} for {grids}", 35 if ruled else 14, kernel
        if self.probing is None:
            sides = f"{LOCKED_FROM}×{LOCKED_FROM} to {PROBE_FROM - 1}×{PROBE_FROM - 1}"
            grids = f"multi-grids and {sides} grids"
            return f"the exact solver{rules} for {grids}", 43 if ruled else 17, kernel
        grids = f"grids from {PROBE_FROM}×{PROBE_FROM} up"
        return f"the exact solver{rules} for {grids}", 75 if ruled else 47, kernel

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
        """The arguments of :attr:`kernel` for a call from puzzle ``first`` on."""
        topology = self.topology
        return (
            givens,
            self.unmarked if marks is None else marks,
            first,
            limit,
            max_nodes,
            call_nodes,
            pause_ticks,
            topology.net,
            topology.size,
            self.stack,
            self.tallies,
            self.free_at,
            self.cell_at,
            self.bit_at,
            self.locked,
            self.scratch,
            self.probing,
            self.regs,
            values,
            stats,
        )

    def grow(self) -> None:
        """Double the stack depth, keeping its levels, up to the deepest a search goes (a
        level per free cell, and one for the probes)."""
        deepen(self, ("stack", "tallies", "free_at", "cell_at", "bit_at"), self.topology.n_cells)

    def serve(self, topology: Topology) -> None:
        """Set these arrays, left by a search of ``topology``'s layout, to a search of
        ``topology``: its rules' work arrays, the registers cleared (a search stopped between
        two calls leaves its puzzle active). The kernels reset the rest as they start."""
        self.topology = topology
        self.take_rules(topology)
        self.regs[:] = 0

    def done(self) -> None:
        """Give these arrays back to the layout once the search is finished (:func:`leave`)."""
        leave(self)


#: Workspaces a layout keeps for its next searches, at most (one per search at once).
MOST_SPARE = 8
_spare_lock = threading.Lock()


def taken(topology: Topology, probe: bool) -> Workspace:
    """A :class:`Workspace` for one search of ``topology`` (``probe`` as in
    :func:`~ndoku.solvers.exact.solve_exact`): one a finished search of its layout left
    (:func:`leave`), served to this puzzle, else a new one. Making one (17 arrays) took 7 µs
    of a killer 9×9's 73 µs call."""
    probing = probe and topology.size >= PROBE_FROM
    with _spare_lock:
        spare = topology.spare
        for i in range(len(spare)):
            if (spare[i].probing is not None) == probing:
                work: Workspace = spare.pop(i)
                break
        else:
            return Workspace(topology, probe)
    work.serve(topology)
    return work


def leave(work: Workspace) -> None:
    """Give ``work`` back to its layout once its search is finished (see :func:`taken`),
    unless its stack grew: a count on an empty 64×64 can grow it to 180 MB, which a layout
    kept for reuse would keep too."""
    with _spare_lock:
        if len(work.stack) <= FIRST_DEPTH and len(work.topology.spare) < MOST_SPARE:
            work.topology.spare.append(work)


def deepen(owner: object, names: tuple[str, ...], cells: int) -> None:
    """Double the depth of the search stacks ``names`` of ``owner``, keeping their levels, up
    to the deepest a search of ``cells`` cells goes (a level per cell, and one for probes)."""
    for name in names:
        old = getattr(owner, name)
        new = np.zeros((min(2 * len(old), cells + 2), *old.shape[1:]), dtype=old.dtype)
        new[: len(old)] = old
        setattr(owner, name, new)


class NineWorkspace:
    """The bit-board search's stack for the classic 9×9 (:mod:`ndoku.solvers.exact.nine`)."""

    def __init__(self) -> None:
        self.kernel = search_nine  # on the instance: a class attribute would bind as a method
        self.regs = np.zeros(N_REGS, dtype=np.int64)
        self.stack = np.zeros((DEPTH, WIDTH), dtype=np.int64)
        self.branches = np.zeros((DEPTH, 4), dtype=np.int64)
        self.weights = np.zeros(N_WEIGHTS, dtype=np.int64)

    def compiling(self, kernel: Any) -> tuple[str, float, Any]:
        """What the compile notice says of the search, about how many seconds it adds to a
        first run (2026-11-28, two cores: a first ``solve`` 9.9 s whole, 1.5 s warm)."""
        return "the exact solver for 9×9 grids", 8, kernel

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
        """The arguments of :attr:`kernel` (``marks`` is always None here)."""
        return (
            givens,
            first,
            limit,
            max_nodes,
            call_nodes,
            pause_ticks,
            self.stack,
            self.branches,
            self.weights,
            self.regs,
            values,
            stats,
        )

    def grow(self) -> None:
        """Never asked: the stack holds the deepest search (one level per fixed cell)."""

    def done(self) -> None:
        """Nothing to give back: a new one is made per batch."""


class Searching(Protocol):
    """What :func:`solve_array` runs a search through: a :class:`Workspace`, a
    :class:`NineWorkspace`, or :class:`ndoku.solvers.exact.each.Each`."""

    kernel: Any
    regs: NDArray[np.int64]

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
    ) -> tuple[Any, ...]: ...

    def compiling(self, kernel: Any) -> tuple[str, float, Any]: ...

    def grow(self) -> None: ...

    def done(self) -> None: ...


def ready(work: Searching, givens: IntArray, marks: NDArray[np.uint64] | None, limit: int) -> None:
    """Load or compile the search kernel of ``work`` for one puzzle (``givens``: ``(cells,)``;
    ``marks``: its pencil marks or None), saying so as
    :func:`~ndoku.jit.compile_notice` does, without calling it: a clock started after counts
    no compile."""
    values = np.zeros((1, len(givens)), dtype=np.int32)
    stats = np.zeros((1, N_STATS), dtype=np.int64)
    marked = None if marks is None else marks[None, :]
    arguments = work.arguments(givens[None, :], marked, 0, limit, 1, 1, 1, values, stats)
    what, seconds, kernel = work.compiling(work.kernel)
    compile_notice(what, seconds, kernel, arguments)
    compiled(kernel, arguments, what)


def solve_array(
    topology: Topology,
    givens: IntArray,
    limit: int,
    max_nodes: int,
    timeout: float,
    progress: Callable[[int], None] | None = None,
    marks: NDArray[np.uint64] | None = None,
    probe: bool = True,
    work: Searching | None = None,
) -> BatchResult:
    """Run the search kernel over a checked ``(puzzles, cells)`` array, in this process;
    ``marks``: the puzzles' pencil marks, ``(puzzles, cells)`` uint64, or None; ``probe`` as
    in :func:`solve_exact`; ``work``: what to search with, else the layout's own
    (:func:`taken`, or the classic 9×9's)."""
    check_limits(limit, max_nodes, timeout)
    n = len(givens)
    values = np.zeros((n, topology.n_cells), dtype=np.int32)
    stats = np.zeros((n, N_STATS), dtype=np.int64)
    seconds = np.zeros(n, dtype=np.float64)
    if work is None:
        classic = topology.classic and marks is None
        work = NineWorkspace() if classic else taken(topology, probe)
    per_tick = tick_seconds()
    # Without a tick counter each puzzle gets its own call, timed here.
    call_nodes = _CALL_NODES if per_tick else 0
    pause_ticks = int(PAUSE_SECONDS / per_tick) if per_tick else 0
    i = 0
    while i < n:
        arguments = work.arguments(
            givens, marks, i, limit, max_nodes, call_nodes, pause_ticks, values, stats
        )
        compile_notice(*work.compiling(work.kernel), arguments)
        before = time.perf_counter()
        i_next = work.kernel(*arguments)
        now = time.perf_counter()
        if not per_tick:
            seconds[i] += now - before
        if work.regs[REG_GROW]:
            work.regs[REG_GROW] = 0
            work.grow()
            # The puzzle's time, toward its timeout too: the fresh pages of an empty 64×64's
            # stacks took a quarter of a 1 s timeout.
            grown = time.perf_counter() - now
            if per_tick:
                stats[i_next, STAT_TICKS] += int(grown / per_tick)
            else:
                seconds[i_next] += grown
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
        np.multiply(stats[:, STAT_TICKS], per_tick, out=seconds)
    work.done()
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
