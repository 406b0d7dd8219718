"""The ``ndoku`` command: a thin layer over the library.

Exit status: 0 when every puzzle was solved, 1 when some puzzle was not (unsolved within the
limits), 2 for bad input or options (``Error: …`` names the file, line and column).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import click

from ndoku import __version__
from ndoku.errors import NdokuError, VerificationError
from ndoku.limits import (
    DEFAULT_TIMEOUT,
    DEFAULT_TRACE_EVERY,
    RATE_MAX_PROPOSALS,
    TUNE_TIMEOUT,
)
from ndoku.solvers.chains.metropolis import MOVES, SCHEDULES
from ndoku.tasks.solve import METHODS

F = TypeVar("F", bound=Callable[..., Any])

EXIT_UNSOLVED = 1
EXIT_BAD_INPUT = 2
EXIT_BUG = 3


class Failure(Exception):
    """Stop with an exit status after the messages were already printed."""

    def __init__(self, status: int):
        self.status = status


class NdokuGroup(click.Group):
    """Turns library errors into ``Error: …`` and an exit status instead of a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except Failure as exc:
            ctx.exit(exc.status)
        except NdokuError as exc:
            click.echo(f"Error: {exc}", err=True)
            ctx.exit(_exit_status(exc))


def _exit_status(exc: NdokuError) -> int:
    return EXIT_BUG if isinstance(exc, VerificationError) else EXIT_BAD_INPUT


