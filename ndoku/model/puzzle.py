"""A puzzle: the parsed text, its frame and its givens, bundled and checked once.

Arrays of a puzzle (the terms are those of the package glossary, :mod:`ndoku`):

- ``givens``, ``(cells,)`` int32: the value of each given cell, 0 for a free one;
- ``values``, ``(cells,)`` int32: a full or partial assignment, as solvers return it;
- ``candidates``, ``(cells,)`` uint64 or None: of a puzzle read from pencil marks
  (:mod:`ndoku.text.marks`), the values each cell may take (bit ``v - 1`` for value ``v``;
  a given's own bit); every solution keeps each cell within them;
- a canvas array, ``(rows, cols)`` int32 with ``MISSING`` where no cell exists: values laid
  out as in the text (:meth:`Puzzle.canvas`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import ConflictError, ParseError
from ndoku.model.constraints import Lowered, lower
from ndoku.model.frame import Frame
from ndoku.model.layout import Layout
from ndoku.model.reading import read_batch, read_grid
from ndoku.model.rules import Rule, rule_text
from ndoku.model.units import BOX, KIND_NAMES, Units
from ndoku.model.variants import check_rules, make_rules, ruled_frame
from ndoku.text.formats import parse, read_file
from ndoku.text.grid import DIGITS, MISSING, Grid, format_grid

if TYPE_CHECKING:
    import networkx as nx

IntArray = NDArray[np.int32]
#: What draws a puzzle as an SVG document for IPython (:func:`draw_with`): empty until a floor
#: that draws lends its drawing (pictures sit above the model, which cannot import them).
_DRAWINGS: list[Callable[[Puzzle], str]] = []
#: What a puzzle without rules adds: nothing (one for all of them).
_UNRULED = Lowered((), (), ())


@dataclass(frozen=True, eq=False)
class Puzzle:
    """Everything a solver needs, built once from a :class:`~ndoku.text.grid.Grid`.

    Examples
    --------
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> p.size, p.n_cells, len(p.units), int((p.givens > 0).sum())
    (4, 16, 12, 4)
    """

    grid: Grid
    frame: Frame  # shared by the puzzles of one layout
    givens: IntArray
    candidates: NDArray[np.uint64] | None = None  # pencil marks: each cell's candidates
    rules: tuple[Rule, ...] = ()  # variant rules (:mod:`ndoku.model.rules`)

    @cached_property
    def lowered(self) -> Lowered:
        """The rules as constraints, units and peers (:func:`ndoku.model.constraints.lower`);
        the units and peers are the frame's too."""
        if not self.rules:  # shared: lowering nothing took 6.9 µs a puzzle of a batch
            return _UNRULED
        return lower(self.rules, self.layout, self.index)

    @property
    def layout(self) -> Layout:
        return self.frame.layout

    @property
    def index(self) -> IntArray:
        """(rows, cols): cell number, -1 where missing."""
        return self.frame.index

    @property
    def cell_rc(self) -> IntArray:
        """(cells, 2): canvas row and column of each cell."""
        return self.frame.cell_rc

    @property
    def units(self) -> Units:
        return self.frame.units

    @property
    def size(self) -> int:
        """N: symbols per unit."""
        return self.frame.size

    @property
    def n_cells(self) -> int:
        return self.frame.n_cells

    @property
    def source(self) -> str:
        return self.grid.source

    @cached_property
    def graph(self) -> nx.Graph:
        """The peer graph (networkx), nodes are cell numbers with ``row``/``col``."""
        from ndoku.model.graph import peer_graph

        return peer_graph(self.units, self.cell_rc)

    @property
    def peers(self) -> tuple[IntArray, IntArray]:
        """CSR of cell → peers, each cell's peers rising."""
        return self.frame.peers

    @property
    def cell_units(self) -> tuple[IntArray, IntArray]:
        """CSR of cell → units."""
        return self.frame.cell_units

    def canvas(self, values: NDArray[np.integer]) -> IntArray:
        """Cell values laid out on the canvas, ``MISSING`` where no cell exists.

        ``values`` of shape ``(..., cells)`` give canvases of shape ``(..., rows, cols)``.
        """
        out = np.full((*values.shape[:-1], *self.index.shape), MISSING, dtype=np.int32)
        out[..., self.cell_rc[:, 0], self.cell_rc[:, 1]] = values
        return out

    def text(self, values: NDArray[np.integer] | None = None, rules: bool = True) -> str:
        """Values (default: the givens) written in the input's own style and shape; then,
        when the puzzle has rules and ``rules`` is true, a blank line and its rules, one a
        line (an answer is written without them: they are the puzzle's, not the answer's).

        >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 0 0\\n0 0 0 0\\n0 0 0 0\\n\\ncage 7: R1C2..r1c3")
        >>> print(p.text(), end="")
        1 0 0 0
        0 0 0 0
        0 0 0 0
        0 0 0 0
        <BLANKLINE>
        cage 7: r1c2 r1c3
        """
        grid = format_grid(self.grid, self.canvas(self.givens if values is None else values))
        if not self.rules or not rules:
            return grid
        return grid + "\n" + "".join(rule_text(rule, self.cell_rc) + "\n" for rule in self.rules)

    def locate(self, cell: int) -> str:
        """``line L, column C`` of a cell in the input text."""
        r, c = self.cell_rc[cell]
        return self.grid.locate(int(r), int(c))

    def _repr_svg_(self) -> str | None:
        """The puzzle drawn as the commands draw it, for IPython's rich display: an SVG
        document by the drawing :func:`draw_with` was given (importing :mod:`ndoku` gives it
        :func:`ndoku.tasks.display.puzzle_svg`); None, so that the puzzle shows as text, when
        none was.

        >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
        >>> p._repr_svg_().startswith("<svg")
        True
        """
        return _DRAWINGS[-1](self) if _DRAWINGS else None


