"""``ndoku hint`` and ``ndoku explain``: the next step of a solve, or the whole path, in words."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import click

from ndoku.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_UNSOLVED,
    Failure,
    file_record,
    format_option,
    puzzle_options,
    read_all,
    timeout_option,
)

if TYPE_CHECKING:
    from ndoku.tasks.explain import Explanation


def _explained(
    files: tuple[str, ...],
    symbols: str | None,
    layout: str | None,
    timeout: float,
    most_steps: int | None,
    bad: list[int],
) -> Iterator[tuple[dict[str, Any], Explanation]]:
    """(the record's file and number, the explanation) of every puzzle; a file that cannot
    be read (its error printed) appends an exit status to ``bad``."""
    from ndoku.tasks.explain import explain

    for path, puzzles in read_all(files, symbols, layout):
        if puzzles is None:
            bad.append(EXIT_BAD_INPUT)
            continue
        for number, puzzle in enumerate(puzzles, start=1):
            where = file_record(path, number, len(puzzles) > 1)
            yield where, explain(puzzle, timeout, most_steps)


TIMEOUT_HELP = "Seconds per puzzle, for the check of its one solution and for the path."


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@puzzle_options
@format_option(
    ("text", "json"),
    "text: the step in a sentence or two; json: one object per puzzle (step, technique, "
    "text, cells, placements, eliminations; rows and columns 0-based).",
)
@timeout_option(TIMEOUT_HELP)
def hint(
    files: tuple[str, ...], layout: str | None, symbols: str | None, fmt: str, timeout: float
) -> None:
    """The next step for the puzzles in FILES: the easiest technique that applies, the cells
    it rests on, and what it places or removes.

    Filled cells count as givens, so a partly solved grid gets the next step from where it
    stands. Where no technique applies the step is a guess (the one solution's value, proved
    by search), said as such.
    """
    statuses: list[int] = []
    for where, told in _explained(files, symbols, layout, timeout, 1, statuses):
        if not told.path.steps:
            if not told.path.solved:
                statuses.append(EXIT_UNSOLVED)
            what = "nothing left to do: the grid is solved" if told.path.solved else told.summary()
            if fmt == "json":
                click.echo(json.dumps(where | {"step": None, "text": what}))
            else:
                click.echo(what)
        elif fmt == "json":
            click.echo(json.dumps(where | told.record(0)))
        else:
            click.echo(told.text(0))
    status = max(statuses, default=0)
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
@timeout_option(TIMEOUT_HELP)
def explain(
    files: tuple[str, ...], layout: str | None, symbols: str | None, fmt: str, timeout: float
) -> None:
    """The whole solving path of the puzzles in FILES, one step per line, easiest technique
    first at every step, and a summary: the techniques used, how often, the hardest.

    Where no technique applies, a step is a guess (said as such, and counted in the summary).
    Exit status 1 when the timeout stopped a path before the solution.
    """
    statuses: list[int] = []
    for where, told in _explained(files, symbols, layout, timeout, None, statuses):
        if not told.path.solved:
            statuses.append(EXIT_UNSOLVED)
        for k in range(len(told.path.steps)):
            if fmt == "json":
                click.echo(json.dumps(where | told.record(k)))
            else:
                click.echo(f"{k + 1}. {told.text(k)}")
        if fmt == "json":
            click.echo(json.dumps(where | told.summary_record()))
        else:
            click.echo(f"# {told.summary()}")
    status = max(statuses, default=0)
    if status:
        raise Failure(status)
