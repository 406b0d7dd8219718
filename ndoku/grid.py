"""Puzzle text ↔ integer arrays, in every format ndoku reads and writes back.

Glossary
--------
canvas
    The rectangle of the text: ``rows × cols`` positions.
cell
    A position that exists; ``.`` marks one that does not (:data:`MISSING`).
empty
    A cell without a value yet (:data:`EMPTY`), written ``0`` (or ``.``, ``-``, ``_``).
given
    A cell with a value in the puzzle text. Values are ``1..N`` inside ndoku.
symbol
    How a value is written: ``1``..``9``, ``10``.. or ``A``.. by default, or the characters of
    a declared alphabet (``# symbols: 0-F``).
style
    How the text was written (tokens, characters, one line); output is written the same way.

Formats
-------
tokens
    One row per line, whitespace-separated tokens (``0 7 . 12``), or tokens separated by
    commas or semicolons on every row (``0,7,.,12``), written back with the same separator.
chars
    One row per line, one character per cell, no spaces (``53..7....`` would be read with
    ``.`` as a missing cell; see :mod:`ndoku.puzzle` for single grids).
line
    One puzzle per line: ``n⁴`` characters, row-major, ``0`` or ``.`` empty (a one-line puzzle
    has no missing cells). A file of such lines is a batch; anything after the puzzle on a
    line (``,solution``, ``:count``, a rating) is ignored.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError, ParseError

MISSING = -1
EMPTY = 0

#: Default single-character symbols: ``DIGITS[v]`` writes value ``v`` (1..35).
DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: Order used to expand ranges such as ``0-F`` or ``a-z`` in ``# symbols:``.
_RANGE_ORDER = DIGITS + "abcdefghijklmnopqrstuvwxyz"
#: Characters that always mean "empty" when an alphabet is declared.
_EMPTY_MARKS = "-_"
#: Headers ndoku understands; ``# anything else`` is a comment.
HEADER_KEYS = ("layout", "subgrids", "symbols", "box", "extra", "unit")
#: One-line puzzle lengths: n⁴ characters for boxes of n×n (n = 2..6).
LINE_LENGTHS = {n**4: n for n in range(2, 7)}
_FIELD_END = re.compile(r"[\s,:;|]")
_HEADER = re.compile(r"#\s*([A-Za-z][\w-]*)\s*:\s*(.*?)\s*$")


@dataclass(frozen=True)
class Header:
    """A ``# key: value`` line."""

    line: int
    value: str


