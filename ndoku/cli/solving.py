"""``ndoku solve`` and ``ndoku count``: options in, library calls, answers out."""

from __future__ import annotations

import json
from contextlib import contextmanager, nullcontext
from dataclasses import replace
from typing import TYPE_CHECKING

import click

from ndoku.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_UNSOLVED,
    Failure,
    Pictures,
    chain_options,
    cluster_client,
    cluster_option,
    file_record,
    files_argument,
    format_option,
    limit_options,
    picture_options,
    progress_bar,
    puzzle_options,
    read_all,
    read_tables,
    workers,
)
from ndoku.cli.numbers import REPLICAS, TEMPERATURE, Number, Whole
from ndoku.cli.stopping import checking, due, echo, held
from ndoku.errors import NdokuError, VerificationError
from ndoku.limits import DEFAULT_TRACE_EVERY
from ndoku.model.table import PuzzleTable, TableStream
from ndoku.solvers.chains import RESTARTS, SCHEDULES
from ndoku.solvers.study import BRANCHINGS, PROPAGATIONS
from ndoku.tasks.solve import METHODS
from ndoku.text.words import plural

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from distributed import Client

    from ndoku.model.puzzle import Puzzle
    from ndoku.picture.scene import Scene
    from ndoku.tasks.count import Count
    from ndoku.tasks.lines import LineOutcomes, PuzzleOutcomes
    from ndoku.tasks.plot import LabelledTrace
    from ndoku.tasks.runs import Runs, Tally
    from ndoku.tasks.solve import Options, Outcome


