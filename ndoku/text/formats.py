"""Reading puzzle text, in every format ndoku knows, into grids (:mod:`ndoku.text.grid`).

Formats
-------
tokens
    One row per line, whitespace-separated tokens (``0 7 . 12``), or tokens separated by
    commas or semicolons on every row (``0,7,.,12``), written back with the same separator.
chars
    One row per line, one character per cell, no spaces (``53..7....`` would be read with
    ``.`` as a missing cell; see :mod:`ndoku.model.puzzle` for single grids).
pasted
    Either of those with dividers and bars (``4 . . |. . . |8 . 5``), as forums, books and
    Simple Sudoku write them, or a drawing such as ndoku's own ``--pretty`` output, whose
    cells stand in aligned columns (a blank column is a missing cell, ``.`` an empty one).
    The answer is written into the same template.
line
    One puzzle per line: ``n⁴`` characters, row-major, ``0`` or ``.`` empty (a one-line puzzle
    has no missing cells). A file of such lines is a batch; anything after the puzzle on a
    line (``,solution``, ``:count``, a rating) is ignored, and so is a first line of column
    names (``quizzes,solutions``).
sections
    ``[Puzzle]`` starts the grid of a SadMan ``.sdk`` file; other sections (``[State]``) and
    ``#A``-style metadata lines are skipped.
pencil marks
    A sukaku line (729 characters for a 9×9, one line per puzzle), the same characters one
    grid row per line (9 lines of 81; blocks of them are a batch), or a grid of tokens in
    which tokens list candidates (``159``), framed as HoDoKu frames it (``.---.``, ``:---+``,
    ``'---'``): see :mod:`ndoku.text.marks`.
lists of lists
    As programs print grids: JSON, Python, LeetCode's ``board = [["5","3",".",…],…]``; a
    list of them is a batch, and each answer is its own text with the items replaced: see
    :mod:`ndoku.text.nested`.
rules
    After any grid but a list of lists (and after its maps), a blank line and its variant
    rules, one a line (``cage 15: r1c1 r1c2``): :mod:`ndoku.text.rules` reads them,
    :mod:`ndoku.text.ruled` gives each block to its grid.
"""

from __future__ import annotations

import codecs
import re
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError, ParseError
from ndoku.limits import MAX_SYMBOLS
from ndoku.text.alphabet import DIGITS, EMPTY, parse_symbols
from ndoku.text.blocks import Span, bands, grouped, is_title, row_spans
from ndoku.text.grid import (
    BARS,
    HEADER_KEYS,
    MISSING,
    Block,
    Grid,
    Header,
    Style,
    Template,
    padding,
    token_value,
)
from ndoku.text.lines import LineTable, line_field, line_table, parse_line
from ndoku.text.marks import (
    candidate_list,
    is_pencil_grid,
    list_bits,
    read_sukaku,
    read_sukaku_rows,
    sukaku_cells,
    sukaku_rows,
)
from ndoku.text.nested import is_nested, read_nested
from ndoku.text.ruled import ruled_puzzles, take_rules, with_rules

