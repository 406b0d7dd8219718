"""Variant rules as data: what a puzzle adds to each symbol once per unit (killer cages,
thermometers, arrows, dots, lines, …), named by canvas cells so that they serve every layout.

A :class:`Rule` is what a setter wrote: its kind (a name of :data:`KINDS`), its cells in the
rule's own order (the bulb first, the circle first), its number, and where an outside clue
stands. :func:`make_rule` checks a written rule against a puzzle's canvas and returns it, or
raises a :class:`~ndoku.errors.ParseError` that names the line and column. What each kind
means, for every size N (digits 1..N), is :data:`KINDS`' ``meaning``: the kinds are the
vocabulary of the rules' text, so :mod:`ndoku.text.rules` keeps them and this module takes them
from there. :func:`rule_text` writes a rule back as that text; how the solvers see the rules
is :mod:`ndoku.model.constraints`.

Glossary (terms of the package glossary apply too)
-------------------------------------------------
rule
    One written rule: a cage, a thermometer, a dot between two cells, ``antiknight``, …
clue
    A number outside the grid (a sandwich sum, a skyscraper count, a little killer's sum):
    ``clue`` is its canvas position, one step outside the cells the rule reads.
path
    Cells each a king's move from the one before, none twice (thermometers, lines).
global rule
    A rule of the whole canvas, with no cells of its own (``antiknight``, ``disjoint``, the
    negative constraint of dots).
cosmetic
    A drawing that carries no rule (a plain line, circle or outline): kept for pictures and
    exchange, never solved.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import ParseError
from ndoku.text.rules import (
    DIRECTIONS,
    DOT_KINDS,
    KINDS,
    Kind,
    Written,
    a_kind,
    rule_line,
    unknown_kind,
)

__all__ = [
    "DIRECTIONS",
    "DOT_KINDS",
    "KINDS",
    "Canvas",
    "Kind",
    "Rule",
    "make_rule",
    "rule_text",
    "same_rules",
    "sum_range",
    "whisper_gap",
]


@dataclass(frozen=True)
class Rule:
    """One written rule, checked against its puzzle's canvas.

    Attributes
    ----------
    kind : str
        A name of :data:`KINDS`.
    cells : tuple of int
        Cell numbers, in the rule's order: the bulb first, a line from its start, the circle
        (``head`` cells) then the arrow, an outside clue's line from the clue.
    value : int or None
        The rule's number (a sum, a count, a dot's difference or ratio).
    clue : (int, int) or None
        Canvas position (0-based, one step outside the cells) of an outside clue.
    head : int
        Of an arrow: how many of ``cells`` are its circle (a pill: 2 or 3).
    words : tuple of str
        Of ``negative``: the dot kinds it names; of a cosmetic rule, its text, if any.

    Examples
    --------
    >>> Rule("cage", (0, 1, 9), 15).text_value
    '15'
    """

    kind: str
    cells: tuple[int, ...] = ()
    value: int | None = None
    clue: tuple[int, int] | None = None
    head: int = 0
    words: tuple[str, ...] = ()

    @property
    def text_value(self) -> str:
        return "" if self.value is None else str(self.value)

    @property
    def cosmetic(self) -> bool:
        return KINDS[self.kind].cosmetic


def whisper_gap(size: int) -> int:
    """The least difference of neighbours on a German whisper line without a number: half of
    N rounded up (5 on a 9×9, 3 on a 6×6, 8 on a 16×16).

    >>> [whisper_gap(n) for n in (4, 6, 9, 16)]
    [2, 3, 5, 8]
    """
    return (size + 1) // 2


def sum_range(count: int, size: int) -> tuple[int, int]:
    """The least and greatest sums of ``count`` different digits of 1..``size``.

    >>> sum_range(2, 9), sum_range(9, 9)
    ((3, 17), (45, 45))
    """
    return count * (count + 1) // 2, count * (2 * size - count + 1) // 2


@dataclass(frozen=True)
class Canvas:
    """What :func:`make_rule` checks a written rule against: the canvas's cells and sub-grid
    boxes (or regions).

    Attributes
    ----------
    index : ndarray of int32, shape (rows, cols)
        Cell number of each canvas position, -1 where none is.
    box_of : ndarray of int32, shape (rows, cols)
        A number per box or region of each position (-1 where none is): outside sums end
        where the first box ends. Boxes of different sub-grids that share cells share numbers
        where they coincide; overlapping ones take the first sub-grid's.
    size : int
        N.
    """

    index: NDArray[np.int32]
    box_of: NDArray[np.int32]
    size: int

    def cell(self, row: int, col: int) -> int:
        """The cell number at a canvas position, -1 where there is none (or off the canvas)."""
        rows, cols = self.index.shape
        return self._numbers[row][col] if 0 <= row < rows and 0 <= col < cols else -1

    @cached_property
    def _numbers(self) -> list[list[int]]:
        """``index`` as lists (read a cell at a time, they are ten times quicker)."""
        return self.index.tolist()  # type: ignore[no-any-return]


def make_rule(written: Written, canvas: Canvas) -> Rule:
    """Check a written rule against the canvas and return it.

    Raises
    ------
    ParseError
        Naming the line and column: an unknown kind, a position that is no cell, cells that
        do not make the shape the kind needs, a number it cannot have.

    Examples
    --------
    >>> index = np.arange(16, dtype=np.int32).reshape(4, 4)
    >>> boxes = np.array([[0, 0, 1, 1]] * 2 + [[2, 2, 3, 3]] * 2, dtype=np.int32)
    >>> canvas = Canvas(index, boxes, 4)
    >>> at = ((1, 7), (1, 12))
    >>> make_rule(Written("thermo", None, ((0, 0), (0, 1)), at, 1, 1), canvas)
    Rule(kind='thermo', cells=(0, 1), value=None, clue=None, head=0, words=())
    >>> make_rule(Written("thermo", None, ((0, 0), (2, 2)), at, 1, 1), canvas)
    Traceback (most recent call last):
    ...
    ndoku.errors.ParseError: line 1, column 12: a thermo is a path: r3c3 is not next to r1c1
    >>> make_rule(Written("sandwich", 3, ((-1, 1),), ((1, 12),), 1, 1), canvas).cells
    (1, 5, 9, 13)
    """
    kind = KINDS.get(written.kind)
    if kind is None:
        raise unknown_kind(written.kind, written.line, written.column)
    _check_value(written, kind, canvas.size)
    if kind.cells == "none":
        if written.positions:
            _fail(written, 0, f"'{written.kind}' is a rule of the whole grid: it takes no cells")
        return Rule(
            written.kind, words=_negative_words(written) if written.kind == "negative" else ()
        )
    if kind.cells in ("line", "diagonal"):
        return _clue_rule(written, kind, canvas)
    cells = tuple(_cell(written, i, canvas) for i in range(len(written.positions)))
    if not cells:
        raise ParseError(f"{a_kind(written.kind)} needs cells", written.line, written.column)
    for i, c in enumerate(cells):
        if c in cells[:i]:
            _fail(written, i, f"{a_kind(written.kind)} names {_rc(written.positions[i])} twice")
    if kind.cells == "pair":
        if len(cells) != 2:
            raise ParseError(
                f"{a_kind(written.kind)} dot joins two cells, not {len(cells)}",
                written.line,
                written.column,
            )
        (r0, c0), (r1, c1) = written.positions
        if abs(r0 - r1) + abs(c0 - c1) != 1:
            _fail(written, 1, f"{a_kind(written.kind)} dot joins neighbours: {_rc((r1, c1))} "
                  f"is not next to {_rc((r0, c0))}")  # fmt: skip
    elif kind.cells == "path":
        _check_path(written, 0, written.kind)
        if len(cells) < 2:
            raise ParseError(
                f"{a_kind(written.kind)} needs 2 cells or more", written.line, written.column
            )
    elif kind.cells == "arrow":
        head = written.head
        if not 1 <= head <= 3 or head >= len(cells):
            raise ParseError(
                "an arrow is its circle (1 to 3 cells), '>', then the cells of the arrow",
                written.line,
                written.column,
            )
        positions = written.positions
        if head > 1:
            _check_path(written, 0, "pill", end=head)
        start = positions[head]
        if not any(_touch(start, positions[i]) for i in range(head)):
            _fail(written, head, f"an arrow leaves its circle: {_rc(start)} is next to none "
                  "of the circle's cells")  # fmt: skip
        _check_path(written, head, "arrow")
    if written.kind == "cage" and written.value is not None:
        low, high = sum_range(len(cells), canvas.size)
        if not low <= written.value <= high:
            raise ParseError(
                f"{len(cells)} different digits of 1-{canvas.size} sum to {low}-{high}, not "
                f"{written.value}",
                written.line,
                written.value_column or written.column,
            )
    if written.kind in ("cage", "region") and len(cells) > canvas.size:
        raise ParseError(
            f"{a_kind(written.kind)} of {len(cells)} cells cannot hold different digits "
            f"1-{canvas.size}",
            written.line,
            written.column,
        )
    return Rule(
        written.kind,
        cells,
        written.value,
        head=written.head if kind.cells == "arrow" else 0,
        words=written.words if kind.cosmetic else (),
    )


def _rc(position: tuple[int, int]) -> str:
    return f"r{position[0] + 1}c{position[1] + 1}"


def _fail(written: Written, i: int, message: str) -> None:
    line, column = written.where[i] if i < len(written.where) else (written.line, written.column)
    raise ParseError(message, line, column)


def _cell(written: Written, i: int, canvas: Canvas) -> int:
    cell = canvas.cell(*written.positions[i])
    if cell < 0:
        _fail(written, i, f"{_rc(written.positions[i])} is not a cell of the grid")
    return cell


def _touch(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two canvas positions are a king's move apart."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def _check_path(written: Written, start: int, noun: str, end: int | None = None) -> None:
    """The positions from ``start`` (to ``end``) are a path: each a king's move from the one
    before."""
    positions = written.positions
    for i in range(start + 1, len(positions) if end is None else end):
        (r0, c0), (r1, c1) = positions[i - 1], positions[i]
        if not _touch((r0, c0), (r1, c1)):
            _fail(written, i, f"{a_kind(noun)} is a path: {_rc((r1, c1))} is not next to "
                  f"{_rc((r0, c0))}")  # fmt: skip


def _check_value(written: Written, kind: Kind, size: int) -> None:
    where = written.value_column or written.column
    if kind.value == "none" and written.value is not None:
        raise ParseError(f"{a_kind(written.kind)} takes no number", written.line, where)
    if kind.value == "required" and written.value is None:
        raise ParseError(f"{a_kind(written.kind)} needs its number", written.line, written.column)
    if written.value is not None and written.value < 0:
        raise ParseError(f"{a_kind(written.kind)}'s number is not negative", written.line, where)
    ranges = {"white": (1, size - 1), "whisper": (1, size - 1), "black": (2, size)}
    ranges["skyscraper"] = (1, size)
    low, high = ranges.get(written.kind, (0, written.value or 0))
    if written.value is not None and not low <= written.value <= high:
        raise ParseError(f"{a_kind(written.kind)}'s number is {low} to {high}", written.line, where)


def _negative_words(written: Written) -> tuple[str, ...]:
    words = tuple(dict.fromkeys(written.words))
    if not words:
        raise ParseError(
            f"'negative' names the dots it holds for: {' '.join(DOT_KINDS)}",
            written.line,
            written.column,
        )
    for word in words:
        if word not in DOT_KINDS:
            raise ParseError(
                f"'negative' holds for dots ({', '.join(DOT_KINDS)}), not {word!r}",
                written.line,
                written.column,
            )
    return words


def _clue_rule(written: Written, kind: Kind, canvas: Canvas) -> Rule:
    """A rule of an outside clue: its cells are those its line (or diagonal) reads."""
    if not written.positions:
        raise ParseError(
            f"{a_kind(written.kind)} names its clue's place outside the grid (r0c3: above "
            "column 3)",
            written.line,
            written.column,
        )
    clue = written.positions[0]
    if canvas.cell(*clue) >= 0:
        _fail(written, 0, f"{a_kind(written.kind)}'s clue stands outside the grid, and "
              f"{_rc(clue)} is a cell")  # fmt: skip
    if kind.cells == "diagonal":
        step = _diagonal_step(written, clue, canvas)
    else:
        steps = [(dr, dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                 if canvas.cell(clue[0] + dr, clue[1] + dc) >= 0]  # fmt: skip
        if len(steps) != 1:
            _fail(written, 0, f"{a_kind(written.kind)}'s clue faces one row or column: {_rc(clue)} "
                  f"is next to {'no cell' if not steps else 'cells on two sides'}")  # fmt: skip
        step = steps[0]
    line = []
    r, c = clue[0] + step[0], clue[1] + step[1]
    while canvas.cell(r, c) >= 0:
        line.append((r, c))
        r, c = r + step[0], c + step[1]
    if written.kind == "outside-sum":
        first = canvas.box_of[line[0]]
        if first < 0:
            _fail(written, 0, "an outside sum reads to the end of the first box, and this "
                  "layout has no boxes")  # fmt: skip
        line = line[: next((i for i, p in enumerate(line) if canvas.box_of[p] != first), len(line))]
    elif kind.cells == "line":
        if len(line) < canvas.size:
            _fail(written, 0, f"{a_kind(written.kind)}'s clue faces a row or column of N = "
                  f"{canvas.size} cells; {_rc(clue)} faces {len(line)}")  # fmt: skip
        line = line[: canvas.size]
    given = written.positions[1:]
    if given and tuple(given) != tuple(line[: len(given)]):
        _fail(written, 1, f"the cells after a {written.kind}'s clue are those its line reads, "
              f"from {_rc(line[0])}")  # fmt: skip
    cells = tuple(canvas.cell(r, c) for r, c in line)
    most = canvas.size * len(cells)
    if written.kind in ("little-killer", "outside-sum") and (written.value or 0) > most:
        raise ParseError(
            f"{len(cells)} digits of 1-{canvas.size} sum to at most {most}, not {written.value}",
            written.line,
            written.value_column or written.column,
        )
    if written.kind == "sandwich" and written.value is not None:
        most = sum_range(canvas.size - 2, canvas.size - 1)[1]  # the digits 2..N-1
        if written.value > most:
            raise ParseError(
                f"a sandwich holds at most {most}, not {written.value}",
                written.line,
                written.value_column or written.column,
            )
    return Rule(written.kind, cells, written.value, clue=clue)


def _diagonal_step(written: Written, clue: tuple[int, int], canvas: Canvas) -> tuple[int, int]:
    """A little killer's step: named (``dl``, …), given by its first cell, or the one
    diagonal from the clue that meets a cell."""
    named = [w for w in written.words if w in DIRECTIONS]
    if named:
        return DIRECTIONS[named[0]]
    if len(written.positions) > 1:
        (r0, c0), (r1, c1) = clue, written.positions[1]
        step = (r1 - r0, c1 - c0)
        if step in DIRECTIONS.values():
            return step
        _fail(written, 1, f"a little killer runs diagonally from its clue {_rc(clue)}")
    steps = [s for s in DIRECTIONS.values() if canvas.cell(clue[0] + s[0], clue[1] + s[1]) >= 0]
    if len(steps) != 1:
        _fail(written, 0, "say which way this little killer runs (dl, dr, ul or ur): "
              f"{_rc(clue)} is diagonal to {len(steps)} cells")  # fmt: skip
    return steps[0]


def rule_text(rule: Rule, cell_rc: NDArray[np.int32]) -> str:
    """A rule as ndoku writes it, one line that reads back as the same rule: its positions
    ``r<row>c<col>`` (``cell_rc``: each cell's canvas row and column), an outside clue by its
    place only, a little killer with its direction.

    >>> rc = np.array([(r, c) for r in range(4) for c in range(4)], dtype=np.int32)
    >>> rule_text(Rule("arrow", (0, 1, 5), head=1), rc)
    'arrow: r1c1 > r1c2 r2c2'
    >>> rule_text(Rule("little-killer", (1, 4), 7, clue=(-1, 2)), rc)
    'little-killer 7 dl: r0c3'
    """
    if rule.clue is None:
        positions = [(int(r), int(c)) for r, c in cell_rc[list(rule.cells)]]
        return rule_line(rule.kind, rule.value, positions, rule.head, rule.words)
    words: tuple[str, ...] = ()
    if KINDS[rule.kind].cells == "diagonal":
        r, c = (int(x) for x in cell_rc[rule.cells[0]])
        step = (r - rule.clue[0], c - rule.clue[1])
        words = tuple(name for name, way in DIRECTIONS.items() if way == step)
    return rule_line(rule.kind, rule.value, [rule.clue], words=words)


def same_rules(a: Sequence[Rule], b: Sequence[Rule]) -> bool:
    """Whether two puzzles carry the same rules, in any order.

    >>> same_rules([Rule("x", (0, 1)), Rule("antiking")], [Rule("antiking"), Rule("x", (0, 1))])
    True
    """
    return sorted(map(repr, a)) == sorted(map(repr, b))