@click.command()
@files_argument
@click.option(
    "--method",
    type=click.Choice(METHODS),
    default="auto",
    show_default=True,
    help="auto/exact: propagation and search, proving uniqueness; metropolis: the Monte-Carlo "
    "chain; hybrid: pruning (propagation and matching), the exact search on a budget of nodes, "
    "then the chain within the candidates; "
    "tempering: replicas of the pruned chain on a temperature ladder (large puzzles); "
    "hillclimb: box swaps at T = 0, restarted from a fresh fill after each plateau.",
)
@click.option(
    "--propagation",
    type=click.Choice(PROPAGATIONS),
    default=None,
    help="Exact search, for teaching: none (plain backtracking), forward (forward checking), "
    "singles (and naked and hidden singles), full (ndoku's) [default: full].",
)
@click.option(
    "--branching",
    type=click.Choice(BRANCHINGS),
    default=None,
    help="Exact search: the first free cell, or the one with the fewest values left "
    "(mrv) [default: mrv]. Other than full and mrv, the teaching search runs.",
)
@click.option(
    "--plateau",
    type=Whole(1),
    default=None,
    help="Hill climbing: proposals without progress before a restart [default: by size].",
)
@click.option(
    "--restarts",
    type=click.Choice(RESTARTS),
    default=None,
    help="Chains: start again from a fresh state after runs of Luby's lengths (1, 1, 2, 1, 1, "
    "2, 4, … units), doubling ones, or never [default: luby for hybrid's pruned chain, none "
    "for metropolis and tempering].",
)
@click.option(
    "--restart-unit",
    type=Whole(1),
    default=None,
    help="Chains: proposals of the shortest run between restarts (all replicas together) "
    "[default: by free cells].",
)
@click.option(
    "--unique",
    is_flag=True,
    help="Refuse (exit 1, status multiple) to print a solution of a puzzle that has several.",
)
@click.option(
    "--temperature",
    "-T",
    type=TEMPERATURE,
    help="Metropolis temperature [default: by size and moves, 0.3 for 9×9 box swaps].",
)
@chain_options
@click.option(
    "--schedule",
    type=click.Choice(SCHEDULES),
    default=None,
    help="Temperature schedule [default: constant; exponential with --alpha, ramp with "
    "--beta-max].",
)
@click.option(
    "--t0",
    type=TEMPERATURE,
    default=None,
    help="Start temperature of a schedule [default: the constant default].",
)
@click.option(
    "--alpha",
    type=Number(0, 1),
    default=None,
    help="Exponential cooling T_k = T0·alpha^k, k counted in sweeps; alpha in (0, 1].",
)
@click.option(
    "--beta-max",
    type=TEMPERATURE,
    default=None,
    help="Ramp: the inverse temperature rises to this (log β as the square root of progress).",
)
@click.option(
    "--reheat",
    type=Whole(),
    default=0,
    show_default=True,
    help="Back to T0 after this many proposals without a new best energy (0: never).",
)
@click.option(
    "--ladder",
    metavar="TEMPERATURES",
    default=None,
    help="Tempering rungs, e.g. 0.2,0.24,0.28,0.32 or 0.2:0.35:0.05 [default: by size].",
)
@click.option(
    "--replicas",
    type=REPLICAS,
    default=None,
    help="Tempering: this many rungs between the default ends [default: by size].",
)
@click.option(
    "--exchange-every",
    type=Whole(1),
    default=None,
    help="Tempering: proposals of each replica between exchange attempts [default: 10000].",
)
@click.option(
    "--no-prune",
    is_flag=True,
    help="Tempering: leave out pruning (forced cells fixed, the others kept to their "
    "candidates) and run the plain box-swap chains.",
)
@click.option(
    "--runs",
    type=Whole(1),
    default=1,
    show_default=True,
    help="Chains per puzzle, seeds SEED, SEED+1, …; the first solved one is printed.",
)
@click.option(
    "--trace",
    "trace_path",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write the chain's proposal, energy, temperature and acceptance rate to this CSV.",
)
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Draw energy against proposals, every run on one plot (PNG; needs the plot extra: "
    "matplotlib).",
)
@click.option(
    "--trace-every",
    type=Whole(1),
    default=DEFAULT_TRACE_EVERY,
    show_default=True,
    help="Proposals between two traced points.",
)
@limit_options
@cluster_option
@puzzle_options
@format_option(
    ("grid", "json"),
    "grid: the solution in the input's own shape; json: one object per puzzle (per run) and line.",
)
@click.option("--pretty", is_flag=True, help="Draw the grid with box borders and colours.")
@picture_options("the solution over the puzzle")
def solve(
    files: tuple[str, ...],
    method: str,
    propagation: str | None,
    branching: str | None,
    plateau: int | None,
    restarts: str | None,
    restart_unit: int | None,
    unique: bool,
    temperature: float | None,
    moves: str,
    seed: int,
    max_proposals: int | None,
    schedule: str | None,
    t0: float | None,
    alpha: float | None,
    beta_max: float | None,
    reheat: int,
    ladder: str | None,
    replicas: int | None,
    exchange_every: int | None,
    no_prune: bool,
    runs: int,
    trace_path: str | None,
    plot_path: str | None,
    trace_every: int,
    timeout: float,
    max_nodes: int | None,
    jobs: int | None,
    cluster: str | None,
    layout: str | None,
    symbols: str | None,
    fmt: str,
    pretty: bool,
    pictures: Pictures,
) -> None:
    """Solve the puzzles in FILES ('-', or none from a pipe, reads stdin; a one-line puzzle
    may stand for a file) and print each solution.

    Every printed solution has been checked against every unit and every given. A file of
    one-line puzzles (81 characters for 9×9) is a batch: one answer line per puzzle, or its
    status (none, limit, unsolved, multiple with --unique) when there is no answer.
    """
    from ndoku.tasks.plot import labelled_traces
    from ndoku.tasks.runs import Tally
    from ndoku.tasks.settings import solve_options

    options = solve_options(
        method,
        seed=seed,
        temperature=temperature,
        moves=moves,
        max_proposals=max_proposals,
        schedule=schedule,
        t0=t0,
        alpha=alpha,
        beta_max=beta_max,
        reheat=reheat,
        ladder=ladder,
        replicas=replicas,
        exchange_every=exchange_every,
        prune=not no_prune,
        runs=runs,
        trace=trace_path is not None,
        plot=plot_path is not None,
        trace_every=trace_every,
        timeout=timeout,
        max_nodes=max_nodes,
        propagation=propagation,
        branching=branching,
        plateau=plateau,
        restarts=restarts,
        restart_unit=restart_unit,
    )
    options = replace(options, threads=workers(jobs))  # one puzzle's search; batches: processes
    if plot_path is not None:
        from ndoku.tasks.plot import pyplot

        pyplot()  # a missing matplotlib is an error before any solving
    client = cluster_client(cluster)
    status = 0
    traces: list[LabelledTrace] = []
    scenes: list[Scene] = []
    # A batch of one-line puzzles solved exactly and printed as lines goes as one table.
    as_lines = method in ("auto", "exact") and runs == 1 and fmt == "grid" and not pretty
    as_lines &= not options.teaching
    as_lines &= not pictures and trace_path is None and plot_path is None
    for path, puzzles in (read_tables if as_lines else read_all)(files, symbols, layout):
        if puzzles is None:
            status = max(status, EXIT_BAD_INPUT)
            continue
        if len(files) > 1 and fmt == "grid":
            echo(f"# {path}")
        if isinstance(puzzles, PuzzleTable | TableStream):
            status = max(status, _solve_lines(path, puzzles, options, unique, jobs, client))
            if len(files) > 1:
                echo()
            continue
        batch = len(puzzles) > 1
        counted = Tally()
        # the exact search looks for a signal every few milliseconds: its answers are written
        # before the command stops; a chain is left where it stands
        hold = held() if method in ("auto", "exact") and client is None else nullcontext()
        # no bar under drawings: rich draws them past it, onto its line
        progress = nullcontext(None) if pretty else progress_bar(len(puzzles) * runs)
        with _summary(path, counted, batch), progress as bar, hold:
            per_puzzle = _runs(puzzles, method, options, runs, jobs, client, checking(bar))
            for number, tried in enumerate(per_puzzle, start=1):
                outcome = tried.representative
                counted.add([run.status for run in tried.outcomes], _seconds(tried))
                shown = outcome.shown(unique)
                if not shown:
                    status = max(status, EXIT_UNSOLVED)
                message = outcome.message(unique)
                if (not batch or outcome.status == "error") and message is not None:
                    echo(f"ndoku: {path}: {_which(number, batch)}{message}", err=True)
                if runs > 1 and not batch:
                    echo(f"ndoku: {path}: {tried.summary()}", err=True)
                if fmt == "json":
                    records = [
                        file_record(path, number, batch) | run.record(unique)
                        for run in tried.outcomes
                    ]
                    echo("\n".join(json.dumps(record) for record in records))
                elif pretty:
                    with held():
                        _print_pretty(outcome, unique)
                else:
                    lined = outcome.puzzle.grid.style.kind == "line"
                    if batch and number > 1 and not lined:
                        echo()  # the grids of a file of several, parted as they were read
                    if shown:
                        echo(outcome.puzzle.text(outcome.values, rules=False), nl=False)
                    elif lined or batch:
                        echo(outcome.status)
                label = f"{path}#{number}" if batch else path
                traces += labelled_traces(label, tried.outcomes)
                if pictures:
                    scenes.append(_picture(outcome, unique, pictures))
                due()
        if len(files) > 1 and fmt == "grid":
            echo()
    _write_traces(traces, trace_path, plot_path)
    if scenes:
        pictures.write(scenes)
    if status:
        raise Failure(status)


