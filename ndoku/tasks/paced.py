"""A batch solved on this machine a chunk at a time, here while that is quick and then in
worker processes, its results yielded in input order as they come: lines
(:func:`paced_lines`), runs (:func:`paced_runs`) and counts (:func:`paced_counts`).

Glossary
--------
part
    Consecutive puzzles of a batch as they come: a table of one-line puzzles or a list of
    puzzles, the whole batch or a piece of a long file (:class:`~ndoku.model.table.TableStream`).
pace
    Chunks solved here start at one puzzle and double while each takes less than
    :data:`CHUNK_SECONDS`, so that a batch of slow puzzles gives its first answer after one
    of them and every answer comes out within a fraction of a second of being found. From
    the time per puzzle so far, the rest of the batch is handed to worker processes once it
    would take more than :data:`~ndoku.solvers.exact.PARALLEL_SECONDS` here (each worker
    costs about a second to start), in jobs of about :data:`JOB_SECONDS`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from functools import partial
from typing import Any, TypeVar, cast

from ndoku.model.puzzle import Puzzle
from ndoku.model.table import PuzzleTable, TableStream
from ndoku.solvers.exact import PARALLEL_SECONDS
from ndoku.tasks.chunks import (
    check_reply,
    count_chunk,
    lines_chunk,
    search_table,
    solve_chunk,
    table_chunk,
    to_chunk,
    unpack,
)
from ndoku.tasks.count import Count, count_all
from ndoku.tasks.lines import LineOutcomes, PuzzleOutcomes, checked, lost, solve_lines
from ndoku.tasks.runs import Runs, solve_runs
from ndoku.tasks.solve import Options, Outcome, solve_all
from ndoku.tasks.workers import Job, WorkerLost, run_jobs

R = TypeVar("R")
Part = PuzzleTable | Sequence[Puzzle]
P = TypeVar("P", bound=Part)
Progress = Callable[[int], None] | None

#: Seconds a chunk solved here may take before the next one stops growing.
CHUNK_SECONDS = 0.05
#: Seconds of work a job for a worker process holds, about.
JOB_SECONDS = 0.5
#: Puzzles per chunk (or job) at most, by what is done to them: an exact search takes
#: microseconds to milliseconds (most of them for a table of lines, without a Puzzle each),
#: a chain, a rating or a generated puzzle up to seconds.
MOST_PER_CHUNK = {"lines": 5000, "exact": 1000, "slow": 8, "generate": 1}
#: Results that may wait for an earlier job's before no new job is taken.
HELD_MOST = 8


def paced_lines(
    table: PuzzleTable | TableStream,
    options: Options,
    *,
    jobs: int = 1,
    progress: Progress = None,
) -> Iterator[LineOutcomes | PuzzleOutcomes]:
    """:func:`~ndoku.tasks.lines.solve_lines` of a table, or of a long file's as it is read
    (puzzles of pieces the table does not take are solved one by one): the outcomes of
    consecutive parts, in order, as they are solved.

    >>> from ndoku.model.table import read_table
    >>> table = read_table("1000003004000002\\n0000000000000000\\n")
    >>> [part.statuses().tolist() for part in paced_lines(table, Options())]
    [['solved'], ['multiple']]
    """
    stream, parts = (table, table) if isinstance(table, TableStream) else (None, [table])
    return paced(
        parts,
        lambda part, step: _lines_here(part, options, step),
        lambda part: lines_job(part, options, search_table),
        lambda job, reply: lines_back(job, reply, options.limit),
        lambda part: part.seconds,
        jobs=jobs,
        most=MOST_PER_CHUNK["lines"],
        progress=progress,
        left=(lambda: 0) if stream is None else stream.left,
    )


def paced_runs(
    puzzles: Sequence[Puzzle],
    method: str,
    options: Options,
    runs: int = 1,
    *,
    jobs: int = 1,
    progress: Progress = None,
) -> Iterator[Runs]:
    """:func:`~ndoku.tasks.runs.solve_runs`, each puzzle's runs as they are done (a chain's
    as soon as it ends); ``progress`` counts puzzle runs. Only the exact search (one run)
    goes to worker processes: chains run here, one at a time."""
    spreads = method in ("auto", "exact") and runs == 1
    done = paced(
        [puzzles],
        lambda chunk, step: solve_runs(chunk, method, options, runs, progress=_per(step, runs)),
        lambda chunk: Job(
            solve_chunk, (to_chunk(chunk), options), {"method": method}, len(chunk), chunk
        ),
        lambda job, reply: [Runs((o,)) for o in outcomes_back(job, reply, method)],
        lambda solved: sum(o.seconds for tried in solved for o in tried.outcomes),
        jobs=jobs if spreads else 1,
        most=MOST_PER_CHUNK["exact"] if spreads else 1,
        progress=None if progress is None else lambda done: progress(done * runs),
    )
    for solved in done:
        yield from solved


def paced_counts(
    puzzles: Sequence[Puzzle] | PuzzleTable | TableStream,
    options: Options,
    *,
    jobs: int = 1,
    progress: Progress = None,
) -> Iterator[list[Count]]:
    """:func:`~ndoku.tasks.count.count_all`, the counts of each chunk as it is done; of a
    table (or a long file's), by :func:`paced_lines`."""
    if isinstance(puzzles, PuzzleTable | TableStream):
        for part in paced_lines(puzzles, options, jobs=jobs, progress=progress):
            yield part.counts()
        return
    yield from paced(
        [puzzles],
        lambda chunk, step: count_all(chunk, options, progress=step),
        lambda chunk: Job(count_chunk, (to_chunk(chunk), options), {}, len(chunk), chunk),
        lambda job, reply: _counts_back(job, reply, options.limit),
        lambda counts: sum(c.result.seconds for c in counts if c.result is not None),
        jobs=jobs,
        most=MOST_PER_CHUNK["exact"],
        progress=progress,
    )


def in_order(
    run: Callable[[Callable[[], bool]], Generator[tuple[int, Job, Any] | None]],
    progress: Progress,
    before: int = 0,
) -> Iterator[tuple[Job, Any]]:
    """Jobs' results numbered as they finish (``None``: a tick while none does), in number
    order: ``run(room)`` starts them, taking a new job only while ``room()``, that is while
    fewer than :data:`HELD_MOST` results wait for an earlier one (a stalled job would
    otherwise let every later result pile up here). ``progress`` gets the puzzles finished
    (``before`` and the sizes of the jobs), at each result and each tick. Stopped early (an
    error, Ctrl-C in ``progress``, a loop left), it stops what ``run`` started, which stops or
    cancels what is not done.

    >>> def run(room):  # job 0 finishes last
    ...     for n in (1, 2, 0):
    ...         yield n, Job(len, (), size=1), n
    >>> [result for _, result in in_order(run, None)]
    [0, 1, 2]
    """
    waiting: dict[int, tuple[Job, Any]] = {}
    arrived = run(lambda: len(waiting) < HELD_MOST)
    following, done = 0, before
    try:
        for item in arrived:
            if item is not None:
                number, job, result = item
                waiting[number] = (job, result)
                done += job.size
            if progress is not None:
                progress(done)
            while following in waiting:
                yield waiting.pop(following)
                following += 1
    finally:
        arrived.close()


def paced(
    parts: Iterable[P],
    here: Callable[[P, Progress], R],
    job: Callable[[P], Job],
    finish: Callable[[Job, Any], R],
    seconds: Callable[[R], float],
    *,
    jobs: int,
    most: int,
    progress: Progress = None,
    left: Callable[[], int | None] = lambda: 0,
) -> Iterator[R]:
    """The results of a batch in order, a chunk at a time (see the glossary).

    Parameters
    ----------
    parts : iterable of PuzzleTable or sequence of Puzzle
        The batch as it comes.
    here : callable
        Solves a chunk in this process: ``here(chunk, progress)``.
    job, finish
        The :class:`~ndoku.tasks.workers.Job` that solves a chunk in a worker process (its
        ``tag`` the chunk), and the result from the job and what the worker sent back (a
        :class:`~ndoku.tasks.workers.WorkerLost` when it died).
    seconds : callable
        The seconds a result says its solving took: the pace leaves out the time the first
        chunk spends loading the kernels.
    jobs : int
        Worker processes at most; 1 solves everything here.
    most : int
        Puzzles of a chunk or a job at most.
    progress : callable, optional
        Called with the puzzles finished, every few milliseconds (a tenth of a second at
        most while workers work); it may raise to stop the batch.
    left : callable
        Puzzles the parts have not brought yet (estimated), None when that is not known
        (then the batch is taken to last as long again as it has so far).

    >>> from ndoku.model.puzzle import read_puzzles
    >>> puzzles = read_puzzles(text="1000003004000002\\n" * 5)
    >>> sizes = paced([puzzles], lambda c, _: len(c), None, None, lambda _: 0.0, jobs=1, most=8)
    >>> list(sizes)
    [1, 2, 2]
    """
    pace = _Pace(most)
    taken = iter(parts)
    for part in taken:
        start = 0
        while start < len(part):
            later = left()
            rest = len(part) - start + (pace.puzzles if later is None else later)
            if jobs > 1 and pace.per_puzzle * rest > PARALLEL_SECONDS:
                size = pace.job_size()
                rest_parts = itertools.chain([cut(part, start, len(part))], taken)
                work = (
                    job(cut(p, a, a + size)) for p in rest_parts for a in range(0, len(p), size)
                )
                run = partial(run_jobs, work, jobs)
                for done, reply in in_order(run, progress, pace.puzzles):
                    yield finish(done, reply)
                return
            chunk = cut(part, start, start + pace.size)
            result = here(chunk, _shifted(progress, pace.puzzles))
            pace.add(len(chunk), seconds(result))
            start += len(chunk)
            yield result


def cut(part: P, start: int, stop: int) -> P:
    """Puzzles ``start .. stop - 1`` of a part (as many as there are)."""
    if isinstance(part, PuzzleTable):
        return cast(P, part.rows(start, min(stop, len(part))))
    return cast(P, part[start:stop])


def _shifted(progress: Progress, before: int) -> Progress:
    if progress is None:
        return None
    return lambda done: progress(before + done)


class _Pace:
    """Chunks solved here so far: how many puzzles, how long, how big the next one is."""

    def __init__(self, most: int):
        self.most = most
        self.puzzles, self.seconds, self.size = 0, 0.0, 1

    @property
    def per_puzzle(self) -> float:
        return self.seconds / max(self.puzzles, 1)

    def add(self, puzzles: int, seconds: float) -> None:
        self.puzzles += puzzles
        self.seconds += seconds
        quick = int(CHUNK_SECONDS * puzzles / max(seconds, 1e-9))
        self.size = max(1, min(2 * self.size, quick, self.most))

    def job_size(self) -> int:
        return max(1, min(int(JOB_SECONDS / max(self.per_puzzle, 1e-9)), self.most))


# --- jobs for worker processes, and their results back here -----------------------------------


def _per(progress: Progress, runs: int) -> Progress:
    """``progress`` of puzzle runs as progress of puzzles."""
    return None if progress is None else lambda done: progress(done // runs)


def _lines_here(part: Part, options: Options, progress: Progress) -> LineOutcomes | PuzzleOutcomes:
    if isinstance(part, PuzzleTable):
        return solve_lines(part, options, progress=progress)
    return PuzzleOutcomes(solve_all(part, "auto", options, progress=progress), options.limit)


def lines_job(part: Part, options: Options, function: Callable[..., Any]) -> Job:
    """The job of a part of a batch of lines: a table's rows with ``function``
    (:func:`~ndoku.tasks.chunks.search_table` on this machine, which sends arrays,
    :func:`~ndoku.tasks.chunks.lines_chunk` on a cluster, which sends text), puzzles with
    :func:`~ndoku.tasks.chunks.solve_chunk`."""
    if not isinstance(part, PuzzleTable):
        return Job(solve_chunk, (to_chunk(part), options), {"method": "auto"}, len(part), part)
    if function is search_table:
        return Job(search_table, (part.puzzle(0), part.givens, options), {}, len(part), part)
    return Job(lines_chunk, (table_chunk(part, 0, len(part)), options), {}, len(part), part)


def lines_back(job: Job, reply: Any, limit: int) -> LineOutcomes | PuzzleOutcomes:
    """The outcomes of a job of :func:`lines_job` from what its worker sent back."""
    part = job.tag
    if isinstance(reply, WorkerLost):
        return lost(part, reply, limit)
    if job.function is search_table:
        return checked(part, reply)
    if job.function is lines_chunk:
        return LineOutcomes(part, check_reply(job.args[0], reply))
    return PuzzleOutcomes(outcomes_back(job, reply, "auto"), limit)


def outcomes_back(job: Job, reply: Any, method: str) -> list[Outcome]:
    """The outcomes of a job of :func:`~ndoku.tasks.chunks.solve_chunk` (``tag``: its
    puzzles), or their ``error`` outcomes when its worker died."""
    if isinstance(reply, WorkerLost):
        return [Outcome.lost(p, method, reply) for p in job.tag]
    outcomes: list[Outcome] = unpack(check_reply(job.args[0], reply), puzzle=job.tag)
    return outcomes


def _counts_back(job: Job, reply: Any, limit: int) -> list[Count]:
    if isinstance(reply, WorkerLost):
        return [Count(None, limit, str(reply))] * job.size
    counts: list[Count] = unpack(check_reply(job.args[0], reply))
    return counts