@click.group(cls=NdokuGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ndoku")
def main() -> None:
    """Solve generalized sudoku: any size, any interlocked layout (Samurai, sumo, …).

    A puzzle is a text grid: whitespace-separated tokens, 0 for an empty cell, '.' for a
    cell that does not exist. Run 'ndoku COMMAND --help' for each command.
    """


def puzzle_options(command: F) -> F:
    """Options every command that reads puzzles shares."""
    command = click.option(
        "--symbols",
        metavar="ALPHABET",
        help="Symbols in value order, e.g. 0-F for hexadoku written 0..F (then - or _ is empty).",
    )(command)
    return click.option(
        "--layout",
        metavar="NAME|PATH",
        help="Sub-grid layout: a name from 'ndoku layouts' or a layout file.",
    )(command)


def limit_options(command: F) -> F:
    """Bounds every solving command shares."""
    command = click.option(
        "--timeout",
        type=click.FloatRange(min=0, min_open=True),
        default=DEFAULT_TIMEOUT,
        show_default=True,
        help="Seconds per puzzle before giving up.",
    )(command)
    command = click.option(
        "--max-nodes",
        type=click.IntRange(min=1),
        default=None,
        help="Stop an exact search after this many nodes [default: 10⁹].",
    )(command)
    return click.option(
        "--jobs",
        "-j",
        type=click.IntRange(min=1),
        default=None,
        help="Processes for batches that take a while [default: all cores].",
    )(command)


def chain_options(command: F) -> F:
    """Options of the Monte-Carlo chain that solve and tune share."""
    command = click.option(
        "--max-proposals",
        type=click.IntRange(min=0),
        default=None,
        help="Stop a chain after this many proposals [default: no limit but the timeout].",
    )(command)
    command = click.option(
        "--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Random seed."
    )(command)
    return click.option(
        "--moves",
        type=click.Choice(MOVES),
        default="box",
        show_default=True,
        help="Moves of the chain: box = swap two free cells of a box; row = of a row (single "
        "grids); single = one free cell takes another value.",
    )(command)


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option(
    "--method",
    type=click.Choice(METHODS),
    default="auto",
    show_default=True,
    help="auto/exact: propagation and search, proving uniqueness; metropolis: the Monte-Carlo "
    "chain; hybrid: pruning (propagation and matching), then the chain within the candidates; "
    "tempering: replicas of the pruned chain on a temperature ladder (large puzzles).",
)
@click.option(
    "--unique",
    is_flag=True,
    help="Refuse (exit 1, status multiple) to print a solution of a puzzle that has several.",
)
@click.option(
    "--temperature",
    "-T",
    type=click.FloatRange(min=0, min_open=True),
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
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    help="Start temperature of a schedule [default: the constant default].",
)
@click.option(
    "--alpha",
    type=click.FloatRange(min=0, max=1, min_open=True),
    default=None,
    help="Exponential cooling T_k = T0·alpha^k, k counted in sweeps; alpha in (0, 1].",
)
@click.option(
    "--beta-max",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    help="Ramp: the inverse temperature rises to this (log β as the square root of progress).",
)
@click.option(
    "--reheat",
    type=click.IntRange(min=0),
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
    type=click.IntRange(min=2),
    default=None,
    help="Tempering: this many rungs between the default ends [default: by size].",
)
@click.option(
    "--exchange-every",
    type=click.IntRange(min=1),
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
    type=click.IntRange(min=1),
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
    type=click.IntRange(min=1),
    default=DEFAULT_TRACE_EVERY,
    show_default=True,
    help="Proposals between two traced points.",
)
@limit_options
@puzzle_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["grid", "json"]),
    default="grid",
    show_default=True,
    help="grid: the solution in the input's own shape; json: one object per puzzle (per run) "
    "and line.",
)
@click.option("--pretty", is_flag=True, help="Draw the grid with box borders and colours.")
def solve(
    files: tuple[str, ...],
    method: str,
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
    layout: str | None,
    symbols: str | None,
    fmt: str,
    pretty: bool,
) -> None:
    """Solve the puzzles in FILES ('-' reads stdin) and print each solution.

    Every printed solution has been checked against every unit and every given. A file of
    one-line puzzles (81 characters for 9×9) is a batch: one answer line per puzzle, or its
    status (none, limit, unsolved, multiple with --unique) when there is no answer.
    """
    from ndoku.tasks.settings import solve_options
    from ndoku.tasks.solve import batch_summary, solve_runs

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
    )
    if plot_path is not None:
        from ndoku.tasks.plot import pyplot

        pyplot()  # a missing matplotlib is an error before any solving
    status = 0
    traces: list[Any] = []
    for path, puzzles in _read_all(files, symbols, layout):
        if puzzles is None:
            status = max(status, EXIT_BAD_INPUT)
            continue
        if len(files) > 1 and fmt == "grid":
            click.echo(f"# {path}")
        with _progress(len(puzzles) * runs) as progress:
            per_puzzle = solve_runs(
                puzzles, method, options, runs, jobs=_jobs(jobs), progress=progress
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
                    click.echo(json.dumps(_file_record(path, number, batch) | run.record(unique)))
            elif pretty:
                _print_pretty(outcome, unique)
            elif shown:
                click.echo(outcome.puzzle.text(outcome.values), nl=False)
            elif outcome.puzzle.grid.style.kind == "line":
                click.echo(outcome.status)
            label = f"{path}#{number}" if batch else path
            traces += [_labelled(label, run) for run in tried.outcomes if run.trace is not None]
        if batch:
            click.echo(f"ndoku: {path}: {batch_summary(per_puzzle)}", err=True)
        if len(files) > 1 and fmt == "grid":
            click.echo()
    _write_traces(traces, trace_path, plot_path)
    if status:
        raise Failure(status)


def _labelled(label: str, outcome: Any) -> Any:
    from ndoku.tasks.plot import LabelledTrace

    return LabelledTrace(label, outcome.result.seed, outcome.trace)


def _write_traces(traces: list[Any], trace_path: str | None, plot_path: str | None) -> None:
    from ndoku.tasks.plot import plot_traces, write_trace_csv

    if trace_path is not None:
        write_trace_csv(traces, trace_path)
    if plot_path is not None and traces:
        plot_traces(traces, plot_path)


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=2,
    show_default=True,
    help="Stop counting at this many solutions (2 proves uniqueness).",
)
@limit_options
@puzzle_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: one count per puzzle and line (0, 1, … or ≥LIMIT); json: one object per line.",
)
def count(
    files: tuple[str, ...],
    limit: int,
    timeout: float,
    max_nodes: int | None,
    jobs: int | None,
    layout: str | None,
    symbols: str | None,
    fmt: str,
) -> None:
    """Count the solutions of the puzzles in FILES: 0, 1, … or ≥LIMIT, one line each.

    Exit status 1 when a node or time limit stopped a count before it was certain.
    """
    from ndoku.tasks.count import count_all
    from ndoku.tasks.solve import Options

    options = Options(timeout=timeout, limit=limit)
    if max_nodes is not None:
        options = replace(options, max_nodes=max_nodes)
    status = 0
    for path, puzzles in _read_all(files, symbols, layout):
        if puzzles is None:
            status = max(status, EXIT_BAD_INPUT)
            continue
        if len(files) > 1 and fmt == "text":
            click.echo(f"# {path}")
        with _progress(len(puzzles)) as progress:
            counts = count_all(puzzles, options, jobs=_jobs(jobs), progress=progress)
        for number, counted in enumerate(counts, start=1):
            if not counted.certain:
                status = max(status, EXIT_UNSOLVED)
            if fmt == "json":
                record = _file_record(path, number, len(puzzles) > 1) | counted.record()
                click.echo(json.dumps(record))
            else:
                click.echo(counted.text())
        if len(files) > 1 and fmt == "text":
            click.echo()
    if status:
        raise Failure(status)