def _runs(
    puzzles: list[Puzzle],
    method: str,
    options: Options,
    runs: int,
    jobs: int | None,
    client: Client | None,
    progress: Callable[[int], None],
) -> Iterator[Runs]:
    """Each puzzle's runs as they are done, on the cluster or here (where the module of
    clusters is not even imported)."""
    if client is not None:
        from ndoku.tasks.many import iter_runs

        return iter_runs(puzzles, method, options, runs, client=client, progress=progress)
    from ndoku.tasks.paced import paced_runs

    return paced_runs(puzzles, method, options, runs, jobs=workers(jobs), progress=progress)


def _seconds(tried: Runs) -> float:
    return sum(run.seconds for run in tried.outcomes)


def _which(number: int, batch: bool) -> str:
    return f"puzzle {number}: " if batch else ""


def _solve_lines(
    path: str,
    table: PuzzleTable | TableStream,
    options: Options,
    unique: bool,
    jobs: int | None,
    client: Client | None,
) -> int:
    """Solve a table of one-line puzzles, or a long file's as it is read, and print their
    lines a part at a time as they are solved; the exit status it earns."""
    from ndoku.tasks.runs import Tally

    counted = Tally()
    answered, failure = True, None
    # here, the search looks for a signal every few milliseconds: the part in hand is
    # solved and written before the command stops
    hold = held() if client is None else nullcontext()
    with _summary(path, counted):
        try:
            with progress_bar(_total(table)) as bar, hold:
                if client is not None:
                    from ndoku.tasks.many import iter_lines

                    spread = iter_lines(table, options, client=client, progress=checking(bar))
                else:
                    from ndoku.tasks.paced import paced_lines

                    spread = paced_lines(table, options, jobs=workers(jobs), progress=checking(bar))
                for part in spread:
                    echo(part.text(unique), nl=False)
                    counted.add(part.statuses(), part.seconds)
                    answered &= bool(part.shown(unique).all())
                    _say_lost(path, part)
                    due()
        except NdokuError as exc:  # a bad line further on in a long file
            if isinstance(exc, VerificationError):
                raise
            failure = exc
    if failure is not None:
        echo(f"Error: {path}: {failure}", err=True)
        return EXIT_BAD_INPUT
    return 0 if answered else EXIT_UNSOLVED


