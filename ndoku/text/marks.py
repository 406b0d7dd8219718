"""Pencil marks as text: the sukaku line (N³ characters, N per cell), the same written a grid
row per line, and grids of tokens that list each cell's candidates, as HoDoKu, SudokuWiki and
forum posts paste them.

Glossary
--------
pencil marks
    The candidates a person has left in each cell; a grid written with them is a
    *pencil-mark grid*. Its candidates are kept as ``marks``: per canvas position a uint64,
    bit ``v - 1`` set when value ``v`` is a candidate. A cell with one candidate is a placed
    value (a given), as in HoDoKu; a candidate that a placed value in a peer contradicts is
    simply dropped by the solvers. A ``.`` is a missing cell of a multi-grid; where it can
    only be a cell it is refused at its line and column, not read as "all candidates": it
    lists none (ndoku's own drawing writes ``.`` for a cell left without any), so a cell where
    any value may go lists them all (``123456789``).
sukaku line
    A 9×9 written as 729 characters, nine per cell in reading order: the k-th character of a
    cell is the symbol of value k when k is a candidate, ``.`` or ``0`` when not (Sukaku
    Explainer's format); whitespace may part the cells. An N×N grid takes N³ characters, the
    k-th of a cell being the k-th symbol of its alphabet (``0-F``: ``0`` is value 1, and
    only ``.``, ``-`` or ``_`` mark a missing candidate).
sukaku rows
    The same N³ characters written one grid row per line, as Sukaku Explainer and HoDoKu
    users also write them: N lines of N² characters (9 lines of 81 for a 9×9), whitespace
    again free to part the cells. A block of lines is sukaku rows when its first line holds
    N cells of N characters and more than half of its first N lines are such rows that read
    in place (every character the symbol of its place or a missing mark), each cell with a
    candidate (:func:`sukaku_rows`). That tells them from what else lines of N² characters
    could be: one-line puzzles (when N is a square: 81 characters are a 9×9) or a canvas N²
    wide, whose givens stand at their own place in a group of N only by
    chance (1 in 9 each), and seldom one in every group (an empty puzzle has none). Cells
    parted by whitespace may also be the tokens of a pencil-mark grid, when each lists all
    N candidates: they are sukaku rows only with a candidate missing somewhere. A block of
    kN such lines is k puzzles, and so are blocks parted by blank lines; the answer is
    written as a one-line puzzle, as for the sukaku line.
candidate list
    In a grid of tokens, a token of two symbols or more: the cell's candidates (``159``),
    each symbol one character. Only lists in rising order tell a grid of pencil marks from a
    grid of numbers; once it is one, any order reads.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import ParseError
from ndoku.text.alphabet import DIGITS, EMPTY, EMPTY_MARKS, READINGS, AlphabetError, Reading
from ndoku.text.grid import Grid, Header, Style

#: Sukaku line lengths: N³ characters for an N×N grid.
SUKAKU_LENGTHS = {n**3: n for n in range(4, 37)}
_FIELD = re.compile(r"[^\s,:;]+")
#: A token's place in a grid: line, column (1-based) and text (a sukaku cell's N characters).
Token = tuple[int, int, str]


def sukaku_cells(text: str) -> list[tuple[int, str]] | None:
    """The cells of a sukaku line, as (column where the cell starts, its characters); None
    when ``text`` is no sukaku line. Anything after the candidates is ignored.

    >>> [(c, s) for c, s in sukaku_cells("1234" * 16)][:2]
    [(1, '1234'), (5, '1234')]
    >>> sukaku_cells(" ".join(["1.3."] * 16) + " 4.1")[-1]
    (76, '1.3.')
    >>> sukaku_cells("1234 1234"), sukaku_cells("53..7....")
    (None, None)
    """
    fields = list(_FIELD.finditer(text))
    if not fields:
        return None
    head = fields[0]
    size = SUKAKU_LENGTHS.get(len(head.group()))
    if size is not None:
        return _split(head, size)
    size = len(head.group())
    if not 4 <= size <= 36 or len(fields) < size * size:
        return None
    groups = fields[: size * size]
    if any(len(g.group()) != size for g in groups):
        return None
    return [(g.start() + 1, g.group()) for g in groups]


def sukaku_row(text: str, size: int | None = None) -> list[tuple[int, str]] | None:
    """The cells of one line of sukaku rows, as :func:`sukaku_cells` gives them: ``size``
    cells of ``size`` characters (N² in one run, or N groups), nothing else on the line; any
    N from 4 to 36 when ``size`` is None. None when the line is no such row.

    >>> [c for c, _ in sukaku_row("1234" * 4)], sukaku_row("1234 " * 4, 4)[-1]
    ([1, 5, 9, 13], (16, '1234'))
    >>> sukaku_row("1234" * 4, 9), sukaku_row("123 " * 3)
    (None, None)
    """
    fields = list(_FIELD.finditer(text))
    if len(fields) == 1:
        found = math.isqrt(len(fields[0].group()))
        if found * found == len(fields[0].group()) and size in (None, found) and 4 <= found <= 36:
            return _split(fields[0], found)
        return None
    if size not in (None, len(fields)) or not 4 <= len(fields) <= 36:
        return None
    if any(len(f.group()) != len(fields) for f in fields):
        return None
    return [(f.start() + 1, f.group()) for f in fields]


def _split(field: re.Match[str], size: int) -> list[tuple[int, str]]:
    """A run of characters cut into cells of ``size``, each with the column it starts at."""
    start, text = field.start() + 1, field.group()
    return [(start + k, text[k : k + size]) for k in range(0, len(text), size)]


def sukaku_rows(lines: Sequence[tuple[int, str]], alphabet: str | None) -> bool:
    """Whether a block of ``(line number, text)`` lines is sukaku rows (see the glossary):
    N cells of N on its first line and more than half of its first N lines (the first
    puzzle: a file of one-line puzzles is not read through) such rows that read in place,
    each cell with a candidate; when whitespace parts the cells, some candidate missing too.

    >>> rows = [(n, "1..4" + ".23." * 3) for n in range(1, 5)]
    >>> sukaku_rows(rows, None), sukaku_rows([(n, "1234 " * 4) for n in range(1, 5)], None)
    (True, False)
    >>> four = ["1000020000300004", "0200100000010300", "3000000410000020", "0040300000020000"]
    >>> sukaku_rows(list(enumerate(four, start=1)), None)  # one-line 4×4 puzzles
    False
    >>> sukaku_rows([(n, "0" * 16) for n in range(1, 5)], None)  # empty ones
    False
    """
    first = sukaku_row(lines[0][1])
    if first is None:
        return False
    size = len(first)
    full = np.uint64((1 << size) - 1)
    read = 0
    # Cells parted by whitespace that all list every candidate are tokens of a pencil-mark
    # grid as well, some of whose rows may not be sukaku rows: the grid reader reads them.
    missing = len(_FIELD.findall(lines[0][1])) == 1
    for _, text in lines[:size]:
        masks = in_place(text, alphabet, size)
        if masks is None:
            continue
        read += bool(masks)
        missing |= any(bool((m != full).any()) for m in masks)
    return missing and read * 2 > size


def in_place(
    text: str, alphabet: str | None, size: int | None = None
) -> list[NDArray[np.uint64]] | None:
    """The candidates of a sukaku row (its cells' masks) in each alphabet that reads every
    cell in place with a candidate (a cell without one counts against: empty one-line
    puzzles read in place); None when ``text`` is no row of N cells of N.

    >>> len(in_place("123456789" * 9, None)), in_place("4" + "0" * 80, None)
    (1, [])
    """
    cells = sukaku_row(text, size)
    if cells is None:
        return None
    chars = np.array([list(group) for _, group in cells])
    return [m for _, _, m in _positional(chars, alphabet, len(cells)) if m is not None and m.all()]


def read_sukaku(
    number: int,
    text: str,
    alphabet: str | None,
    headers: Mapping[str, tuple[Header, ...]],
    source: str,
) -> Grid:
    """A sukaku line as a grid: its placed values, and its candidates in ``marks``.

    The alphabet is the declared one, or the one reading that reads every character in its
    place (``1-9A-…``, ``0-9A-…`` or ``A-…``); two readings with different candidates are an
    :class:`~ndoku.text.alphabet.AlphabetError`.

    Examples
    --------
    >>> line = "1..4" + ".23." * 15
    >>> g = read_sukaku(1, line, None, {}, "<text>")
    >>> g.values[0].tolist(), [bin(int(m)) for m in g.marks[0]]
    ([0, 0, 0, 0], ['0b1001', '0b110', '0b110', '0b110'])
    """
    cells = sukaku_cells(text)
    if cells is None:
        lead = len(text) - len(text.lstrip())
        found = len(text.split()[0]) if text.split() else 0
        raise ParseError(
            "expected a sukaku line like the lines before it (N³ characters: 729 for a 9×9, "
            f"or N² groups of N), found {found} characters",
            number,
            lead + 1,
        )
    return _sukaku_grid(
        [(number, column, group) for column, group in cells], alphabet, headers, source
    )


def read_sukaku_rows(
    lines: Sequence[tuple[int, str]],
    alphabet: str | None,
    headers: Mapping[str, tuple[Header, ...]],
    source: str,
) -> list[Grid]:
    """The puzzles of a block of sukaku rows (``(line number, text)`` pairs), N lines each,
    read as :func:`read_sukaku` reads a line; N is the number of cells on the first line.

    Examples
    --------
    >>> rows = [(n, " ".join(["1..4", ".23.", ".23.", ".23."])) for n in range(3, 7)]
    >>> [g] = read_sukaku_rows(rows, None, {}, "<text>")
    >>> [bin(int(m)) for m in g.marks[3]], g.where[3, 1].tolist()
    (['0b1001', '0b110', '0b110', '0b110'], [6, 6])
    """
    first = sukaku_row(lines[0][1])
    if first is None:
        raise _bad_row(*lines[0], None)
    size = len(first)
    left = len(lines) % size
    if left:
        number = lines[len(lines) - left][0]
        raise ParseError(
            f"a {size}×{size} sukaku written a row per line takes {size} lines; the one "
            f"starting here has {left} (a blank line may part two puzzles)",
            number,
        )
    grids = []
    for start in range(0, len(lines), size):
        cells: list[Token] = []
        for number, text in lines[start : start + size]:
            row = sukaku_row(text, size)
            if row is None:
                raise _bad_row(number, text, (lines[start][0], size))
            cells += [(number, column, group) for column, group in row]
        grids.append(_sukaku_grid(cells, alphabet, headers, source))
    return grids


def _bad_row(number: int, text: str, like: tuple[int, int] | None) -> ParseError:
    """The error for a line that is no row of the sukaku rows it stands among; ``like``: the
    first line of its puzzle and N, or None on a first line (of a later block)."""
    fields = list(_FIELD.finditer(text))
    column = fields[0].start() + 1 if fields else 1
    found = f"{len(fields[0].group())} characters" if len(fields) == 1 else f"{len(fields)} cells"
    widths = Counter(len(f.group()) for f in fields).most_common(1)
    odd = [f for f in fields if len(fields) > 1 and len(f.group()) != widths[0][0]]
    if odd:
        found, column = f"a cell of {len(odd[0].group())} characters", odd[0].start() + 1
    if like is None:
        expected = "the first row of a sukaku written a row per line, as the one before it"
        cells = "N cells of N characters (9 of 9 for a 9×9)"
    else:
        first, size = like
        expected = f"a row of the {size}×{size} sukaku from line {first}"
        cells = f"{size} cells of {size} characters"
    return ParseError(f"expected {expected}: {cells}, found {found}", number, column)


def _sukaku_grid(
    cells: Sequence[Token],
    alphabet: str | None,
    headers: Mapping[str, tuple[Header, ...]],
    source: str,
) -> Grid:
    """The grid of a sukaku's N² cells in reading order, each as (line, column, characters)."""
    size = len(cells[0][2])
    chars = np.array([list(group) for _, _, group in cells]).reshape(size * size, size)
    readings = _positional(chars, alphabet, size)
    chosen = [(r, a, m) for r, a, m in readings if m is not None]
    if not chosen:
        _reading, symbols, _ = readings[0]
        raise _misplaced(chars, symbols, cells)
    distinct = [c for k, c in enumerate(chosen) if all((c[2] != o[2]).any() for o in chosen[:k])]
    if len(distinct) > 1:
        (a, _, _), (b, _, _) = distinct[:2]
        assert a is not None and b is not None  # a declared alphabet is alone
        raise AlphabetError(
            f"the candidates of this {size}×{size} sukaku read two ways, as {a.name(size)} "
            f"or as {b.name(size)}: say which with a '# symbols:' line or --symbols",
            cells[0][0],
        )
    reading, symbols, masks = distinct[0]
    count = np.array([bin(int(m)).count("1") for m in masks])
    values = np.where(count == 1, np.log2(np.maximum(masks, 1)).astype(np.int32) + 1, EMPTY)
    where = np.array([(line, column) for line, column, _ in cells], dtype=np.int32)
    written = np.array([group for _, _, group in cells]).reshape(size, size)
    own = alphabet is not None or (reading is not None and reading is not READINGS[0])
    # Written back as one line, rows too: the answer is a one-line puzzle.
    style = Style("line", alphabet=symbols if own else None, empty=".")
    return Grid(
        values.reshape(size, size).astype(np.int32),
        where.reshape(size, size, 2),
        written,
        style,
        headers,
        (),
        source,
        alphabet is not None,
        marks=masks.reshape(size, size),
    )


def _positional(
    chars: NDArray[np.str_], alphabet: str | None, size: int
) -> list[tuple[Reading | None, str, NDArray[np.uint64] | None]]:
    """Each alphabet tried on a sukaku line's characters, with the candidates it reads (None
    when a character is neither the symbol of its place nor a missing mark)."""
    if alphabet is not None:
        tried: list[tuple[Reading | None, str]] = [(None, alphabet)]
    else:
        tried = [(r, r.alphabet(size)) for r in READINGS if size in r.sizes]
        tried = [(r, a) for r, a in tried if len(a) == size]
    out: list[tuple[Reading | None, str, NDArray[np.uint64] | None]] = []
    bits = np.uint64(1) << np.arange(size, dtype=np.uint64)
    for reading, symbols in tried:
        if len(symbols) != size:
            out.append((reading, symbols, None))
            continue
        present = chars == np.array(list(symbols))
        missing = np.isin(chars, [*EMPTY_MARKS, *(() if "0" in symbols else ("0",))])
        good = bool((present | missing).all())
        out.append(
            (reading, symbols, (present * bits).sum(axis=1).astype(np.uint64) if good else None)
        )
    return out


def _misplaced(chars: NDArray[np.str_], symbols: str, cells: Sequence[Token]) -> ParseError:
    """The error for the first character of a sukaku that is out of its place."""
    size = chars.shape[1]
    if len(symbols) != size:
        return ParseError(
            f"{len(symbols)} symbols are declared ({symbols}) but this sukaku has {size} "
            "characters per cell",
            cells[0][0],
        )
    expected = np.array(list(symbols))
    bad = ~((chars == expected) | np.isin(chars, [*EMPTY_MARKS, "0"]))
    cell, place = (int(x) for x in np.argwhere(bad)[0])
    row, col = divmod(cell, size)
    return ParseError(
        f"{str(chars[cell, place])!r} stands in the place of {symbols[place]} among the candidates "
        f"of r{row + 1}c{col + 1} (place k of a cell is the k-th symbol, or '.' when that "
        "value is no candidate)",
        cells[cell][0],
        cells[cell][1] + place,
    )


def is_pencil_grid(rows: Sequence[Sequence[Token]], alphabet: str | None) -> bool:
    """Whether a grid of tokens lists candidates: some token is a candidate list that cannot
    be a value of the grid (``159``, ``1A``, or ``37`` where no sub-grid is 37 wide).

    Raises :class:`~ndoku.errors.ParseError` when the grid also holds a number that is no
    candidate list (``10``) or an empty cell (``0``, ``-``, ``_``; a dot may be a missing
    cell), naming that token; and, at the first token that reads both ways (``12`` in a
    16×16), when nothing tells: no list, no number and no empty cell.

    >>> is_pencil_grid([[(1, 1, "12"), (1, 4, "3")], [(2, 1, "3"), (2, 4, "12")]], None)
    True
    >>> is_pencil_grid([[(1, 1, "1"), (1, 3, "0")], [(2, 1, "0"), (2, 3, "1")]], None)
    False
    >>> is_pencil_grid([[(1, 1, "-"), (1, 3, "34")], [(2, 1, "3"), (2, 3, "4")]], None)
    Traceback (most recent call last):
    ...
    ndoku.errors.ParseError: line 1, column 1: this grid mixes pencil marks ('34', line 1) ...
    """
    side = min(len(rows), max((len(r) for r in rows), default=0))
    found: dict[str, Token] = {}
    for row in rows:
        for token in row:
            text = token[2]
            if len(text) == 1:
                empty = text in "-_" or (text == "0" and (alphabet is None or "0" not in alphabet))
                kind = "value" if empty else "empty" if text == "." else ""
            else:
                listed = candidate_list(text, alphabet, rising=True)
                number = alphabet is None and text.isdigit() and text.isascii()
                number = number and int(text) <= side
                kind = "both" if listed and number else "list" if listed else "value" * number
            if kind:
                found.setdefault(kind, token)
    if "list" in found and "value" in found:
        line, column, plain = found["value"]
        example = found["list"][2]
        what = "a number" if len(plain) > 1 else "an empty cell"
        zero = " (pencil marks in 0-F: declare '# symbols: 0-F')" if plain == "0" else ""
        raise ParseError(
            f"this grid mixes pencil marks ({example!r}, line {found['list'][0]}) with {what} "
            f"({plain!r}): write each cell's candidates, or a value per cell{zero}",
            line,
            column,
        )
    if "list" in found:
        return True
    if "both" in found and not found.keys() & {"value", "empty"}:
        line, column, text = found["both"]
        raise ParseError(
            f"{text!r} reads as the number {int(text)} or as the pencil marks "
            f"{', '.join(text)}, and nothing in the grid tells which: a grid of values marks its "
            "empty cells (0); pencil marks may declare their symbols ('# symbols: 1-9A-G')",
            line,
            column,
        )
    return False


def candidate_list(token: str, alphabet: str | None, rising: bool = False) -> bool:
    """Whether ``token`` may list candidates: two symbols or more, none twice (and, with
    ``rising``, in the order of their values, as programs write them).

    >>> candidate_list("159", None), candidate_list("11", None), candidate_list("1a", None)
    (True, False, False)
    >>> candidate_list("10", None), candidate_list("10", None, rising=True)
    (True, False)
    """
    symbols = alphabet if alphabet is not None else DIGITS
    if len(token) < 2 or len(set(token)) != len(token) or not all(c in symbols for c in token):
        return False
    places = [symbols.index(c) for c in token]
    return not rising or places == sorted(places)


def list_bits(token: str, value_of: Mapping[str, int]) -> int:
    """The candidates of a list as bits, by each symbol's value; 0 when a symbol has none.

    >>> bin(list_bits("159", {str(v): v for v in range(1, 10)}))
    '0b100010001'
    """
    bits = 0
    for ch in token:
        value = value_of.get(ch, 0)
        if value < 1:
            return 0
        bits |= 1 << (value - 1)
    return bits
