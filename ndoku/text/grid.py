"""Grids as data (values, positions, how they were written) and writing values back in a
grid's own style.

A grid's ``values`` hold :data:`MISSING` where no cell exists, :data:`EMPTY` for an empty
cell, else a value (canvas, cell, empty, value and symbol as in the package glossary,
:mod:`ndoku`). Grids are first read in the ``1-9A-…`` reading, or in a declared alphabet
(``# symbols: 0-F``); :mod:`ndoku.model.reading` reads them again when their symbols say
otherwise.

Glossary
--------
written
    The text of each token as it stands in the input (``0``, ``F``, ``12``, ``.``).
style
    How the text was written (tokens, characters, one line, a template of dividers and bars);
    output is written the same way.
divider
    A line of a pasted grid that only separates: ``------+------+------``, ``-----------``
    between the rows of a Simple Sudoku ``.ss`` file, box-drawing lines (``├───┼───┤``).
bar
    A separator inside a row: ``|`` or a box-drawing ``│``; cells are read around it.
rule
    A variant rule written after the grid (``cage 15: r1c1 r1c2``): :mod:`ndoku.text.rules`.

The formats ndoku reads are described in :mod:`ndoku.text.formats`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import ParseError
from ndoku.limits import MAX_SYMBOLS
from ndoku.text.alphabet import DIGITS, EMPTY, EMPTY_MARKS
from ndoku.text.rules import Written

__all__ = [
    "BARS",
    "DIGITS",
    "EMPTY",
    "HEADER_KEYS",
    "LINE_LENGTHS",
    "MISSING",
    "Block",
    "Grid",
    "Header",
    "Splice",
    "Style",
    "Template",
    "format_grid",
    "padding",
    "token_value",
]

MISSING = -1
#: Bars: separators inside a row (typed, then box-drawing).
BARS = "|¦│┃║╎╏┆┇┊┋"
#: Headers ndoku understands; ``# anything else`` is a comment.
HEADER_KEYS = ("layout", "subgrids", "symbols", "box", "extra", "unit")
#: One-line puzzle lengths: n⁴ characters for boxes of n×n (n = 2..6).
LINE_LENGTHS = {n**4: n for n in range(2, 7)}


@dataclass(frozen=True)
class Header:
    """A ``# key: value`` line."""

    line: int
    value: str


@dataclass(frozen=True)
class Template:
    """The lines of a pasted grid, to write an answer into: dividers as they were, and for each
    row its cells as ``(column, start, end)`` character spans of the line."""

    lines: tuple[tuple[str, tuple[tuple[int, int, int], ...] | None], ...]


@dataclass(frozen=True)
class Splice:
    """The text of a grid written as a list of lists, to write an answer into: each cell's
    item as ``(row, column, start, end)`` offsets in it (inside any quotes)."""

    text: str
    spans: tuple[tuple[int, int, int, int], ...]


@dataclass(frozen=True)
class Style:
    """How a grid was written, so that the answer is written back the same way."""

    kind: Literal["tokens", "chars", "line"]
    alphabet: str | None = None  # value v is written alphabet[v - 1] (declared or inferred)
    letters: bool = False  # tokens: values 10.. written A.. as in the input
    aligned: bool = False  # tokens: columns right-aligned, as in the input
    empty: str = "0"  # how an empty cell is written back
    separator: str = " "  # tokens: what stands between two tokens of a row
    template: Template | None = None  # pasted grids: the dividers and bars the answer goes into
    pad: int = 1  # tokens: numbers written with this many digits, as 01 02 … 16
    splice: Splice | None = None  # lists of lists: the text the answer's items go into

    def symbol(self, value: int) -> str:
        """The text of one value (``EMPTY`` gives the empty mark)."""
        if value == EMPTY:
            return self.empty
        if self.alphabet is not None:
            return self.alphabet[value - 1]
        if self.kind == "tokens" and not (self.letters and 10 <= value < len(DIGITS)):
            return str(value).zfill(self.pad)
        return DIGITS[value]


@dataclass(frozen=True)
class Block:
    """Consecutive non-blank, non-comment lines: ``(line number, text)`` pairs."""

    lines: tuple[tuple[int, str], ...]


