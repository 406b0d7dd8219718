"""How the blocks of a file of grids (lines parted by blank lines) make puzzles: a grid (or
the bands of one, parted by blank lines), then the letter maps of its regions and extra units,
then the next grid; and the title lines (``Grid 01``) that part grids too."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence
from functools import cache

from ndoku.limits import MAX_SYMBOLS
from ndoku.text.grid import BARS, LINE_LENGTHS, Block
from ndoku.text.marks import candidate_list

#: The marks of an empty cell, which no letter map holds but for its ``.`` (no letter).
EMPTY_MARKS = frozenset("0.-_")
#: A puzzle's title line in a file of several (Project Euler's ``Grid 01``): it parts them.
_TITLE = re.compile(r"(grid|puzzle|sudoku|game|problem)\s*(no\.?|#)?\s*\d+\s*:?", re.IGNORECASE)


def is_title(line: str) -> bool:
    """Whether a stripped line is a puzzle's title (looked for only on lines that start with
    a letter: a batch of a million lines pays no pattern match per line).

    >>> is_title("Grid 01"), is_title("Puzzle No. 7:"), is_title("003020600")
    (True, True, False)
    """
    return line[:1].isalpha() and _TITLE.fullmatch(line) is not None


Span = tuple[int, int, str]  # start, end (character positions in the line), token


def row_spans(text: str, spaced: bool, separator: str | None) -> list[Span]:
    """The tokens of a row line with their positions: bars and separators between them."""
    if spaced:
        return [(m.start(), m.end(), m.group()) for m in _splitter(separator).finditer(text)]
    return [(i, i + 1, ch) for i, ch in enumerate(text) if not ch.isspace() and ch not in BARS]


@cache
def _splitter(separator: str | None) -> re.Pattern[str]:
    """The tokens of a spaced row line: runs of anything but spaces, bars and ``separator``."""
    return re.compile(rf"[^\s{re.escape(BARS)}{separator or ''}]+")


def grouped(rows: Sequence[str]) -> bool:
    """Whether spaced rows are characters in groups, a box's cells run together
    (``003 020 600``), rather than tokens: every group as long as the others, two characters
    or more, and every row as many characters as there are rows. (Numbers padded to one
    width, ``01 00 16 …``, have as many groups as rows.)"""
    groups = []
    length = 0  # every group's, once one is read: a row of single characters stops at once
    for text in rows:
        row = [token for _, _, token in row_spans(text, True, None)]
        for token in row:
            if len(token) != (length or len(token)) or len(token) < 2:
                return False
            length = len(token)
        groups.append(row)
    return length > 1 and {len(row) * length for row in groups} == {len(rows)}


def puzzles(blocks: Sequence[Block]) -> list[tuple[Block, list[Block]]]:
    """The grid blocks of a file of grids, each with the map blocks after it (regions, extra
    units): a block that cannot be a map starts the next puzzle.

    >>> grid, regions = Block(((1, "1 0 0"),)), Block(((3, "a a b"),))
    >>> again = Block(((5, "0 0 2"),))
    >>> [(g.lines[0][0], len(maps)) for g, maps in puzzles([grid, regions, again])]
    [(1, 1), (5, 0)]
    """
    puzzles: list[tuple[Block, list[Block]]] = []
    for block in blocks:
        if puzzles and is_map(block):
            puzzles[-1][1].append(block)
        else:
            puzzles.append((block, []))
    return puzzles


def _band_shape(block: Block) -> tuple[int, int, int] | None:
    """Lines and tokens per line (bars left out) of a block whose lines all have as many,
    with the characters per line (0 when lines differ in that); None otherwise, or when the
    block has more lines than a grid has rows."""
    if len(block.lines) > MAX_SYMBOLS:
        return None
    tokens = set()
    chars = set()
    for _, text in block.lines:
        line = [t for t in text.split() if t.strip(BARS)]
        tokens.add(len(line))
        joined = "".join(line)
        chars.add(len(joined) - sum(map(joined.count, BARS)))
    if len(tokens) != 1:
        return None
    return len(block.lines), tokens.pop(), chars.pop() if len(chars) == 1 else 0


def bands(blocks: Sequence[Block]) -> list[Block]:
    """The blocks of a file with the bands of a grid joined: runs of blocks alike (as many
    lines, tokens and characters on each line) that together have as many lines as a line
    has cells (tokens or characters); blocks of one line only when a line cannot be a
    one-line puzzle (16, 81, … characters). The blank lines between them are kept as empty
    lines, for the answer to show them too.

    >>> band = Block(((1, "12 34"), (2, "34 12")))
    >>> later = Block(((4, "21 43"), (5, "43 21")))
    >>> [len(b.lines) for b in bands([band, later])]
    [5]
    """
    out: list[Block] = []
    i = 0
    while i < len(blocks):
        end = i + 1
        shape = _band_shape(blocks[i])
        if shape is not None:
            height, tokens, chars = shape
            for side in sorted({tokens, chars}):
                k = side // height
                # Rows parted by blank lines, unless a row could be a one-line puzzle.
                if height == 1 and side in LINE_LENGTHS:
                    continue
                if height < side <= MAX_SYMBOLS and side == k * height and i + k <= len(blocks):
                    # Numbers may differ in width from line to line; characters must not.
                    wanted = (height, tokens, chars) if side != tokens else (height, tokens)
                    if all(_alike(b, wanted) for b in blocks[i + 1 : i + k]):
                        end = i + k
                        break
        lines = list(blocks[i].lines)
        for block in blocks[i + 1 : end]:
            lines += [(lines[-1][0] + 1, ""), *block.lines]
        out.append(Block(tuple(lines)))
        i = end
    return out


def _alike(block: Block, wanted: tuple[int, ...]) -> bool:
    """Whether ``block``'s shape starts with ``wanted`` (lines, tokens[, characters])."""
    shape = _band_shape(block)
    return shape is not None and shape[: len(wanted)] == wanted


