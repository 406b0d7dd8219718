"""ndoku: generalized sudoku solving on the peer graph.

Glossary
--------
One word, one meaning, everywhere in ndoku (modules define only the terms of their own work,
and use these).

canvas
    The rectangle of a puzzle's text: ``rows × cols`` positions.
cell
    A canvas position that exists (``.`` marks one that does not: *missing*). Inside ndoku the
    cells are numbered ``0 .. cells-1`` in reading order.
value, symbol
    A cell holds a value ``1 .. N``; a symbol is how a value is written (``1``-``9``, ``A``,
    ``0``-``F``): the puzzle's *alphabet* maps one to the other.
empty, given, free
    An empty cell has no value yet (written ``0``, ``.``, ``-`` or ``_``). A given is a cell
    whose value the puzzle states; a free cell is one that is not given (``givens`` is the
    ``(cells,)`` array of values, 0 where free).
unit
    N cells that must hold N different values: a row, column or box of a sub-grid, a jigsaw
    region (which counts as a box), or an extra unit (a diagonal, a windoku window, …). A
    unit shared by two sub-grids appears once.
sub-grid, box, region, layout
    A sub-grid is an ``N × N`` window of the canvas holding one complete sudoku; a box is an
    ``r × c`` block of it (``r·c = N``); a region is a jigsaw box of any shape. A layout is
    where the sub-grids are, with their boxes or regions and extra units; a *frame* is a
    layout with its cells numbered and its units and peers built, shared by the puzzles of
    that layout.
peers
    Two cells are peers when some unit holds both (the peer graph has an edge per pair).
candidates
    The values a cell may still take; propagation removes those the rules exclude.
pencil marks
    Candidates a person wrote down (a sukaku line or its rows, a HoDoKu grid): a puzzle
    read from them keeps them as ``Puzzle.candidates``, and every solver that honours them
    keeps each cell within them (:mod:`ndoku.text.marks`).
rule, constraint
    A rule is what a puzzle adds to each symbol once per unit, drawn on the grid: a killer
    cage, a thermometer, a dot between two cells, ``antiknight``, … (:mod:`ndoku.model.rules`).
    The solvers see the rules lowered to constraints on listed cells, more units and more
    peers (:mod:`ndoku.model.constraints`).
solution
    Values for every cell, every unit holding each value at most once (exactly once in a
    full unit), every given kept and every rule held. Every solution ndoku prints has been
    verified so.
proposal, sweep
    A proposal is one move a Monte-Carlo chain tries; a sweep is as many proposals as there
    are free cells.
energy, temperature
    A chain's energy counts broken rules (0 exactly when solved); at temperature T a move that
    raises it by ΔE is taken with probability exp(−ΔE/T).
node, guess
    A node is one propagated state of the exact search; a guess is a branch that sets a cell
    to a value.

>>> from ndoku import read_puzzles, solve
>>> [puzzle] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
>>> solve(puzzle).status
'solved'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

from ndoku import jit  # noqa: F401  (before any kernel: a read-only install still caches)
from ndoku.errors import ConflictError, LayoutError, NdokuError, ParseError, VerificationError
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.chains import Schedule, metropolis, tempering
from ndoku.solvers.exact import solve_batch, solve_exact
from ndoku.tasks.generate import generate, layout_puzzle
from ndoku.tasks.rate import rate
from ndoku.tasks.solve import Options, Outcome, solve

if TYPE_CHECKING:
    from ndoku.tasks.many import (
        count_many,
        generate_many,
        iter_count,
        iter_generate,
        iter_rate,
        iter_solve,
        rate_many,
        solve_many,
    )

#: The batch API, imported on first use: a command that does not use it does not wait for it.
_MANY = (
    "count_many",
    "generate_many",
    "iter_count",
    "iter_generate",
    "iter_rate",
    "iter_solve",
    "rate_many",
    "solve_many",
)


def __getattr__(name: str) -> Any:
    if name in _MANY:
        from ndoku.tasks import many

        return getattr(many, name)
    raise AttributeError(f"module 'ndoku' has no attribute {name!r}")


__all__ = [
    "ConflictError",
    "LayoutError",
    "NdokuError",
    "Options",
    "Outcome",
    "ParseError",
    "Puzzle",
    "Schedule",
    "VerificationError",
    "__version__",
    "count_many",
    "generate",
    "generate_many",
    "iter_count",
    "iter_generate",
    "iter_rate",
    "iter_solve",
    "layout_puzzle",
    "metropolis",
    "rate",
    "rate_many",
    "read_puzzles",
    "solve",
    "solve_batch",
    "solve_exact",
    "solve_many",
    "tempering",
]
