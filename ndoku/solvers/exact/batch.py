"""The exact search's entry points: one puzzle (:func:`solve_exact`, its search split over
threads when asked) and many at once (:func:`solve_table`, :func:`solve_batch`): those of
one layout share kernel calls, in doubling chunks in this process while the rest looks
quick, then in worker processes."""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError
from ndoku.limits import DEFAULT_LIMIT, DEFAULT_MAX_NODES, DEFAULT_TIMEOUT
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.exact.each import solve_grouped
from ndoku.solvers.exact.solver import (
    PAUSE_SECONDS,
    BatchResult,
    ExactResult,
    check_limits,
    solve_array,
)
from ndoku.solvers.exact.split import MOST_CELLS, solve_split
from ndoku.solvers.tables import IntArray, Topology, check_givens

#: A batch is handed to worker processes only when what is left of it would take longer than
#: this in one process: each worker spends about a second importing numba and loading kernels.
PARALLEL_SECONDS = 2.0


def solve_table(
    puzzle: Puzzle,
    givens: IntArray,
    *,
    limit: int = DEFAULT_LIMIT,
    max_nodes: int = DEFAULT_MAX_NODES,
    timeout: float = DEFAULT_TIMEOUT,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    marks: NDArray[np.uint64] | None = None,
    probe: bool = True,
    threads: int = 1,
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
    threads : int
        A batch of one puzzle is split over this many threads, as in :func:`solve_exact`.
    progress : callable, optional
        Called with the number of puzzles finished so far, every few milliseconds.
    marks : ndarray of uint64, shape (puzzles, cells), optional
        Each puzzle's pencil marks: its cells keep within them (bit ``v - 1`` for value v).
    probe : bool
        As in :func:`solve_exact`.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> batch = solve_table(p, np.stack([p.givens, np.zeros(16, dtype=np.int32)]))
    >>> [r.status for r in batch], batch.counts.tolist()
    (['solved', 'multiple'], [1, 2])
    """
    topology = Topology.of(puzzle)
    table = check_givens(topology, givens, batch=True)
    if jobs < 1:
        raise NdokuError(f"jobs must be 1 or more, got {jobs}")
    if marks is not None:
        marks = np.ascontiguousarray(marks, dtype=np.uint64)
        if marks.shape != table.shape:
            raise NdokuError(f"marks must have the givens' shape {table.shape}, got {marks.shape}")
    if len(table) == 1:
        return _solve_one(
            topology, table[0], limit, max_nodes, timeout, threads, progress, marks, probe
        )
    if jobs == 1 or not len(table):
        return solve_array(topology, table, limit, max_nodes, timeout, progress, marks, probe)
    return _solve_spread(topology, table, limit, max_nodes, timeout, jobs, progress, marks, probe)


def solve_exact(
    puzzle: Puzzle,
    *,
    limit: int = DEFAULT_LIMIT,
    max_nodes: int = DEFAULT_MAX_NODES,
    timeout: float = DEFAULT_TIMEOUT,
    givens: IntArray | None = None,
    probe: bool = True,
    threads: int = 1,
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
        ``(cells,)`` values to use instead of the puzzle's givens (0 for free cells). A
        puzzle read from pencil marks keeps every cell within its candidates either way.
    probe : bool
        From :data:`PROBE_FROM` on, try both sides of every two-way choice at each node
        (see :mod:`ndoku.solvers.exact`). False searches with propagation alone: dearer on
        a hard minimal 25×25, but five to ten times cheaper over the generator's thousands
        of small removal checks.
    threads : int
        Split the search over this many threads once it takes more than a few milliseconds
        (:mod:`~ndoku.solvers.exact.split`; not the classic 9×9's own search, nor grids
        larger than 36×36). The answer, count and status are those of one thread; nodes
        and guesses vary from run to run.

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
    marks = None if puzzle.candidates is None else puzzle.candidates[None, :]
    start = time.perf_counter()
    batch = _solve_one(topology, one, limit, max_nodes, timeout, threads, None, marks, probe)
    batch.seconds[0] = time.perf_counter() - start  # the whole call's, as its result says
    return batch.result(0)


def _solve_one(
    topology: Topology,
    givens: IntArray,
    limit: int,
    max_nodes: int,
    timeout: float,
    threads: int,
    progress: Callable[[int], None] | None,
    marks: NDArray[np.uint64] | None,
    probe: bool,
) -> BatchResult:
    """One checked puzzle (``givens``: ``(cells,)``), split over ``threads`` threads
    unless it has the classic 9×9's search or more than :data:`MOST_CELLS` cells;
    ``marks``: ``(1, cells)`` or None."""
    if threads < 1:
        raise NdokuError(f"threads must be 1 or more, got {threads}")
    if threads == 1 or (topology.classic and marks is None) or topology.n_cells > MOST_CELLS:
        return solve_array(
            topology, givens[None, :], limit, max_nodes, timeout, progress, marks, probe
        )
    one_marks = None if marks is None else marks[0]
    return solve_split(
        topology, givens, limit, max_nodes, timeout, threads, progress, one_marks, probe
    )


def solve_batch(
    puzzles: Sequence[Puzzle],
    *,
    limit: int = DEFAULT_LIMIT,
    max_nodes: int = DEFAULT_MAX_NODES,
    timeout: float = DEFAULT_TIMEOUT,
    jobs: int = 1,
    threads: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[ExactResult]:
    """Solve many puzzles; those of one layout share kernel calls (with variant rules too:
    :func:`~ndoku.solvers.exact.each.solve_each`). Results in input order.

    Parameters are as in :func:`solve_table`.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> text = "1000003004000002\\n" "0000000000000000\\n"
    >>> [r.status for r in solve_batch(read_puzzles(text=text))]
    ['solved', 'multiple']
    """
    results: list[ExactResult | None] = [None] * len(puzzles)
    groups: dict[object, list[int]] = {}
    # Pencil-marked puzzles apart: the others keep the search of their layout (the 9×9's
    # own), whichever puzzles share their batch. Puzzles with constraints share one of their
    # layout, each searched under its own; one alone too, so that one kernel serves a file
    # (the CLI's first chunk is one puzzle: on an empty cache it compiled a second search).
    for i, p in enumerate(puzzles):
        marked = p.candidates is not None
        each = not marked and len(p.lowered.packed.kinds) > 0
        ours: object = (p.frame.key, "each") if each else (p.frame.key, marked, p.rules)
        groups.setdefault(ours, []).append(i)
    finished = 0
    for key, members in groups.items():

        def report(done: int, base: int = finished) -> None:
            if progress is not None:
                progress(base + done)

        batch: Iterable[ExactResult]
        if isinstance(key, tuple) and key[1] == "each":
            batch = _solve_each_group(
                [puzzles[i] for i in members], limit, max_nodes, timeout, threads, report
            )
        else:
            batch = _solve_group(
                [puzzles[i] for i in members], limit, max_nodes, timeout, jobs, threads, report
            )
        if len(members) == len(puzzles):  # one group (most files): in order already
            return list(batch)
        for i, result in zip(members, batch, strict=True):
            results[i] = result
        finished += len(members)
    return [r for r in results if r is not None]


def _solve_each_group(
    puzzles: Sequence[Puzzle],
    limit: int,
    max_nodes: int,
    timeout: float,
    threads: int,
    progress: Callable[[int], None],
) -> list[ExactResult]:
    """Puzzles of one layout with constraints of their own, in one kernel call
    (:func:`~ndoku.solvers.exact.each.solve_each`). With ``threads``, a puzzle that call
    leaves unfinished after :data:`~ndoku.solvers.exact.solver.PAUSE_SECONDS`, when a split
    search would start handing out branches, is searched again over the threads (its time
    counts both)."""
    budget = timeout if threads == 1 else min(timeout, PAUSE_SECONDS)
    results = list(solve_grouped(puzzles, limit, max_nodes, budget, progress))
    if budget < timeout:
        for j, result in enumerate(results):
            if result.stop == "timeout":
                # counted done by the first call already: no progress going back
                again = _solve_group(
                    [puzzles[j]], limit, max_nodes, timeout - result.seconds, 1, threads, None
                ).result(0)
                results[j] = replace(again, seconds=again.seconds + result.seconds)
    return results


def _solve_group(
    puzzles: Sequence[Puzzle],
    limit: int,
    max_nodes: int,
    timeout: float,
    jobs: int,
    threads: int,
    progress: Callable[[int], None] | None,
) -> BatchResult:
    """Puzzles of one layout and the same rules, in one table (:func:`solve_table`)."""
    table = np.array([p.givens for p in puzzles])  # as solve_each has them
    marked = [m for p in puzzles if (m := p.candidates) is not None]
    return solve_table(
        puzzles[0],
        table,
        limit=limit,
        max_nodes=max_nodes,
        timeout=timeout,
        jobs=jobs,
        progress=progress,
        marks=np.stack(marked) if marked else None,
        threads=threads,
    )


def _solve_spread(
    topology: Topology,
    givens: IntArray,
    limit: int,
    max_nodes: int,
    timeout: float,
    jobs: int,
    progress: Callable[[int], None] | None,
    marks: NDArray[np.uint64] | None,
    probe: bool,
) -> BatchResult:
    """Solve here in doubling chunks while the rest looks quick, then hand the rest to workers.

    The time per puzzle measured so far estimates the rest, so a batch of easy 9×9 puzzles
    never pays for starting workers and one of 25×25 puzzles reaches them after one puzzle.
    """
    parts: list[BatchResult] = []
    done, spent, chunk = 0, 0.0, 1
    while done < len(givens):
        rest = givens[done:]
        rest_marks = None if marks is None else marks[done:]

        def report(k: int, base: int = done) -> None:
            if progress is not None:
                progress(base + k)

        if spent / max(done, 1) * len(rest) > PARALLEL_SECONDS:
            parts.append(
                solve_parallel(
                    topology, rest, limit, max_nodes, timeout, jobs, report, rest_marks, probe
                )
            )
            break
        head = None if rest_marks is None else rest_marks[:chunk]
        part = solve_array(topology, rest[:chunk], limit, max_nodes, timeout, report, head, probe)
        parts.append(part)
        done, spent, chunk = done + len(part), spent + float(part.seconds.sum()), 2 * chunk
    return join_results(parts, limit)


def join_results(parts: Sequence[BatchResult], limit: int) -> BatchResult:
    """The results of consecutive parts of a batch as those of the whole batch."""
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
    marks: NDArray[np.uint64] | None = None,
    probe: bool = True,
) -> BatchResult:
    """Chunks of the batch over ``jobs`` worker processes (spawned: safe on every platform)."""
    check_limits(limit, max_nodes, timeout)
    pieces = min(len(givens), 4 * jobs)
    chunks = np.array_split(givens, pieces)
    marked = [None] * pieces if marks is None else np.array_split(marks, pieces)
    context = multiprocessing.get_context("spawn")
    done = 0
    parts: list[BatchResult] = []
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = [
            pool.submit(solve_array, topology, chunk, limit, max_nodes, timeout, None, part, probe)
            for chunk, part in zip(chunks, marked, strict=True)
        ]
        for future in futures:
            part = future.result()
            parts.append(part)
            done += len(part)
            if progress is not None:
                progress(done)
    return join_results(parts, limit)
