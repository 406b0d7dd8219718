"""``ndoku rate`` and ``ndoku tune``: how hard puzzles are, and which temperature suits them."""

from __future__ import annotations

import json
from dataclasses import replace

import click

from ndoku.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_UNSOLVED,
    Failure,
    assume_unique_option,
    chain_options,
    cluster_client,
    cluster_option,
    file_record,
    files_argument,
    format_option,
    jobs_option,
    progress_bar,
    puzzle_options,
    read_all,
)
from ndoku.cli.numbers import SECONDS, Whole
from ndoku.errors import NdokuError
from ndoku.limits import DEFAULT_TIMEOUT, RATE_MAX_PROPOSALS, TUNE_TEMPERATURES, TUNE_TIMEOUT


@click.command()
@files_argument
@click.option(
    "--chains",
    type=Whole(),
    default=3,
    show_default=True,
    help="Metropolis chains (seeds 0, 1, …) for the second opinion; 0 runs none.",
)
@click.option(
    "--max-proposals",
    type=Whole(1),
    default=RATE_MAX_PROPOSALS,
    show_default=True,
    help="Proposals each chain may run.",
)
@click.option(
    "--timeout",
    type=SECONDS,
    default=DEFAULT_TIMEOUT,
    show_default=True,
    help="Seconds for each exact search and each solving path; a chain runs at most 10 s.",
)
@jobs_option
@cluster_option
@puzzle_options
@format_option(
    ("text", "json"),
    "text: one line per puzzle; json: one object per puzzle and line.",
)
@assume_unique_option
def rate(
    files: tuple[str, ...],
    chains: int,
    max_proposals: int,
    timeout: float,
    jobs: int,
    cluster: str | None,
    layout: str | None,
    symbols: str | None,
    fmt: str,
    assume_unique: bool,
) -> None:
    """Rate the puzzles in FILES by their solving path: the easiest technique that applies,
    step after step (as 'ndoku explain' shows it).

    Each line gives the level (what the path needs: singles, rules, intersections, subsets,
    fish, wings, chains, forcing chains, or search when it had to guess), the score (the
    hardest step's rating, on Sukaku Explainer's 9×9 scale), the hardest technique, the
    techniques used and how often; then the exact solver's guesses and nodes and the
    Metropolis opinion (the median proposals of the chains). A path the --timeout stopped
    gives lower bounds, marked ≥. Exit status 1 when a puzzle could not be rated in full (no
    solution, several, or the search or the path hit --timeout).
    """
    from ndoku.tasks.many import iter_rate
    from ndoku.tasks.rate import ratings_summary
    from ndoku.tasks.records import rating_record
    from ndoku.tasks.warming import search_jobs, start_aside, warm_aside

    client = cluster_client(cluster)
    later = [*(["metropolis"] if chains else []), "logic", "subsets"]
    if client is None:  # a first run compiles kernels beside the search's: start it now,
        start_aside("nine", *later)  # its jobs told once the first puzzles are read
    status = 0
    for path, puzzles in read_all(files, symbols, layout):
        if puzzles is None:
            status = max(status, EXIT_BAD_INPUT)
            continue
        if client is None:  # once a command: the first file's puzzles choose the jobs
            warm_aside(*search_jobs(puzzles), *later)
        if len(files) > 1 and fmt == "text":
            click.echo(f"# {path}")
        ratings = []
        with progress_bar(len(puzzles), "rating") as progress:
            rated = iter_rate(
                puzzles,
                chains=chains,
                max_proposals=max_proposals,
                timeout=timeout,
                assume_unique=assume_unique,
                jobs=jobs,
                client=client,
                progress=progress,
            )
            for number, rating in enumerate(rated, start=1):
                ratings.append(rating)
                if rating.level is None or rating.lower_bound:
                    status = max(status, EXIT_UNSOLVED)
                if fmt == "json":
                    record = file_record(path, number, len(puzzles) > 1) | rating_record(rating)
                    click.echo(json.dumps(record))
                else:
                    click.echo(rating.text())
        if len(puzzles) > 1:
            click.echo(f"ndoku: {path}: {ratings_summary(ratings)}", err=True)
        if len(files) > 1 and fmt == "text":
            click.echo()
    if status:
        raise Failure(status)


@click.command()
@files_argument
@click.option(
    "--temperatures",
    metavar="GRID",
    default=None,
    help="Temperatures to try, start:stop:step or a,b,c; with --alpha, the start temperatures "
    f"T0 [default: {TUNE_TEMPERATURES}, with --alpha the moves' default T].",
)
@click.option(
    "--alpha",
    metavar="GRID",
    default=None,
    help="Exponential cooling rates to try (e.g. 0.99,0.999,0.9999): T_k = T0·alpha^k.",
)
@click.option(
    "--runs",
    type=Whole(1),
    default=20,
    show_default=True,
    help="Chains per setting and puzzle, seeds SEED, SEED+1, ….",
)
@click.option(
    "--method",
    type=click.Choice(["metropolis", "hybrid"]),
    default="metropolis",
    show_default=True,
    help="hybrid prunes (fixes forced cells, keeps the others to their candidates) before "
    "each chain.",
)
@chain_options
@click.option(
    "--timeout",
    type=SECONDS,
    default=TUNE_TIMEOUT,
    show_default=True,
    help="Seconds per chain before it counts as unsolved.",
)
@puzzle_options
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Draw mean time and success against the scanned value, with the fit (PNG).",
)
@format_option(
    ("text", "json"),
    "text: a table and the fit; json: one object per setting, then one for the fit.",
)
def tune(
    files: tuple[str, ...],
    temperatures: str | None,
    alpha: str | None,
    runs: int,
    method: str,
    moves: str,
    seed: int,
    max_proposals: int | None,
    timeout: float,
    layout: str | None,
    symbols: str | None,
    plot_path: str | None,
    fmt: str,
) -> None:
    """Which temperature solves FILES fastest? Run the chain over a grid of settings.

    Per setting: the share of runs solved (95% Wilson interval), mean and median seconds
    and proposals of the solved runs (95% bootstrap intervals). A quadratic fitted to the
    mean seconds gives the best value of the scanned parameter.
    """
    from ndoku.tasks.solve import Options
    from ndoku.tasks.tune import fit_line, grid_of, scan, summarize, table

    puzzles = []
    for _, read in read_all(files, symbols, layout):
        if read is None:
            raise Failure(EXIT_BAD_INPUT)
        puzzles += read
    grid = grid_of(temperatures, alpha, puzzles[0], moves, method)
    if plot_path is not None and not grid.one_axis:
        raise NdokuError("a plot scans one value: give one T0 or one alpha")
    if plot_path is not None:
        from ndoku.tasks.plot import pyplot

        pyplot()
    base = Options(seed=seed, timeout=timeout, moves=moves)
    if max_proposals is not None:
        base = replace(base, max_proposals=max_proposals)
    settings = grid.settings
    total = len(settings) * len(puzzles) * runs
    with progress_bar(total, "tuning") as progress:
        summaries = summarize(scan(puzzles, settings, runs, method, base, progress))
    fit = grid.fit(summaries)
    if fmt == "json":
        for summary in summaries:
            click.echo(json.dumps(summary.record()))
        click.echo(json.dumps({"fit": None if fit is None else fit.record(grid.name)}))
    else:
        click.echo(table(summaries))
        click.echo(fit_line(fit, grid.name))
    if plot_path is not None:
        from ndoku.tasks.plot import plot_scan

        plot_scan(summaries, grid.values(summaries), grid.name, fit, plot_path)