@contextmanager
def _summary(path: str, counted: Tally, said: bool = True) -> Iterator[None]:
    """A batch's summary line on stderr after the block, stopped (Ctrl-C, an error) or not:
    what was written, if anything; nothing when the pipe of the answers was closed."""
    try:
        yield
    except BrokenPipeError:
        said = False
        raise
    finally:
        if said and counted.counts:
            echo(f"ndoku: {path}: {counted}", err=True)


def _say_lost(path: str, part: LineOutcomes | PuzzleOutcomes) -> None:
    """Why puzzles of a part have the ``error`` status (their worker process died)."""
    from ndoku.tasks.lines import PuzzleOutcomes

    if isinstance(part, PuzzleOutcomes):
        lost = [o for o in part.outcomes if o.status == "error"]
        if lost:
            echo(f"ndoku: {path}: {plural(len(lost), 'puzzle')}: {lost[0].message()}", err=True)


def _total(table: PuzzleTable | TableStream) -> int | None:
    """Puzzles of a table, or of a long file (estimated; None when it comes from a pipe)."""
    if isinstance(table, PuzzleTable):
        return len(table)
    later = table.left()
    return None if later is None else len(table.first) + later


def _picture(outcome: Outcome, unique: bool, pictures: Pictures) -> Scene:
    """The solution (or what there is to show) over the puzzle."""
    from ndoku.tasks.pictures import caption, puzzle_picture

    puzzle = outcome.puzzle
    return puzzle_picture(
        puzzle,
        outcome.drawn(unique),
        title=pictures.title,
        footer=caption(puzzle, rated=True) if pictures.caption else None,
        fill_regions=pictures.fill_regions,
    )


def _write_traces(
    traces: list[LabelledTrace], trace_path: str | None, plot_path: str | None
) -> None:
    from ndoku.tasks.plot import plot_traces, write_trace_csv

    if trace_path is not None:
        write_trace_csv(traces, trace_path)
    if plot_path is not None and traces:
        plot_traces(traces, plot_path)


