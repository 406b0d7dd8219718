"""One puzzle's exact search split over threads: a paused search hands its shallowest open
``cell ≠ value`` branch to an idle thread (:func:`solve_split`).

Each part is searched by the same kernel, in its own thread and work arrays (the kernel
releases the GIL). A part starts from the state its giver had at that level, less the
handed value, given as pencil marks; it keeps the giver's branching weights and history.

The answer is the one search in a single thread gives: parts are ordered as the single
search would visit them (a key each: the giver's part becomes ``key + (0,)``, the handed one
``key + (1,)``), each solution is keyed by its part and its rank there, and once ``limit``
solutions are known only parts that could still hold an earlier one go on. So a puzzle with
several solutions shows the same first solution and count however the threads ran; only
the nodes and guesses vary from run to run.
"""

from __future__ import annotations

import bisect
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndoku.solvers.exact.kernels import (
    N_STATS,
    REG_ACTIVE,
    REG_DEPTH,
    REG_GROW,
    REG_KEEP,
    STAT_COUNT,
    STAT_GUESSES,
    STAT_NODES,
    STAT_PROPAGATED,
    STAT_STOP,
    STOP_COMPLETE,
    STOP_NODES,
    STOP_SOLUTIONS,
    STOP_TIMEOUT,
)
from ndoku.solvers.exact.solver import (
    PAUSE_SECONDS,
    BatchResult,
    Workspace,
    check_limits,
    ready,
    tick_seconds,
)
from ndoku.solvers.tables import IntArray, Topology

#: Threads a search is split over at most (the CLI's ``--jobs`` takes up to 1024).
MAX_THREADS = 256
#: Grids of more cells are searched in one thread: a node there takes milliseconds and a
#: part's stack up to 134 MB (an empty 64×64 hitting a 10 s timeout peaked at 377 MB in one
#: thread, 507 MB in two).
MOST_CELLS = 36 * 36
#: A part is handed on only while the time left is this many of its giver's nodes at least:
#: a helper's first node (propagating the part from scratch, then probing) must not carry
#: the search past its timeout.
HAND_NODES = 20

Key = tuple[int, ...]


@dataclass
class _Part:
    """A part of the search: its order key, pencil marks (None: the puzzle's own), and the
    branching weights and history it starts with (None: fresh)."""

    key: Key
    marks: NDArray[np.uint64] | None
    weights: IntArray | None = None
    history: IntArray | None = None


