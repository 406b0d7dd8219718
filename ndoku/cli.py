"""The ``ndoku`` command: a thin layer over the library.

Exit status: 0 when every puzzle was solved, 1 when some puzzle was not (unsolved within the
limits), 2 for bad input or options (``Error: …`` names the file, line and column).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

import click

from ndoku import __version__
from ndoku.errors import NdokuError, VerificationError

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


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option(
    "--method",
    type=click.Choice(["metropolis"]),
    default="metropolis",
    show_default=True,
    help="Solving method.",
)
@click.option(
    "--temperature",
    "-T",
    type=click.FloatRange(min=0, min_open=True),
    help="Metropolis temperature [default: by size, 0.25 for 9×9].",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option(
    "--max-proposals",
    type=click.IntRange(min=0),
    default=None,
    help="Stop a chain after this many proposals [default: no limit but the timeout].",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=60.0,
    show_default=True,
    help="Seconds per puzzle before giving up.",
)
@puzzle_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["grid", "json"]),
    default="grid",
    show_default=True,
    help="grid: the solution in the input's own shape; json: one object per puzzle and line.",
)
@click.option("--pretty", is_flag=True, help="Draw the grid with box borders and colours.")
def solve(
    files: tuple[str, ...],
    method: str,
    temperature: float | None,
    seed: int,
    max_proposals: int | None,
    timeout: float,
    layout: str | None,
    symbols: str | None,
    fmt: str,
    pretty: bool,
) -> None:
    """Solve the puzzles in FILES ('-' reads stdin) and print each solution.

    Every printed solution has been checked against every unit and every given. A file of
    one-line puzzles (81 characters for 9×9) is a batch: one solution line per puzzle.
    """
    from ndoku.metropolis import DEFAULT_MAX_PROPOSALS
    from ndoku.solve import solve as solve_one

    options = {
        "seed": seed,
        "temperature": temperature,
        "max_proposals": DEFAULT_MAX_PROPOSALS if max_proposals is None else max_proposals,
        "timeout": timeout,
    }
    status = 0
    for path, puzzles in _read_all(files, symbols, layout):
        if puzzles is None:
            status = max(status, EXIT_BAD_INPUT)
            continue
        if len(files) > 1 and fmt == "grid":
            click.echo(f"# {path}")
        for number, puzzle in enumerate(puzzles, start=1):
            outcome = solve_one(puzzle, method, **options)  # type: ignore[arg-type]
            if not outcome.solved:
                status = max(status, EXIT_UNSOLVED)
                where = f"{path} puzzle {number}" if len(puzzles) > 1 else path
                click.echo(f"ndoku: {where}: {_unsolved_message(outcome.stats)}", err=True)
            if fmt == "json":
                click.echo(json.dumps(_json_record(path, number, len(puzzles), outcome)))
            elif pretty:
                _print_pretty(outcome)
            elif outcome.solved:
                click.echo(puzzle.text(outcome.values), nl=False)
            elif puzzle.grid.style.kind == "line":
                click.echo(outcome.status)
        if len(files) > 1 and fmt == "grid":
            click.echo()
    if status:
        raise Failure(status)


def _read_all(
    files: Iterable[str], symbols: str | None, layout: str | None
) -> Iterable[tuple[str, list[Any] | None]]:
    """``(path, puzzles)`` per file; ``None`` (after printing the error) when it is bad."""
    from ndoku.puzzle import read_puzzles

    for path in files:
        name = "<stdin>" if path == "-" else path
        try:
            yield name, read_puzzles(path, symbols=symbols, layout=layout)
        except NdokuError as exc:
            if isinstance(exc, VerificationError):
                raise
            click.echo(f"Error: {name}: {exc}", err=True)
            yield name, None


def _unsolved_message(stats: dict[str, Any]) -> str:
    reason = {"timeout": "the timeout", "max-proposals": "the proposal limit"}.get(
        str(stats["stop"]), str(stats["stop"])
    )
    return (
        f"unsolved: stopped by {reason} after {stats['proposals']:,} proposals; best energy "
        f"{stats['best_energy']} (0 is solved). Try another --seed, a longer --timeout, or "
        "--pretty to see the conflicts."
    )


def _json_record(path: str, number: int, count: int, outcome: Any) -> dict[str, Any]:
    record: dict[str, Any] = {"file": path}
    if count > 1:
        record["puzzle"] = number
    record["status"] = outcome.status
    solution = outcome.puzzle.text(outcome.values).rstrip("\n") if outcome.solved else None
    record["solution"] = solution
    record["method"] = outcome.method
    record["seconds"] = round(outcome.seconds, 6)
    record.update(outcome.stats)
    return record


def _print_pretty(outcome: Any) -> None:
    from rich.console import Console

    from ndoku.render import describe, draw

    console = Console(highlight=False)
    console.print(draw(outcome.puzzle, outcome.values))
    console.print(describe(outcome.puzzle), style="dim")
    stats = outcome.stats
    if outcome.solved:
        summary = (
            f"solved by {outcome.method} in {outcome.seconds:.3f} s: {stats['proposals']:,} "
            f"proposals, seed {stats['seed']}, T = {stats['temperature']:g}"
        )
    else:
        summary = f"best grid reached (energy {stats['best_energy']}), conflicts in red"
    console.print(summary, style="dim")


@main.command()
def layouts() -> None:
    """List the layouts that ship with ndoku (and those in $NDOKU_LAYOUTS folders)."""
    from ndoku.layout import available_layouts
    from ndoku.puzzle import read_puzzles

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

    from ndoku.layout import available_layouts
    from ndoku.render import describe, draw

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
                console.print(f"# {path}", style="dim")
            console.print(draw(puzzle))
            console.print(describe(puzzle), style="dim")
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

    from ndoku.puzzle import read_puzzles

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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
