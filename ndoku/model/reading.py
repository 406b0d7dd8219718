"""How a grid is read: the alphabet of its symbols and the sub-grids of its shape, together.

The two decide each other. The sub-grids give N, and N decides which alphabets fit (a 16×16
is ``0-F`` or ``1-9A-G``, a 25×25 ``A-Y``, ``1-9A-P`` or ``0-O``); where only the shape says
where the sub-grids are, their size follows from the largest value. So each reading of
:mod:`ndoku.text.alphabet` that reads every token is tried with the layout its values give, and
*fits* when N is one of its sizes and no value exceeds N. Then:

1. ``0`` is empty only where no reading makes it a symbol: when ``0`` is written and a
   reading that makes it a symbol fits, with no two ``0`` in one unit, it wins (a 16×16 with
   ``0`` among its givens and ``.`` for empty cells is ``0-F``).
2. Readings that give the grid the same values are one; the first of
   :data:`~ndoku.text.alphabet.READINGS` names it (an empty layout is read ``1-9A-…``).
3. Two readings left is an :class:`~ndoku.text.alphabet.AlphabetError` that names both and says
   how to choose (``# symbols:`` or ``--symbols``).

A pencil-mark grid (:mod:`ndoku.text.marks`) is read the same way, its candidate lists too:
a reading fits only when it reads every symbol of every list, and two readings are one only
when they give the same candidates. Its dots are read as below; a dot that turns out to be a
cell lists no candidates, which :func:`ndoku.model.puzzle.from_grid` refuses at its line and
column (a pencil-mark grid lists every cell's candidates).

A dot is a missing cell, unless the canvas is square and reads as one grid only with its dots
empty (``53..7....``); with a declared alphabet of N symbols an N×N canvas is one grid. A
declared alphabet (``--symbols``, ``# symbols:``) is the only reading tried.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import LayoutError
from ndoku.model.frame import Frame
from ndoku.model.layout import layout_of
from ndoku.text.alphabet import (
    EMPTY_MARKS,
    ONE_BASED,
    READINGS,
    UNREADABLE,
    AlphabetError,
    Reading,
)
from ndoku.text.grid import EMPTY, MISSING, Grid, Style
from ndoku.text.marks import list_bits

IntArray = NDArray[np.int32]


@dataclass(frozen=True, eq=False)
class _Fit:
    reading: Reading | None  # None: the declared alphabet
    frame: Frame
    grid: Grid


def read_grid(grid: Grid, override: str | None = None) -> tuple[Frame, Grid]:
    """The frame of a parsed grid and the grid as read (its values, its alphabet, its dots);
    of a one-line puzzle, as :func:`read_batch` read it, only the frame.

    When no reading fits, the ``1-9A-…`` (or declared) reading is returned with the first
    layout found (the grid as parsed, when that reading cannot read a token), so that the
    caller's checks say what is wrong with it (a value out of range, a list with no
    candidate); with no layout at all, the first :class:`~ndoku.errors.LayoutError` is
    raised.

    Examples
    --------
    >>> from ndoku.text.formats import parse
    >>> hexa = "0123456789ABCDEF"  # a full 16×16 sudoku written 0-F, one cell left empty
    >>> rows = ["".join(hexa[(4 * (r % 4) + r // 4 + c) % 16] for c in range(16))
    ...         for r in range(16)]
    >>> rows[1] = "." + rows[1][1:]
    >>> [hexa] = parse("\\n".join(rows))
    >>> frame, read = read_grid(hexa)
    >>> frame.layout.size, read.style.alphabet, int(read.values[0, 0]), int(read.values[1, 0])
    (16, '0123456789ABCDEF', 1, 0)
    """
    if grid.style.kind == "line":  # read_batch chose its alphabet for the whole file
        return Frame.of(layout_of(grid, override)), grid
    dotted = _dotted(grid, override)
    declared_single = (
        dotted is not None
        and grid.declared
        and grid.style.alphabet is not None
        and grid.shape[0] == len(grid.style.alphabet)
    )
    structures = [dotted] if declared_single else [grid, dotted]
    fallback: tuple[Frame, Grid] | None = None
    first_error: LayoutError | None = None
    for structure in structures:
        if structure is None:
            continue
        fits: list[_Fit] = []
        frames: dict[int, Frame] = {}
        for reading, candidate in _readings(structure):
            top = candidate.top
            if top not in frames:
                try:
                    declared = override if structure is grid else None
                    frames[top] = Frame.of(layout_of(candidate, declared))
                except LayoutError as error:
                    first_error = first_error or error
                    continue
            frame = frames[top]
            layout = frame.layout
            if structure is not grid and (
                layout.corners != ((0, 0),) or layout.size != len(grid.values)
            ):
                continue  # dots are empty only in one grid filling the square
            if fallback is None and reading in (None, ONE_BASED):
                fallback = (frame, candidate)
            if reading is None or (layout.size in reading.sizes and top <= layout.size):
                fits.append(_Fit(reading, frame, candidate))
        chosen = _choose(fits, structure) if fits else None
        if chosen is not None:
            return chosen
    if fallback is not None:
        return fallback
    if first_error is not None:
        raise first_error
    # Only readings that do not fit read every token (a pencil-mark list 04 of a 9×9): the
    # grid as parsed, whose checks name the token its reading cannot read.
    return Frame.of(layout_of(grid, override)), grid


def read_batch(grids: Sequence[Grid]) -> list[Grid]:
    """One-line puzzles of one file, read in the one alphabet that fits them all.

    The rules are those of :func:`read_grid` over the whole file; ``0`` counts as a symbol
    unless it repeats in a unit in most of the puzzles that write it.
    """
    if not grids or grids[0].declared or grids[0].marks is not None:
        return list(grids)  # a sukaku line chose its alphabet itself
    chosen = batch_reading(
        grids[0],
        lambda: np.unique(np.concatenate([g.written.ravel() for g in grids])),
        lambda frame: zero_repeats(_zeros(grids, frame), frame),
    )
    if chosen is None:
        return list(grids)
    reading, table = chosen
    read = [g.with_values(_decode(g, table)) for g in grids]
    style = batch_style(grids[0], reading, table)
    return [g.with_values(g.values, style) for g in read]


def batch_reading(
    first: Grid,
    tokens: Callable[[], NDArray[np.str_]],
    repeats: Callable[[Frame], bool],
) -> tuple[Reading, dict[str, int]] | None:
    """The reading of a file of one-line puzzles and its value of each token; None when it is
    the ``1-9A-…`` reading they were parsed in (or none fits: that reading says what is wrong).

    ``first`` is the first puzzle, ``tokens`` gives every token of the file (asked only when
    the first puzzle leaves a choice), ``repeats`` whether ``0`` repeats in a unit in most
    puzzles that write it (:func:`zero_repeats`), on the layout of the first puzzle.
    """
    side = first.shape[0]
    # A token of the first puzzle that a reading cannot read rules it out for the file.
    first_tokens = np.unique(first.written)
    possible = [
        r
        for r in READINGS
        if side in r.sizes and UNREADABLE not in _table(r, first_tokens).values()
    ]
    if possible == [ONE_BASED]:
        return None
    every = tokens()
    tables = {}
    for reading in possible:
        table = _table(reading, every)
        top = max(table.values(), default=0)
        if UNREADABLE not in table.values() and top <= side:
            tables[reading] = table
    if list(tables) == [ONE_BASED]:
        return None
    readings = list(tables)
    if "0" in every:
        zero = [r for r in readings if r.zero_is_symbol]
        if zero and repeats(Frame.of(layout_of(first))):
            readings = [r for r in readings if not r.zero_is_symbol]
        elif zero:
            readings = zero
    readings = [
        r for k, r in enumerate(readings) if tables[r] not in [tables[q] for q in readings[:k]]
    ]
    if not readings:
        return None
    if len(readings) > 1:
        raise _ambiguous(readings[0], readings[1], side, first)
    reading = readings[0]
    return None if reading is ONE_BASED else (reading, tables[reading])


def batch_style(first: Grid, reading: Reading, table: dict[str, int]) -> Style:
    """The style of a batch read in ``reading``: its alphabet, and the empty mark of its first
    puzzle."""
    read = first.with_values(_decode(first, table))
    return dataclasses.replace(
        first.style, alphabet=reading.alphabet(first.shape[0]), empty=_empty_mark(read)
    )


def _dotted(grid: Grid, override: str | None) -> Grid | None:
    """The grid with its dots read as empty cells, when it may be one square grid."""
    rows, cols = grid.shape
    declared = override is not None or grid.header("layout") or grid.header("subgrids")
    if declared or rows != cols or not ((grid.values == MISSING) & (grid.written == ".")).any():
        return None
    # Dots only: a blank column of a drawing stays a missing cell.
    values = np.where(grid.written == ".", EMPTY, grid.values).astype(np.int32)
    return grid.with_values(values, dataclasses.replace(grid.style, empty="."))


def _readings(grid: Grid) -> Iterator[tuple[Reading | None, Grid]]:
    """Each reading that reads every token, with the grid's values in it."""
    if grid.declared:
        yield None, grid
        return
    tokens = np.unique(grid.written)
    pencil = grid.marks is not None
    for reading in READINGS:
        table = _table(reading, tokens, pencil)
        if UNREADABLE in table.values() or (reading is not ONE_BASED and not table):
            continue  # unreadable, or nothing but dots: read as every reading reads it
        # The 1-9A-… reading is how the grid was parsed; others are read again.
        if reading is ONE_BASED:
            yield reading, grid
        else:
            marks = _marks(grid, reading) if pencil else None
            yield reading, grid.with_values(_decode(grid, table), marks=marks)


def _table(reading: Reading, tokens: NDArray[np.str_], pencil: bool = False) -> dict[str, int]:
    """The value of each token but dots and blanks (where the shape decides); in a pencil-mark
    grid a list is empty when the reading reads each of its symbols, else unreadable."""
    table = {}
    for token in tokens:
        text = str(token)
        if text in (".", ""):
            continue
        if pencil and len(text) > 1:
            readable = list_bits(text, {ch: reading.value(ch) for ch in text}) > 0
            table[text] = EMPTY if readable else UNREADABLE
        else:
            table[text] = reading.value(text)
    return table


def _marks(grid: Grid, reading: Reading) -> NDArray[np.uint64]:
    """The candidates of a pencil-mark grid in another reading."""
    marks = np.zeros(grid.values.shape, dtype=np.uint64)
    for (r, c), text in np.ndenumerate(grid.written):
        if text not in (".", ""):
            marks[r, c] = list_bits(text, {ch: reading.value(ch) for ch in text})
    return marks


def _decode(grid: Grid, table: dict[str, int]) -> IntArray:
    keys = np.array(list(table), dtype=grid.written.dtype)
    order = np.argsort(keys)
    found = np.searchsorted(keys[order], grid.written).clip(0, len(keys) - 1)
    values = np.array(list(table.values()), dtype=np.int32)[order][found]
    # Dots and blank columns keep what the parse (or the dotted structure) made of them.
    known = keys[order][found] == grid.written
    return np.where(known, values, grid.values).astype(np.int32)


def _zeros(grids: Sequence[Grid], frame: Frame) -> IntArray:
    rows, cols = frame.cell_rc[:, 0], frame.cell_rc[:, 1]
    return np.stack([g.written[rows, cols] == "0" for g in grids]).astype(np.int32)


def zero_repeats(zeros: IntArray, frame: Frame) -> bool:
    """Whether ``0`` stands twice in one unit in most of the grids that write it (then it is
    their empty mark: a symbol never repeats in a valid puzzle); ``zeros``: ``(grids, cells)``,
    1 where a cell is written ``0``."""
    writes = zeros.any(axis=1)
    repeats = frame.repeated(zeros)
    return int(repeats.sum()) * 2 > int(writes.sum())


def _choose(fits: list[_Fit], structure: Grid) -> tuple[Frame, Grid] | None:
    """Rules 1 to 3 of the module docstring over the readings that fit; None when none is
    left once readings with two equal givens in a unit are dropped."""
    fits = [f for f in fits if not _repeats(f.grid, f.frame)]
    if (structure.written == "0").any():
        fits = [f for f in fits if f.reading is not None and f.reading.zero_is_symbol] or fits
    distinct: list[_Fit] = []
    for fit in fits:
        if not any(_same(fit, other) for other in distinct):
            distinct.append(fit)
    if len(distinct) > 1:
        a, b = distinct[0], distinct[1]
        assert a.reading is not None and b.reading is not None  # a declared one is alone
        raise _ambiguous(a.reading, b.reading, a.frame.size, structure)
    if not distinct:
        return None
    fit = distinct[0]
    grid = fit.grid
    if fit.reading is not None and fit.reading is not ONE_BASED:
        style = dataclasses.replace(
            grid.style,
            alphabet=fit.reading.alphabet(fit.frame.size),
            empty=_empty_mark(grid),
        )
        grid = grid.with_values(grid.values, style)
    return fit.frame, grid


def _repeats(grid: Grid, frame: Frame) -> bool:
    return bool(frame.repeated(frame.givens([grid]))[0])


def _same(a: _Fit, b: _Fit) -> bool:
    same = a.frame.key == b.frame.key and np.array_equal(a.grid.values, b.grid.values)
    ours, theirs = a.grid.marks, b.grid.marks
    return same and (ours is None or theirs is None or np.array_equal(ours, theirs))


def _empty_mark(grid: Grid) -> str:
    """How ``grid``, in the reading its values are in, writes an empty cell (its commonest
    empty mark)."""
    marks = Counter(t for t in grid.written[grid.values == EMPTY].ravel().tolist() if len(t) == 1)
    if marks:
        return str(marks.most_common(1)[0][0])
    return grid.style.empty if grid.style.empty in EMPTY_MARKS else "-"


def _ambiguous(a: Reading, b: Reading, size: int, grid: Grid) -> AlphabetError:
    def how(reading: Reading) -> str:
        zero = "0 is a symbol" if reading.zero_is_symbol else "0 is empty"
        return f"{reading.name(size)} ({zero})"

    return AlphabetError(
        f"the symbols of this {size}×{size} grid read two ways, as {how(a)} or as {how(b)}: "
        f"say which with a '# symbols:' line or --symbols ({a.name(size)} or {b.name(size)})",
        int(grid.where[0, 0, 0]),
    )