class _Split:
    """What the threads of one split search share, under one lock."""

    def __init__(
        self,
        topology: Topology,
        givens: IntArray,
        marks: NDArray[np.uint64] | None,
        limit: int,
        max_nodes: int,
        timeout: float,
        threads: int,
        probe: bool,
        pause: float,
    ) -> None:
        self.topology, self.givens, self.limit, self.probe = topology, givens, limit, probe
        self.max_nodes, self.threads = max_nodes, threads
        self.deadline = time.monotonic() + timeout
        per_tick = tick_seconds()
        self.pause_ticks = max(int(pause / per_tick), 1) if per_tick else 0
        self.lock = threading.Condition()
        self.queue: list[_Part] = [_Part((), marks)]
        self.open = 1  # parts queued or being searched
        self.idle = 0  # threads waiting for a part
        # Solutions found, in order, as runs (key of the first, how many) of one pause each:
        # a count may find millions. Once ``limit`` are known, those past the ``limit``-th
        # earliest (``cut``, its key) are dropped.
        self.runs: list[tuple[Key, int]] = []
        self.known = 0
        self.cut: Key | None = None
        self.first: tuple[Key, IntArray] | None = None  # the earliest solution with values
        self.nodes = 0  # of parts finished or left
        self.guesses = 0
        self.allowed: dict[int, int] = {}  # nodes each running thread's part may reach
        self.stop: int | None = None  # STOP_NODES or STOP_TIMEOUT once the search gives up
        self.propagated = False
        self.error: BaseException | None = None
        # The other threads, started at the first pause: a search of a few milliseconds
        # (most puzzles) starts none.
        self.helpers: list[threading.Thread] = []

    # --- under the lock ---------------------------------------------------------------------

    def _record(self, key: Key, seen: int, count: int, values: IntArray) -> None:
        """A part with ``key`` has found solutions ``seen + 1 .. count`` (its first's values
        in ``values`` when ``seen`` is 0)."""
        if count == seen:
            return
        if seen == 0 and (self.first is None or (*key, -1, 1) < self.first[0]):
            self.first = ((*key, -1, 1), values.copy())
        bisect.insort(self.runs, ((*key, -1, seen + 1), count - seen))
        self.known += count - seen
        while self.known - self.runs[-1][1] >= self.limit:
            self.known -= self.runs.pop()[1]
        if self.known >= self.limit:
            start, size = self.runs[-1]
            size -= self.known - self.limit
            self.runs[-1] = (start, size)
            self.known = self.limit
            self.cut = (*start[:-1], start[-1] + size - 1)

    def _wanted(self, key: Key, rank: int) -> bool:
        """Whether a part with ``key``, whose next solution would be its ``rank``-th, could
        still find one earlier than the ``limit`` known (and the search goes on)."""
        if self.stop is not None or self.error is not None:
            return False
        return self.cut is None or (*key, -1, rank) < self.cut

    def _take(self) -> _Part | None:
        """The next part to search (the earliest queued), None when all is done."""
        while True:
            wanted = [part for part in self.queue if self._wanted(part.key, 1)]
            self.open -= len(self.queue) - len(wanted)
            self.queue = wanted
            if wanted:
                part = min(wanted, key=lambda p: p.key)
                self.queue.remove(part)
                return part
            if self.open == 0 or self.stop is not None or self.error is not None:
                self.lock.notify_all()
                return None
            self.idle += 1
            self.lock.wait()
            self.idle -= 1

    # --- each thread ------------------------------------------------------------------------

    def work(self, workspace: Workspace | None = None) -> None:
        """Search parts until none is left: one thread's loop."""
        try:
            values = np.zeros((1, self.topology.n_cells), dtype=np.int32)
            stats = np.zeros((1, N_STATS), dtype=np.int64)
            while True:
                with self.lock:
                    part = self._take()
                if part is None:
                    return
                workspace = workspace or Workspace(self.topology, self.probe)
                self._search(part, workspace, values, stats)
        except BaseException as error:  # Ctrl-C too: raised once every thread has stopped
            with self.lock:
                self.error = self.error or error
                self.lock.notify_all()

    def _search(
        self,
        part: _Part,
        work: Workspace,
        values: IntArray,
        stats: NDArray[np.int64],
    ) -> None:
        """Search one part, pausing every few milliseconds to record solutions, hand work
        to idle threads, and stop when the part cannot matter or the search gives up."""
        me = threading.get_ident()
        began = time.monotonic()
        work.regs[:] = 0
        work.regs[REG_KEEP] = part.weights is not None
        if part.weights is not None:
            work.scratch[2][:] = part.weights
        if part.history is not None and work.probing is not None:
            work.probing[4][:] = part.history
        givens = self.givens if part.key == () else np.zeros_like(self.givens)
        marks = None if part.marks is None else part.marks[None, :]
        key = part.key
        seen = 0  # solutions of this part recorded
        with self.lock:
            budget = self._budget(me, 0)
            if budget < 1:  # even its root would pass max_nodes
                self.stop = STOP_NODES
                self._close(me)
                return
        while True:
            arguments = work.arguments(
                givens, marks, 0, self.limit, budget, 1, self.pause_ticks, values, stats
            )
            work.kernel(*arguments)
            if work.regs[REG_GROW]:
                work.regs[REG_GROW] = 0
                work.grow()
            row = stats[0]
            with self.lock:
                count = int(row[STAT_COUNT])
                self._record(key, seen, count, values[0])
                seen = count
                active = bool(work.regs[REG_ACTIVE])
                if not active and row[STAT_STOP] == STOP_NODES:
                    self.stop = STOP_NODES
                if time.monotonic() > self.deadline and self.stop is None:
                    self.stop = STOP_TIMEOUT
                if not active or not self._wanted(key, count + 1):
                    self.nodes += int(row[STAT_NODES])
                    self.guesses += int(row[STAT_GUESSES])
                    if key == ():
                        self.propagated = bool(row[STAT_PROPAGATED])
                    self._close(me)
                    return
                if not self.helpers and self.threads > 1:
                    self._start_helpers()
                if self.idle and not self.queue:
                    per_node = (time.monotonic() - began) / max(int(row[STAT_NODES]), 1)
                    if self.deadline - time.monotonic() > HAND_NODES * per_node:
                        key = self._hand(work, key)
                budget = self._budget(me, int(row[STAT_NODES]))

    def _start_helpers(self) -> None:
        self.helpers = [
            threading.Thread(target=self.work, daemon=True) for _ in range(self.threads - 1)
        ]
        for helper in self.helpers:
            helper.start()

    def _close(self, me: int) -> None:
        """Thread ``me`` is done with its part."""
        self.allowed.pop(me, None)
        self.open -= 1
        self.lock.notify_all()

    def _budget(self, me: int, nodes: int) -> int:
        """The nodes the part of thread ``me``, at ``nodes`` now, may reach before its next
        pause: a thread's share of what neither finished parts nor the others' allowances
        hold, so that the threads together never pass ``max_nodes``. A part that reaches its
        allowance stops the search, which may then end short of ``max_nodes`` (by at most
        what the others were allowed)."""
        others = sum(n for thread, n in self.allowed.items() if thread != me)
        left = max(self.max_nodes - self.nodes - others - nodes, 0)
        self.allowed[me] = nodes + left // self.threads
        return self.allowed[me]

    def _hand(self, work: Workspace, key: Key) -> Key:
        """Hand the shallowest open ``cell ≠ value`` branch of a paused search to the queue;
        the giver's new key."""
        for level in range(int(work.regs[REG_DEPTH]) + 1):
            c = int(work.cell_at[level])
            bit = work.bit_at[level]
            if c >= 0 or bit == 0:
                continue
            marks = work.stack[level].copy()
            marks[-1 - c] &= ~bit
            work.bit_at[level] = 0
            history = None if work.probing is None else work.probing[4].copy()
            self.queue.append(_Part((*key, 1), marks, work.scratch[2].copy(), history))
            self.open += 1
            self.lock.notify()
            return (*key, 0)
        return key