#: Characters a divider may hold besides bars and spaces: dashes, crossings and box drawing.
_DIVIDER_MARKS = "-_=+*~" + "".join(chr(c) for c in range(0x2500, 0x2580) if chr(c) not in BARS)
#: Of those, the ones no row of empty cells holds (``-`` and ``_`` are empty marks).
_DIVIDER_ONLY = set(_DIVIDER_MARKS) - set("-_")
#: Corners HoDoKu draws its dividers with (``.---.``, ``:---+``, ``'---'``): divider marks
#: only on a line with a run of dashes and no space.
_CORNERS = set(".:'")
_HEADER = re.compile(r"#\s*([A-Za-z][\w-]*)\s*:\s*(.*?)\s*$")
_SECTION = re.compile(r"^\[\s*([A-Za-z][\w ]*?)\s*\]$")
#: A line end: LF after any CRs (CRLF, a CRLF converted twice), or a lone CR (old Mac files).
_LINE_END = re.compile(r"\r*\n|\r")
_COLUMN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]+")
#: Bytes no text file holds: control characters other than tab, line ends and form feed.
_CONTROLS = re.compile(rb"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def decode(data: bytes, source: str = "<text>", first_line: int = 1, strict: bool = False) -> str:
    """Bytes of a puzzle file as text, refusing binary data with its line and column;
    ``first_line``: the number of the line ``data`` starts on (a later piece of a file).

    UTF-8 (with or without a byte-order mark) and UTF-16 with its byte-order mark are read;
    other bytes as Windows-1252 (Latin-1) when they hold no control characters but tabs
    and line ends, as a comment written in a Western European editor does. ``strict`` reads
    UTF-8 only (a piece of a file, which is read whole when its first piece is not UTF-8).

    >>> decode(b"1 2\\n3 4\\n")
    '1 2\\n3 4\\n'
    >>> decode("# Rätsel\\n1 2\\n".encode("latin-1")), decode("1 2\\n".encode("utf-16"))
    ('# Rätsel\\n1 2\\n', '1 2\\n')
    """
    utf16 = data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
    encoding = "utf-16" if utf16 and not strict else "utf-8-sig" if first_line == 1 else "utf-8"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        if encoding != "utf-16" and not strict and not _CONTROLS.search(data):
            with suppress(UnicodeDecodeError):
                return data.decode("cp1252")
        before = data[: exc.start].decode(encoding, errors="replace")
    else:
        if "\x00" not in text:
            return text
        before = text[: text.index("\x00")]
    lines = _LINE_END.split(before)
    line, column = first_line + len(lines) - 1, len(lines[-1]) + 1
    raise ParseError(f"{source} is not a text puzzle (binary data)", line, column)


def read_file(path: str | Path) -> str:
    """The text of a puzzle file; ``-`` reads stdin."""
    if str(path) == "-":
        return decode(sys.stdin.buffer.read(), "<stdin>")
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise NdokuError(f"cannot read {path}: {exc.strerror or exc}") from None
    return decode(data, str(path))


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
    >>> [g] = parse("1 2 | 0 0\\n----+----\\n0 0 | 1 2\\n")  # a divider and bars
    >>> g.values.tolist()
    [[1, 2, 0, 0], [0, 0, 1, 2]]
    """
    read, rules = _read(text, source, symbols)
    assert read is not None  # read whole
    if isinstance(read, _Lines):
        read = [parse_line(n, line, read.alphabet, read.headers, source) for n, line in read.lines]
    return with_rules(read, rules) if rules else read


def parse_table(text: str, source: str = "<text>", symbols: str | None = None) -> LineTable | None:
    """Read puzzle text that is a batch of one-line puzzles as one :class:`LineTable`; None
    for any other text, or lines the table does not take (:func:`parse` reads those).

    >>> parse_table("0" * 81 + "\\n" + "1" + "0" * 80).codes.shape
    (2, 81)
    >>> parse_table("1 0\\n. 2\\n") is None
    True
    """
    # the lines alone: a file of grids is read by parse (reading it here too cost 0.8 ms a killer)
    read, _ = _read(text, source, symbols, lines_only=True)
    if not isinstance(read, _Lines):
        return None
    return line_table(read.lines, read.alphabet, read.headers, source)


@dataclass(frozen=True)
class _Lines:
    """A batch of one-line puzzles, not read yet: its lines and what the file says of them."""

    lines: list[tuple[int, str]]
    alphabet: str | None
    headers: dict[str, tuple[Header, ...]]


def _read(
    text: str, source: str, symbols: str | None, lines_only: bool = False
) -> tuple[list[Grid] | _Lines | None, list[Block]]:
    """The grids of ``text``, or the lines of a batch of one-line puzzles (see :func:`parse`);
    and the blocks of rule lines, which belong to the grid before each. With ``lines_only``,
    grids are not read (None)."""
    if is_nested(text):
        if lines_only:
            return None, []
        return read_nested(text, source, parse_symbols(symbols) if symbols else None), []
    headers, blocks = _split(text)
    blocks, rules = take_rules(blocks)
    if lines_only and rules:
        return None, rules  # a batch has no rule lines
    return _read_blocks(headers, blocks, rules, source, symbols, lines_only), rules


def _read_blocks(
    headers: dict[str, tuple[Header, ...]],
    blocks: list[Block],
    rules: list[Block],
    source: str,
    symbols: str | None,
    lines_only: bool = False,
) -> list[Grid] | _Lines | None:
    """The grids of the blocks of a file (with ``rules``, its rule blocks, taken out), or
    the lines of a batch of one-line puzzles; with ``lines_only``, the lines or None."""
    spec = symbols if symbols is not None else _single(headers, "symbols")
    alphabet = parse_symbols(spec) if spec else None
    if not blocks:
        raise ParseError(f"{source} holds no puzzle (no grid lines)")
    first = blocks[0]
    # Before one-line puzzles: N lines of N² characters are that too when N is a square.
    if sukaku_rows(first.lines, alphabet):
        if lines_only:
            return None
        return [
            grid
            for block in blocks
            for grid in read_sukaku_rows(block.lines, alphabet, headers, source)
        ]
    lines = [pair for block in blocks for pair in block.lines]
    cells = sukaku_cells(first.lines[0][1])
    # N² groups of N on a line might be a row of a pencil-mark grid: the next line decides.
    joined = cells is not None and cells[-1][0] - cells[0][0] == len(cells[0][1]) * (len(cells) - 1)
    if cells is not None and (
        joined or len(first.lines) == 1 or sukaku_cells(first.lines[1][1]) is not None
    ):
        if lines_only:
            return None
        return [read_sukaku(n, line, alphabet, headers, source) for n, line in lines]
    if len(lines) > 1 and _is_column_names(lines[0][1], lines[1][1]):
        lines = lines[1:]  # quizzes,solutions: the names of the fields below
    elif (
        line_field(first.lines[0][1]) is None
        or _is_divider(first.lines[0][1])
        or _is_square_chars(first)
        or _is_square_chars(bands(blocks[:MAX_SYMBOLS])[0])
    ):
        # The first line decides: a one-line puzzle makes the file a batch (16 lines of 16
        # characters excepted: that is a 16×16 grid).
        if lines_only:
            return None
        return [
            _parse_block(grid, maps, alphabet, headers, source)
            for grid, maps in ruled_puzzles(blocks, rules)
        ]
    return _Lines(lines, alphabet, headers)


def _split(text: str) -> tuple[dict[str, tuple[Header, ...]], list[Block]]:
    """Headers, and the blocks of grid lines separated by blank lines.

    A ``[Puzzle]`` section line, when there is one, keeps the lines of other sections out.
    """
    headers: dict[str, list[Header]] = {}
    blocks: list[Block] = []
    current: list[tuple[int, str]] = []
    lines = _LINE_END.split(text) if "\r" in text else text.split("\n")
    # Sections and headers are rare: a batch of 10⁵ lines looks for neither on each line.
    sections = "[" in text
    has_puzzle = sections and any(_section(line) == "puzzle" for line in lines)
    skipping = False
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        section = _section(stripped) if sections and stripped[:1] == "[" else None
        if section is not None:
            skipping = has_puzzle and section != "puzzle"
        elif stripped.startswith("#"):
            key = header_key(stripped)
            if key is not None:
                value = stripped.split(":", 1)[1].strip()
                headers.setdefault(key, []).append(Header(number, value))
            continue
        elif stripped and not skipping and not is_title(stripped):
            current.append((number, line))
            continue
        if current:
            blocks.append(Block(tuple(current)))
            current = []
    if current:
        blocks.append(Block(tuple(current)))
    return {k: tuple(v) for k, v in headers.items()}, blocks


def _section(line: str) -> str | None:
    """The name of a ``[Section]`` line, lower case, or None."""
    match = _SECTION.match(line.strip())
    return match[1].lower() if match else None


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


def _is_column_names(text: str, below: str) -> bool:
    """A first line naming the fields of the one-line puzzles below (``quizzes,solutions``):
    words, not as long as the line below (a row of letters of a grid would be)."""
    fields = re.split(r"[\s,;]+", text.strip())
    return (
        line_field(below) is not None
        and len(text.strip()) != len(below.strip())
        and all(_COLUMN_NAME.fullmatch(f) for f in fields)
    )


def _is_square_chars(block: Block) -> bool:
    """A block of k lines of k characters is a grid, not k one-line puzzles (k = 16)."""
    rows = [text.strip() for _, text in block.lines if text]  # blank between bands
    return {len(text) for text in rows} == {len(rows)} and not any(" " in t for t in rows)


def _separator(lines: Sequence[str]) -> str | None:
    """``,`` or ``;`` when every row of a grid block has one between its tokens."""
    for mark in ",;":
        if lines and all(mark in text for text in lines):
            return mark
    return None


def _is_divider(text: str, strict: bool = True) -> bool:
    """A divider: a line of divider marks, bars and spaces; ``strict``: one no row of empty
    cells could be (it holds a mark other than ``-`` and ``_``)."""
    marks = {ch for ch in text if not ch.isspace()}
    corners = marks & _CORNERS
    if corners and ("--" not in text or any(ch.isspace() for ch in text.strip())):
        return False
    marks -= corners
    if not marks or not marks <= set(_DIVIDER_MARKS + BARS):
        return False
    return not strict or bool(marks & _DIVIDER_ONLY or corners)


_SPACED = re.compile(rf"[^\s{re.escape(BARS)}]\s+[^\s{re.escape(BARS)}]")


def _spaced(text: str) -> bool:
    """Whether a row separates two cells by spaces (tokens) rather than by nothing (chars)."""
    return _SPACED.search(text) is not None


def _parse_block(
    block: Block,
    extra: Sequence[Block],
    alphabet: str | None,
    headers: Mapping[str, tuple[Header, ...]],
    source: str,
) -> Grid:
    lines = block.lines
    # Blank lines (between the bands of a grid) are kept only for the answer's template.
    loose = {n: _is_divider(t, strict=False) for n, t in lines if t}
    content = [(n, t) for n, t in lines if t and not loose[n]]
    dashed = [(n, t) for n, t in lines if t and loose[n] and not _is_divider(t)]
    separator = _separator([t for _, t in content])
    shown = content or dashed
    in_groups = separator is None and grouped([t for _, t in content])
    spaced = separator is not None or (any(_spaced(t) for _, t in shown) and not in_groups)
    found = {n: row_spans(t, spaced, separator) for n, t in content + dashed}
    # A line of dashes is a row of empty cells when it has as many as the other rows.
    common = Counter(len(found[n]) for n, _ in content).most_common(1)
    keep = {n for n, _ in content} | {
        n for n, _ in dashed if not common or len(found[n]) == common[0][0]
    }
    rows = [(n, t, found[n]) for n, t in lines if n in keep]
    if not rows:
        raise ParseError("only dividers, no grid rows (rows hold symbols, 0 or .)", lines[0][0], 1)
    marks_used = set().union(*(t for _, t, _ in rows))
    bars = not marks_used.isdisjoint(BARS)
    # Cells stand in columns only in a drawing in box-drawing bars; typed rows must be full.
    drawing = not marks_used.isdisjoint(BARS[2:])
    columns = _columns(rows) if drawing else None
    # Its cells stand in columns when rows differ in length or in where they start (two
    # grids side by side, or one below and right of another).
    aligned = columns is not None and (
        len(set(map(len, columns))) > 1 or any(cols != list(range(len(cols))) for cols in columns)
    )
    width = 1 + max(max(c, default=0) for c in columns) if columns and aligned else len(rows[0][2])
    if not aligned:
        columns = [list(range(len(spans))) for _, _, spans in rows]
        for number, _, spans in rows:
            if len(spans) != width:
                column = spans[-1][1] + 1 if spans else 1
                unit = "tokens" if spaced else "characters"
                raise ParseError(
                    f"ragged row: {len(spans)} {unit}, expected {width} like line {rows[0][0]}",
                    number,
                    column,
                )
    assert columns is not None
    values = np.full((len(rows), width), MISSING, dtype=np.int32)
    where = np.empty((len(rows), width, 2), dtype=np.int32)
    written = np.full((len(rows), width), "", dtype=object)
    letters = False
    empties: Counter[str] = Counter()
    tokens = [[(n, start + 1, token) for start, _, token in spans] for n, _, spans in rows]
    marks = np.zeros(values.shape, dtype=np.uint64) if is_pencil_grid(tokens, alphabet) else None
    read: dict[str, tuple[int, bool]] = {}  # each token's value, once (a grid repeats them)
    for r, ((number, _, spans), cols) in enumerate(zip(rows, columns, strict=True)):
        where[r, :, 0] = number
        where[r, :, 1] = spans[-1][0] + 1 if spans else 1
        for (start, _, token), c in zip(spans, cols, strict=True):
            where[r, c, 1] = start + 1
            written[r, c] = token
            if marks is not None and len(token) > 1:
                values[r, c] = EMPTY
                marks[r, c] = _list_marks(token, alphabet, number, start + 1)
                continue
            if token not in read:  # a token no symbol is refused at its first place
                # A drawing (--pretty) shows a missing cell blank, so a dot is an empty cell.
                read[token] = token_value(token, alphabet, number, start + 1, drawing)
            value, letter = read[token]
            values[r, c] = value
            letters |= letter
            if marks is not None and value > 0:
                marks[r, c] = 1 << (value - 1)
            if value == EMPTY:
                empties[token] += 1
    plain = spaced and alphabet is None and marks is None
    pad = padding(written, where, letters) if plain else 1
    template = None
    if bars or in_groups or len(rows) < len(lines):  # written back in the same frame
        spans_of = {
            n: tuple((c, start, end) for (start, end, _), c in zip(spans, cols, strict=True))
            for (n, _, spans), cols in zip(rows, columns, strict=True)
        }
        template = Template(tuple((t, spans_of.get(n)) for n, t in lines))
    outlines = _outlines(lines, rows, columns, width) if bars else None
    zero_symbol = alphabet is not None and "0" in alphabet
    default_empty = "." if drawing else "-" if zero_symbol else "0"
    style = Style(
        "tokens" if spaced else "chars",
        alphabet=alphabet,
        letters=letters or marks is not None,  # pencil marks write 10 and up as letters
        aligned=len({len(t.rstrip()) for _, t, _ in rows}) == 1,
        empty=empties.most_common(1)[0][0] if empties else default_empty,
        # written back as the first row has it: "5,3,0" or "5, 3, 0", tabs or spaces
        separator=_joiner(rows[0][1], separator) if separator else _gap(rows[0][1]),
        template=template,
        pad=pad,
    )
    return Grid(
        values,
        where,
        written.astype(str),
        style,
        headers,
        tuple(extra),
        source,
        alphabet is not None,
        outlines,
        marks,
    )


def _list_marks(token: str, alphabet: str | None, line: int, column: int) -> int:
    """The candidates a list token gives, in the declared or the ``1-9A-…`` reading (0 when a
    symbol such as ``0`` is none of it: another reading may read it)."""
    if not candidate_list(token, alphabet):
        symbols = alphabet or DIGITS
        bad = next((k for k, ch in enumerate(token) if ch not in symbols or ch in token[:k]), 0)
        twice = token[bad] in token[:bad]
        raise ParseError(
            f"candidate {token[bad]!r} is listed twice in {token!r}"
            if twice
            else f"{token[bad]!r} in the pencil marks {token!r} is no symbol"
            + (f" (declared: {alphabet})" if alphabet else " (1-9, then A = 10, …)"),
            line,
            column + bad,
        )
    symbols = alphabet or DIGITS
    return list_bits(token, {ch: symbols.index(ch) + (alphabet is not None) for ch in token})


def _columns(rows: Sequence[tuple[int, str, list[Span]]]) -> list[list[int]] | None:
    """The canvas column of each token of a drawing whose rows are not all full.

    Cells stand in columns: a token's column is the rank of its right end among the right
    ends of all tokens (ndoku's drawings right-align wide symbols). None when tokens of two
    columns overlap, so the rows are just ragged.
    """
    ends = sorted({end for _, _, spans in rows for _, end, _ in spans})
    rank = {end: k for k, end in enumerate(ends)}
    first_start = [ends[-1] if ends else 0] * len(ends)
    for _, _, spans in rows:
        for start, end, _ in spans:
            first_start[rank[end]] = min(first_start[rank[end]], start)
    if any(first_start[k] < ends[k - 1] for k in range(1, len(ends))):
        return None
    return [[rank[end] for _, end, _ in spans] for _, _, spans in rows]


def _outlines(
    lines: Sequence[tuple[int, str]],
    rows: Sequence[tuple[int, str, list[Span]]],
    columns: Sequence[list[int]],
    width: int,
) -> NDArray[np.int32]:
    """The region of each canvas position of a drawing: cells side by side share a region
    unless a bar stands between them, cells one above the other unless a divider mark stands
    above the lower one's token, on a line between them. -1 where no cell is drawn."""
    height = len(rows)
    span = {}
    for r, ((_, _, spans), cols) in enumerate(zip(rows, columns, strict=True)):
        for (start, end, _), c in zip(spans, cols, strict=True):
            span[r, c] = (start, end)
    parent = list(range(height * width))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    def join(a: tuple[int, int], b: tuple[int, int]) -> None:
        parent[root(a[0] * width + a[1])] = root(b[0] * width + b[1])

    place = {number: k for k, (number, _) in enumerate(lines)}
    for r, (number, text, _) in enumerate(rows):
        for c in range(width - 1):
            if (r, c) in span and (r, c + 1) in span:
                between = text[span[r, c][1] : span[r, c + 1][0]]
                if not any(ch in BARS for ch in between):
                    join((r, c), (r, c + 1))
        if r + 1 == height:
            break
        dividers = [text for _, text in lines[place[number] + 1 : place[rows[r + 1][0]]]]
        for c in range(width):
            if (r, c) in span and (r + 1, c) in span:
                start, end = span[r + 1, c]
                marks = (ch for divider in dividers for ch in divider[start:end])
                if not any(ch in _DIVIDER_MARKS for ch in marks):
                    join((r, c), (r + 1, c))
    regions = np.full((height, width), -1, dtype=np.int32)
    numbers: dict[int, int] = {}
    for r, c in sorted(span):
        regions[r, c] = numbers.setdefault(root(r * width + c), len(numbers))
    return regions


def _gap(text: str) -> str:
    """What parts a row's tokens when no comma does: a tab if one does, else a space."""
    return "\t" if "\t" in text.strip() else " "


def _joiner(text: str, separator: str) -> str:
    found = re.search(rf"\s*{separator}\s*", text.strip())
    return found.group() if found else separator