@dataclass(frozen=True, eq=False)
class Grid:
    """One puzzle as read from text.

    Attributes
    ----------
    values : ndarray of int32, shape (rows, cols)
        ``MISSING``, ``EMPTY`` or a value ``1..``.
    where : ndarray of int32, shape (rows, cols, 2)
        Line and column (1-based) of each position in the text, for error messages.
    written : ndarray of str, shape (rows, cols)
        Each token as it stands in the text (``""`` for a blank column of a drawing).
    outlines : ndarray of int32, shape (rows, cols), or None
        In a grid drawn with bars and rules, the region each cell's outlines close it in
        (cells not parted by a bar or a divider share one), -1 where no cell is drawn.
    marks : ndarray of uint64, shape (rows, cols), or None
        In a pencil-mark grid (:mod:`ndoku.text.marks`), each cell's candidates as bits (bit
        ``v - 1`` for value ``v``; a placed value's own bit), 0 where no cell is; None in a
        grid of values.
    rules : tuple of Written
        The rule lines after the grid (:mod:`ndoku.text.rules`), as read, not yet checked.
    """

    values: NDArray[np.int32]
    where: NDArray[np.int32]
    written: NDArray[np.str_]
    style: Style
    headers: Mapping[str, tuple[Header, ...]] = field(default_factory=dict)
    extra: tuple[Block, ...] = ()
    source: str = "<text>"
    declared: bool = False  # the alphabet was declared (--symbols, # symbols:), not inferred
    outlines: NDArray[np.int32] | None = None  # drawings: region of each position, -1 if none
    marks: NDArray[np.uint64] | None = None  # pencil-mark grids: candidates of each position
    rules: tuple[Written, ...] = ()  # the rule lines after the grid

    @property
    def shape(self) -> tuple[int, int]:
        rows, cols = self.values.shape
        return int(rows), int(cols)

    @property
    def top(self) -> int:
        """The largest value the grid writes, its candidates included."""
        top = int(self.values.max(initial=0))
        if self.marks is not None:
            top = max(top, int(self.marks.max(initial=0)).bit_length())
        return top

    def locate(self, row: int, col: int) -> str:
        """``line L, column C`` of a canvas position."""
        line, column = self.where[row, col]
        return f"line {line}, column {column}"

    def header(self, key: str) -> Header | None:
        """The single ``# key:`` header, or None."""
        found = self.headers.get(key, ())
        return found[0] if found else None

    def error(
        self, row: int, col: int, message: str, kind: type[ParseError] = ParseError
    ) -> ParseError:
        """An error of class ``kind`` pointing at a canvas position."""
        line, column = self.where[row, col]
        return kind(message, int(line), int(column))

    def with_values(
        self,
        values: NDArray[np.int32],
        style: Style | None = None,
        marks: NDArray[np.uint64] | None = None,
    ) -> Grid:
        """The same grid (positions, headers, text, rules) holding other values (and style,
        and candidates)."""
        return Grid(
            values,
            self.where,
            self.written,
            style or self.style,
            self.headers,
            self.extra,
            self.source,
            self.declared,
            self.outlines,
            self.marks if marks is None else marks,
            self.rules,
        )


def padding(written: NDArray[np.object_], where: NDArray[np.int32], letters: bool) -> int:
    """How many digits every number of a grid is written with: 1, or 2 for ``01 … 16``.

    Each given must print as it was written, so a number written two ways (``09`` beside
    ``9``, or ``12`` beside ``B``) is an error.
    """
    tokens = written.ravel().tolist()
    numbers = [k for k, t in enumerate(tokens) if t.isdigit()]
    padded = [k for k in numbers if len(tokens[k]) > 1 and tokens[k][0] == "0"]
    wide = [k for k in numbers if len(tokens[k]) > 1]
    if letters and wide:
        k = wide[0]
        message = (
            f"symbols written two ways: letters (A = 10) and numbers above 9 ({tokens[k]}); "
            "write every symbol one way"
        )
    elif padded and len({len(tokens[k]) for k in numbers}) > 1:
        width = len(tokens[padded[0]])
        k = next(k for k in numbers if len(tokens[k]) != width)
        message = (
            f"numbers written two ways: {tokens[padded[0]]} with leading zeros, {tokens[k]} "
            f"with {len(tokens[k])} digit(s); write every number with {width} digits or none"
        )
    else:
        return len(tokens[padded[0]]) if padded else 1
    r, c = divmod(k, written.shape[1])
    raise ParseError(message, int(where[r, c, 0]), int(where[r, c, 1]))