def _jobs(requested: int | None) -> int:
    """Worker processes a batch may use: all cores by default (used only when they pay)."""
    return requested if requested is not None else os.cpu_count() or 1


@contextmanager
def _progress(total: int, label: str = "solving") -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr for a batch, when stderr is a terminal."""
    if total < 2 or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    columns = (
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total, rate="")
        start = time.perf_counter()

        def advance(done: int) -> None:
            rate = done / max(time.perf_counter() - start, 1e-9)
            bar.update(task, completed=done, rate=f"{rate:,.0f} puzzles/s")

        yield advance


def _read_all(
    files: Iterable[str], symbols: str | None, layout: str | None
) -> Iterable[tuple[str, list[Any] | None]]:
    """``(path, puzzles)`` per file; ``None`` (after printing the error) when it is bad."""
    from ndoku.model.puzzle import read_puzzles

    for path in files:
        name = "<stdin>" if path == "-" else path
        try:
            yield name, read_puzzles(path, symbols=symbols, layout=layout)
        except NdokuError as exc:
            if isinstance(exc, VerificationError):
                raise
            click.echo(f"Error: {name}: {exc}", err=True)
            yield name, None


def _file_record(path: str, number: int, batch: bool) -> dict[str, Any]:
    """The start of a JSON line: the file, and the puzzle's number in a batch."""
    return {"file": path, "puzzle": number} if batch else {"file": path}


def _print_pretty(outcome: Any, unique: bool) -> None:
    from rich.console import Console

    from ndoku.tasks.render import describe, draw, headers

    console = Console(highlight=False)
    for line in headers(outcome.puzzle):
        console.print(line, style="dim", markup=False)
    console.print(draw(outcome.puzzle, outcome.drawn(unique)), soft_wrap=True)
    # Comment lines, so that the drawing reads back as a puzzle.
    console.print(f"# {describe(outcome.puzzle)}", style="dim", markup=False)
    console.print(f"# {outcome.caption(unique)}", style="dim", markup=False)


@main.command()
def layouts() -> None:
    """List the layouts that ship with ndoku (and those in $NDOKU_LAYOUTS folders)."""
    from ndoku.model.layout import available_layouts
    from ndoku.model.puzzle import read_puzzles

    rows = []
    for name, path in available_layouts().items():
        [puzzle] = read_puzzles(path, layout=name)
        lay = puzzle.layout
        rows.append(
            (
                name,
                f"{lay.shape[0]}×{lay.shape[1]}",
                f"{lay.size}×{lay.size}",
                str(len(lay.corners)),
                lay.boxes_text(),
                lay.extras_text() or "-",
                str(lay.cells),
                str(len(puzzle.units)),
                lay.description,
            )
        )
    rows.sort(key=lambda row: (int(row[3]), int(row[6]), row[0]))
    header = (
        "layout",
        "canvas",
        "grid",
        "sub-grids",
        "boxes",
        "extra units",
        "cells",
        "units",
        "description",
    )
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    for row in [header, *rows]:
        cells = [text.ljust(w) for text, w in zip(row, widths, strict=False)]
        click.echo("  ".join([*cells, row[-1]]).rstrip())


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@puzzle_options
def show(files: tuple[str, ...], layout: str | None, symbols: str | None) -> None:
    """Draw the puzzles or layouts in FILES without solving them (a name from 'ndoku
    layouts' works too)."""
    from rich.console import Console

    from ndoku.model.layout import available_layouts
    from ndoku.tasks.render import describe, draw, headers

    console = Console(highlight=False)
    known = available_layouts()
    status = 0
    for path, puzzles in _read_all(
        (str(known[f]) if f in known and not Path(f).exists() else f for f in files),
        symbols,
        layout,
    ):
        if puzzles is None:
            status = EXIT_BAD_INPUT
            continue
        for puzzle in puzzles:
            if len(files) > 1 or len(puzzles) > 1:
                console.print(f"# {path}", style="dim", markup=False)
            for line in headers(puzzle):
                console.print(line, style="dim", markup=False)
            console.print(draw(puzzle), soft_wrap=True)
            console.print(f"# {describe(puzzle)}", style="dim", markup=False)
    if status:
        raise Failure(status)


