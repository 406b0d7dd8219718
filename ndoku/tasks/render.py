"""Drawing a puzzle for people: box outlines, givens set apart, conflicts marked (``--pretty``).

Glossary
--------
region
    The box (later: jigsaw region) a cell belongs to; outlines are drawn where two
    neighbouring positions belong to different regions, or one of them does not exist.
mark
    How a cell is shown: ``given`` (bold), ``solved`` (cyan), ``conflict`` (red: the value
    repeats in one of its units), ``empty`` (dim dot). Cells of extra units (diagonals,
    windoku windows, …) get a shaded background.

The drawing is a lattice of ``(2·rows + 1) × (2·cols + 1)`` slots: cells at odd/odd slots,
edges between them, junctions at even/even slots. Edge rows without any outline are left out,
so a 9×9 grid takes 19 × 13 characters and a sumo fits an 80-column terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ndoku.model.puzzle import Puzzle
from ndoku.model.units import BOX
from ndoku.text.grid import EMPTY, MISSING

if TYPE_CHECKING:
    from rich.text import Text

STYLES = {"given": "bold", "solved": "cyan", "conflict": "bold red", "empty": "dim"}
EXTRA_STYLE = "on grey27"

#: Box-drawing character by the arms it has: up, down, left, right.
_JUNCTIONS = {
    (0, 0, 0, 0): " ",
    (1, 1, 0, 0): "│",
    (0, 0, 1, 1): "─",
    (0, 1, 0, 1): "┌",
    (0, 1, 1, 0): "┐",
    (1, 0, 0, 1): "└",
    (1, 0, 1, 0): "┘",
    (1, 1, 0, 1): "├",
    (1, 1, 1, 0): "┤",
    (0, 1, 1, 1): "┬",
    (1, 0, 1, 1): "┴",
    (1, 1, 1, 1): "┼",
    (1, 0, 0, 0): "╵",
    (0, 1, 0, 0): "╷",
    (0, 0, 1, 0): "╴",
    (0, 0, 0, 1): "╶",
}


def regions(puzzle: Puzzle) -> NDArray[np.int32]:
    """Canvas of region numbers (the box of each cell), ``-1`` where no cell exists.

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="0 0 0 0\\n0 0 0 0\\n0 0 0 0\\n0 0 0 0\\n")
    >>> regions(p).tolist()[0]
    [0, 0, 1, 1]
    """
    units = puzzle.units
    boxes = units.select(units.kind == BOX)
    region = np.full(puzzle.n_cells, -1, dtype=np.int32)
    for b in range(len(boxes)):
        region[boxes[b]] = b
    return puzzle.canvas(region)


def conflicts(puzzle: Puzzle, values: NDArray[np.integer]) -> NDArray[np.bool_]:
    """Per cell: True when its value repeats in one of its units.

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 0 0\\n0 0 0 0\\n0 0 0 0\\n")
    >>> values = p.givens.copy(); values[3] = 1
    >>> np.flatnonzero(conflicts(p, values)).tolist()
    [0, 3]
    """
    clash = np.zeros(puzzle.n_cells, dtype=bool)
    units = puzzle.units
    for u in range(len(units)):
        cells = units[u]
        vals = np.asarray(values)[cells]
        filled = vals > 0
        counts = np.bincount(vals[filled], minlength=puzzle.size + 1)
        clash[cells[filled]] |= counts[vals[filled]] > 1
    return clash


def marks(puzzle: Puzzle, values: NDArray[np.integer]) -> list[str]:
    """The mark of each cell of ``values``."""
    clash = conflicts(puzzle, values)
    out = []
    for cell, value in enumerate(np.asarray(values)):
        if value == EMPTY:
            out.append("empty")
        elif clash[cell]:
            out.append("conflict")
        elif puzzle.givens[cell]:
            out.append("given")
        else:
            out.append("solved")
    return out


def headers(puzzle: Puzzle) -> list[str]:
    """The header lines a drawing of ``puzzle`` needs to read back as the same puzzle: the
    name of its layout (or its own layout headers) and a declared alphabet. Outlines carry
    jigsaw regions; extra units need these lines.

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="# extra: diagonals\\n" + "0 0 0 0\\n" * 4, symbols="a-d")
    >>> headers(p)
    ['# extra: diagonals', '# symbols: abcd']
    """
    grid = puzzle.grid
    lines = []
    if puzzle.layout.name is not None:
        lines.append(f"# layout: {puzzle.layout.name}")
    for key in ("subgrids", "box", "extra", "unit"):
        lines += [f"# {key}: {header.value}" for header in grid.headers.get(key, ())]
    if grid.declared:
        lines.append(f"# symbols: {grid.style.alphabet}")
    return lines


def describe(puzzle: Puzzle) -> str:
    """One line on the layout: sub-grids, boxes (and how they were chosen), extra units.

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="# box: 2x3\\n" + "0 0 0 0 0 0\\n" * 6)
    >>> describe(p)
    '6×6, boxes 2×3, 36 cells, 0 givens'
    """
    layout = puzzle.layout
    grids = len(layout.corners)
    parts = [f"{grids} sub-grids of " if grids > 1 else ""]
    parts[0] += f"{layout.size}×{layout.size}"
    parts.append("jigsaw regions" if layout.box is None else f"boxes {layout.boxes_text()}")
    if layout.extras:
        parts.append(f"extra units: {layout.extras_text()}")
    parts.append(f"{puzzle.n_cells} cells, {int((puzzle.givens > 0).sum())} givens")
    return ", ".join(parts)


def draw(puzzle: Puzzle, values: NDArray[np.integer] | None = None) -> Text:
    """The grid with region outlines, as rich :class:`~rich.text.Text`.

    Parameters
    ----------
    puzzle : Puzzle
    values : ndarray, optional
        Cell values to show (default: the givens).

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> print(draw(p).plain)
    ┌───┬───┐
    │1 .│. .│
    │. .│3 .│
    ├───┼───┤
    │. 4│. .│
    │. .│. 2│
    └───┴───┘
    """
    shown = puzzle.givens if values is None else np.asarray(values)
    region = regions(puzzle)
    rows, cols = region.shape
    style = puzzle.grid.style
    width = max(len(style.symbol(v)) for v in range(1, puzzle.size + 1))
    cell_text = {
        cell: ("." if v == EMPTY else style.symbol(int(v))).rjust(width)
        for cell, v in enumerate(shown)
    }
    cell_mark = marks(puzzle, shown)
    in_extra = np.zeros(region.shape, dtype=bool)
    for extra in puzzle.layout.extras:
        for r, c in extra.cells:
            in_extra[r, c] = True
    padded = np.full((rows + 2, cols + 2), -1, dtype=np.int32)
    padded[1:-1, 1:-1] = region

    def wall(r0: int, c0: int, r1: int, c1: int) -> bool:
        """An outline between padded positions (r0, c0) and (r1, c1)."""
        a, b = padded[r0, c0], padded[r1, c1]
        return bool(a != b and (a >= 0 or b >= 0))

    from rich.text import Text

    out = Text()
    for sr in range(2 * rows + 1):
        r = sr // 2
        line = Text()
        if sr % 2 == 0:  # an edge row: horizontal walls and junctions
            if not any(wall(r, c + 1, r + 1, c + 1) for c in range(cols)):
                continue
            for sc in range(2 * cols + 1):
                c = sc // 2
                if sc % 2:
                    line.append(("─" if wall(r, c + 1, r + 1, c + 1) else " ") * width)
                else:
                    arms = (
                        wall(r, c, r, c + 1),  # up: between the two cells above
                        wall(r + 1, c, r + 1, c + 1),
                        wall(r, c, r + 1, c),  # left: between the two cells on the left
                        wall(r, c + 1, r + 1, c + 1),
                    )
                    line.append(_JUNCTIONS[tuple(int(a) for a in arms)])  # type: ignore[index]
        else:
            for sc in range(2 * cols + 1):
                c = sc // 2
                if sc % 2 == 0:
                    line.append("│" if wall(r + 1, c, r + 1, c + 1) else " ")
                elif region[r, c] == MISSING:
                    line.append(" " * width)
                else:
                    cell = int(puzzle.index[r, c])
                    style_name = STYLES[cell_mark[cell]]
                    if in_extra[r, c]:
                        style_name += " " + EXTRA_STYLE
                    line.append(cell_text[cell], style=style_name)
        line.rstrip()
        out.append_text(line)
        out.append("\n")
    out.rstrip()
    return out