def draw_with(svg: Callable[[Puzzle], str]) -> None:
    """Draw puzzles with ``svg`` when IPython shows them (:meth:`Puzzle._repr_svg_`).

    The model sits below the pictures and cannot import them; the floor that draws calls
    this (:mod:`ndoku.tasks.display`, when it is imported).
    """
    _DRAWINGS[:] = [svg]


def read_puzzles(
    path: str | Path | None = None,
    *,
    text: str | None = None,
    symbols: str | None = None,
    layout: str | None = None,
) -> list[Puzzle]:
    """Read every puzzle of a file (``-`` for stdin) or of ``text``.

    Parameters
    ----------
    path : str or Path, optional
        The puzzle file; ``-`` reads stdin.
    text : str, optional
        Puzzle text, instead of a file.
    symbols : str, optional
        Alphabet such as ``0-F`` (overrides a ``# symbols:`` header).
    layout : str, optional
        Layout name or path (overrides ``# layout:`` and ``# subgrids:`` headers).

    Raises
    ------
    ndoku.errors.ParseError
        Bad text, a layout that does not fit, or givens that break a rule; the message names
        the line and column.
    """
    if text is None:
        if path is None:
            raise TypeError("read_puzzles needs a path or text")
        text = read_file(path)
    source = "<stdin>" if str(path) == "-" else str(path if path is not None else "<text>")
    # One-line puzzles of one length have one layout (a full n²×n² grid): build it once.
    frames: dict[tuple[int, int], Frame] = {}
    grids = parse(text, source, symbols)
    if grids[0].style.kind == "line":
        grids = read_batch(grids)
    puzzles = [
        from_grid(grid, layout, frames if grid.style.kind == "line" else None) for grid in grids
    ]
    return _sharing_frames(puzzles) if len(puzzles) > 1 else puzzles


def _sharing_frames(puzzles: list[Puzzle]) -> list[Puzzle]:
    """Puzzles of one layout in a batch of grids share one frame, so that what solvers build
    per frame (their tables) is built once, as for a batch of one-line puzzles."""
    shared: dict[object, Frame] = {}
    out = []
    for puzzle in puzzles:
        layout = puzzle.layout
        key = (puzzle.frame.key, layout.name, layout.box, layout.box_inferred, layout.corners)
        frame = shared.setdefault(key, puzzle.frame)
        out.append(puzzle if frame is puzzle.frame else replace(puzzle, frame=frame))
    return out


def from_grid(
    grid: Grid, layout: str | None = None, frames: dict[tuple[int, int], Frame] | None = None
) -> Puzzle:
    """Build and check a :class:`Puzzle` from a parsed grid (``frames``: layouts to share)."""
    frame = frames.get(grid.shape) if frames is not None else None
    if frame is None:
        frame, grid = read_grid(grid, layout)
        if frames is not None:
            frames[grid.shape] = frame
    _check_values(grid, frame.layout)
    cell_rc = frame.cell_rc
    givens = grid.values[cell_rc[:, 0], cell_rc[:, 1]].astype(np.int32)
    marks = None if grid.marks is None else grid.marks[cell_rc[:, 0], cell_rc[:, 1]].copy()
    if not grid.rules:
        puzzle = Puzzle(grid, frame, givens, marks)
        _check_givens(puzzle)
        return puzzle
    rules = make_rules(grid.rules, frame)
    frame, lowered = ruled_frame(frame, rules)
    check_rules(grid, frame, givens, rules, lowered)
    puzzle = Puzzle(grid, frame, givens, marks, rules)
    vars(puzzle)["lowered"] = lowered  # the cached property, computed above
    _check_givens(puzzle)
    return puzzle


