"""``ndoku layouts``, ``ndoku show`` and ``ndoku graph``: looking at layouts and puzzles."""

from __future__ import annotations

from pathlib import Path

import click

from ndoku.cli.common import (
    EXIT_BAD_INPUT,
    Failure,
    Pictures,
    file_argument,
    files_argument,
    picture_options,
    puzzle_options,
    read_all,
)
from ndoku.errors import NdokuError
from ndoku.picture.files import written
from ndoku.text.words import plural

#: What ``show --to`` prints.
TO = ("fpuzzles", "sudokupad", "text")


@click.command()
def layouts() -> None:
    """List the layouts that ship with ndoku (and those in $NDOKU_LAYOUTS folders)."""
    from ndoku.tasks.records import layout_records

    rows = [
        (
            r["layout"],
            "×".join(map(str, r["canvas"])),
            f"{r['size']}×{r['size']}",
            str(r["sub_grids"]),
            r["boxes"],
            r["extras"] or "-",
            str(r["cells"]),
            str(r["units"]),
            r["description"],
        )
        for r in layout_records()
    ]
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


@click.command()
@files_argument
@puzzle_options
@click.option(
    "--to",
    "to",
    type=click.Choice(TO),
    default=None,
    help="Print each puzzle instead of drawing it: as an f-puzzles link, a SudokuPad link "
    "(one N×N grid of 4×4 to 16×16) or ndoku's own text form.",
)
@picture_options("the puzzles")
def show(
    files: tuple[str, ...],
    layout: str | None,
    symbols: str | None,
    to: str | None,
    pictures: Pictures,
) -> None:
    """Draw the puzzles or layouts in FILES without solving them (a name from 'ndoku
    layouts' works too): in the terminal, or as pictures (--svg, --png, --pdf, -o). FILES
    may be f-puzzles and SudokuPad links or JSON too; --to prints them as links or text.
    """
    from rich.console import Console

    from ndoku.model.layout import available_layouts
    from ndoku.tasks.links import exchange_form
    from ndoku.tasks.pictures import caption, puzzle_picture
    from ndoku.tasks.render import describe, draw_puzzle, headers

    console = Console(highlight=False)
    known = available_layouts()
    status = shown = 0
    scenes = []
    for path, puzzles in read_all(
        (str(known[f]) if f in known and not Path(f).exists() else f for f in files),
        symbols,
        layout,
    ):
        if puzzles is None:
            status = EXIT_BAD_INPUT
            continue
        for puzzle in puzzles:
            if to is not None:
                try:
                    form = exchange_form(puzzle, to)
                except NdokuError as exc:
                    click.echo(f"Error: {path}: {exc}", err=True)
                    status = EXIT_BAD_INPUT
                else:  # texts parted by a blank line; links one a line
                    click.echo(("\n" if shown and to == "text" else "") + form)
                    shown += 1
            if pictures:
                footer = caption(puzzle, rated=True) if pictures.caption else None
                scenes.append(
                    puzzle_picture(
                        puzzle,
                        title=pictures.title,
                        footer=footer,
                        fill_regions=pictures.fill_regions,
                    )
                )
                continue
            if to is not None:
                continue
            # soft_wrap: a comment or header wrapped at the terminal's width no longer reads
            # back (its rest is read as a row of the grid)
            lines = [f"# {path}"] if len(files) > 1 or len(puzzles) > 1 else []
            for line in [*lines, *headers(puzzle, drawing=True)]:
                console.print(line, style="dim", markup=False, soft_wrap=True)
            console.print(draw_puzzle(puzzle), soft_wrap=True)
            console.print(f"# {describe(puzzle)}", style="dim", markup=False, soft_wrap=True)
    if scenes:
        pictures.write(scenes)
    if status:
        raise Failure(status)


@click.command()
@file_argument
@puzzle_options
@click.option(
    "--graphml",
    type=click.Path(dir_okay=False, writable=True),
    help="Write the peer graph (cells with row/col, an edge per pair of peers) as GraphML.",
)
def graph(file: str, layout: str | None, symbols: str | None, graphml: str | None) -> None:
    """Describe the peer graph of the (first) puzzle in FILE, and export it."""
    import networkx as nx

    [(_, puzzles)] = read_all([file], symbols, layout)
    if puzzles is None:
        raise Failure(EXIT_BAD_INPUT)
    puzzle = puzzles[0]
    peer_graph = puzzle.graph
    degrees = [d for _, d in peer_graph.degree]
    click.echo(
        f"{plural(peer_graph.number_of_nodes(), 'cell')}, {plural(len(puzzle.units), 'unit')}, "
        f"{plural(peer_graph.number_of_edges(), 'peer pair')}, "
        f"peers per cell {min(degrees)}..{max(degrees)}"
    )
    if graphml:
        try:
            with written(graphml) as partial:
                nx.write_graphml(peer_graph, partial)
        except OSError as exc:
            raise NdokuError(f"cannot write {graphml}: {exc.strerror or exc}") from None
        click.echo(f"ndoku: wrote {Path(graphml)}", err=True)