def format_grid(grid: Grid, values: NDArray[np.integer] | None = None) -> str:
    """Write ``values`` (default: the grid's own) in the grid's style, one row per line.

    >>> from ndoku.text.formats import parse
    >>> [g] = parse("1 0 .\\n0 10 .\\n")
    >>> print(format_grid(g), end="")
    1 0 .
    0 10 .
    """
    vals = grid.values if values is None else values
    style = grid.style
    # Each value's text once, then plain list look-ups: batches write thousands of grids.
    text = [style.symbol(v) for v in range(int(vals.max(initial=0)) + 1)]
    if style.kind == "line":
        return "".join(text[v] for v in vals.ravel().tolist()) + "\n"
    table = [["." if v == MISSING else text[v] for v in row] for row in vals.tolist()]
    if style.template is not None:
        return _write_template(style.template, table)
    if style.splice is not None:
        return _write_splice(style.splice, table)
    if style.kind == "chars":
        return "".join("".join(toks) + "\n" for toks in table)
    width = max(len(t) for toks in table for t in toks) if style.aligned else 1
    joiner = style.separator
    return "".join(joiner.join(t.rjust(width) for t in toks).rstrip() + "\n" for toks in table)


def _write_splice(splice: Splice, table: list[list[str]]) -> str:
    """Each cell's symbol written over its item in the text of a list of lists."""
    pieces = []
    end = 0
    for row, col, start, stop in splice.spans:
        pieces += [splice.text[end:start], table[row][col]]
        end = stop
    return "".join(pieces) + splice.text[end:].rstrip("\n") + "\n"


def _write_template(template: Template, table: list[list[str]]) -> str:
    """Each row's symbols written into its line, over the spans its cells had; a symbol wider
    than its span takes the room from spaces before it, so aligned columns stay aligned."""
    out = []
    rows = iter(table)
    for text, spans in template.lines:
        if spans is None:
            out.append(text)
            continue
        row = next(rows)
        pieces = []
        end = 0
        for col, start, stop in spans:
            gap = text[end:start]
            symbol = row[col].rjust(stop - start)
            wider = len(symbol) - (stop - start)
            if 0 < wider < len(gap) - len(gap.rstrip(" ")):
                gap = gap[:-wider]
            pieces += [gap, symbol]
            end = stop
        out.append("".join(pieces) + text[end:])
    return "".join(line + "\n" for line in out)


def token_value(
    token: str, alphabet: str | None, line: int, column: int, one_line: bool
) -> tuple[int, bool]:
    """The value of one token and whether it was written as a letter; ``line`` and
    ``column`` place the error of a token that is no symbol.

    >>> token_value("F", "0123456789ABCDEF", 1, 1, one_line=False)
    (16, False)
    >>> token_value("12", None, 1, 1, one_line=False), token_value(".", None, 1, 1, True)
    ((12, False), (0, False))
    """
    if token == ".":
        return (EMPTY if one_line else MISSING), False
    if token in EMPTY_MARKS:
        return EMPTY, False
    if alphabet is not None:
        if len(token) == 1 and token in alphabet:
            return alphabet.index(token) + 1, False
        if token == "0":
            return EMPTY, False
        raise ParseError(
            f"unknown symbol {token!r}: the declared symbols are {alphabet}, "
            "with - or _ for an empty cell and . for a missing one",
            line,
            column,
        )
    if token.isdigit() and token.isascii():
        if int(token) > MAX_SYMBOLS:  # no layout takes it, and no array holds 10²⁰
            raise ParseError(
                f"value {token} is out of range: ndoku reads up to {MAX_SYMBOLS} symbols",
                line,
                column,
            )
        return int(token), False
    if len(token) == 1 and "A" <= token <= "Z":
        return DIGITS.index(token), True
    raise ParseError(
        f"unknown token {token!r}: expected 0 for an empty cell, . for a missing one, "
        "or a symbol (1, 2, … or A=10, B=11, …; or 0-F, A-Y, declared with '# symbols: …')",
        line,
        column,
    )
