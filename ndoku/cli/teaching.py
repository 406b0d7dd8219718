"""``ndoku hint`` and ``ndoku explain``: the next step of a solve, or the whole path, in words."""

from __future__ import annotations

import json

import click

from ndoku.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_UNSOLVED,
    F,
    Failure,
    file_record,
    format_option,
    puzzle_options,
    read_all,
)
from ndoku.limits import DEFAULT_TIMEOUT


def timeout_option(command: F) -> F:
    return click.option(
        "--timeout",
        type=click.FloatRange(min=0, min_open=True),
        default=DEFAULT_TIMEOUT,
        show_default=True,
        help="Seconds per puzzle, for the check of its one solution and for the path.",
    )(command)


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@puzzle_options
@format_option(
    ("text", "json"),
    "text: the step in a sentence or two; json: one object per puzzle (step, technique, "
    "text, cells, placements, eliminations; rows and columns 0-based).",
)
@timeout_option
def hint(
    files: tuple[str, ...], layout: str | None, symbols: str | None, fmt: str, timeout: float
) -> None:
    """The next step for the puzzles in FILES: the easiest technique that applies, the cells
    it rests on, and what it places or removes.

    Filled cells count as givens, so a partly solved grid gets the next step from where it
    stands. Where no technique applies the step is a guess (the one solution's value, proved
    by search), said as such.
    """
    from ndoku.tasks.explain import explain

    status = 0
    for path, puzzles in read_all(files, symbols, layout):
        if puzzles is None:
            status = max(status, EXIT_BAD_INPUT)
            continue
        for number, puzzle in enumerate(puzzles, start=1):
            told = explain(puzzle, timeout, most_steps=1)
            batch = len(puzzles) > 1
            if not told.path.steps:
                status = max(status, EXIT_UNSOLVED if not told.path.solved else 0)
                what = (
                    "nothing left to do: the grid is solved"
                    if told.path.solved
                    else (told.summary())
                )
                if fmt == "json":
                    record = file_record(path, number, batch) | {"step": None, "text": what}
                    click.echo(json.dumps(record))
                else:
                    click.echo(what)
                continue
            if fmt == "json":
                click.echo(json.dumps(file_record(path, number, batch) | told.record(0)))
            else:
                click.echo(told.text(0))
    if status:
        raise Failure(status)


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@puzzle_options
@format_option(
    ("text", "json"),
    "text: one step per line, then a summary; json: one object per step, then one for the "
    "path (stop, steps, techniques, hardest).",
)
@timeout_option
def explain(
    files: tuple[str, ...], layout: str | None, symbols: str | None, fmt: str, timeout: float
) -> None:
    """The whole solving path of the puzzles in FILES, one step per line, easiest technique
    first at every step, and a summary: the techniques used, how often, the hardest.

    Where no technique applies, a step is a guess (said as such, and counted in the summary).
    Exit status 1 when the timeout stopped a path before the solution.
    """
    from ndoku.tasks.explain import explain as explain_puzzle

    status = 0
    for path, puzzles in read_all(files, symbols, layout):
        if puzzles is None:
            status = max(status, EXIT_BAD_INPUT)
            continue
        for number, puzzle in enumerate(puzzles, start=1):
            told = explain_puzzle(puzzle, timeout)
            batch = len(puzzles) > 1
            if not told.path.solved:
                status = max(status, EXIT_UNSOLVED)
            for k in range(len(told.path.steps)):
                if fmt == "json":
                    click.echo(json.dumps(file_record(path, number, batch) | told.record(k)))
                else:
                    click.echo(f"{k + 1}. {told.text(k)}")
            if fmt == "json":
                click.echo(json.dumps(file_record(path, number, batch) | told.summary_record()))
            else:
                click.echo(f"# {told.summary()}")
    if status:
        raise Failure(status)
