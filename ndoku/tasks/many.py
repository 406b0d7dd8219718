"""Batches of puzzles solved, counted, rated or generated here or on a Dask cluster, results
in input order.

Each ``*_many`` function returns a list; its ``iter_*`` form yields the same results, in
input order, as they arrive. Without a ``client`` the work runs on this machine (``jobs``
worker processes); with a ``distributed.Client`` (``pip install 'ndoku[dask]'``) it goes to
the cluster in chunks of puzzles as text (:mod:`ndoku.tasks.chunks`), which the workers read
back, solve and verify; a chunk whose worker fails or is lost is run again by Dask.
Generation gives puzzle ``k`` the seed ``seed + k``, wherever it runs, so a cluster makes the
same puzzles as this machine does.

Glossary
--------
chunk
    Consecutive puzzles of a batch sent to a worker together; by default a batch is cut into
    about :data:`CHUNKS_PER_WORKER` chunks per worker thread, of at most
    :data:`MOST_PER_CHUNK` puzzles (for the exact search; fewer for slower work).
"""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from ndoku.errors import NdokuError, VerificationError
from ndoku.limits import DEFAULT_TIMEOUT, RATE_MAX_PROPOSALS
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.model.table import PuzzleTable
from ndoku.solvers.exact import join_results
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
    table_chunk,
    to_chunk,
    unpack,
)
from ndoku.tasks.count import Count, count_all
from ndoku.tasks.generate import Generated, GenerateTimeout, generate, layout_puzzle
from ndoku.tasks.lines import LineOutcomes, solve_lines
from ndoku.tasks.rate import Rating, rate
from ndoku.tasks.solve import METHODS, Options, Outcome, Runs, solve_runs

if TYPE_CHECKING:
    from distributed import Client

P = ParamSpec("P")
R = TypeVar("R")
Progress = Callable[[int], None] | None

#: Chunks per worker thread a batch is cut into by default: enough that a slow chunk does
#: not keep the others waiting, few enough that the work of sending one stays small.
CHUNKS_PER_WORKER = 4
#: Puzzles per chunk at most, by what is done to them: an exact search takes microseconds
#: to milliseconds (a table of lines, without a Puzzle each, the fewest), a chain, a rating
#: or a generated puzzle up to seconds.
MOST_PER_CHUNK = {"lines": 5000, "exact": 1000, "slow": 8, "generate": 1}


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
    """:func:`~ndoku.tasks.solve.solve_runs` as results arrive: each puzzle's runs (seeds
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
        yield from solve_runs(puzzles, method, options, runs, jobs=jobs, progress=progress)
        return
    kind = "exact" if method in ("auto", "exact") else "slow"
    parts = _parts(puzzles, chunk or chunk_size(len(puzzles) * runs, _threads(client), kind))
    chunks = [to_chunk(part) for part in parts]
    seeded = [replace(options, seed=options.seed + r) for r in range(runs)]
    work = [(c, seeded[r]) for c in chunks for r in range(runs)]
    arrived = _replies(client, jobs, solve_chunk, *zip(*work, strict=True), method=method)
    sizes = [c.size for c, _ in work]
    tried: list[list[Outcome]] = []
    for k, reply in _in_order(arrived, sizes, progress):
        c = k // runs
        tried.append(unpack(check_reply(chunks[c], reply), puzzle=parts[c]))
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
    puzzles: Sequence[Puzzle] | PuzzleTable,
    options: Options | None = None,
    *,
    jobs: int = 1,
    client: Client | None = None,
    chunk: int | None = None,
    progress: Progress = None,
) -> Iterator[Count]:
    """Count the solutions of a batch, up to ``options.limit``, here or on a Dask cluster:
    a count per puzzle, in input order as they arrive. The parameters are those of
    :func:`iter_solve`; the puzzles may be a table (:func:`iter_lines`).

    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 0 0\\n0 0 0 0\\n0 0 0 2\\n")
    >>> [c.text() for c in iter_count([p], Options(limit=5))]
    ['≥5']
    """
    options = options or Options()
    if isinstance(puzzles, PuzzleTable):
        spread = iter_lines(
            puzzles, options, jobs=jobs, client=client, chunk=chunk, progress=progress
        )
        for part in spread:
            yield from part.counts()
        return
    if client is None:
        yield from count_all(puzzles, options, jobs=jobs, progress=progress)
        return
    size = chunk or chunk_size(len(puzzles), _threads(client))
    yield from _spread(puzzles, size, client, jobs, progress, count_chunk, options=options)


count_many = _listed(iter_count, "The counts of :func:`iter_count` in a list, in input order.")


def iter_lines(
    table: PuzzleTable,
    options: Options | None = None,
    *,
    jobs: int = 1,
    client: Client | None = None,
    chunk: int | None = None,
    progress: Progress = None,
) -> Iterator[LineOutcomes]:
    """:func:`~ndoku.tasks.lines.solve_lines` of a table of one-line puzzles, here or on a
    Dask cluster: the outcomes of consecutive parts of the table (here, one part), in order,
    as they arrive; :func:`joined` puts them together. The parameters are those of
    :func:`iter_solve`.

    >>> from ndoku.model.table import read_table
    >>> table = read_table("1000003004000002\\n0000000000000000\\n")
    >>> [part.statuses().tolist() for part in iter_lines(table)]
    [['solved', 'multiple']]
    """
    options = options or Options()
    if client is None:
        yield solve_lines(table, options, jobs=jobs, progress=progress)
        return
    size = chunk or chunk_size(len(table), _threads(client), "lines")
    starts = range(0, len(table), size)
    chunks = [table_chunk(table, a, a + size) for a in starts]
    arrived = _replies(client, jobs, lines_chunk, chunks, options=options)
    for k, reply in _in_order(arrived, [c.size for c in chunks], progress):
        part = table.rows(starts[k], starts[k] + chunks[k].size)
        yield LineOutcomes(part, check_reply(chunks[k], reply))


def joined(table: PuzzleTable, parts: Sequence[LineOutcomes]) -> LineOutcomes:
    """The outcomes of a whole table from those of its consecutive parts."""
    batches = [part.batch for part in parts]
    return LineOutcomes(table, join_results(batches, batches[0].limit))


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

    >>> [made.seed for made in iter_generate("4x4", 3, seed=5)]
    [5, 6, 7]
    """
    from pathlib import Path

    from ndoku.text.formats import read_file

    empty = layout_puzzle(layout)  # an unknown layout is refused before any work
    seeds = list(range(seed, seed + count))
    commands = [None if command is None else command(s) for s in seeds]
    settings: dict[str, Any] = {"givens": givens, "difficulty": difficulty, "needs": needs}
    settings |= {"symmetry": symmetry, "timeout": timeout}
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
    starts = range(0, count, size)
    batches = [(seeds[k : k + size], commands[k : k + size]) for k in starts]
    arrived = _replies(
        client,
        jobs,
        generate_chunk,
        [seeds for seeds, _ in batches],
        [said for _, said in batches],
        layout=layout,
        layout_text=text,
        settings=settings,
    )
    for _, made in _in_order(arrived, [len(s) for s, _ in batches], progress):
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
    chunks = [to_chunk(part) for part in _parts(puzzles, size)]
    arrived = _replies(client, jobs, function, chunks, **constants)
    for k, reply in _in_order(arrived, [c.size for c in chunks], progress):
        yield from unpack(check_reply(chunks[k], reply))


