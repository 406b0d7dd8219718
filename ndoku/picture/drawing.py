"""A puzzle drawn as printed puzzles look: the scene of its grid, rules, values and pencil marks.

Glossary
--------
wall
    A thick line: around every box or jigsaw region and every sub-grid, and wherever a cell
    meets a position without one; other edges between cells are thin.
edge
    The side between two canvas positions: ``across[r, c]`` is the top side of position
    ``(r, c)`` (row ``rows`` the bottom of the canvas), ``down[r, c]`` its left side.

Values show in the puzzle's own alphabet: givens bold, others in :data:`SOLVED` colour
(:data:`CONFLICT` where a value repeats in a unit). Free cells may show their candidates,
small, each value at its own place of an ``r × c`` pattern (a box's shape). Variant rules
are drawn by :mod:`.rules`, between the grid's own shapes: shading under the grid's lines,
lines along cells too, outlines and dots over them, cage sums and outside clues over the
values (the picture grows a margin where outside clues stand), and the rules of the whole
grid in a line under it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

import numpy as np
from numpy.typing import NDArray

from ndoku.model.puzzle import Puzzle
from ndoku.model.units import BOX
from ndoku.picture.rules import Paper, draw_rules, legend, reach
from ndoku.picture.scene import ADVANCE, DROP, INK, TEXT_ADVANCE, Cap, Fill, Label, Line, Scene
from ndoku.solvers.logic import Step
from ndoku.tasks.render import marks

#: Side of a cell, in points (a 9×9 is 3 inches wide).
CELL = 24.0
SOLVED = "#1f5fbf"
CONFLICT = "#c62828"
PLACED = "#1b8a3a"
REMOVED = "#c62828"
CANDIDATE = "#4d4d4d"
QUIET = "#555555"  # the footer
HIGHLIGHT = "#ffe58a"
EXTRA = "#e0e0e0"
#: Pale fills of jigsaw regions, four colours being enough for any map.
REGION_FILLS = ("#fde2e4", "#dcedc8", "#d6e6f5", "#fff3c4", "#eadcf3", "#d3f1ec")
THIN, THICK = 0.025, 0.09  # line widths, in cells

Corner = Callable[[float, float], tuple[float, float]]


def picture(
    puzzle: Puzzle,
    values: NDArray[np.integer] | None = None,
    *,
    candidates: NDArray[np.bool_] | None = None,
    step: Step | None = None,
    regions: bool = False,
    title: str | None = None,
    footer: str | None = None,
    cell: float = CELL,
    cells: bool = False,
) -> Scene:
    """The scene of ``puzzle``: its grid and values, and optionally pencil marks and a step.

    Parameters
    ----------
    puzzle : Puzzle
    values : ndarray of int, shape (cells,), optional
        Values to show (default: the givens); givens bold, the others coloured.
    candidates : ndarray of bool, shape (cells, N), optional
        Pencil marks of the free cells (``candidates[c, v - 1]``, a logic board's ``cand``).
    step : Step, optional
        Highlighted: its cells shaded, a value it places green, candidates it removes red
        and struck out.
    regions : bool
        Fill jigsaw regions in pale colours (neighbours differ).
    title, footer : str, optional
        A line above and a line below the grid.
    cell : float
        Side of a cell in points.
    cells : bool
        Give every cell a label that names its canvas position (an empty one where no value
        shows): SVG writes it as ``data-cell="ROW,COL"``, for a page to read and click.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> scene = picture(p)
    >>> [label.text for label in scene.labels], len(scene.lines)
    (['1', '3', '4', '2'], 10)
    >>> [(label.cell, label.text) for label in picture(p, cells=True).labels][:2]
    [((0, 0), '1'), ((0, 1), '')]
    """
    rows, cols = puzzle.index.shape
    if candidates is not None:  # room for pencil marks of at least 7.5 points
        cell = max(cell, 7.5 * max(_pattern(puzzle)))
    margin = cell / 4
    clues = [rule.clue for rule in puzzle.rules if rule.clue is not None]
    above, left, below, right = reach(clues, (rows, cols))  # room for outside clues
    said = legend(puzzle.rules)
    top = margin + (cell if title else 0.0) + above * cell
    under = top + (rows + below) * cell  # the grid's foot, or its clues'
    bottom = under + margin + (0.7 * cell if said else 0.0) + (0.8 * cell if footer else 0.0)
    scene = Scene(2 * margin + (left + cols + right) * cell, bottom)

    def corner(r: float, c: float) -> tuple[float, float]:
        return margin + (left + c) * cell, top + r * cell

    layers = draw_rules(puzzle.rules, Paper(puzzle.cell_rc, corner, cell))

    shown = puzzle.givens if values is None else np.asarray(values)
    rc = puzzle.cell_rc.tolist()
    if regions and puzzle.layout.regions is not None:
        for cell_no, colour in _region_colours(puzzle).items():
            x, y = corner(*rc[cell_no])
            scene.add(Fill(x, y, cell, cell, colour))
    for extra in puzzle.layout.extras:
        for r, c in extra.cells:
            x, y = corner(r, c)
            scene.add(Fill(x, y, cell, cell, EXTRA))
    if step is not None:
        for c in step.cells:
            x, y = corner(*rc[c])
            scene.add(Fill(x, y, cell, cell, HIGHLIGHT))
    scene.add(*layers.under, *layers.lines)
    _grid_lines(scene, puzzle, corner, cell)
    scene.add(*layers.over)

    style = puzzle.grid.style
    # One size for every value of a picture, as the longest symbol allows (``36`` in a 36×36
    # written in numbers): at most 0.7 of a cell wide.
    longest = max(len(style.symbol(v)) for v in range(1, puzzle.size + 1))
    size = cell * min(0.62, 0.7 / (ADVANCE * longest))
    middle = cell / 2  # of a value, below its cell's top
    if layers.corners:  # values a little smaller and lower, clear of the cage sums
        size *= 0.88
        middle += 0.05 * cell
    placed: Mapping[int, int] = dict(step.placements) if step is not None else {}
    removed = set(step.eliminations) if step is not None else set()
    for c, (value, mark) in enumerate(zip(shown.tolist(), marks(puzzle, shown), strict=True)):
        x, y = corner(*rc[c])
        centre = x + cell / 2
        at = (int(rc[c][0]), int(rc[c][1])) if cells else None
        if value:
            colour = {"given": INK, "conflict": CONFLICT}.get(mark, SOLVED)
            text = style.symbol(value)
            bold = mark != "solved"
            scene.add(Label(centre, y + middle + DROP * size, text, size, colour, bold, cell=at))
            continue
        if c in placed:
            text = style.symbol(placed[c])
            scene.add(Label(centre, y + middle + DROP * size, text, size, PLACED, True))
        elif candidates is not None:
            _candidates(scene, puzzle, c, x, y, cell, candidates[c], removed, longest)
        if at is not None:  # an empty cell, still findable by its position
            scene.add(Label(centre, y + middle + DROP * size, "", size, cell=at))
    scene.add(*layers.top)
    room = scene.width - 2 * margin
    if said:
        size = _fitted(said, 0.4 * cell, room)
        scene.add(Label(scene.width / 2, under + 0.55 * cell, said, size))
    if title:
        size = _fitted(title, 0.6 * cell, room)
        scene.add(Label(scene.width / 2, margin + 0.6 * cell, title, size, bold=True))
    if footer:
        size = _fitted(footer, 0.4 * cell, room)
        y = scene.height - margin - 0.2 * cell
        scene.add(Label(scene.width / 2, y, footer, size, QUIET))
    return scene


def _fitted(text: str, size: float, room: float) -> float:
    """``size``, or smaller when ``text`` would be wider than ``room`` (a long caption under
    a small grid shrinks rather than run off the picture).

    >>> _fitted("7 givens", 10.0, 200.0), _fitted("x" * 50, 10.0, 150.0)
    (10.0, 5.0)
    """
    return min(size, room / (TEXT_ADVANCE * max(len(text), 1)))


def _grid_lines(scene: Scene, puzzle: Puzzle, corner: Corner, cell: float) -> None:
    """Thin lines between cells, then walls: each a run of edges along a row or column."""
    (near_across, near_down), (walls_across, walls_down) = _edges(puzzle)
    for across, down, width, square in (
        (near_across & ~walls_across, near_down & ~walls_down, THIN, False),
        (walls_across, walls_down, THICK, True),
    ):
        cap: Cap = "square" if square else "butt"  # thick walls meet at corners
        for r, c0, c1 in _runs(across):
            (x0, y), (x1, _) = corner(r, c0), corner(r, c1)
            scene.add(Line(x0, y, x1, y, width * cell, cap=cap))
        for c, r0, r1 in _runs(down.T):
            (x, y0), (_, y1) = corner(r0, c), corner(r1, c)
            scene.add(Line(x, y0, x, y1, width * cell, cap=cap))


Edges = tuple[NDArray[np.bool_], NDArray[np.bool_]]


def _edges(puzzle: Puzzle) -> tuple[Edges, Edges]:
    """Edges beside any cell, and walls: sides of every box or region, sub-grid and cell
    that meet no cell, as (across, down) boolean arrays (see the glossary)."""
    rows, cols = puzzle.index.shape
    exists = puzzle.index >= 0
    padded = np.zeros((rows + 2, cols + 2), dtype=bool)
    padded[1:-1, 1:-1] = exists
    thin = (padded[:-1, 1:-1] | padded[1:, 1:-1], padded[1:-1, :-1] | padded[1:-1, 1:])
    across = padded[:-1, 1:-1] != padded[1:, 1:-1]
    down = padded[1:-1, :-1] != padded[1:-1, 1:]
    units = puzzle.units
    rc = puzzle.cell_rc
    areas = [rc[units[u]] for u in np.flatnonzero(units.kind == BOX)]
    size = puzzle.size
    for r, c in puzzle.layout.corners:
        block = np.mgrid[r : r + size, c : c + size].reshape(2, -1).T
        areas.append(block)
    for area in areas:
        inside = np.zeros_like(padded)
        inside[area[:, 0] + 1, area[:, 1] + 1] = True
        across |= inside[:-1, 1:-1] != inside[1:, 1:-1]
        down |= inside[1:-1, :-1] != inside[1:-1, 1:]
    return thin, (across, down)


def _runs(edges: NDArray[np.bool_]) -> list[tuple[int, int, int]]:
    """(row, start, stop) of each run of True along the rows of ``edges``.

    >>> _runs(np.array([[1, 1, 0, 1], [0, 0, 0, 0]], dtype=bool))
    [(0, 0, 2), (0, 3, 4)]
    """
    out = []
    for r, line in enumerate(edges):
        steps = np.diff(np.concatenate(([0], line.astype(np.int8), [0])))
        starts, stops = np.flatnonzero(steps == 1), np.flatnonzero(steps == -1)
        out += [(r, int(a), int(b)) for a, b in zip(starts, stops, strict=True)]
    return out


def _candidates(
    scene: Scene,
    puzzle: Puzzle,
    cell_no: int,
    x: float,
    y: float,
    cell: float,
    cand: NDArray[np.bool_],
    removed: set[tuple[int, int]],
    longest: int,
) -> None:
    """A free cell's candidates, each value at its place of the pattern (all of one size, as
    the ``longest`` symbol allows); those a step removes red and struck out."""
    across, down = _pattern(puzzle)
    sub = cell / max(across, down)
    style = puzzle.grid.style
    size = 0.8 * sub * min(1.0, 1.0 / (ADVANCE * longest))
    for v in np.flatnonzero(cand).tolist():
        r, c = divmod(v, across)
        cx = x + cell * (c + 0.5) / across
        cy = y + cell * (r + 0.5) / down
        text = style.symbol(v + 1)
        gone = (cell_no, v + 1) in removed
        scene.add(Label(cx, cy + DROP * size, text, size, REMOVED if gone else CANDIDATE))
        if gone:
            half = ADVANCE * size * len(text) / 2 + 0.1 * size
            scene.add(Line(cx - half, cy, cx + half, cy, 0.08 * size, REMOVED))


def _pattern(puzzle: Puzzle) -> tuple[int, int]:
    """Columns and rows of a cell's candidate pattern: a box turned on its side (a 2×3 box
    gives 3 across, 2 down), else the squarest that holds N."""
    box = puzzle.layout.box
    if box is not None:
        return max(box), min(box)
    across = math.ceil(math.sqrt(puzzle.size))
    return across, math.ceil(puzzle.size / across)


def _region_colours(puzzle: Puzzle) -> dict[int, str]:
    """A pale colour per cell of a jigsaw, neighbouring regions in different colours."""
    import networkx as nx

    region = puzzle.layout.regions
    assert region is not None
    touching = nx.Graph()
    touching.add_nodes_from(np.unique(region[region >= 0]).tolist())
    for a, b in ((region[:-1], region[1:]), (region[:, :-1], region[:, 1:])):
        pairs = np.stack([a.ravel(), b.ravel()], axis=1)
        pairs = pairs[(pairs[:, 0] >= 0) & (pairs[:, 1] >= 0) & (pairs[:, 0] != pairs[:, 1])]
        touching.add_edges_from(map(tuple, np.unique(pairs, axis=0).tolist()))
    colour = nx.greedy_color(touching, strategy="largest_first")
    palette = len(REGION_FILLS)
    return {
        int(puzzle.index[r, c]): REGION_FILLS[colour[int(region[r, c])] % palette]
        for r, c in zip(*np.nonzero(region >= 0), strict=True)
    }
