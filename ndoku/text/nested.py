"""Grids written as lists of lists, as programs print them (JSON, Python, LeetCode's
``board = [["5","3",".",…],…]``): read, and answered in the same text.

A row is a list that holds no list; the rows of one list make a grid, so a list of grids is a
batch. Items are numbers or quoted symbols; ``0``, ``"."``, ``""``, ``null`` and ``None`` are
empty cells. The answer is the same text with each cell's item replaced (quotes kept).
"""

from __future__ import annotations

import bisect
import re
from collections import Counter

import numpy as np

from ndoku.errors import ParseError
from ndoku.text.grid import EMPTY, Grid, Splice, Style, padding, token_value

#: A file that starts with a list of lists, perhaps assigned to a name (``board = [[``).
NESTED = re.compile(r"\s*(?:[A-Za-z_]\w*\s*=\s*)?\[\s*\[")
_PIECE = re.compile(
    r"""(?P<space>\s+)|(?P<open>\[)|(?P<close>\])|(?P<comma>,)|(?P<quoted>"[^"\n]*"|'[^'\n]*')"""
    r"""|(?P<word>[^\s\[\],"'=;]+)|(?P<other>.)"""
)
#: Items that stand for an empty cell (besides the empty marks of every grid).
_NOTHING = frozenset({"", ".", "null", "None", "nil"})

Item = tuple[str, int, int]  # the item's text, start and end in the file (inside quotes)


def is_nested(text: str) -> bool:
    """Whether ``text`` is a grid written as a list of lists.

    >>> is_nested('board = [["5","3"],["6","."]]'), is_nested("[Puzzle]\\n1..")
    (True, False)
    """
    return NESTED.match(text) is not None


def read_nested(text: str, source: str, alphabet: str | None) -> list[Grid]:
    """The grids of a list of lists (a list of such lists: several grids).

    >>> [grid] = read_nested('[[1, 0], [".", "2"]]', "<text>", None)
    >>> grid.values.tolist()
    [[1, 0], [0, 2]]
    """
    boards = _boards(text)
    starts = _line_starts(text)
    if len(boards) == 1:  # the answer is the whole text: ``board = `` and all
        [rows] = boards.values()
        return [_grid(text, starts, 0, len(text), rows, source, alphabet)]
    return [
        _grid(text, starts, a, b + 1, rows, source, alphabet) for (a, b), rows in boards.items()
    ]


def _boards(text: str) -> dict[tuple[int, int], list[list[Item]]]:
    """The rows of ``text`` by the list holding them (the offsets of its brackets), in
    order."""
    stack: list[tuple[int, list[Item], bool]] = []  # its '[', its items, whether it holds lists
    boards: dict[int, list[list[Item]]] = {}
    ends: dict[int, int] = {}
    done = False
    for match in _PIECE.finditer(text, text.index("[")):
        kind, at, piece = match.lastgroup, match.start(), match.group()
        if kind in ("space", "comma") or (done and piece == ";"):
            continue
        if done:
            raise _error(text, at, f"unexpected {piece!r} after the last ']'")
        if kind == "open":
            if stack:
                opened, items, _ = stack[-1]
                if items:
                    raise _error(text, at, "a list among the items of a row")
                stack[-1] = (opened, items, True)
            stack.append((at, [], False))
        elif kind == "close":
            opened, items, lists = stack.pop()
            if lists:
                ends[opened] = at
            elif stack:
                boards.setdefault(stack[-1][0], []).append(items)
            else:
                raise _error(text, opened, "a single list: write a list of rows")
            done = not stack
        elif kind in ("quoted", "word") and stack and not stack[-1][2]:
            quoted = kind == "quoted"
            stack[-1][1].append(
                (piece[1:-1] if quoted else piece, at + quoted, match.end() - quoted)
            )
        elif kind in ("quoted", "word"):
            raise _error(text, at, f"{piece!r} stands among rows, outside any row")
        else:
            raise _error(text, at, f"unexpected {piece!r} in a list of rows")
    if stack:
        raise _error(text, stack[-1][0], "this '[' is never closed")
    return {(opened, ends[opened]): rows for opened, rows in boards.items()}


def _grid(
    text: str,
    starts: list[int],
    start: int,
    stop: int,
    rows: list[list[Item]],
    source: str,
    alphabet: str | None,
) -> Grid:
    """One grid from its rows; its answer is written into ``text[start:stop]``; ``starts``:
    where each line of ``text`` starts."""
    width = len(rows[0])
    values = np.zeros((len(rows), width), dtype=np.int32)
    where = np.zeros((len(rows), width, 2), dtype=np.int32)
    written = np.full((len(rows), width), "", dtype=object)
    spans = []
    letters = False
    empties: Counter[str] = Counter()
    for r, row in enumerate(rows):
        if len(row) != width:
            items = f"{len(row)} item{'s' * (len(row) != 1)}"
            at = row[-1][1] if row else start
            raise ParseError(
                f"ragged row: {items}, expected {width} like the first", *_place(starts, at)
            )
        for c, (item, begin, end) in enumerate(row):
            line, column = _place(starts, begin)
            where[r, c] = (line, column)
            spans.append((r, c, begin - start, end - start))
            token = item.strip()
            if token in _NOTHING:
                # written "." (the empty mark every grid reader knows), not null and the like
                written[r, c] = "."
                values[r, c] = EMPTY
            else:
                written[r, c] = item
                values[r, c], letter = token_value(token, alphabet, line, column, True)
                letters |= letter
            if values[r, c] == EMPTY:
                empties[item] += 1
    style = Style(
        "tokens",
        alphabet=alphabet,
        letters=letters,
        empty=empties.most_common(1)[0][0] if empties else "0",
        splice=Splice(text[start:stop], tuple(spans)),
        pad=padding(written, where, letters) if alphabet is None else 1,
    )
    return Grid(values, where, written.astype(str), style, {}, (), source, alphabet is not None)


def _line_starts(text: str) -> list[int]:
    """The offset where each line of ``text`` starts."""
    return [0, *(m.end() for m in re.finditer("\n", text))]


def _place(starts: list[int], at: int) -> tuple[int, int]:
    """Line and column (1-based) of offset ``at``, given where the lines start."""
    line = bisect.bisect_right(starts, at)
    return line, at - starts[line - 1] + 1


def _error(text: str, at: int, message: str) -> ParseError:
    return ParseError(message, *_place(_line_starts(text), at))