def _threads(client: Client) -> int:
    from ndoku.tasks.cluster import threads

    return threads(client)


def _replies(
    client: Client | None,
    jobs: int,
    function: Callable[..., R],
    *arguments: Sequence[Any],
    **constants: Any,
) -> Generator[tuple[int, R]]:
    """``function`` of each chunk, with ``constants``, on the cluster or in ``jobs``
    processes here: ``(chunk number, result)`` as they finish."""
    if client is not None:
        from ndoku.tasks.cluster import replies

        return replies(client, function, *arguments, **constants)
    return _pool_replies(jobs, function, arguments, constants)


def _pool_replies(
    jobs: int,
    function: Callable[..., R],
    arguments: Sequence[Sequence[Any]],
    constants: dict[str, Any],
) -> Generator[tuple[int, R]]:
    # spawned, as the exact search's workers are: safe on every platform
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context)
    try:
        number: dict[Future[R], int] = {}
        for k, args in enumerate(zip(*arguments, strict=True)):
            number[pool.submit(function, *args, **constants)] = k
        pending = set(number)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield number[future], future.result()
    finally:
        pool.shutdown(cancel_futures=True)


def _in_order(
    arrived: Generator[tuple[int, R]], sizes: Sequence[int], progress: Progress
) -> Iterator[tuple[int, R]]:
    """Results numbered as they finish, in number order; ``progress`` counts the puzzles of
    the chunks finished (``sizes``: puzzles per chunk). Stopped early (an error, Ctrl-C in
    ``progress``, a loop left), it stops ``arrived``, which cancels what is not done."""
    waiting: dict[int, R] = {}
    following, done = 0, 0
    try:
        for k, result in arrived:
            waiting[k] = result
            done += sizes[k]
            if progress is not None:
                progress(done)
            while following in waiting:
                yield following, waiting.pop(following)
                following += 1
    finally:
        arrived.close()
