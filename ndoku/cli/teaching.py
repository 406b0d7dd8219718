"""``ndoku hint`` and ``ndoku explain``: the next step of a solve, or the whole path, in words
(and drawn, with ``--pretty``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import click

from ndoku.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_UNSOLVED,
    Failure,
    Pictures,
    assume_unique_option,
    file_record,
    files_argument,
    format_option,
    picture_options,
    puzzle_options,
    read_all,
    timeout_option,
)

if TYPE_CHECKING:
    from rich.console import Console

    from ndoku.picture.scene import Scene
    from ndoku.solvers.logic import Board, Step
    from ndoku.tasks.explain import Explanation


def _explained(
    files: tuple[str, ...],
    symbols: str | None,
    layout: str | None,
    timeout: float,
    most_steps: int | None,
    assume_unique: bool,
    bad: list[int],
) -> Iterator[tuple[dict[str, Any], Explanation]]:
    """(the record's file and number, the explanation) of every puzzle; a file that cannot
    be read (its error printed) appends an exit status to ``bad``."""
    from ndoku.tasks.explain import explain
    from ndoku.tasks.warming import ruled_jobs, warm_aside

    warmed = False
    for path, puzzles in read_all(files, symbols, layout):
        if puzzles is None:
            bad.append(EXIT_BAD_INPUT)
            continue
        if not warmed:  # once a command: a first run compiles the ruled search beside the path
            warm_aside(*ruled_jobs(puzzles))
            warmed = True
        for number, puzzle in enumerate(puzzles, start=1):
            where = file_record(path, number, len(puzzles) > 1)
            yield where, explain(puzzle, timeout, most_steps, assume_unique)


TIMEOUT_HELP = "Seconds per puzzle, for the check of its one solution and for the path."
PRETTY_HELP = (
    "Draw the grid before {which}: every free cell's candidates (only those of the cells the "
    "step touches when that drawing would be wider than 120 columns), the step's cells in "
    "brackets, =v placed, -v removed; colours in a terminal. Text format only."
)


def _console() -> Console:
    from rich.console import Console

    return Console(highlight=False)


def _draw(console: Console, told: Explanation, board: Board, step: Step | None) -> None:
    """The board (before ``step``, marked) as ``--pretty`` draws it."""
    from ndoku.tasks.render import draw_marks

    console.print(draw_marks(told.puzzle, board.values, board.cand, step), soft_wrap=True)


def _scene(told: Explanation, board: Board, k: int | None, pictures: Pictures) -> Scene:
    """The board before step ``k`` (or the last board) with the step's cells shaded, what it
    places green, what it removes struck out in red; its caption names the step."""
    from ndoku.picture.drawing import picture

    step = told.path.steps[k] if k is not None else None
    footer = None
    if pictures.caption:
        said = None if step is None else f"{step.technique} ({step.rating:g})"
        footer = told.summary() if k is None else f"step {k + 1}: {said}"
    return picture(
        told.puzzle,
        board.values,
        candidates=board.cand,
        step=step,
        regions=pictures.fill_regions,
        title=pictures.title,
        footer=footer,
    )


@click.command()
@files_argument
@puzzle_options
@format_option(
    ("text", "json"),
    "text: the step in a sentence or two; json: one object per puzzle (step, technique, "
    "text, cells, placements, eliminations; rows and columns 0-based).",
)
@timeout_option(TIMEOUT_HELP)
@click.option("--pretty", is_flag=True, help=PRETTY_HELP.format(which="the step"))
@assume_unique_option
@picture_options("the grid before the step, its cells shaded and candidates shown")
def hint(
    files: tuple[str, ...],
    layout: str | None,
    symbols: str | None,
    fmt: str,
    timeout: float,
    pretty: bool,
    assume_unique: bool,
    pictures: Pictures,
) -> None:
    """The next step for the puzzles in FILES: the easiest technique that applies, the cells
    it rests on, and what it places or removes.

    Filled cells count as givens, so a partly solved grid gets the next step from where it
    stands; pencil marks (a sukaku line or its rows, or a grid of candidate lists) are kept
    as the candidates. Where no technique applies the step is a guess (the one solution's
    value, proved by search), said as such.
    """
    from ndoku.tasks.records import hint_record

    statuses: list[int] = []
    scenes = []
    for where, told in _explained(files, symbols, layout, timeout, 1, assume_unique, statuses):
        if pictures:
            first = 0 if told.path.steps else None
            scenes.append(_scene(told, next(told.boards()), first, pictures))
        if fmt == "json":
            click.echo(json.dumps(where | hint_record(told)))
        if not told.path.steps:
            if not told.path.solved:
                statuses.append(EXIT_UNSOLVED)
            if fmt == "text":
                click.echo(hint_record(told)["text"])
        elif fmt == "text":
            click.echo(told.text(0))
            if pretty:
                _draw(_console(), told, next(told.boards()), told.path.steps[0])
                click.echo(f"# {_legend(told)}")
    if scenes:
        pictures.write(scenes)
    status = max(statuses, default=0)
    if status:
        raise Failure(status)


def _legend(told: Explanation) -> str:
    from ndoku.tasks.render import legend

    return legend(told.puzzle)


@click.command()
@files_argument
@puzzle_options
@format_option(
    ("text", "json"),
    "text: one step per line, then a summary; json: one object per step, then one for the "
    "path (stop, steps, techniques, hardest).",
)
@timeout_option(TIMEOUT_HELP)
@click.option("--pretty", is_flag=True, help=PRETTY_HELP.format(which="each step"))
@assume_unique_option
@picture_options("each step (the grid before it, its cells shaded) and the last grid")
def explain(
    files: tuple[str, ...],
    layout: str | None,
    symbols: str | None,
    fmt: str,
    timeout: float,
    pretty: bool,
    assume_unique: bool,
    pictures: Pictures,
) -> None:
    """The whole solving path of the puzzles in FILES, one step per line, easiest technique
    first at every step, and a summary: the techniques used, how often, the hardest.

    Where no technique applies, a step is a guess (said as such, and counted in the summary).
    With --pretty each step is drawn under its sentence, and the grid the path ends on last.
    Exit status 1 when the timeout stopped a path before the solution. Pictures (--pdf, …)
    show every step: a PDF page or a numbered file each.
    """
    statuses: list[int] = []
    scenes = []
    drawing = pretty and fmt == "text"
    explained = _explained(files, symbols, layout, timeout, None, assume_unique, statuses)
    for where, told in explained:
        if not told.path.solved:
            statuses.append(EXIT_UNSOLVED)
        if fmt == "text" and "puzzle" in where:  # a file of several: whose steps follow
            click.echo(f"# puzzle {where['puzzle']}")
        if drawing:
            click.echo(f"# {_legend(told)}")
        if pictures:
            scenes += [
                _scene(told, board, k if k < len(told.path.steps) else None, pictures)
                for k, board in enumerate(told.boards())
            ]
        boards = told.boards()
        for k, step in enumerate(told.path.steps):
            if fmt == "json":
                click.echo(json.dumps(where | told.record(k)))
                continue
            click.echo(f"{k + 1}. {told.text(k)}")
            if drawing:
                _draw(_console(), told, next(boards), step)
                click.echo()
        if drawing:
            _draw(_console(), told, next(boards), None)
        if fmt == "json":
            click.echo(json.dumps(where | told.summary_record()))
        else:
            click.echo(f"# {told.summary()}")
    if scenes:
        pictures.write(scenes)
    status = max(statuses, default=0)
    if status:
        raise Failure(status)
