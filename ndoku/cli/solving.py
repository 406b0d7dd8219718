"""``ndoku solve`` and ``ndoku count``: options in, library calls, answers out."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

import click

from ndoku.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_UNSOLVED,
    Failure,
    Pictures,
    Streamed,
    chain_options,
    cluster_client,
    cluster_option,
    file_record,
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
from ndoku.limits import DEFAULT_TRACE_EVERY
from ndoku.model.table import PuzzleTable
from ndoku.solvers.chains import SCHEDULES
from ndoku.solvers.study import BRANCHINGS, PROPAGATIONS
from ndoku.tasks.solve import METHODS

if TYPE_CHECKING:
    from distributed import Client

    from ndoku.picture.scene import Scene
    from ndoku.tasks.plot import LabelledTrace
    from ndoku.tasks.solve import Options, Outcome


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option(
    "--method",
    type=click.Choice(METHODS),
    default="auto",
    show_default=True,
    help="auto/exact: propagation and search, proving uniqueness; metropolis: the Monte-Carlo "
    "chain; hybrid: pruning (propagation and matching), then the chain within the candidates; "
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
    help="Draw energy against proposals, every run on one plot (PNG; needs matplotlib).",
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
    """Solve the puzzles in FILES ('-' reads stdin) and print each solution.

    Every printed solution has been checked against every unit and every given. A file of
    one-line puzzles (81 characters for 9×9) is a batch: one answer line per puzzle, or its
    status (none, limit, unsolved, multiple with --unique) when there is no answer.
    """
    from ndoku.tasks.plot import labelled_traces
    from ndoku.tasks.settings import solve_options
    from ndoku.tasks.solve import Runs, batch_summary, solve_runs

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
    )
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
            click.echo(f"# {path}")
        if isinstance(puzzles, PuzzleTable):
            status = max(status, _solve_lines(path, puzzles, options, unique, jobs, client))
            if len(files) > 1:
                click.echo()
            continue
        per_puzzle: Sequence[Runs]
        if client is not None:  # written as the cluster's chunks arrive
            from ndoku.tasks.many import iter_runs

            work = partial(iter_runs, puzzles, method, options, runs, client=client)
            per_puzzle = Streamed(len(puzzles), len(puzzles) * runs, "solving", work)
        else:
            with progress_bar(len(puzzles) * runs) as progress:
                per_puzzle = solve_runs(
                    puzzles, method, options, runs, jobs=workers(jobs), progress=progress
                )
        batch = len(puzzles) > 1
        for number, tried in enumerate(per_puzzle, start=1):
            outcome = tried.representative
            shown = outcome.shown(unique)
            if not shown:
                status = max(status, EXIT_UNSOLVED)
            message = outcome.message(unique)
            if not batch and message is not None:
                click.echo(f"ndoku: {path}: {message}", err=True)
            if runs > 1 and not batch:
                click.echo(f"ndoku: {path}: {tried.summary()}", err=True)
            if fmt == "json":
                for run in tried.outcomes:
                    click.echo(json.dumps(file_record(path, number, batch) | run.record(unique)))
            elif pretty:
                _print_pretty(outcome, unique)
            elif shown:
                click.echo(outcome.puzzle.text(outcome.values), nl=False)
            elif outcome.puzzle.grid.style.kind == "line":
                click.echo(outcome.status)
            label = f"{path}#{number}" if batch else path
            traces += labelled_traces(label, tried.outcomes)
            if pictures:
                scenes.append(_picture(outcome, unique, pictures))
        if batch:
            click.echo(f"ndoku: {path}: {batch_summary(per_puzzle)}", err=True)
        if len(files) > 1 and fmt == "grid":
            click.echo()
    _write_traces(traces, trace_path, plot_path)
    if scenes:
        pictures.write(scenes)
    if status:
        raise Failure(status)


def _solve_lines(
    path: str,
    table: PuzzleTable,
    options: Options,
    unique: bool,
    jobs: int | None,
    client: Client | None,
) -> int:
    """Solve a table of one-line puzzles and print their lines; the exit status it earns."""
    from ndoku.tasks.lines import solve_lines

    if client is not None:  # each part's lines written as it arrives
        from ndoku.tasks.many import iter_lines, joined

        with progress_bar(len(table)) as progress:
            parts = []
            for part in iter_lines(table, options, client=client, progress=progress):
                click.echo(part.text(unique), nl=False)
                parts.append(part)
        outcomes = joined(table, parts)
    else:
        with progress_bar(len(table)) as progress:
            outcomes = solve_lines(table, options, jobs=workers(jobs), progress=progress)
        click.echo(outcomes.text(unique), nl=False)
    click.echo(f"ndoku: {path}: {outcomes.summary()}", err=True)
    return 0 if outcomes.shown(unique).all() else EXIT_UNSOLVED


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
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
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
    from ndoku.tasks.count import Count, count_all
    from ndoku.tasks.lines import solve_lines
    from ndoku.tasks.solve import Options

    options = Options(timeout=timeout, limit=limit)
    if max_nodes is not None:
        options = replace(options, max_nodes=max_nodes)
    client = cluster_client(cluster)
    status = 0
    for path, puzzles in read_tables(files, symbols, layout):
        if puzzles is None:
            status = max(status, EXIT_BAD_INPUT)
            continue
        if len(files) > 1 and fmt == "text":
            click.echo(f"# {path}")
        counts: Sequence[Count]
        if client is not None:  # written as the cluster's chunks arrive
            from ndoku.tasks.many import iter_count

            work = partial(iter_count, puzzles, options, client=client)
            counts = Streamed(len(puzzles), len(puzzles), "counting", work)
        else:
            with progress_bar(len(puzzles)) as progress:
                if isinstance(puzzles, PuzzleTable):
                    outcomes = solve_lines(puzzles, options, jobs=workers(jobs), progress=progress)
                    counts = outcomes.counts()
                else:
                    counts = count_all(puzzles, options, jobs=workers(jobs), progress=progress)
        for number, counted in enumerate(counts, start=1):
            if not counted.certain:
                status = max(status, EXIT_UNSOLVED)
            if fmt == "json":
                record = file_record(path, number, len(puzzles) > 1) | counted.record()
                click.echo(json.dumps(record))
            else:
                click.echo(counted.text())
        if len(files) > 1 and fmt == "text":
            click.echo()
    if status:
        raise Failure(status)


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
