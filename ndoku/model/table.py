"""Many one-line puzzles of one layout as arrays: a batch file read without a Puzzle each.

A :class:`PuzzleTable` holds one frame and the ``(puzzles, cells)`` givens of every puzzle
of a file, read in the alphabet :func:`~ndoku.model.reading.batch_reading` chooses for the
whole file, with the same checks as :func:`~ndoku.model.puzzle.read_puzzles` (a value out of
range, two equal givens in a unit). :func:`read_table` declines (None) any text it does not
take whole, and the puzzles are then read one by one, which names what is wrong. A long
file streams (:class:`TableStream`): a table per piece of it
(:mod:`~ndoku.text.pieces`), each read as the first was.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import ParseError
from ndoku.model.frame import Frame
from ndoku.model.puzzle import Puzzle, from_grid
from ndoku.model.reading import batch_reading, batch_style, zero_repeats
from ndoku.text.formats import parse_table
from ndoku.text.grid import Style
from ndoku.text.lines import LineTable, line_table, parse_line, symbol_codes
from ndoku.text.pieces import Piece, piece_lines

IntArray = NDArray[np.int32]


@dataclass(frozen=True, eq=False)
class PuzzleTable:
    """The one-line puzzles of a file, of one layout, as arrays.

    Attributes
    ----------
    lines : LineTable
        The puzzles as written (their bytes, lines and columns).
    frame : Frame
        Their layout, shared.
    givens : ndarray of int32, shape (puzzles, cells)
        Each puzzle's givens, 0 for free cells.
    style : Style
        How their answers are written (the alphabet of the file).
    reread : bool
        The file was read again in another alphabet than the one its lines were parsed in
        (then every puzzle has ``style``; else each keeps the style of its own line).
    layout : str or None
        The layout override they were read with (``--layout``).

    Examples
    --------
    >>> table = read_table("1000003004000002\\n0000000000000000\\n")
    >>> len(table), table.givens.shape, table.puzzle(0).text().strip()
    (2, (2, 16), '1000003004000002')
    """

    lines: LineTable
    frame: Frame
    givens: IntArray
    style: Style
    reread: bool = False
    layout: str | None = None

    def __len__(self) -> int:
        return len(self.givens)

    @property
    def source(self) -> str:
        return self.lines.source

    @property
    def size(self) -> int:
        return self.frame.size

    @cached_property
    def flat(self) -> NDArray[np.intp]:
        """Each cell's position in a puzzle's line."""
        side = self.lines.side
        flat: NDArray[np.intp] = self.frame.cell_rc[:, 0] * side + self.frame.cell_rc[:, 1]
        return flat

    def rows(self, start: int, stop: int) -> PuzzleTable:
        """Puzzles ``start .. stop - 1`` as a table of their own."""
        return replace(self, lines=self.lines.rows(start, stop), givens=self.givens[start:stop])

    def puzzle(self, i: int) -> Puzzle:
        """Puzzle ``i`` as :func:`~ndoku.model.puzzle.read_puzzles` reads it."""
        grid = self.lines.grid(i)
        values = np.zeros(grid.values.size, dtype=np.int32)
        values[self.flat] = self.givens[i]
        read = grid.with_values(
            values.reshape(grid.values.shape), self.style if self.reread else None
        )
        return from_grid(read, self.layout, {grid.shape: self.frame})

    def text(self, values: IntArray, words: dict[int, str]) -> bytes:
        """One line per puzzle, as :meth:`Puzzle.text <ndoku.model.puzzle.Puzzle.text>`
        writes it: ``values`` ``(puzzles, cells)`` in the file's alphabet, or for puzzle ``i``
        in ``words`` that word instead.

        >>> table = read_table("1000003004000002\\n0000000000000000\\n")
        >>> table.text(table.givens, {1: "none"}).decode()
        '1000003004000002\\nnone\\n'
        """
        width = self.lines.codes.shape[1]
        out = np.empty((len(self), width + 1), dtype=np.uint8)
        out[:, self.flat] = self.symbols()[values]
        out[:, width] = ord("\n")
        pieces = []
        start = 0
        for i in sorted(words):
            pieces += [out[start:i].tobytes(), words[i].encode() + b"\n"]
            start = i + 1
        return b"".join([*pieces, out[start:].tobytes()])

    def following(self, piece: Piece) -> PuzzleTable | list[Puzzle]:
        """The puzzles of a later piece of this table's file, read as this table was: a
        table, or (lines of another length, or a line the table does not take) the puzzles
        one by one, as :func:`~ndoku.model.puzzle.read_puzzles` reads them and with its
        errors.

        >>> from ndoku.text.pieces import Piece
        >>> table = read_table("1000003004000002\\n")
        >>> later = table.following(Piece("0000003004000002\\n", 2, True, 0))
        >>> later.lines.numbers.tolist(), later.givens.tolist()[0][:8]
        ([2], [0, 0, 0, 0, 0, 0, 3, 0])
        """
        numbered = piece_lines(piece)
        alphabet = self.style.alphabet if self.reread else self.lines.alphabet
        headers, source = self.lines.headers, self.source
        lines = line_table(numbered, alphabet, headers, source)
        if lines is not None and lines.codes.shape[1] == self.lines.codes.shape[1]:
            givens = _givens(lines, symbol_codes(alphabet), self.frame)
            if givens is not None:
                return replace(self, lines=lines, givens=givens)
        frames = {(self.lines.side, self.lines.side): self.frame}
        return [
            from_grid(parse_line(number, text, alphabet, headers, source), self.layout, frames)
            for number, text in numbered
        ]

    def symbols(self) -> NDArray[np.uint8]:
        """The byte each value ``0 .. N`` is written as in an answer (0: the empty mark)."""
        marks = [self.style.symbol(v) for v in range(self.size + 1)]
        return np.frombuffer("".join(marks).encode("ascii"), dtype=np.uint8)


def read_table(
    text: str,
    source: str = "<text>",
    symbols: str | None = None,
    layout: str | None = None,
) -> PuzzleTable | None:
    """The puzzles of ``text`` as a :class:`PuzzleTable` when it is a batch of one-line
    puzzles of one length written in ASCII; None otherwise (read them with
    :func:`~ndoku.model.puzzle.read_puzzles`, which also names any error in them).

    Parameters are those of :func:`~ndoku.model.puzzle.read_puzzles`.

    Raises
    ------
    ndoku.errors.ParseError
        What reading the first puzzle alone raises (a layout that does not fit), or an
        alphabet that reads two ways.
    """
    lines = parse_table(text, source, symbols)
    if lines is None:
        return None
    first = lines.grid(0)
    codes = symbol_codes(lines.alphabet)
    style = first.style
    if not first.declared:
        present = np.flatnonzero(np.bincount(lines.codes.ravel(), minlength=256))
        chosen = batch_reading(
            first,
            lambda: np.array([chr(b) for b in present]),
            lambda frame: zero_repeats(_zeros(lines, frame), frame),
        )
        if chosen is not None:
            reading, table = chosen
            codes = codes.copy()
            for token, value in table.items():
                codes[ord(token)] = value
            style = batch_style(first, reading, table)
    values = codes[lines.codes[0]].reshape(first.shape)
    puzzle = from_grid(first.with_values(values, style), layout)  # the first puzzle's checks
    frame = puzzle.frame
    givens = _givens(lines, codes, frame)
    if givens is None:
        return None
    return PuzzleTable(lines, frame, givens, style, style is not first.style, layout)


class TableStream:
    """The puzzles of a long batch file, a piece at a time, as they are read: its first
    table, then each later piece as :meth:`PuzzleTable.following` reads it (a table, or a
    list of puzzles).

    Examples
    --------
    >>> from ndoku.text.pieces import Piece
    >>> first = Piece("1000003004000002\\n" * 2, 1, False, 17)
    >>> stream = TableStream(read_table(first.text), first, iter([Piece("0" * 16, 3, True, 0)]))
    >>> stream.left(), [len(part) for part in stream], stream.left()
    (1, [2, 1], 0)
    """

    def __init__(self, first: PuzzleTable, piece: Piece, pieces: Iterator[Piece]):
        self.first = first
        self._pieces = pieces
        self._puzzles, self._chars, self._left = len(first), len(piece.text), piece.left

    def __iter__(self) -> Iterator[PuzzleTable | list[Puzzle]]:
        yield self.first
        for piece in self._pieces:
            try:
                part = self.first.following(piece)
            except ParseError as error:  # the lines before the bad one first
                if error.line is not None and error.line > piece.line:
                    yield self.first.following(piece.before(error.line))
                raise
            self._puzzles += len(part)
            self._chars += len(piece.text)
            self._left = piece.left
            if len(part):
                yield part

    def left(self) -> int | None:
        """Puzzles not read yet, as the bytes left of the file and the puzzles per byte so
        far estimate them; None when the bytes left are not known (a pipe)."""
        if self._left is None:
            return None
        return round(self._left * self._puzzles / max(self._chars, 1))


def _givens(lines: LineTable, codes: IntArray, frame: Frame) -> IntArray | None:
    """The givens of every puzzle of ``lines`` (``codes``: each byte's value), when they all
    fit ``frame`` with no two equal givens in a unit; else None."""
    values = codes.astype(np.int8)[lines.codes]  # one-line puzzles have at most 36 symbols
    if frame.cell_rc.shape[0] != values.shape[1] or values.max(initial=0) > frame.size:
        return None
    flat = frame.cell_rc[:, 0] * lines.side + frame.cell_rc[:, 1]
    in_order = np.array_equal(flat, np.arange(len(flat)))
    givens = (values if in_order else values[:, flat]).astype(np.int32)
    if frame.repeated(givens).any():
        return None
    return givens


def _zeros(lines: LineTable, frame: Frame) -> IntArray:
    flat = frame.cell_rc[:, 0] * lines.side + frame.cell_rc[:, 1]
    zeros: IntArray = (lines.codes[:, flat] == ord("0")).astype(np.int32)
    return zeros