@click.command()
@files_argument
@click.option(
    "--limit",
    type=Whole(1),
    default=2,
    show_default=True,
    help="Stop counting at this many solutions (2 proves uniqueness).",
)
@limit_options
@cluster_option
@puzzle_options
@format_option(
    ("text", "json"),
    "text: one count per puzzle and line (0, 1, … or ≥LIMIT); json: one object per line.",
)
def count(
    files: tuple[str, ...],
    limit: int,
    timeout: float,
    max_nodes: int | None,
    jobs: int | None,
    cluster: str | None,
    layout: str | None,
    symbols: str | None,
    fmt: str,
) -> None:
    """Count the solutions of the puzzles in FILES: 0, 1, … or ≥LIMIT, one line each.

    Exit status 1 when a node or time limit stopped a count before it was certain.
    """
    from ndoku.tasks.solve import Options

    options = Options(timeout=timeout, limit=limit, threads=workers(jobs))
    if max_nodes is not None:
        options = replace(options, max_nodes=max_nodes)
    client = cluster_client(cluster)
    status = 0
    for path, puzzles in read_tables(files, symbols, layout):
        if puzzles is None:
            status = max(status, EXIT_BAD_INPUT)
            continue
        if len(files) > 1 and fmt == "text":
            echo(f"# {path}")
        batch = not isinstance(puzzles, list) or len(puzzles) > 1
        total = _total(puzzles) if not isinstance(puzzles, list) else len(puzzles)
        hold = held() if client is None else nullcontext()  # as in _solve_lines
        number = 0
        try:
            with progress_bar(total, "counting") as bar, hold:
                for counts in _counts(puzzles, options, jobs, client, checking(bar)):
                    lines = []
                    for counted in counts:
                        number += 1
                        if not counted.certain:
                            status = max(status, EXIT_UNSOLVED)
                        if counted.error is not None:
                            echo(
                                f"ndoku: {path}: puzzle {number}: error: {counted.error}", err=True
                            )
                        if fmt == "json":
                            record = file_record(path, number, batch) | counted.record()
                            lines.append(json.dumps(record) + "\n")
                        else:
                            lines.append(counted.text() + "\n")
                    echo("".join(lines), nl=False)
                    due()
        except NdokuError as exc:  # a bad line further on in a long file
            if isinstance(exc, VerificationError):
                raise
            echo(f"Error: {path}: {exc}", err=True)
            status = max(status, EXIT_BAD_INPUT)
        if len(files) > 1 and fmt == "text":
            echo()
    if status:
        raise Failure(status)


def _counts(
    puzzles: list[Puzzle] | PuzzleTable | TableStream,
    options: Options,
    jobs: int | None,
    client: Client | None,
    progress: Callable[[int], None],
) -> Iterator[list[Count]]:
    """The counts of the puzzles, a part at a time as they are done, on the cluster or here."""
    if client is None:
        from ndoku.tasks.paced import paced_counts

        return paced_counts(puzzles, options, jobs=workers(jobs), progress=progress)
    from ndoku.tasks.many import iter_count, iter_lines

    if isinstance(puzzles, list):
        return ([counted] for counted in iter_count(puzzles, options, client=client))
    return (part.counts() for part in iter_lines(puzzles, options, client=client))


def _print_pretty(outcome: Outcome, unique: bool) -> None:
    from rich.console import Console

    from ndoku.tasks.render import describe, draw, headers

    console = Console(highlight=False)
    for line in headers(outcome.puzzle):
        console.print(line, style="dim", markup=False)
    console.print(draw(outcome.puzzle, outcome.drawn(unique)), soft_wrap=True)
    # Comment lines, so that the drawing reads back as a puzzle.
    console.print(f"# {describe(outcome.puzzle)}", style="dim", markup=False)
    console.print(f"# {outcome.caption(unique)}", style="dim", markup=False)