@main.command()
@click.argument("file", type=click.Path(allow_dash=True))
@puzzle_options
@click.option(
    "--graphml",
    type=click.Path(dir_okay=False, writable=True),
    help="Write the peer graph (cells with row/col, an edge per pair of peers) as GraphML.",
)
def graph(file: str, layout: str | None, symbols: str | None, graphml: str | None) -> None:
    """Describe the peer graph of the puzzle in FILE, and export it."""
    import networkx as nx

    from ndoku.model.puzzle import read_puzzles

    puzzles = read_puzzles(file, symbols=symbols, layout=layout)
    puzzle = puzzles[0]
    peer_graph = puzzle.graph
    degrees = [d for _, d in peer_graph.degree]
    click.echo(
        f"{peer_graph.number_of_nodes()} cells, {len(puzzle.units)} units, "
        f"{peer_graph.number_of_edges()} peer pairs, peers per cell {min(degrees)}..{max(degrees)}"
    )
    if graphml:
        try:
            nx.write_graphml(peer_graph, graphml)
        except OSError as exc:
            raise NdokuError(f"cannot write {graphml}: {exc.strerror or exc}") from None
        click.echo(f"wrote {Path(graphml)}")


@main.command()
@click.argument("layout")
@click.option(
    "--count",
    "-n",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Puzzles to make; puzzle k uses seed SEED + k − 1.",
)
@click.option(
    "--givens",
    type=int,
    default=None,
    help="Stop removing at this many givens [default: remove every given that can go].",
)
@click.option(
    "--difficulty",
    type=click.Choice(["easy", "medium", "hard", "expert"]),
    help="Draw solutions until the rating lands in this band (see 'ndoku rate').",
)
@click.option(
    "--symmetry",
    type=click.Choice(["none", "rotational", "mirror"]),
    default="none",
    show_default=True,
    help="Pattern of the givens: rotational = a half turn of the canvas, mirror = left-right.",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Seed of the first puzzle: the same seed makes the same puzzle.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=DEFAULT_TIMEOUT,
    show_default=True,
    help="Seconds per puzzle; then the puzzle reached so far (still unique) is printed.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["grid", "line", "json"]),
    default="grid",
    show_default=True,
    help="grid: the layout's shape with its headers; line: one line per puzzle (single "
    "grids); json: one object per puzzle and line, with the solution and the rating.",
)
def generate(
    layout: str,
    count: int,
    givens: int | None,
    difficulty: str | None,
    symmetry: str,
    seed: int,
    timeout: float,
    fmt: str,
) -> None:
    """Make puzzles of LAYOUT (a name from 'ndoku layouts' or a layout file) with exactly
    one solution.

    A random solution is drawn, then givens are removed while the exact solver proves the
    puzzle still unique. Each printed puzzle was read back, proved unique and its solution
    checked. Exit status 1 when a puzzle misses what was asked (the number of givens, the
    difficulty, or the timeout cut it short): it is printed all the same.
    """
    from ndoku.tasks.generate import GenerateTimeout, layout_puzzle, line_headers, puzzle_line
    from ndoku.tasks.generate import generate as make

    if givens is not None and difficulty is not None:
        raise NdokuError("--givens and --difficulty exclude each other: ask for one")
    empty = layout_puzzle(layout)
    if fmt == "line":
        puzzle_line(empty)  # refuses layouts a line cannot hold, before any work
    headers = line_headers(empty, layout) if fmt == "line" else []
    status = 0
    with _progress(count, "generating") as progress:
        for number in range(1, count + 1):
            asked = seed + number - 1
            command = _generate_command(layout, asked, givens, difficulty, symmetry)
            try:
                made = make(
                    empty,
                    givens=givens,
                    difficulty=difficulty,
                    symmetry=symmetry,
                    seed=asked,
                    timeout=timeout,
                    command=command,
                )
            except GenerateTimeout as exc:
                click.echo(f"ndoku: {layout}: seed {asked}: {exc}", err=True)
                status = EXIT_UNSOLVED
                continue
            if not made.reached:
                click.echo(f"ndoku: {layout}: seed {asked}: {_missed(made, givens)}", err=True)
                status = EXIT_UNSOLVED
            if fmt == "json":
                record: dict[str, Any] = {"layout": layout, "seed": asked}
                record |= {"givens": made.givens, "target": givens, "difficulty": difficulty}
                record |= {"symmetry": symmetry, "stop": made.stop, "reached": made.reached}
                record |= {"attempts": made.attempts, "seconds": round(made.seconds, 6)}
                record["puzzle"] = made.text
                record["solution"] = made.puzzle.text(made.solution).rstrip("\n")
                record["rating"] = made.rating.record()
                click.echo(json.dumps(record))
            elif fmt == "line":
                click.echo("".join(h + "\n" for h in headers) + puzzle_line(made.puzzle))
                headers = []  # once, above the first line
            else:
                click.echo(("\n" if number > 1 else "") + made.text, nl=False)
            if progress is not None:
                progress(number)
    if status:
        raise Failure(status)