def _check_values(grid: Grid, layout: Layout) -> None:
    size = layout.size
    style = grid.style
    if style.alphabet is not None and len(style.alphabet) != size:
        header = grid.header("symbols")
        raise ParseError(
            f"{len(style.alphabet)} symbols are declared ({style.alphabet}) but the sub-grids "
            f"are {size}×{size} and need {size}",
            header.line if header else None,
        )
    if style.alphabet is None and size >= len(DIGITS):
        if style.kind != "tokens":
            raise ParseError(
                f"{size}×{size} sub-grids need symbols beyond Z: write the grid as tokens "
                "separated by spaces (1 2 … 36) or declare '# symbols: …'"
            )
        if style.letters:  # no letter for 36: its answer would mix letters and numbers
            found = np.argwhere(np.char.isalpha(grid.written))
            r, c = (int(x) for x in found[0]) if len(found) else (0, 0)
            raise grid.error(
                r,
                c,
                f"{size}×{size} sub-grids need symbols beyond Z: write numbers (1 2 … {size}) "
                "rather than letters, or declare '# symbols: …'",
            )
    if grid.marks is not None:
        _check_marks(grid, layout)
    high = np.argwhere(grid.values > size)
    if len(high):
        r, c = (int(x) for x in high[0])
        raise grid.error(
            r,
            c,
            f"value {style.symbol(int(grid.values[r, c]))} is out of range: the sub-grids are "
            f"{size}×{size}, so symbols are {style.symbol(1)}..{style.symbol(size)}",
        )


def _check_marks(grid: Grid, layout: Layout) -> None:
    """Candidates out of range, and (in a grid of tokens) a cell that lists none."""
    size = layout.size
    style = grid.style
    cells = layout.mask
    assert grid.marks is not None
    high = np.argwhere(cells & (grid.marks >> np.uint64(size) != 0))
    if len(high):
        r, c = (int(x) for x in high[0])
        top = int(grid.marks[r, c]).bit_length()
        raise grid.error(
            r,
            c,
            f"candidate {style.symbol(top)} is out of range: the sub-grids are {size}×{size}, "
            f"so symbols are {style.symbol(1)}..{style.symbol(size)}",
        )
    blank = np.argwhere(cells & (grid.marks == 0))
    if style.kind != "line" and len(blank):
        r, c = (int(x) for x in blank[0])
        every = "".join(style.symbol(v) for v in range(1, size + 1))
        token = str(grid.written[r, c])
        stray = [ch for ch in token if ch not in every]
        if len(token) > 1 and stray:  # a list only another alphabet reads (04 in a 9×9)
            raise grid.error(
                r,
                c,
                f"{stray[0]!r} in the pencil marks {token!r} is no symbol: the sub-grids are "
                f"{size}×{size}, so symbols are {every[0]}..{every[-1]}",
            )
        raise grid.error(
            r,
            c,
            f"{token!r} gives this cell no candidates: a pencil-mark grid lists "
            "each cell's candidates, or its value; where any value may go, write them all "
            f"({every})",
        )


def unit_name(layout: Layout, kind: int) -> str:
    """What a unit of ``kind`` is called in this layout (a jigsaw's boxes are regions).

    >>> from ndoku.model.layout import load_layout
    >>> unit_name(load_layout("9x9"), BOX)
    'box'
    """
    if kind == BOX and layout.box is None:
        return "region"
    return KIND_NAMES[kind]


def _check_givens(puzzle: Puzzle) -> None:
    """Two equal givens in one unit: name both cells."""
    units = puzzle.units
    if not puzzle.frame.repeated(puzzle.givens[np.newaxis])[0]:
        return
    for u in range(len(units)):
        cells = units[u]
        vals = puzzle.givens[cells]
        given = cells[vals > 0]
        if len(np.unique(puzzle.givens[given])) == len(given):
            continue
        seen: dict[int, int] = {}
        for cell in given:
            value = int(puzzle.givens[cell])
            if value in seen:
                r, c = puzzle.cell_rc[cell]
                symbol = puzzle.grid.style.symbol(value)
                raise puzzle.grid.error(
                    int(r),
                    int(c),
                    f"given {symbol} repeats the {symbol} at {puzzle.locate(seen[value])} "
                    f"in the same {unit_name(puzzle.layout, int(units.kind[u]))}",
                    ConflictError,
                )
            seen[value] = int(cell)
