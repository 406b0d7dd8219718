"""Batches of puzzles solved, counted, rated or generated here or on a Dask cluster, results
in input order.

Each ``*_many`` function returns a list; its ``iter_*`` form yields the same results, in
input order, as they arrive. Without a ``client`` the work runs on this machine: solving
and counting a chunk at a time here, then in ``jobs`` worker processes when the rest is
long (:mod:`ndoku.tasks.paced`; a worker that dies gives its puzzles the ``error`` status);
with a ``distributed.Client`` (the dask extra: ``pip install distributed``, or in ndoku's
clone ``pip install -e '.[dask]'``) it goes to the cluster in chunks of puzzles as text
(:mod:`ndoku.tasks.chunks`), which the workers read back, solve and verify; a chunk whose
worker fails or is lost is run again by Dask. A batch of one-line puzzles may come as a
:class:`~ndoku.model.table.TableStream`, read as it is solved.
Generation gives puzzle ``k`` the seed ``seed + k``, wherever it runs, so a cluster makes the
same puzzles as this machine does.

Glossary
--------
chunk
    Consecutive puzzles of a batch sent to a worker together; by default a batch is cut into
    about :data:`CHUNKS_PER_WORKER` chunks per worker thread, of at most
    :data:`~ndoku.tasks.paced.MOST_PER_CHUNK` puzzles (for the exact search; fewer for
    slower work).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from ndoku.errors import NdokuError, VerificationError
from ndoku.limits import DEFAULT_TIMEOUT, RATE_MAX_PROPOSALS
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.model.table import PuzzleTable, TableStream
from ndoku.tasks.chunks import (
    Made,
    Reply,
    check_reply,
    count_chunk,
    fingerprint,
    generate_chunk,
    lines_chunk,
    rate_chunk,
    solve_chunk,
    to_chunk,
    unpack,
)
from ndoku.tasks.count import Count
from ndoku.tasks.generate import Generated, GenerateTimeout, generate, layout_puzzle
from ndoku.tasks.lines import LineOutcomes, PuzzleOutcomes
from ndoku.tasks.paced import (
    MOST_PER_CHUNK,
    Progress,
    cut,
    in_order,
    lines_back,
    lines_job,
    outcomes_back,
    paced_counts,
    paced_lines,
    paced_runs,
)
from ndoku.tasks.rate import Rating, rate
from ndoku.tasks.runs import Runs
from ndoku.tasks.solve import METHODS, Options, Outcome
from ndoku.tasks.workers import Job, WorkerLost, run_jobs

if TYPE_CHECKING:
    from distributed import Client

P = ParamSpec("P")
R = TypeVar("R")

#: Chunks per worker thread a batch is cut into by default: enough that a slow chunk does
#: not keep the others waiting, few enough that the work of sending one stays small.
CHUNKS_PER_WORKER = 4


def chunk_size(puzzles: int, threads: int, kind: str = "exact") -> int:
    """Puzzles per chunk for a batch over ``threads`` worker threads (see the glossary).

    >>> chunk_size(100_000, 2), chunk_size(50, 2), chunk_size(50, 2, "slow"), chunk_size(3, 8)
    (1000, 7, 7, 1)
    """
    even = math.ceil(puzzles / (CHUNKS_PER_WORKER * max(threads, 1)))
    return max(1, min(MOST_PER_CHUNK[kind], even))


def _listed(iterate: Callable[P, Iterator[R]], doc: str) -> Callable[P, list[R]]:
    """The list form of an ``iter_*`` function: its parameters, every result at once."""

    def listed(*args: P.args, **kwargs: P.kwargs) -> list[R]:
        return list(iterate(*args, **kwargs))

    listed.__doc__ = doc
    listed.__name__ = listed.__qualname__ = iterate.__name__.removeprefix("iter_") + "_many"
    return listed


def iter_runs(
    puzzles: Sequence[Puzzle],
    method: str = "auto",
    options: Options | None = None,
    runs: int = 1,
    *,
    jobs: int = 1,
    client: Client | None = None,
    chunk: int | None = None,
    progress: Progress = None,
) -> Iterator[Runs]:
    """:func:`~ndoku.tasks.runs.solve_runs` as results arrive: each puzzle's runs (seeds
    ``options.seed`` upwards), in input order, once all of them are done.

    ``progress`` is called with the number of puzzle runs done. The other parameters are
    those of :func:`iter_solve`.
    """
    if method not in METHODS:
        raise NdokuError(f"unknown method {method!r} (known: {', '.join(METHODS)})")
    if runs < 1:
        raise NdokuError(f"runs must be 1 or more, got {runs}")
    options = options or Options()
    if client is None:
        yield from paced_runs(puzzles, method, options, runs, jobs=jobs, progress=progress)
        return
    kind = "exact" if method in ("auto", "exact") else "slow"
    size = chunk or chunk_size(len(puzzles) * runs, _threads(client), kind)
    seeded = [replace(options, seed=options.seed + r) for r in range(runs)]
    work = (
        Job(solve_chunk, (sent, seeded[r]), {"method": method}, len(part), part)
        for part in _parts(puzzles, size)
        for sent in [to_chunk(part)]
        for r in range(runs)
    )
    tried: list[list[Outcome]] = []
    for job, reply in in_order(_replies(client, jobs, work), progress):
        tried.append(outcomes_back(job, reply, method))
        if len(tried) == runs:
            yield from (Runs(tuple(one)) for one in zip(*tried, strict=True))
            tried = []


def iter_solve(
    puzzles: Sequence[Puzzle],
    method: str = "auto",
    options: Options | None = None,
    *,
    jobs: int = 1,
    client: Client | None = None,
    chunk: int | None = None,
    progress: Progress = None,
) -> Iterator[Outcome]:
    """Solve a batch, here or on a Dask cluster: a verified outcome per puzzle, yielded in
    input order as they arrive.

    Parameters
    ----------
    puzzles : sequence of Puzzle
    method, options
        As in :func:`~ndoku.tasks.solve.solve_all`.
    jobs : int
        Without a client, worker processes on this machine (for the exact methods).
    client : distributed.Client, optional
        Send the work to this Dask cluster.
    chunk : int, optional
        Puzzles per chunk on the cluster [default: :func:`chunk_size`].
    progress : callable, optional
        Called with the number of puzzles done so far.

    Examples
    --------
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> [o.status for o in iter_solve([p, p])]
    ['solved', 'solved']
    >>> from distributed import Client  # doctest: +SKIP
    >>> solve_many([p, p], client=Client("tcp://scheduler:8786"))  # doctest: +SKIP
    """
    for tried in iter_runs(
        puzzles, method, options, jobs=jobs, client=client, chunk=chunk, progress=progress
    ):
        yield tried.outcomes[0]


solve_many = _listed(
    iter_solve,
    """The outcomes of :func:`iter_solve` in a list: one verified outcome per puzzle, in order.

    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> [o.status for o in solve_many([p, p])]
    ['solved', 'solved']
    """,
)


def iter_count(
    puzzles: Sequence[Puzzle] | PuzzleTable | TableStream,
    options: Options | None = None,
    *,
    jobs: int = 1,
    client: Client | None = None,
    chunk: int | None = None,
    progress: Progress = None,
) -> Iterator[Count]:
    """Count the solutions of a batch, up to ``options.limit``, here or on a Dask cluster:
    a count per puzzle, in input order as they arrive. The parameters are those of
    :func:`iter_solve`; the puzzles may be a table or a stream of them
    (:func:`iter_lines`), and a puzzle whose worker process died counts as ``error``.

    Examples
    --------
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 0 0\\n0 0 0 0\\n0 0 0 2\\n")
    >>> [c.text() for c in iter_count([p], Options(limit=5))]
    ['≥5']
    """
    options = options or Options()
    if client is None:
        for counts in paced_counts(puzzles, options, jobs=jobs, progress=progress):
            yield from counts
        return
    if isinstance(puzzles, PuzzleTable | TableStream):
        spread = iter_lines(puzzles, options, client=client, chunk=chunk, progress=progress)
        for part in spread:
            yield from part.counts()
        return
    size = chunk or chunk_size(len(puzzles), _threads(client))
    yield from _spread(puzzles, size, client, jobs, progress, count_chunk, options=options)


count_many = _listed(iter_count, "The counts of :func:`iter_count` in a list, in input order.")


def iter_lines(
    table: PuzzleTable | TableStream,
    options: Options | None = None,
    *,
    jobs: int = 1,
    client: Client | None = None,
    chunk: int | None = None,
    progress: Progress = None,
) -> Iterator[LineOutcomes | PuzzleOutcomes]:
    """:func:`~ndoku.tasks.lines.solve_lines` of a table of one-line puzzles, or of a long
    file's as it is read, here or on a Dask cluster: the outcomes of consecutive parts of it,
    in order, as they arrive (:class:`~ndoku.tasks.lines.PuzzleOutcomes` for puzzles read
    one by one, or whose worker process died). The parameters are those of
    :func:`iter_solve`.

    >>> from ndoku.model.table import read_table
    >>> table = read_table("1000003004000002\\n0000000000000000\\n")
    >>> [part.statuses().tolist() for part in iter_lines(table)]
    [['solved'], ['multiple']]
    """
    options = options or Options()
    if client is None:
        yield from paced_lines(table, options, jobs=jobs, progress=progress)
        return
    stream, parts = (table, table) if isinstance(table, TableStream) else (None, [table])
    first = stream.first if stream is not None else table
    assert isinstance(first, PuzzleTable)
    later = 0 if stream is None else stream.left() or 0
    size = chunk or chunk_size(len(first) + later, _threads(client), "lines")
    work = (
        lines_job(cut(part, a, a + size), options, lines_chunk)
        for part in parts
        for a in range(0, len(part), size)
    )
    for job, reply in in_order(_replies(client, jobs, work), progress):
        yield lines_back(job, reply, options.limit)


def iter_rate(
    puzzles: Sequence[Puzzle],
    *,
    chains: int = 0,
    max_proposals: int = RATE_MAX_PROPOSALS,
    timeout: float = DEFAULT_TIMEOUT,
    path_timeout: float | None = None,
    assume_unique: bool = False,
    jobs: int = 1,
    client: Client | None = None,
    chunk: int | None = None,
    progress: Progress = None,
) -> Iterator[Rating]:
    """Rate a batch (:func:`~ndoku.tasks.rate.rate` of each puzzle, with its settings), here
    with ``jobs`` processes or on a Dask cluster: a rating per puzzle, in input order as they
    arrive. ``chunk`` and ``progress`` are those of :func:`iter_solve`.

    Examples
    --------
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> [r.level for r in iter_rate([p, p])]
    ['singles', 'singles']
    """
    settings: dict[str, Any] = {"chains": chains, "max_proposals": max_proposals}
    settings |= {"timeout": timeout, "path_timeout": path_timeout, "assume_unique": assume_unique}
    if client is None and jobs == 1:
        for done, puzzle in enumerate(puzzles, start=1):
            yield rate(puzzle, **settings)
            if progress is not None:
                progress(done)
        return
    workers = jobs if client is None else _threads(client)
    size = chunk or chunk_size(len(puzzles), workers, "slow")
    yield from _spread(puzzles, size, client, jobs, progress, rate_chunk, settings=settings)


rate_many = _listed(iter_rate, "The ratings of :func:`iter_rate` in a list, in input order.")


def iter_generate(
    layout: str,
    count: int,
    *,
    seed: int = 0,
    givens: int | None = None,
    difficulty: str | None = None,
    needs: str | None = None,
    symmetry: str = "none",
    timeout: float = DEFAULT_TIMEOUT,
    command: Callable[[int], str] | None = None,
    rules: str | None = None,
    jobs: int = 1,
    client: Client | None = None,
    chunk: int | None = None,
    progress: Progress = None,
) -> Iterator[Generated | GenerateTimeout]:
    """Generate ``count`` puzzles of ``layout`` (a name or a layout file), seeds ``seed``,
    ``seed + 1``, …, here with ``jobs`` processes or on a Dask cluster, yielded in seed
    order as they arrive.

    The settings are those of :func:`~ndoku.tasks.generate.generate`; ``command`` gives the
    comment line of the puzzle of each seed. A seed whose time ran out before any solution
    was found gives its :class:`~ndoku.tasks.generate.GenerateTimeout` in its place, so that
    the batch goes on. ``chunk`` and ``progress`` are those of :func:`iter_solve`.

    Examples
    --------
    >>> [made.seed for made in iter_generate("4x4", 3, seed=5)]
    [5, 6, 7]
    """
    from pathlib import Path

    from ndoku.text.formats import read_file

    empty = layout_puzzle(layout)  # an unknown layout is refused before any work
    seeds = list(range(seed, seed + count))
    commands = [None if command is None else command(s) for s in seeds]
    settings: dict[str, Any] = {"givens": givens, "difficulty": difficulty, "needs": needs}
    settings |= {"symmetry": symmetry, "timeout": timeout, "rules": rules}
    if client is None and jobs == 1:
        for done, (asked, said) in enumerate(zip(seeds, commands, strict=True), start=1):
            try:
                yield generate(empty, seed=asked, command=said, **settings)
            except GenerateTimeout as exc:
                yield exc
            if progress is not None:
                progress(done)
        return
    text = read_file(layout) if Path(layout).is_file() else None
    workers = jobs if client is None else _threads(client)
    size = chunk or chunk_size(count, workers, "generate")
    constants = {"layout": layout, "layout_text": text, "settings": settings}
    work = (
        Job(generate_chunk, (seeds[k : k + size], commands[k : k + size]), constants, size)
        for k in range(0, count, size)
    )
    for _, made in in_order(_replies(client, jobs, work), progress):
        if isinstance(made, WorkerLost):
            raise made
        yield from (_generated(one) for one in made)


generate_many = _listed(
    iter_generate, "The puzzles of :func:`iter_generate` in a list, in seed order."
)


def _generated(made: Made) -> Generated | GenerateTimeout:
    """A generated puzzle, read back here from its text (as the worker read it)."""
    if isinstance(made, GenerateTimeout):
        return made
    read, fields = made
    [puzzle] = read_puzzles(text=fields["text"])
    if fingerprint([puzzle]) != read:
        raise VerificationError("a generated puzzle reads back here otherwise than in its worker")
    return Generated(puzzle, **fields)


# --- chunks out, results back in order ---------------------------------------------------------


def _parts(puzzles: Sequence[Puzzle], size: int) -> list[Sequence[Puzzle]]:
    return [puzzles[k : k + size] for k in range(0, len(puzzles), size)]


def _spread(
    puzzles: Sequence[Puzzle],
    size: int,
    client: Client | None,
    jobs: int,
    progress: Progress,
    function: Callable[..., Reply],
    **constants: Any,
) -> Iterator[Any]:
    """The results of ``function`` on chunks of ``size`` puzzles, in input order."""
    work = (
        Job(function, (to_chunk(part),), constants, len(part), part)
        for part in _parts(puzzles, size)
    )
    for job, reply in in_order(_replies(client, jobs, work), progress):
        if isinstance(reply, WorkerLost):
            raise reply
        yield from unpack(check_reply(job.args[0], reply))


def _threads(client: Client) -> int:
    from ndoku.tasks.cluster import threads

    return threads(client)


def _replies(
    client: Client | None, jobs: int, work: Iterable[Job]
) -> Callable[[Callable[[], bool]], Generator[tuple[int, Job, Any] | None]]:
    """How :func:`~ndoku.tasks.paced.in_order` runs the jobs, on the cluster or in ``jobs``
    worker processes here: ``(number, job, result)`` as they finish (see
    :func:`~ndoku.tasks.workers.run_jobs`), new jobs taken while ``room()``."""
    if client is not None:
        from ndoku.tasks.cluster import replies

        return partial(replies, client, work, CHUNKS_PER_WORKER * _threads(client))
    return partial(run_jobs, work, jobs)