def _generate_command(
    layout: str, seed: int, givens: int | None, difficulty: str | None, symmetry: str
) -> str:
    """The command that makes this one puzzle again (for the comment line)."""
    words = ["ndoku generate", layout, f"--seed {seed}"]
    if givens is not None:
        words.append(f"--givens {givens}")
    if difficulty is not None:
        words.append(f"--difficulty {difficulty}")
    if symmetry != "none":
        words.append(f"--symmetry {symmetry}")
    return " ".join(words)


def _missed(made: Any, givens: int | None) -> str:
    """Why a generated puzzle is not what was asked."""
    if made.stop == "timeout":
        return (
            f"the timeout stopped the work at {made.givens} givens (the puzzle is unique and "
            "printed); a longer --timeout gets further"
        )
    if made.stop == "attempts":
        return (
            f"no puzzle landed in the band in {made.attempts} attempts; the closest is printed "
            f"(rated {made.rating.level})"
        )
    return (
        f"stopped at {made.givens} givens, above the {givens} asked: no remaining given (or "
        "symmetric pair) can go without losing uniqueness"
    )


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option(
    "--chains",
    type=click.IntRange(min=0),
    default=3,
    show_default=True,
    help="Metropolis chains (seeds 0, 1, …) for the second opinion; 0 runs none.",
)
@click.option(
    "--max-proposals",
    type=click.IntRange(min=1),
    default=RATE_MAX_PROPOSALS,
    show_default=True,
    help="Proposals each chain may run.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=DEFAULT_TIMEOUT,
    show_default=True,
    help="Seconds for each exact search; a chain runs at most 10 s.",
)
@puzzle_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: one line per puzzle; json: one object per puzzle and line.",
)
def rate(
    files: tuple[str, ...],
    chains: int,
    max_proposals: int,
    timeout: float,
    layout: str | None,
    symbols: str | None,
    fmt: str,
) -> None:
    """Rate the puzzles in FILES: easy (naked singles solve it), medium (hidden singles
    too), hard (the exact solver guesses, at most 10 times) or expert (more guesses).

    Each line gives the level, the score (0 easy, 1 medium, 2 + log2(1 + guesses) beyond),
    what it took, and the Metropolis opinion: the median proposals of the chains. Exit status
    1 when a puzzle could not be rated (no solution, several, or the search hit --timeout).
    """
    from ndoku.tasks.rate import LEVELS
    from ndoku.tasks.rate import rate as rate_puzzle

    status = 0
    for path, puzzles in _read_all(files, symbols, layout):
        if puzzles is None:
            status = max(status, EXIT_BAD_INPUT)
            continue
        if len(files) > 1 and fmt == "text":
            click.echo(f"# {path}")
        ratings = []
        with _progress(len(puzzles), "rating") as progress:
            for number, puzzle in enumerate(puzzles, start=1):
                start = time.perf_counter()
                rating = rate_puzzle(
                    puzzle, chains=chains, max_proposals=max_proposals, timeout=timeout
                )
                ratings.append(rating)
                if rating.level is None:
                    status = max(status, EXIT_UNSOLVED)
                if fmt == "json":
                    record = _file_record(path, number, len(puzzles) > 1) | rating.record()
                    record["seconds"] = round(time.perf_counter() - start, 6)
                    click.echo(json.dumps(record))
                else:
                    click.echo(_rating_line(rating))
                if progress is not None:
                    progress(number)
        if len(puzzles) > 1:
            levels = [r.level for r in ratings]
            parts = [f"{levels.count(level)} {level}" for level in LEVELS]
            unrated = levels.count(None)
            parts += [f"{unrated} not rated"] if unrated else []
            scores = sorted(r.score for r in ratings if r.score is not None)
            median = f"; median score {scores[len(scores) // 2]:.2f}" if scores else ""
            click.echo(
                f"ndoku: {path}: {len(puzzles)} puzzles: {', '.join(parts)}{median}", err=True
            )
        if len(files) > 1 and fmt == "text":
            click.echo()
    if status:
        raise Failure(status)


