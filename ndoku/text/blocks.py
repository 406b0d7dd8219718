"""How the blocks of a file of grids (lines parted by blank lines) make puzzles: a grid, then
the letter maps of its regions and extra units, then the next grid; and the title lines
(``Grid 01``) that part grids too."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence

from ndoku.text.grid import Block

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
    cells than any value, does not; without, when two cells side by side share a letter, as
    in every region map and in no full grid (a solution: each value once per row and column).

    >>> is_map(Block(((1, "aab"), (2, "abb")))), is_map(Block(((1, "120"), (2, "003"))))
    (True, False)
    >>> is_map(Block(((1, "12"), (2, "21"))))  # a full grid: the next puzzle
    False
    """
    rows = map_rows(block)
    tokens = [t for row in rows for t in row]
    if EMPTY_MARKS.intersection(tokens):
        return len(set(Counter(t for t in tokens if t != ".").values())) <= 1
    beside = any(a == b for row in rows for a, b in itertools.pairwise(row))
    below = any(
        a == b for up, down in itertools.pairwise(rows) for a, b in zip(up, down, strict=False)
    )
    return beside or below