def map_rows(block: Block) -> list[list[str]]:
    """The entries of a letter map block, row by row: split at whitespace when any row has
    some, else a character each.

    >>> map_rows(Block(((1, "a b"), (2, "c d")))), map_rows(Block(((1, "ab"),)))
    ([['a', 'b'], ['c', 'd']], [['a', 'b']])
    """
    spaced = any(len(text.split()) > 1 for _, text in block.lines)
    return [text.split() if spaced else list(text.strip()) for _, text in block.lines]


def is_map(block: Block) -> bool:
    """Whether a block after a grid can be a letter map of it rather than the next puzzle.

    With an empty mark (``0 . - _``) it is a map when every symbol other than ``.`` stands on
    as many cells as the others (letters of extra units), which a grid's empty mark, on more
    cells than any value, does not; without, when a letter repeats in a row or a column, as
    in every region map (one whose regions are not scattered: some two cells side by side)
    and in no full grid (a solution: each value once per row and column).

    >>> is_map(Block(((1, "aab"), (2, "abb")))), is_map(Block(((1, "120"), (2, "003"))))
    (True, False)
    >>> is_map(Block(((1, "dbcb"), (2, "bcac"), (3, "dbda"), (4, "adac"))))  # scattered
    True
    >>> is_map(Block(((1, "12"), (2, "21"))))  # a full grid: the next puzzle
    False
    """
    rows = [text.strip() for _, text in block.lines if text]
    if any(" " in text for text in rows) and grouped(rows):  # ``003 020 600``: a grid
        return False
    entries = map_rows(block)
    tokens = [t for row in entries for t in row]
    # Candidate lists (``129``, ``34``): a pencil-mark grid. One is a bad map entry.
    if sum(t.isdigit() and candidate_list(t, None, rising=True) for t in tokens) > 1:
        return False
    if EMPTY_MARKS.intersection(tokens):
        return len(set(Counter(t for t in tokens if t != ".").values())) <= 1
    columns = ([e for e in column if e is not None] for column in itertools.zip_longest(*entries))
    return any(len(set(line)) < len(line) for line in [*entries, *columns])