def _rating_line(rating: Any) -> str:
    """``hard    3.58  2 guesses, 5 nodes; chains 1,234,567 proposals (3/3 solved)``."""
    if rating.level is None:
        why = {
            "multiple": "more than one solution",
            "none": "no solution",
            "limit": "the exact search hit the timeout",
        }[rating.status]
        return f"not rated: {why}"
    if rating.level == "easy":
        how = f"naked singles, {rating.rounds} rounds"
    elif rating.level == "medium":
        how = f"naked and hidden singles, {rating.rounds} rounds"
    else:
        guesses = f"{rating.guesses:,} guess" + ("" if rating.guesses == 1 else "es")
        how = f"{guesses}, {rating.nodes:,} nodes"
    line = f"{rating.level:<7} {rating.score:5.2f}  {how}"
    if rating.chains:
        bound = "≥" if rating.at_least else ""
        line += (
            f"; chains {bound}{rating.proposals:,} proposals ({rating.chains_solved}/"
            f"{rating.chains} solved)"
        )
    return line


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option(
    "--temperatures",
    metavar="GRID",
    default=None,
    help="Temperatures to try, start:stop:step or a,b,c; with --alpha, the start temperatures "
    "T0 [default: 0.15:0.5:0.025, with --alpha the moves' default T].",
)
@click.option(
    "--alpha",
    metavar="GRID",
    default=None,
    help="Exponential cooling rates to try (e.g. 0.99,0.999,0.9999): T_k = T0·alpha^k.",
)
@click.option(
    "--runs",
    type=click.IntRange(min=1),
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
    type=click.FloatRange(min=0, min_open=True),
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
    help="Draw mean time and success against the swept value, with the fit (PNG).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: a table and the fit; json: one object per setting, then one for the fit.",
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
    mean seconds gives the best value of the swept parameter.
    """
    from ndoku.solvers.chains.metropolis import puzzle_temperature
    from ndoku.tasks.solve import Options
    from ndoku.tasks.tune import (
        fit_line,
        fit_minimum,
        scan,
        settings_of,
        summarize,
        table,
    )
    from ndoku.text.numbers import parse_numbers

    puzzles = []
    for _, read in _read_all(files, symbols, layout):
        if read is None:
            raise Failure(EXIT_BAD_INPUT)
        puzzles += read
    alphas = None if alpha is None else parse_numbers(alpha, "alpha")
    if temperatures is None:
        if alphas is None:
            grid = parse_numbers("0.15:0.5:0.025")
        else:
            grid = [puzzle_temperature(puzzles[0], moves, pruned=method == "hybrid")]
    else:
        grid = parse_numbers(temperatures)
    settings = settings_of(grid, alphas)
    axis = "alpha" if alphas is not None and len(alphas) > 1 else "temperature"
    if alphas is not None and len(alphas) > 1 and len(grid) > 1 and plot_path is not None:
        raise NdokuError("a plot sweeps one value: give one T0 or one alpha")
    if plot_path is not None:
        from ndoku.tasks.plot import pyplot

        pyplot()
    base = Options(seed=seed, timeout=timeout, moves=moves)
    if max_proposals is not None:
        base = replace(base, max_proposals=max_proposals)
    total = len(settings) * len(puzzles) * runs
    with _progress(total, "tuning") as progress:
        summaries = summarize(scan(puzzles, settings, runs, method, base, progress))
    xs = [s.setting.value(axis) for s in summaries]
    fit = None
    if alphas is None or len(alphas) == 1 or len(grid) == 1:
        fit = fit_minimum(xs, [s.mean_seconds.value for s in summaries])
    name = "alpha" if axis == "alpha" else "T0" if alphas is not None else "T"
    if fmt == "json":
        for summary in summaries:
            click.echo(json.dumps(summary.record()))
        click.echo(json.dumps({"fit": None if fit is None else fit.record(name)}))
    else:
        click.echo(table(summaries))
        click.echo(fit_line(fit, name))
    if plot_path is not None:
        from ndoku.tasks.plot import plot_scan

        plot_scan(summaries, xs, name, fit, plot_path)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