@dataclass(frozen=True)
class Style:
    """How a grid was written, so that the answer is written back the same way."""

    kind: Literal["tokens", "chars", "line"]
    alphabet: str | None = None  # declared symbols: value v is written alphabet[v - 1]
    letters: bool = False  # tokens: values 10.. written A.. as in the input
    aligned: bool = False  # tokens: columns right-aligned, as in the input
    empty: str = "0"  # how an empty cell is written back
    separator: str = " "  # tokens: what stands between two tokens of a row

    def symbol(self, value: int) -> str:
        """The text of one value (``EMPTY`` gives the empty mark)."""
        if value == EMPTY:
            return self.empty
        if self.alphabet is not None:
            return self.alphabet[value - 1]
        if self.kind == "tokens" and not (self.letters and 10 <= value < len(DIGITS)):
            return str(value)
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
    """

    values: NDArray[np.int32]
    where: NDArray[np.int32]
    style: Style
    headers: Mapping[str, tuple[Header, ...]] = field(default_factory=dict)
    extra: tuple[Block, ...] = ()
    source: str = "<text>"

    @property
    def shape(self) -> tuple[int, int]:
        rows, cols = self.values.shape
        return int(rows), int(cols)

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

    def with_values(self, values: NDArray[np.int32]) -> Grid:
        """The same grid (style, positions, headers) holding other values."""
        return Grid(values, self.where, self.style, self.headers, self.extra, self.source)


def decode(data: bytes, source: str = "<text>") -> str:
    """Bytes of a puzzle file as text, refusing binary data with its line and column.

    >>> decode(b"1 2\\n3 4\\n")
    '1 2\\n3 4\\n'
    """
    bad = data.find(b"\x00")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad = exc.start if bad < 0 else min(bad, exc.start)
    if bad >= 0:
        line = data.count(b"\n", 0, bad) + 1
        column = bad - (data.rfind(b"\n", 0, bad) + 1) + 1
        raise ParseError(f"{source} is not a text puzzle (binary data)", line, column)
    return text


def read_file(path: str | Path) -> str:
    """The text of a puzzle file; ``-`` reads stdin."""
    import sys

    if str(path) == "-":
        return decode(sys.stdin.buffer.read(), "<stdin>")
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise NdokuError(f"cannot read {path}: {exc.strerror or exc}") from None
    return decode(data, str(path))


def parse_symbols(spec: str) -> str:
    """Expand an alphabet such as ``0-F`` or ``1-9A-G`` into its characters.

    >>> parse_symbols("0-F")
    '0123456789ABCDEF'
    >>> parse_symbols("1-9A-C")
    '123456789ABC'
    """
    spec = "".join(spec.split())
    out: list[str] = []
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-":
            lo, hi = _RANGE_ORDER.find(spec[i]), _RANGE_ORDER.find(spec[i + 2])
            if lo < 0 or hi < lo:
                raise NdokuError(f"symbols: bad range {spec[i : i + 3]!r}")
            out.extend(_RANGE_ORDER[lo : hi + 1])
            i += 3
        else:
            out.append(spec[i])
            i += 1
    alphabet = "".join(out)
    if len(alphabet) < 2:
        raise NdokuError(f"symbols: {spec!r} declares fewer than two symbols")
    bad = sorted(set(alphabet) & set(_EMPTY_MARKS + ".#"))
    if bad:
        raise NdokuError(f"symbols: {bad[0]!r} cannot be a symbol (it marks empty or missing)")
    if len(set(alphabet)) != len(alphabet):
        raise NdokuError(f"symbols: {spec!r} repeats a symbol")
    return alphabet


def parse(text: str, source: str = "<text>", symbols: str | None = None) -> list[Grid]:
    """Read puzzle text: one grid, or a batch of one-line puzzles.

    Parameters
    ----------
    text : str
        The file contents.
    source : str
        A name for messages (the file name).
    symbols : str, optional
        An alphabet (``0-F``) overriding any ``# symbols:`` header.

    Examples
    --------
    >>> [g] = parse("1 0\\n. 2\\n")
    >>> g.values.tolist()
    [[1, 0], [-1, 2]]
    >>> [g.values.shape for g in parse("0" * 81 + "\\n" + "." * 81)]
    [(9, 9), (9, 9)]
    """
    headers, blocks = _split(text)
    spec = symbols if symbols is not None else _single(headers, "symbols")
    alphabet = parse_symbols(spec) if spec else None
    if not blocks:
        raise ParseError(f"{source} holds no puzzle (no grid lines)")
    first = blocks[0]
    # The first line decides: a one-line puzzle makes the file a batch (16 lines of 16
    # characters excepted: that is a 16×16 grid).
    if _line_puzzle(first.lines[0][1]) is not None and not _is_square_chars(first):
        lines = [pair for block in blocks for pair in block.lines]
        return [_parse_line(n, text, alphabet, headers, source) for n, text in lines]
    return [_parse_block(first, blocks[1:], alphabet, headers, source)]


def format_grid(grid: Grid, values: NDArray[np.integer] | None = None) -> str:
    """Write ``values`` (default: the grid's own) in the grid's style, one row per line.

    >>> [g] = parse("1 0 .\\n0 12 .\\n")
    >>> print(format_grid(g), end="")
    1 0 .
    0 12 .
    """
    vals = grid.values if values is None else values
    style = grid.style
    # Each value's text once, then plain list look-ups: batches write thousands of grids.
    text = [style.symbol(v) for v in range(int(vals.max(initial=0)) + 1)]
    if style.kind == "line":
        return "".join(text[v] for v in vals.ravel().tolist()) + "\n"
    table = [["." if v == MISSING else text[v] for v in row] for row in vals.tolist()]
    if style.kind == "chars":
        return "".join("".join(toks) + "\n" for toks in table)
    width = max(len(t) for toks in table for t in toks) if style.aligned else 1
    joiner = style.separator
    return "".join(joiner.join(t.rjust(width) for t in toks).rstrip() + "\n" for toks in table)


# --- reading ----------------------------------------------------------------------------


def _split(text: str) -> tuple[dict[str, tuple[Header, ...]], list[Block]]:
    """Headers, and the blocks of grid lines separated by blank lines."""
    headers: dict[str, list[Header]] = {}
    blocks: list[Block] = []
    current: list[tuple[int, str]] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        stripped = line.strip()
        if stripped.startswith("#"):
            key = header_key(stripped)
            if key is not None:
                value = stripped.split(":", 1)[1].strip()
                headers.setdefault(key, []).append(Header(number, value))
            continue
        if stripped:
            current.append((number, line))
        elif current:
            blocks.append(Block(tuple(current)))
            current = []
    if current:
        blocks.append(Block(tuple(current)))
    return {k: tuple(v) for k, v in headers.items()}, blocks


def header_key(line: str) -> str | None:
    """The key of a ``# key: value`` header line ndoku understands, else None.

    >>> header_key("# layout: windmill"), header_key("# Samurai: five grids")
    ('layout', None)
    """
    match = _HEADER.match(line.strip())
    key = match[1].lower() if match else None
    return key if key in HEADER_KEYS else None


def _single(headers: Mapping[str, tuple[Header, ...]], key: str) -> str | None:
    found = headers.get(key, ())
    if len(found) > 1:
        raise ParseError(f"'# {key}:' is given twice (also on line {found[0].line})", found[1].line)
    return found[0].value if found else None


def _line_puzzle(text: str) -> str | None:
    """The leading field of a one-line puzzle, or None when the line is not one."""
    stripped = text.lstrip()
    end = _FIELD_END.search(stripped)
    head = stripped[: end.start()] if end else stripped
    return head if len(head) in LINE_LENGTHS else None


def _is_square_chars(block: Block) -> bool:
    """A block of k lines of k characters is a grid, not k one-line puzzles (k = 16)."""
    widths = {len(text.strip()) for _, text in block.lines}
    return widths == {len(block.lines)} and not any(" " in t.strip() for _, t in block.lines)


def _token_value(
    token: str, alphabet: str | None, line: int, column: int, one_line: bool
) -> tuple[int, bool]:
    """The value of one token and whether it was written as a letter."""
    if token == ".":
        return (EMPTY if one_line else MISSING), False
    if token in _EMPTY_MARKS:
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
        return int(token), False
    if len(token) == 1 and "A" <= token <= "Z":
        return DIGITS.index(token), True
    raise ParseError(
        f"unknown token {token!r}: expected 0 for an empty cell, . for a missing one, "
        "or a symbol (1, 2, … or A=10, B=11, …; declare others with '# symbols: …')",
        line,
        column,
    )


@lru_cache(maxsize=8)
def _line_table(alphabet: str | None) -> NDArray[np.int32]:
    """Value of each byte in a one-line puzzle, -1 where it is not a symbol (as _token_value)."""
    table = np.full(256, -1, dtype=np.int32)
    for code in range(128):
        with suppress(ParseError):
            table[code] = _token_value(chr(code), alphabet, 0, 0, one_line=True)[0]
    return table


def _parse_line(
    number: int,
    text: str,
    alphabet: str | None,
    headers: Mapping[str, tuple[Header, ...]],
    source: str,
) -> Grid:
    puzzle = _line_puzzle(text)
    if puzzle is None:
        stripped = text.strip()
        raise ParseError(
            f"expected a one-line puzzle like the lines before it "
            f"(16, 81, 256, 625 or 1296 characters), found {len(stripped.split()[0])}",
            number,
            1 + len(text) - len(text.lstrip()),
        )
    offset = len(text) - len(text.lstrip())
    size = LINE_LENGTHS[len(puzzle)] ** 2
    codes = np.frombuffer(puzzle.encode("utf-8"), dtype=np.uint8)
    values = _line_table(alphabet)[codes]
    if len(codes) != len(puzzle) or (values < 0).any():  # let the slow path name the culprit
        values = np.empty(len(puzzle), dtype=np.int32)
        for i, ch in enumerate(puzzle):
            values[i] = _token_value(ch, alphabet, number, offset + i + 1, one_line=True)[0]
    where = np.empty((size, size, 2), dtype=np.int32)
    where[..., 0] = number
    where[..., 1] = offset + 1 + np.arange(size * size).reshape(size, size)
    empty = "." if "." in puzzle and "0" not in puzzle else "0"
    style = Style("line", alphabet=alphabet, empty="-" if alphabet and "0" in alphabet else empty)
    return Grid(values.reshape(size, size), where, style, headers, (), source)


def _separator(block: Block) -> str | None:
    """``,`` or ``;`` when every row of a grid block has one between its tokens."""
    for mark in ",;":
        if all(mark in text for _, text in block.lines):
            return mark
    return None


def _tokens(
    block: Block, spaced: bool, separator: str | None
) -> Iterator[tuple[int, list[tuple[int, str]]]]:
    """``(line, [(column, token), …])`` for each line of a grid block."""
    token = re.compile(rf"[^\s{separator}]+" if separator else r"\S+")
    for number, text in block.lines:
        if spaced:
            found = [(m.start() + 1, m.group()) for m in token.finditer(text)]
        else:
            start = len(text) - len(text.lstrip())
            found = [(start + i + 1, ch) for i, ch in enumerate(text.strip())]
        yield number, found


def _parse_block(
    block: Block,
    extra: Sequence[Block],
    alphabet: str | None,
    headers: Mapping[str, tuple[Header, ...]],
    source: str,
) -> Grid:
    separator = _separator(block)
    spaced = separator is not None or any(len(text.split()) > 1 for _, text in block.lines)
    rows = list(_tokens(block, spaced, separator))
    width = len(rows[0][1])
    for number, toks in rows:
        if len(toks) != width:
            column = toks[-1][0] + len(toks[-1][1]) if toks else 1
            unit = "tokens" if spaced else "characters"
            raise ParseError(
                f"ragged row: {len(toks)} {unit}, expected {width} like line {rows[0][0]}",
                number,
                column,
            )
    values = np.empty((len(rows), width), dtype=np.int32)
    where = np.empty((len(rows), width, 2), dtype=np.int32)
    letters = False
    for r, (number, toks) in enumerate(rows):
        for c, (column, token) in enumerate(toks):
            values[r, c], letter = _token_value(token, alphabet, number, column, one_line=False)
            letters |= letter
            where[r, c] = number, column
    style = Style(
        "tokens" if spaced else "chars",
        alphabet=alphabet,
        letters=letters,
        aligned=len({len(text.rstrip()) for _, text in block.lines}) == 1,
        empty="-" if alphabet and "0" in alphabet else "0",
        # written back as the first row has it: "5,3,0" or "5, 3, 0"
        separator=" " if separator is None else _joiner(block.lines[0][1], separator),
    )
    return Grid(values, where, style, headers, tuple(extra), source)


def _joiner(text: str, separator: str) -> str:
    found = re.search(rf"\s*{separator}\s*", text.strip())
    return found.group() if found else separator
