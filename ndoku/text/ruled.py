"""Where the rule blocks of a file go: each ends a puzzle and belongs to the grid before it.

A puzzle is its grid, the letter maps after it, then its rule lines (:mod:`ndoku.text.rules`),
each part after a blank line. The rule blocks are taken out of a file's blocks before the
grids are read; the grids before and after a rule block are two puzzles, so that a batch of
empty grids, each with its cages, does not read its second grid as a map of the first. A
letter map right after a puzzle's rules (as a puzzle written with its rules and then its maps
stands) is still that puzzle's map.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Sequence

from ndoku.errors import ParseError
from ndoku.text.blocks import bands, is_map, map_rows, puzzles
from ndoku.text.grid import Block, Grid
from ndoku.text.rules import Written, is_rule_line, read_rules


def take_rules(blocks: Sequence[Block]) -> tuple[list[Block], list[Block]]:
    """The blocks of a file parted into the others and the rule blocks (a block is one when
    its first line is a rule: :func:`~ndoku.text.rules.is_rule_line`).

    >>> grid, cages = Block(((1, "0 0"), (2, "0 0"))), Block(((4, "cage 3: r1c1 r1c2"),))
    >>> [len(part) for part in take_rules([grid, cages])]
    [1, 1]
    """
    ruled = [is_rule_line(block.lines[0][1]) for block in blocks]
    if not any(ruled):
        return list(blocks), []
    return (
        [b for b, r in zip(blocks, ruled, strict=True) if not r],
        [b for b, r in zip(blocks, ruled, strict=True) if r],
    )


def ruled_puzzles(
    blocks: Sequence[Block], rules: Sequence[Block]
) -> list[tuple[Block, list[Block]]]:
    """The grid blocks of a file of grids with their maps (as
    :func:`~ndoku.text.blocks.puzzles` finds them), a rule block ending a puzzle: only a
    letter map may follow it in the same puzzle.

    >>> grid, again = Block(((1, "0 0"), (2, "0 0"))), Block(((6, "0 0"), (7, "0 0")))
    >>> cages = Block(((4, "cage 3: r1c1 r1c2"),))
    >>> [g.lines[0][0] for g, _ in ruled_puzzles([grid, again], [cages])]
    [1, 6]
    """
    if not rules:
        return puzzles(bands(blocks))
    ends = [block.lines[0][0] for block in rules]
    found: list[tuple[Block, list[Block]]] = []
    segment: list[Block] = []
    for k, block in enumerate(blocks):
        if segment and _between(ends, blocks[k - 1], block):
            _add(found, puzzles(bands(segment)))
            segment = []
        segment.append(block)
    _add(found, puzzles(bands(segment)))
    return found


def _between(ends: list[int], before: Block, after: Block) -> bool:
    """Whether a rule block starts between two blocks."""
    k = bisect.bisect_right(ends, before.lines[-1][0])
    return k < len(ends) and ends[k] < after.lines[0][0]


def _add(found: list[tuple[Block, list[Block]]], more: list[tuple[Block, list[Block]]]) -> None:
    """The puzzles of the blocks after a rule block, its first block a map of the puzzle
    before when it is a letter map."""
    if found and more and _letter_map(more[0][0]):
        first, maps = more.pop(0)
        found[-1][1].extend([first, *maps])
    found.extend(more)


def _letter_map(block: Block) -> bool:
    """A map with letters (no grid of empty cells, which :func:`is_map` takes for one)."""
    return is_map(block) and any(t.isalpha() for row in map_rows(block) for t in row)


def with_rules(grids: list[Grid], rules: Sequence[Block]) -> list[Grid]:
    """The grids, each with the rules of the rule blocks after it (before the next grid).

    Raises
    ------
    ParseError
        A rule block before the first grid, or a rule line that does not read.
    """
    starts = [int(grid.where[0, 0, 0]) if grid.where.size else 0 for grid in grids]
    found: dict[int, list[Written]] = {}
    for block in rules:
        first = block.lines[0][0]
        k = bisect.bisect_right(starts, first) - 1
        if k < 0:
            raise ParseError("rules come after the grid they belong to, not before", first, 1)
        found.setdefault(k, []).extend(read_rules(block.lines))
    return [
        dataclasses.replace(grid, rules=grid.rules + tuple(found[k])) if k in found else grid
        for k, grid in enumerate(grids)
    ]
