"""Pictures of what the commands show: a puzzle, its solution, a step, a book of puzzles,
with their captions (layout, givens, difficulty, seed)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ndoku.model.puzzle import Puzzle
from ndoku.picture.book import Entry, book
from ndoku.picture.drawing import picture
from ndoku.picture.scene import Scene
from ndoku.tasks.render import grids_text
from ndoku.text.words import plural

if TYPE_CHECKING:
    from ndoku.tasks.generate import Generated
    from ndoku.tasks.rate import Rating


def layout_name(puzzle: Puzzle) -> str:
    """The layout's name, or what it is (``9×9``, ``9×9 jigsaw``, ``4×4 with 2 diagonals``).

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="# extra: diagonals\\n" + "0 0 0 0\\n" * 4)
    >>> layout_name(p)
    '4×4 with 2 diagonals'
    """
    layout = puzzle.layout
    if layout.name is not None:
        return layout.name
    name = grids_text(puzzle) + (" jigsaw" if layout.regions is not None else "")
    return name + (f" with {layout.extras_text()}" if layout.extras else "")


def caption(
    puzzle: Puzzle,
    rating: Rating | None = None,
    seed: int | None = None,
    rated: bool = False,
    name: str | None = None,
) -> str:
    """A picture's footer: layout, givens, the difficulty (``rating``, or rated here when
    ``rated``; none for a puzzle without one solution) and the seed.

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> caption(p, seed=7)
    '4×4 · 4 givens · seed 7'
    """
    parts = [name or layout_name(puzzle), plural(int((puzzle.givens > 0).sum()), "given")]
    if rating is None and rated:
        from ndoku.tasks.rate import rate

        rating = rate(puzzle)
    if rating is not None and rating.level is not None:
        # the level and score (``chains 7.2``); a lower bound where the path timed out
        score = "" if rating.score is None else f" {rating.score:.1f}"
        parts.append(f"≥{rating.level}" if rating.lower_bound else rating.level + score)
    if seed is not None:
        parts.append(f"seed {seed}")
    return " · ".join(parts)


def puzzle_picture(
    puzzle: Puzzle,
    values: NDArray[np.integer] | None = None,
    *,
    title: str | None = None,
    footer: str | None = None,
    fill_regions: bool = False,
) -> Scene:
    """The puzzle with ``values`` (default: its givens), or its pencil marks when it was read
    from them and no values are given."""
    from ndoku.solvers.logic import Board

    candidates = None
    if values is None and puzzle.candidates is not None:
        board = Board.start(puzzle)
        values, candidates = board.values, board.cand
    return picture(
        puzzle,
        values,
        candidates=candidates,
        regions=fill_regions,
        title=title,
        footer=footer,
    )


def book_pages(
    made: Sequence[Generated],
    per_page: int = 1,
    paper: str = "a4",
    title: str = "",
    fill_regions: bool = False,
    name: str | None = None,
) -> list[Scene]:
    """A book of generated puzzles: each under a header (number, layout, difficulty, seed),
    the solutions at the back under a note on how to make each puzzle again. ``name`` is
    the layout's as the user gave it (``samurai``)."""
    entries = []
    for number, one in enumerate(made, 1):
        puzzle = one.puzzle
        header = f"{number}. {caption(puzzle, one.rating, one.seed, name=name)}"
        entries.append(
            Entry(
                header,
                picture(puzzle, regions=fill_regions),
                picture(puzzle, one.solution, regions=fill_regions),
                str(number),
            )
        )
    note = (
        "Each puzzle is made again by ndoku generate with its seed (--seed) and the same options."
        if made
        else ""
    )
    return book(entries, per_page, paper, title, note)
