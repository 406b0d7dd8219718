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

import textwrap
from collections.abc import Callable, Mapping, Sequence
from itertools import zip_longest
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ndoku.model.puzzle import Puzzle
from ndoku.model.units import BOX
from ndoku.picture.rules import reach
from ndoku.solvers.logic import Board, Step
from ndoku.tasks.rule_marks import cage_map, cage_sums, clue_texts, listed
from ndoku.text.grid import DIGITS, EMPTY, MISSING
from ndoku.text.words import plural

if TYPE_CHECKING:
    from rich.text import Text

STYLES = {"given": "bold", "solved": "cyan", "conflict": "bold red", "empty": "dim"}
EXTRA_STYLE = "on grey27"
#: How a step shows in a pencil-mark drawing (:func:`draw_marks`): its cells, a value it
#: places, the candidates it removes.
STEP_STYLES = {"cell": "bold yellow", "placed": "bold green", "removed": "red"}
#: What the marks of a step's drawing mean, for a line under it.
LEGEND = "[ ] the step's cells, =v placed, -v removed"
#: A step's drawing shows every free cell's candidates while it stays this wide (a 9×9 takes
#: about 50 characters, a Samurai 120); a wider one, only those of the cells the step touches
#: (an early 16×16 would take some 200).
MARKS_WIDTH = 120
#: A drawing of rules puts the cage map beside the grid while both fit in this many columns.
RULES_WIDTH = 80

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
    """Canvas of region numbers (the box of each cell; in a layout without boxes, its
    sub-grid), ``-1`` where no cell exists.

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
    size = puzzle.size
    for k, (r, c) in enumerate(puzzle.layout.corners):  # cells in no box: a Latin square's
        window = puzzle.index[r : r + size, c : c + size].ravel()
        region[window[region[window] < 0]] = len(boxes) + k
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


def headers(puzzle: Puzzle, drawing: bool = False) -> list[str]:
    """The header lines a text or a ``drawing`` of ``puzzle`` (its givens, as ``ndoku show``
    draws them) needs to read back as the same puzzle: the name of its layout (or its own
    layout headers) and a declared alphabet; for a drawing, which shows empty cells as ``.``,
    the alphabet its one-character symbols were read in too (a 16×16 whose only givens are
    digits reads both ``1-9A-G`` and ``0-F``). Outlines carry jigsaw regions; extra units
    need these lines.

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="# extra: diagonals\\n" + "0 0 0 0\\n" * 4, symbols="a-d")
    >>> headers(p)
    ['# extra: diagonals', '# symbols: abcd']
    >>> [p] = read_puzzles(text="1" + "0" * 255)
    >>> headers(p), headers(p, drawing=True)
    ([], ['# symbols: 123456789ABCDEFG'])
    """
    grid = puzzle.grid
    style = grid.style
    lines = []
    if puzzle.layout.name is not None:
        lines.append(f"# layout: {puzzle.layout.name}")
    for key in ("subgrids", "box", "extra", "unit"):
        lines += [f"# {key}: {header.value}" for header in grid.headers.get(key, ())]
    if grid.declared or (drawing and style.alphabet is not None):
        lines.append(f"# symbols: {style.alphabet}")
    elif drawing and 10 <= puzzle.size < len(DIGITS) and _symbols_drawn(puzzle):
        lines.append(f"# symbols: {DIGITS[1 : puzzle.size + 1]}")  # 1-9A-…
    return lines


def _symbols_drawn(puzzle: Puzzle) -> bool:
    """Whether a drawing of ``puzzle`` shows symbols, one character each (letters, or numbers
    below 10: a number from 10 up tells the alphabet itself)."""
    if puzzle.candidates is None and not puzzle.givens.any():
        return False
    style = puzzle.grid.style
    return style.letters or style.kind != "tokens" or int(puzzle.givens.max()) < 10


def describe(puzzle: Puzzle) -> str:
    """One line on the layout: sub-grids, boxes (and how they were chosen), extra units.

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="# box: 2x3\\n" + "0 0 0 0 0 0\\n" * 6)
    >>> describe(p)
    '6×6, boxes 2×3, 36 cells, 0 givens'
    """
    layout = puzzle.layout
    parts = [grids_text(puzzle)]
    if layout.box is not None:
        parts.append(f"boxes {layout.boxes_text()}")
    else:
        parts.append("no boxes (rows and columns only)" if layout.latin else "jigsaw regions")
    if layout.extras:
        parts.append(f"extra units: {layout.extras_text()}")
    parts.append(
        f"{plural(puzzle.n_cells, 'cell')}, {plural(int((puzzle.givens > 0).sum()), 'given')}"
    )
    return ", ".join(parts)


def grids_text(puzzle: Puzzle) -> str:
    """The sub-grids of a layout: ``9×9``, ``5 sub-grids of 9×9``.

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="0 0 0 0\\n" * 4)
    >>> grids_text(p)
    '4×4'
    """
    layout = puzzle.layout
    grids = len(layout.corners)
    size = f"{layout.size}×{layout.size}"
    return f"{grids} sub-grids of {size}" if grids > 1 else size


def draw(puzzle: Puzzle, values: NDArray[np.integer] | None = None) -> Text:
    """The grid with region outlines, as rich :class:`~rich.text.Text`; and its rules: outside
    clues around it, cages as a map of letters beside it (under it when that would be wider
    than :data:`RULES_WIDTH`) with their sums below, and every other rule as its text line
    after a blank line (:mod:`ndoku.tasks.rule_marks`).

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
    >>> from ndoku.model.rules import Rule
    >>> rules = (Rule("cage", (0, 1, 5), 6), Rule("sandwich", (2, 6, 10, 14), 0, clue=(-1, 2)),
    ...          Rule("x", (14, 15)))
    >>> print(draw(Puzzle(p.grid, p.frame, p.givens, rules=rules)).plain)
         0
    ┌───┬───┐   ┌───┬───┐
    │1 .│. .│   │a a│. .│
    │. .│3 .│   │. a│. .│
    ├───┼───┤   ├───┼───┤
    │. 4│. .│   │. .│. .│
    │. .│. 2│   │. .│. .│
    └───┴───┘   └───┴───┘
    # cages: a=6
    <BLANKLINE>
    x: r4c3 r4c4
    """
    from rich.text import Text

    shown = puzzle.givens if values is None else np.asarray(values)
    style = puzzle.grid.style
    clued = clue_texts(puzzle)
    cols = puzzle.index.shape[1]
    # every column as wide as the widest clue above or below one: the grid stays even
    width = max(
        [len(style.symbol(v)) for v in range(1, puzzle.size + 1)]
        + [len(text) for (_, c), text in clued.items() if 0 <= c < cols]
    )
    shade = shaded(puzzle)
    texts = [
        Text(("." if v == EMPTY else style.symbol(int(v))).rjust(width), style=STYLES[mark] + tint)
        for v, mark, tint in zip(shown.tolist(), marks(puzzle, shown), shade, strict=True)
    ]
    clues = {place: Text(text) for place, text in clued.items()}
    grid = lattice(puzzle, texts, clues)
    return _with_rules(puzzle, grid, clues) if puzzle.rules else grid


def _with_rules(puzzle: Puzzle, grid: Text, clues: Mapping[tuple[int, int], Text]) -> Text:
    """The drawing of a grid with its rules' parts that :func:`draw` adds: the cage map and
    the cage sums, and the text lines of the other rules."""
    from rich.text import Text

    letters, named = cage_map(puzzle)
    if named:
        blank = {place: Text() for place in clues}  # the same rows as the grid's
        wide = max(map(len, letters))  # every column alike when names take two letters
        cages = [
            Text((name or ".").rjust(wide), style="" if name else STYLES["empty"])
            for name in letters
        ]
        grid = _beside(grid, lattice(puzzle, cages, blank))
        said = "# cages: " + " ".join(cage_sums(named))
        for line in textwrap.wrap(said, RULES_WIDTH, subsequent_indent="#   "):
            grid.append("\n" + line, style="dim")
    lines = listed(puzzle, [rule for _, rule in named])
    if lines:
        grid.append("\n\n" + "\n".join(lines))
    return grid


def _beside(left: Text, right: Text) -> Text:
    """Two drawings of the same rows side by side, three spaces apart (a drawing's blank
    last rows may be cut), or one under the other after a blank line when that would be
    wider than :data:`RULES_WIDTH`."""
    from rich.text import Text

    lines, others = left.split("\n"), right.split("\n")
    width = max(line.cell_len for line in lines)
    if width + 3 + max(line.cell_len for line in others) > RULES_WIDTH:
        return Text("\n").join([left, Text(), right])
    out = []
    for line, other in zip_longest(lines, others, fillvalue=Text()):
        line = line.copy()
        line.pad_right(width - line.cell_len + 3)
        line.append_text(other)
        line.rstrip()
        out.append(line)
    return Text("\n").join(out)


def draw_marks(
    puzzle: Puzzle,
    values: NDArray[np.integer],
    cand: NDArray[np.bool_],
    step: Step | None = None,
) -> Text:
    """The grid with the candidates of its free cells (pencil marks, as HoDoKu pastes them)
    and a step's cells, placements and eliminations marked.

    Placed values are styled as :func:`draw` styles them. With ``step``, its cells stand in
    brackets (``[159]``), a value it places as ``=5`` and the candidates it removes after a
    minus (``15-9``), coloured in a terminal (:data:`STEP_STYLES`); in a drawing wider than
    :data:`MARKS_WIDTH` only the cells it touches show candidates. Symbols are one character
    each (:func:`mark_symbol`). Without a step the drawing reads back as the same
    pencil-mark grid.

    Parameters
    ----------
    puzzle : Puzzle
    values : ndarray of int, shape (cells,)
        Placed values, 0 for free cells.
    cand : ndarray of bool, shape (cells, N)
        ``cand[c, v - 1]``: value v is a candidate of free cell c (a logic board's).
    step : Step, optional

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> from ndoku.solvers.logic import Board, next_step
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> board = Board.start(p)
    >>> print(draw_marks(p, board.values, board.cand, next_step(board)).plain)
    ┌───────┬─────┐
    │ 1 [=3]│24  4│
    │24    2│ 3 14│
    ├───────┼─────┤
    │23    4│ 1 13│
    │ 3   13│14  2│
    └───────┴─────┘
    """
    from rich.text import Text

    placed = dict(step.placements) if step is not None else {}
    removed: dict[int, list[int]] = {}
    for cell, value in step.eliminations if step is not None else ():
        removed.setdefault(cell, []).append(value)
    pattern = set(step.cells) if step is not None else set()
    touched = pattern | set(placed) | set(removed)
    symbol = mark_symbol(puzzle)
    shown = np.asarray(values)
    cell_marks, tints = marks(puzzle, shown), shaded(puzzle)

    def drawn(every: bool) -> Text:
        texts = [cell_text(cell, every) for cell in range(puzzle.n_cells)]
        return lattice(puzzle, texts)

    def cell_text(cell: int, every: bool) -> Text:
        value, mark, tint = int(shown[cell]), cell_marks[cell], tints[cell]
        parts: list[tuple[str, str]] = []
        if value:
            parts.append((symbol(value), STYLES[mark]))
        elif cell in placed:
            parts.append((f"={symbol(placed[cell])}", STEP_STYLES["placed"]))
        else:
            gone = removed.get(cell, [])
            kept = [int(v) + 1 for v in np.flatnonzero(cand[cell]) if v + 1 not in gone]
            listed = "".join(symbol(v) for v in kept) if every or cell in touched else ""
            parts.append((listed or ".", "" if listed else STYLES["empty"]))
            if gone:
                parts.append(("-" + "".join(symbol(v) for v in gone), STEP_STYLES["removed"]))
        if cell in pattern:
            parts = [("[", STEP_STYLES["cell"]), *parts, ("]", STEP_STYLES["cell"])]
        return Text.assemble(*((text, (style + tint).strip()) for text, style in parts))

    everything = drawn(every=True)
    if step is None or max(map(len, everything.plain.splitlines())) <= MARKS_WIDTH:
        return everything
    return drawn(every=False)


def draw_puzzle(puzzle: Puzzle) -> Text:
    """The puzzle as it was given: :func:`draw` of its givens, or, read from pencil marks,
    :func:`draw_marks` of its candidates (a drawing that reads back as the same puzzle).

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 234 234 234\\n" + "1234 1234 1234 1234\\n" * 3)
    >>> print(draw_puzzle(p).plain.splitlines()[1])
    │  1  234│ 234  234│
    """
    if puzzle.candidates is None:
        return draw(puzzle)
    board = Board.start(puzzle)
    return draw_marks(puzzle, board.values, board.cand)


def legend(puzzle: Puzzle) -> str:
    """:data:`LEGEND`, and how values the puzzle writes as numbers show among the marks.

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="\\n".join(["0 " * 15 + "12"] + ["0 " * 15 + "0"] * 15))
    >>> legend(p).split("; ")[1]
    'A = 10, B = 11, …'
    """
    symbol = mark_symbol(puzzle)
    written = puzzle.grid.style.symbol
    renamed = [v for v in range(1, puzzle.size + 1) if symbol(v) != written(v)]
    if not renamed:
        return LEGEND
    return LEGEND + "; " + ", ".join(f"{symbol(v)} = {written(v)}" for v in renamed[:2]) + ", …"


def mark_symbol(puzzle: Puzzle) -> Callable[[int], str]:
    """How a value is written among pencil marks: one character each, the puzzle's own
    symbol where it is one (``A`` for 10 where the puzzle writes ``10``).

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="\\n".join(["0 " * 15 + "12"] + ["0 " * 15 + "0"] * 15))
    >>> mark_symbol(p)(12), p.grid.style.symbol(12)
    ('C', '12')
    """
    style = puzzle.grid.style
    table = [style.symbol(v) for v in range(puzzle.size + 1)]
    return lambda v: table[v] if len(table[v]) == 1 else DIGITS[v]


def shaded(puzzle: Puzzle) -> list[str]:
    """Per cell, what its styles add: the shade of extra units' cells, else nothing.

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="# extra: diagonals\\n" + "0 0 0 0\\n" * 4)
    >>> shaded(p)[:2]
    [' on grey27', '']
    """
    tint = [""] * puzzle.n_cells
    for extra in puzzle.layout.extras:
        for r, c in extra.cells:
            tint[int(puzzle.index[r, c])] = " " + EXTRA_STYLE
    return tint


def lattice(
    puzzle: Puzzle, texts: Sequence[Text], outside: Mapping[tuple[int, int], Text] | None = None
) -> Text:
    """Each cell's text on the canvas, right-aligned in its column (as wide as the column's
    widest text), with region outlines; and texts at places where no cell is (``outside``:
    canvas positions, some beyond the canvas, such as the outside clues of rules; those right
    of the canvas left-aligned, against it).

    >>> from rich.text import Text
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="0 0 0 0\\n" * 4)
    >>> texts = [Text("ab" if c == 5 else "x") for c in range(16)]  # r2c2 is wider
    >>> print(lattice(p, texts).plain.splitlines()[2])
    │x ab│x x│
    >>> clues = {(-1, 1): Text("12"), (2, 4): Text("3")}  # above r1c2, right of r3c4
    >>> print(lattice(p, texts, clues).plain)
       12
    ┌────┬───┐
    │x  x│x x│
    │x ab│x x│
    ├────┼───┤
    │x  x│x x│3
    │x  x│x x│
    └────┴───┘
    """
    from rich.text import Text

    places = dict(outside or {})
    up, left, down, right = reach(places, puzzle.index.shape)
    grow = ((up, down), (left, right))
    region = np.pad(regions(puzzle), grow, constant_values=MISSING)
    index = np.pad(puzzle.index, grow, constant_values=-1)
    places = {(r + up, c + left): text for (r, c), text in places.items()}
    rows, cols = region.shape
    widths = [1] * cols
    for (_, c), text in places.items():
        widths[c] = max(widths[c], text.cell_len)
    for cell, (_, c) in enumerate(puzzle.cell_rc.tolist()):
        widths[c + left] = max(widths[c + left], texts[cell].cell_len)
    padded = np.full((rows + 2, cols + 2), -1, dtype=np.int32)
    padded[1:-1, 1:-1] = region

    def wall(r0: int, c0: int, r1: int, c1: int) -> bool:
        """An outline between padded positions (r0, c0) and (r1, c1)."""
        a, b = padded[r0, c0], padded[r1, c1]
        return bool(a != b and (a >= 0 or b >= 0))

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
                    line.append(("─" if wall(r, c + 1, r + 1, c + 1) else " ") * widths[c])
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
                    text = places.get((r, c), Text()).copy()
                    if c >= cols - right:  # right of the canvas: against the grid
                        text.pad_right(widths[c] - text.cell_len)
                    else:
                        text.pad_left(widths[c] - text.cell_len)
                    line.append_text(text)
                else:
                    text = texts[int(index[r, c])].copy()
                    text.pad_left(widths[c] - text.cell_len)
                    line.append_text(text)
        line.rstrip()
        out.append_text(line)
        out.append("\n")
    out.rstrip()
    return out
