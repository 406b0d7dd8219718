"""One-line puzzles: a line read as a grid, and a file of them read as one array.

A file of one-line puzzles (``n⁴`` characters each, row-major) is a batch; anything after
the puzzle on a line (``,solution``, ``:count``, a rating) is ignored. Read one grid per
line (:func:`parse_line`) it names a bad symbol at its line and column; read as a
:class:`LineTable` (:func:`line_table`) a batch of a hundred thousand lines costs a few
array operations, and any line the array reading does not take is left to the grids.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import ParseError
from ndoku.text.grid import BARS, LINE_LENGTHS, Grid, Header, Style, token_value

_FIELD_END = re.compile(rf"[\s,:;{re.escape(BARS)}]")
#: The ASCII bytes that end a line's leading field (as ``_FIELD_END`` reads them).
_ENDS = np.array([bool(_FIELD_END.match(chr(b))) for b in range(256)]) & (np.arange(256) < 128)


def line_field(text: str) -> str | None:
    """The leading field of a one-line puzzle, or None when the line is not one.

    >>> line_field("  1234341221434321,1234341221434321"), line_field("1 2 3 4")
    ('1234341221434321', None)
    """
    stripped = text.lstrip()
    end = _FIELD_END.search(stripped)
    head = stripped[: end.start()] if end else stripped
    return head if len(head) in LINE_LENGTHS else None


@lru_cache(maxsize=8)
def symbol_codes(alphabet: str | None) -> NDArray[np.int32]:
    """Value of each byte in a one-line puzzle, -1 where it is no symbol (as
    :func:`~ndoku.text.grid.token_value` reads it)."""
    table = np.full(256, -1, dtype=np.int32)
    for code in range(128):
        with suppress(ParseError):
            table[code] = token_value(chr(code), alphabet, 0, 0, one_line=True)[0]
    return table


def _style(field: str, alphabet: str | None) -> Style:
    empty = "." if "." in field and "0" not in field else "0"
    return Style("line", alphabet=alphabet, empty="-" if alphabet and "0" in alphabet else empty)


def parse_line(
    number: int,
    text: str,
    alphabet: str | None,
    headers: Mapping[str, tuple[Header, ...]],
    source: str,
) -> Grid:
    """Line ``number`` (its ``text``) of a file of one-line puzzles as a grid."""
    puzzle = line_field(text)
    if puzzle is None:
        stripped = text.strip()
        raise ParseError(
            f"expected a one-line puzzle like the lines before it "
            f"(16, 81, 256, 625 or 1296 characters), found {len(stripped.split()[0])}",
            number,
            1 + len(text) - len(text.lstrip()),
        )
    offset = len(text) - len(text.lstrip())
    side = LINE_LENGTHS[len(puzzle)] ** 2
    codes = np.frombuffer(puzzle.encode("utf-8"), dtype=np.uint8)
    values = symbol_codes(alphabet)[codes]
    if len(codes) != len(puzzle) or (values < 0).any():  # let the slow path name the culprit
        values = np.empty(len(puzzle), dtype=np.int32)
        for i, ch in enumerate(puzzle):
            values[i] = token_value(ch, alphabet, number, offset + i + 1, one_line=True)[0]
    where = np.empty((side, side, 2), dtype=np.int32)
    where[..., 0] = number
    where[..., 1] = offset + 1 + np.arange(side * side).reshape(side, side)
    written = np.frombuffer(puzzle.encode("utf-32-le"), dtype="<U1").reshape(side, side)
    style = _style(puzzle, alphabet)
    declared = alphabet is not None
    return Grid(values.reshape(side, side), where, written, style, headers, (), source, declared)


@dataclass(frozen=True, eq=False)
class LineTable:
    """The one-line puzzles of a file, of one length, as arrays (one row per puzzle).

    Attributes
    ----------
    codes : ndarray of uint8, shape (puzzles, length)
        The ASCII bytes of each puzzle as written, each a symbol or an empty mark of the
        ``1-9A-…`` reading or of the declared ``alphabet`` (:func:`symbol_codes` reads them).
    numbers, columns : ndarray of int64, shape (puzzles,)
        The line of each puzzle and the column its first character stands in.
    """

    codes: NDArray[np.uint8]
    numbers: NDArray[np.int64]
    columns: NDArray[np.int64]
    alphabet: str | None
    headers: Mapping[str, tuple[Header, ...]]
    source: str

    def __len__(self) -> int:
        return len(self.codes)

    @property
    def side(self) -> int:
        """Rows (and columns) of each puzzle's grid."""
        return LINE_LENGTHS[self.codes.shape[1]] ** 2

    def rows(self, start: int, stop: int) -> LineTable:
        """Puzzles ``start .. stop - 1`` as a table of their own."""
        part = slice(start, stop)
        return replace(
            self, codes=self.codes[part], numbers=self.numbers[part], columns=self.columns[part]
        )

    def text(self, i: int) -> str:
        """Line ``i`` as far as the puzzle goes, at its column."""
        return " " * (int(self.columns[i]) - 1) + str(self.codes[i].tobytes().decode("ascii"))

    def grid(self, i: int) -> Grid:
        """Puzzle ``i`` as :func:`parse_line` reads it."""
        number = int(self.numbers[i])
        return parse_line(number, self.text(i), self.alphabet, self.headers, self.source)


def line_table(
    lines: Sequence[tuple[int, str]],
    alphabet: str | None,
    headers: Mapping[str, tuple[Header, ...]],
    source: str,
) -> LineTable | None:
    """The ``(line number, text)`` pairs of a batch of one-line puzzles as a :class:`LineTable`;
    None when they are not all ASCII puzzles of one length whose every character is a symbol
    or an empty mark (the grids read them, or name what is wrong).

    >>> table = line_table([(1, "1234341221434321"), (2, "0000000000000000 a note")], None,
    ...                    {}, "<text>")
    >>> table.codes[0, :4].tobytes(), table.numbers.tolist(), table.side
    (b'1234', [1, 2], 4)
    """
    first = line_field(lines[0][1]) if lines else None
    if first is None:
        return None
    length = len(first)
    texts = [text for _, text in lines]
    numbers = np.fromiter((number for number, _ in lines), np.int64, len(lines))
    widths = np.fromiter(map(len, texts), np.int64, len(texts))
    joined = "".join(texts)
    if not joined.isascii():
        return None
    if (widths == widths[0]).all() and widths[0] >= length:
        # One width: the lines are rows of one array; the field is its first ``length``
        # bytes when none of them ends a field and the next one (if any) does.
        rows = np.frombuffer(joined.encode("ascii"), dtype=np.uint8).reshape(len(texts), -1)
        codes = rows[:, :length]
        if _ENDS[codes].any() or (rows.shape[1] > length and not _ENDS[rows[:, length]].all()):
            return None
        columns = np.ones(len(texts), dtype=np.int64)
    else:
        fields = [line_field(text) for text in texts]
        if any(field is None or len(field) != length for field in fields):
            return None
        columns = 1 + widths - np.fromiter((len(t.lstrip()) for t in texts), np.int64, len(texts))
        codes = np.frombuffer("".join(fields).encode("ascii"), dtype=np.uint8)  # type: ignore[arg-type]
        codes = codes.reshape(len(texts), length)
    if not (symbol_codes(alphabet) >= 0)[codes].all():
        return None
    return LineTable(codes, numbers, columns, alphabet, headers, source)
