"""A puzzle as it travels: an f-puzzles or SudokuPad link that opens it in the browser, or
ndoku's own text (what ``ndoku show --to`` prints and the page of ``ndoku serve`` offers)."""

from __future__ import annotations

from ndoku.errors import NdokuError
from ndoku.model.exchange import fpuzzles_data
from ndoku.model.puzzle import Puzzle
from ndoku.tasks.chunks import puzzle_document
from ndoku.text.links import fpuzzles_link, sudokupad_link

#: The forms a puzzle is given in.
FORMS = ("fpuzzles", "sudokupad", "text")


def exchange_form(puzzle: Puzzle, to: str) -> str:
    """``puzzle`` as a link that opens it (``fpuzzles``, ``sudokupad``), or as ndoku's text
    form (``text``, with a ``# symbols:`` header where its symbols need one).

    Raises :class:`~ndoku.errors.NdokuError` for a puzzle f-puzzles cannot hold (a
    multi-grid, over 16×16) or an unknown form.

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> exchange_form(p, "fpuzzles").startswith("https://www.f-puzzles.com/?load=")
    True
    >>> print(exchange_form(p, "text"))
    1 0 0 0
    0 0 3 0
    0 4 0 0
    0 0 0 2
    """
    if to not in FORMS:
        raise NdokuError(f"unknown form {to!r} (known: {', '.join(FORMS)})")
    if to == "text":
        text, alphabet = puzzle_document(puzzle)
        declared = alphabet is None or any(
            line.startswith("# symbols:") for line in text.split("\n")
        )
        return (text if declared else f"# symbols: {alphabet}\n{text}").rstrip("\n")
    data = fpuzzles_data(puzzle)
    return fpuzzles_link(data) if to == "fpuzzles" else sudokupad_link(data)
