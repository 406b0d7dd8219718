"""Independent check of a solution: every given kept as written, every unit a permutation.

This deliberately does not use the unit and peer arrays the solvers use: it re-reads the
rows, columns and boxes straight from the layout's corners on the canvas, the regions from
the region map and the extra units from their declared cells, so a bug in building units
cannot hide a wrong answer. And it compares the answer as it will be printed with the text
of the puzzle: each given is printed exactly as it was written, and each cell read as empty
was written with an empty mark that is no symbol of the answer (a ``0`` read as empty in a
``0-F`` grid would be a given dropped). In a pencil-mark grid each cell's symbol in the answer
must stand among the candidates written for it.

Variant rules are checked from what each rule says (:func:`rule_problems`), on the canvas,
not through the constraints the solvers narrow with (:mod:`ndoku.model.constraints`): a
thermometer rises along its cells, an anti-knight's cells are found here by their knight's
moves, a negative constraint's unmarked neighbours here too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import pairwise
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import VerificationError
from ndoku.jit import compile_notice, kernel
from ndoku.model.layout import Layout
from ndoku.model.puzzle import Puzzle
from ndoku.model.rules import rule_text
from ndoku.model.table import PuzzleTable
from ndoku.text.grid import EMPTY, MISSING

#: What an empty cell may be written as: a dot, dash or underscore, or zeros (when 0 is no
#: symbol).
_EMPTY_MARKS = [".", "-", "_"]


def problems(puzzle: Puzzle, values: NDArray[np.integer]) -> list[str]:
    """Every rule ``values`` break, as sentences (empty when it is a solution).

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 2 3 4\\n3 4 1 2\\n2 1 4 3\\n4 3 2 1\\n")
    >>> problems(p, p.givens)
    []
    >>> problems(p, p.givens[[1, 0, *range(2, 16)]])[0]
    'line 1, column 1: given 1 was changed to 2'
    """
    canvas = puzzle.canvas(np.asarray(values))
    given = puzzle.canvas(puzzle.givens)
    size = puzzle.size
    found: list[str] = []
    exists = given != MISSING
    for r, c in np.argwhere(exists & ((canvas < 1) | (canvas > size))):
        found.append(f"{puzzle.grid.locate(r, c)}: value {canvas[r, c]} is not a symbol 1..{size}")
    for r, c in np.argwhere(exists & (given != EMPTY) & (canvas != given)):
        found.append(
            f"{puzzle.grid.locate(r, c)}: given {given[r, c]} was changed to {canvas[r, c]}"
        )
    one = np.asarray(values)[np.newaxis]
    misprinted = _misprinted(puzzle, one, _written([puzzle]), puzzle.givens[np.newaxis])
    for cell in np.flatnonzero(misprinted[0]):
        r, c = puzzle.cell_rc[cell]
        token = puzzle.grid.written[r, c]
        shown = puzzle.grid.style.symbol(int(np.clip(values[cell], 1, size)))
        if puzzle.candidates is not None:
            what = f"{shown} is none of the candidates {token}"
        elif puzzle.givens[cell]:
            what = f"given {token} is printed as {shown}"
        else:
            what = f"{token} was read as an empty cell, but it is a symbol of the answer"
        found.append(f"{puzzle.grid.locate(r, c)}: {what}")
    full = np.arange(1, size + 1)
    layout = puzzle.layout
    for r0, c0, name, lines in _sub_grid_units(layout, canvas[np.newaxis]):
        broken = np.flatnonzero((np.sort(lines[0], axis=1) != full).any(axis=1))
        found += [
            f"sub-grid at {r0},{c0}: {name} {k + 1} is not a permutation of 1..{size}"
            for k in broken
        ]
    if layout.regions is not None:
        for k in range(int(layout.regions.max()) + 1):
            if not np.array_equal(np.sort(canvas[layout.regions == k]), full):
                found.append(f"region {k + 1} is not a permutation of 1..{size}")
    for extra in layout.extras:
        rows, cols = zip(*extra.cells, strict=True)
        if not np.array_equal(np.sort(canvas[list(rows), list(cols)]), full):
            r, c = extra.cells[0]
            found.append(f"the {extra.kind} from canvas {r},{c} is not a permutation of 1..{size}")
    if puzzle.rules and not found:  # the rules read values 1..N
        found += rule_problems(puzzle, canvas)
    return found


#: Canvas steps of the moves whose cells must differ (each once; the reverse is implied).
_MOVES = {
    "antiknight": ((1, 2), (2, 1), (2, -1), (1, -2)),
    "antiking": ((0, 1), (1, -1), (1, 0), (1, 1)),
}
#: What a dot says of its two values (its number, or the default), and the default.
_DOTS: dict[str, tuple[Callable[[int, int, int], bool], int]] = {
    "white": (lambda a, b, n: abs(a - b) == n, 1),
    "black": (lambda a, b, n: a == n * b or b == n * a, 2),
    "x": (lambda a, b, n: a + b == n, 10),
    "v": (lambda a, b, n: a + b == n, 5),
}


def rule_problems(puzzle: Puzzle, canvas: NDArray[np.integer]) -> list[str]:
    """Every variant rule a filled canvas (values 1..N) breaks, each as its text line.

    >>> from ndoku.model.puzzle import read_puzzles
    >>> grid = "1 2 3 4\\n3 4 1 2\\n2 1 4 3\\n4 3 2 1\\n"
    >>> [p] = read_puzzles(text=grid + "\\nthermo: r1c1 r1c2\\n")
    >>> rule_problems(p, p.canvas(p.givens))
    []
    >>> [p] = read_puzzles(text="0 0 0 0\\n" * 4 + "\\nthermo: r1c2 r1c1\\nantiking\\n")
    >>> rule_problems(p, np.array([[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]))[0]
    "the rule 'thermo: r1c2 r1c1' is broken"
    """
    size = puzzle.size
    flat = canvas[puzzle.cell_rc[:, 0], puzzle.cell_rc[:, 1]].astype(int).tolist()
    marked: dict[str, set[frozenset[int]]] = {kind: set() for kind in _DOTS}
    negative: set[str] = set()
    found = []
    for rule in puzzle.rules:
        x = [flat[c] for c in rule.cells]
        kind = rule.kind
        if kind in _DOTS:
            holds, default = _DOTS[kind]
            ok = holds(x[0], x[1], default if rule.value is None else rule.value)
            if rule.value in (None, default):
                marked[kind].add(frozenset(rule.cells))
        elif kind in _MOVES:
            ok = not _repeats_a_move(puzzle, flat, _MOVES[kind])
        elif kind == "nonconsecutive" or kind == "negative":
            negative |= {"white"} if kind == "nonconsecutive" else set(rule.words)
            ok = True
        elif kind == "disjoint":
            ok = _disjoint_holds(puzzle, canvas)
        else:
            ok = _holds(rule.kind, x, rule.value, rule.head, size)
        if not ok:
            found.append(f"the rule {rule_text(rule, puzzle.cell_rc)!r} is broken")
    for kind in sorted(negative):
        holds, default = _DOTS[kind]
        index = puzzle.index
        for a, b in _neighbours(index):
            if frozenset((a, b)) not in marked[kind] and holds(flat[a], flat[b], default):
                (r0, c0), (r1, c1) = puzzle.cell_rc[a], puzzle.cell_rc[b]
                found.append(
                    f"r{r0 + 1}c{c0 + 1} and r{r1 + 1}c{c1 + 1} have no {kind} dot, but "
                    f"{flat[a]} and {flat[b]} would take one (negative: {kind})"
                )
    return found


def _holds(kind: str, x: list[int], value: int | None, head: int, size: int) -> bool:
    """What a rule of its own cells says of their values ``x``, read from its meaning."""
    if kind in ("cage", "region"):
        return len(set(x)) == len(x) and (value is None or sum(x) == value)
    if kind in ("little-killer", "outside-sum"):
        return sum(x) == value
    if kind == "thermo":
        return all(a < b for a, b in pairwise(x))
    if kind == "slow-thermo":
        return all(a <= b for a, b in pairwise(x))
    if kind == "arrow":
        return int("".join(map(str, x[:head]))) == sum(x[head:])
    if kind in ("even", "odd"):
        return all(v % 2 == (kind == "odd") for v in x)
    if kind == "whisper":
        gap = (size + 1) // 2 if value is None else value
        return all(abs(a - b) >= gap for a, b in pairwise(x))
    if kind == "renban":
        return len(set(x)) == len(x) and max(x) - min(x) == len(x) - 1
    if kind == "palindrome":
        return x == x[::-1]
    if kind == "sandwich":
        ends = sorted((x.index(1), x.index(size))) if 1 in x and size in x else None
        return ends is not None and sum(x[ends[0] + 1 : ends[1]]) == value
    if kind == "skyscraper":
        return sum(1 for i, v in enumerate(x) if v > max(x[:i], default=0)) == value
    return True  # cosmetic: no rule


def _neighbours(index: NDArray[np.int32]) -> Iterator[tuple[int, int]]:
    """Cells side by side on the canvas (each pair once)."""
    rows, cols = index.shape
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0)):
                inside = r + dr < rows and c + dc < cols
                if inside and index[r, c] >= 0 and index[r + dr, c + dc] >= 0:
                    yield int(index[r, c]), int(index[r + dr, c + dc])


def _repeats_a_move(puzzle: Puzzle, flat: list[int], steps: Sequence[tuple[int, int]]) -> bool:
    """Whether two cells one of ``steps`` apart hold one value."""
    index = puzzle.index
    rows, cols = index.shape
    for a, (r, c) in enumerate(puzzle.cell_rc.tolist()):
        for dr, dc in steps:
            for rr, cc in ((r + dr, c + dc), (r - dr, c - dc)):
                inside = 0 <= rr < rows and 0 <= cc < cols
                if inside and index[rr, cc] >= 0 and flat[int(index[rr, cc])] == flat[a]:
                    return True
    return False


def _disjoint_holds(puzzle: Puzzle, canvas: NDArray[np.integer]) -> bool:
    """Each sub-grid's cells at one place of every box hold different values."""
    layout = puzzle.layout
    if layout.box is None:
        return False
    height, width = layout.box
    for r0, c0 in layout.corners:
        window = canvas[r0 : r0 + layout.size, c0 : c0 + layout.size]
        for i in range(height):
            for j in range(width):
                group = window[i::height, j::width].ravel()
                if len(set(group.tolist())) != len(group):
                    return False
    return True


def _sub_grid_units(
    layout: Layout, canvases: NDArray[np.integer]
) -> Iterator[tuple[int, int, str, NDArray[np.integer]]]:
    """Rows, columns and boxes of every sub-grid of stacked canvases ``(grids, rows, cols)``.

    Yields ``(r0, c0, kind, lines)`` per sub-grid corner and kind of unit, ``lines`` of shape
    ``(grids, units, N)`` with the units in reading order.
    """
    size = layout.size
    grids = len(canvases)
    for r0, c0 in layout.corners:
        window = canvases[:, r0 : r0 + size, c0 : c0 + size]
        yield r0, c0, "row", window
        yield r0, c0, "column", window.swapaxes(1, 2)
        if layout.box is not None:
            bh, bw = layout.box
            boxes = window.reshape(grids, size // bh, bh, size // bw, bw).swapaxes(2, 3)
            yield r0, c0, "box", boxes.reshape(grids, size, size)


def _misprinted(
    puzzle: Puzzle,
    table: NDArray[np.integer],
    written: NDArray[np.str_],
    givens: NDArray[np.integer],
) -> NDArray[np.bool_]:
    """Per grid and cell of ``table`` ``(grids, cells)``: a given not printed as written
    (``written``, ``givens``: the grids' tokens and givens per cell), or a cell read as empty
    whose token is no empty mark, or a symbol of the answer; in pencil marks, a symbol not
    among the cell's. ``puzzle``: the grids' style."""
    style = puzzle.grid.style
    if puzzle.candidates is not None:
        printed = np.array([style.symbol(v) for v in range(puzzle.size + 1)])
        shown = printed[np.clip(table, 0, puzzle.size)]
        return np.asarray(np.char.find(written, shown) < 0)
    # Each distinct token is looked at once: the symbol it stands for (-1: none), and whether
    # it is an empty mark (00 too) that is no symbol.
    symbols = {style.symbol(v): v for v in range(1, puzzle.size + 1)}
    tokens, where = np.unique(written, return_inverse=True)
    listed = tokens.tolist()
    value = np.array([symbols.get(t, -1) for t in listed])
    empty_mark = np.array(
        [
            t not in symbols and (t in _EMPTY_MARKS or (t != "" and t.strip("0") == ""))
            for t in listed
        ]
    )
    where = where.reshape(written.shape)
    return np.where(givens > 0, value[where] != table, ~empty_mark[where])


def _written(puzzles: Sequence[Puzzle]) -> NDArray[np.str_]:
    """The tokens of each cell of puzzles of one layout, ``(grids, cells)``."""
    first = puzzles[0]
    rows, cols = first.cell_rc[:, 0], first.cell_rc[:, 1]
    return np.stack([p.grid.written for p in puzzles])[:, rows, cols]


def verify_all(puzzles: Sequence[Puzzle], values: Sequence[NDArray[np.integer] | None]) -> None:
    """:func:`verify` every puzzle whose values are not None; a batch of one layout at once.

    Puzzles read from one file of one-line puzzles share their layout and cell numbering:
    their grids are stacked and each kind of unit is sorted in one call for all of them. A
    layout with regions or extra units, and any grid that fails, goes through :func:`verify`
    (which names what is wrong).

    >>> from ndoku.model.puzzle import read_puzzles
    >>> ps = read_puzzles(text="1234341221434321\\n0000000000000000\\n")
    >>> verify_all(ps, [ps[0].givens, ps[0].givens])  # no error: both solved
    >>> verify_all(ps, [None, ps[0].givens[::-1].copy()])  # a half turn still solves it
    """
    groups: dict[object, list[int]] = {}
    for i, (puzzle, v) in enumerate(zip(puzzles, values, strict=True)):
        if v is not None:
            groups.setdefault((puzzle.frame.key, puzzle.rules), []).append(i)
    for members in groups.values():
        first = puzzles[members[0]]
        layout, size = first.layout, first.size
        if layout.regions is not None or layout.extras or first.rules or len(members) == 1:
            for i in members:
                verify(puzzles[i], np.asarray(values[i]))
            continue
        table = np.stack([np.asarray(values[i]) for i in members])
        givens = np.stack([puzzles[i].givens for i in members])
        bad = ((table < 1) | (table > size)).any(axis=1)
        bad |= ((givens != EMPTY) & (table != givens)).any(axis=1)
        group = [puzzles[i] for i in members]
        bad |= _misprinted(first, table, _written(group), givens).any(axis=1)
        full = np.arange(1, size + 1)
        for _, _, _, lines in _sub_grid_units(layout, first.canvas(table)):
            bad |= (np.sort(lines, axis=2) != full).any(axis=(1, 2))
        for k in np.flatnonzero(bad):
            verify(puzzles[members[k]], table[k])


def verify(puzzle: Puzzle, values: NDArray[np.integer]) -> None:
    """Raise :class:`~ndoku.errors.VerificationError` unless ``values`` solve the puzzle."""
    found = problems(puzzle, values)
    if found:
        more = f" (and {len(found) - 3} more)" if len(found) > 3 else ""
        raise VerificationError(
            f"{puzzle.source}: a solver returned a grid that breaks the rules: "
            + "; ".join(found[:3])
            + more
        )


def verify_table(
    table: PuzzleTable, values: NDArray[np.int32], answered: NDArray[np.bool_]
) -> None:
    """:func:`verify` the rows of ``values`` ``(puzzles, cells)`` where ``answered``, in one
    compiled call for the whole table.

    The call reads the rows, columns and boxes from the layout's box shape and each puzzle's
    tokens from the bytes of its line, as :func:`problems` does from the canvas and the
    text; a puzzle it finds wrong goes through :func:`verify`, which names what is wrong. A
    layout with regions or extra units (a one-line puzzle read with ``--layout``) is checked
    one puzzle at a time.

    >>> from ndoku.model.table import read_table
    >>> table = read_table("1234341221434321\\n0000000000000000\\n")
    >>> verify_table(table, np.stack([table.givens[0]] * 2), np.array([True, True]))
    """
    layout = table.frame.layout
    rows = np.flatnonzero(answered)
    if layout.regions is not None or layout.extras or layout.box is None:
        for i in rows.tolist():
            verify(table.puzzle(i), values[i])
        return
    printed = table.symbols()
    # the empty marks of _misprinted, and 0 (the one zero a line's cell can hold)
    marks = np.frombuffer("".join([*_EMPTY_MARKS, "0"]).encode(), dtype=np.uint8)
    empty_mark = np.zeros(256, dtype=np.bool_)
    empty_mark[marks[~np.isin(marks, printed[1:])]] = True
    arguments: tuple[Any, ...] = (
        np.ascontiguousarray(values, dtype=np.int32),
        table.givens,
        table.lines.codes,
        table.flat.astype(np.int64),
        printed,
        empty_mark,
        np.int64(layout.box[0]),
        np.int64(layout.box[1]),
        rows.astype(np.int64),
    )
    compile_notice("the batch check", 1, _faults, arguments)
    for k in np.flatnonzero(_faults(*arguments)):
        i = int(rows[k])
        verify(table.puzzle(i), values[i])


@kernel(refcounts=True)
def _faults(
    values: NDArray[np.int32],
    givens: NDArray[np.int32],
    codes: NDArray[np.uint8],
    flat: NDArray[np.int64],
    printed: NDArray[np.uint8],
    empty_mark: NDArray[np.bool_],
    box_rows: int,
    box_cols: int,
    rows: NDArray[np.int64],
) -> NDArray[np.bool_]:
    """Per listed row: whether its values break a rule (:func:`problems` finds which).

    A value outside 1..N, a given changed or printed otherwise than written, a cell read as
    empty whose token is no empty mark (``empty_mark``), or a row, column or box of the
    canvas that is not a permutation of 1..N; ``flat``: each cell's position on the canvas.
    """
    size = box_rows * box_cols
    full = (1 << size) - 1
    canvas = np.zeros(size * size, dtype=np.int64)
    bad = np.zeros(len(rows), dtype=np.bool_)
    for k in range(len(rows)):
        i = rows[k]
        wrong = False
        for cell in range(len(flat)):
            v = values[i, cell]
            token = codes[i, flat[cell]]
            if v < 1 or v > size:
                wrong = True
            elif givens[i, cell] > 0:
                wrong |= v != givens[i, cell] or printed[v] != token
            else:
                wrong |= not empty_mark[token]
            canvas[flat[cell]] = v
        if not wrong:
            for line in range(size):
                across = 0
                down = 0
                boxed = 0
                top = (line // box_rows) * box_rows
                left = (line % box_rows) * box_cols
                for j in range(size):
                    across |= 1 << (canvas[line * size + j] - 1)
                    down |= 1 << (canvas[j * size + line] - 1)
                    r = top + j // box_cols
                    c = left + j % box_cols
                    boxed |= 1 << (canvas[r * size + c] - 1)
                wrong |= across != full or down != full or boxed != full
        bad[k] = wrong
    return bad