def solve_split(
    topology: Topology,
    givens: IntArray,
    limit: int,
    max_nodes: int,
    timeout: float,
    threads: int,
    progress: Callable[[int], None] | None = None,
    marks: NDArray[np.uint64] | None = None,
    probe: bool = True,
    pause: float = PAUSE_SECONDS,
) -> BatchResult:
    """Search one checked puzzle (``givens``: ``(cells,)``; ``marks``: its pencil marks or
    None) over ``threads`` threads, this one among them; a one-puzzle :class:`BatchResult`
    whose seconds are wall seconds. ``pause``: seconds between a thread's looks at the
    others (tests make it small so that tiny puzzles split too)."""
    check_limits(limit, max_nodes, timeout)
    threads = max(1, min(threads, MAX_THREADS))
    work = Workspace(topology, probe)
    ready(work, givens, marks, limit)  # before the timeout's clock starts
    start = time.perf_counter()
    split = _Split(
        topology, givens[None, :], marks, limit, max_nodes, timeout, threads, probe, pause
    )
    split.work(work)
    for helper in split.helpers:  # started by now, if ever: this thread has finished
        helper.join()
    if split.error is not None:
        raise split.error
    if progress is not None:
        progress(1)
    return _result(split, time.perf_counter() - start)


def _result(split: _Split, seconds: float) -> BatchResult:
    """The one-puzzle batch result of a finished split search."""
    stats = np.zeros((1, N_STATS), dtype=np.int64)
    values = np.zeros((1, split.topology.n_cells), dtype=np.int32)
    found = split.known
    if found >= split.limit:
        stop = STOP_SOLUTIONS
    else:
        stop = STOP_COMPLETE if split.stop is None else split.stop
    if split.first is not None:
        values[0] = split.first[1]
    stats[0, STAT_STOP] = stop
    stats[0, STAT_COUNT] = found
    stats[0, STAT_NODES] = split.nodes
    stats[0, STAT_GUESSES] = split.guesses
    stats[0, STAT_PROPAGATED] = split.propagated
    return BatchResult(values, stats, np.array([seconds]), split.limit)
