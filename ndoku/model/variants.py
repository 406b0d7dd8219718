"""A puzzle's variant rules put on its frame: each written rule checked on the canvas, the
units and peers they add made part of the frame, and a rule the givens already break refused.

:func:`~ndoku.model.puzzle.from_grid` calls these for a grid with rule lines; a grid without
keeps its layout's frame, shared as before.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import ConflictError, ParseError
from ndoku.model.constraints import Lowered, holds, lower
from ndoku.model.frame import Frame
from ndoku.model.rules import Canvas, Rule, make_rule
from ndoku.model.units import BOX
from ndoku.text.grid import Grid
from ndoku.text.rules import Written

IntArray = NDArray[np.int32]


def canvas_of(frame: Frame) -> Canvas:
    """What a written rule is checked against: the frame's cells, the box (or region) of each
    position (the first sub-grid's where boxes of two overlap), N.

    >>> from ndoku.model.layout import load_layout
    >>> canvas_of(Frame.of(load_layout("4x4"))).box_of[:2].tolist()
    [[0, 0, 1, 1], [0, 0, 1, 1]]
    """
    box_of = np.full(frame.index.shape, -1, dtype=np.int32)
    units = frame.units
    for number, u in enumerate(np.flatnonzero(units.kind == BOX)):
        rows, cols = frame.cell_rc[units[u]].T
        free = box_of[rows, cols] < 0
        box_of[rows[free], cols[free]] = number
    return Canvas(frame.index, box_of, frame.size)


def make_rules(written: Sequence[Written], frame: Frame) -> tuple[Rule, ...]:
    """Each written rule checked on the frame's canvas (:func:`~ndoku.model.rules.make_rule`).

    Raises
    ------
    ParseError
        Naming the rule's line and column: see :func:`~ndoku.model.rules.make_rule`; and
        ``disjoint`` on a layout without boxes.
    """
    canvas = frame.table("canvas", canvas_of)
    for w in written:
        if w.kind == "disjoint" and frame.layout.box is None:
            raise ParseError(
                "disjoint groups are the cells at one place of every box, and this layout has "
                "no boxes",
                w.line,
                w.column,
            )
    return tuple(make_rule(w, canvas) for w in written)


def ruled_frame(frame: Frame, rules: Sequence[Rule]) -> tuple[Frame, Lowered]:
    """The frame of a layout's puzzle with ``rules``: the layout's own when no rule is a unit
    or peers, else one with their units and peers (kept as every frame is, so shared by the
    puzzles whose rules add the same); and the rules lowered
    (:func:`~ndoku.model.constraints.lower`)."""
    lowered = lower(rules, frame.layout, frame.index)
    if not lowered.units and not lowered.peers:
        return frame, lowered
    return Frame.of(frame.layout, lowered.units, lowered.peers), lowered


def check_rules(
    grid: Grid, frame: Frame, givens: IntArray, rules: Sequence[Rule], lowered: Lowered
) -> None:
    """Refuse a rule the givens already break, naming its line and column: all of a
    constraint's cells given and it does not hold, two equal givens in a cage, a region, a
    disjoint group or a pair of peers a rule adds, the givens of a sum already above it.

    Raises
    ------
    ConflictError
    """
    written = grid.rules
    values = givens.tolist()

    def where(cells: Sequence[int]) -> str:
        return " and ".join(grid.locate(*(int(x) for x in frame.cell_rc[c])) for c in cells)

    def fail(k: int, message: str) -> None:
        raise ConflictError(message, written[k].line, written[k].column)

    for k, rule in enumerate(rules):
        given = [c for c in rule.cells if values[c]]
        if rule.kind in ("cage", "region"):
            twice = _twice(given, values)
            if twice:
                symbol = grid.style.symbol(values[twice[0]])
                fail(k, f"the givens at {where(twice)} are both {symbol}, in one {rule.kind}")
        if rule.kind in ("cage", "little-killer", "outside-sum") and rule.value is not None:
            total = sum(values[c] for c in given)
            free = len(rule.cells) - len(given)
            if total + free > rule.value:
                parts = [f"its givens sum to {total}"] if given else []
                if free:
                    other = " other" if given else ""
                    verb = "to" if given else "sum to"
                    parts.append(f"its {free}{other} cells {verb} {free} at least")
                fail(k, f"this {rule.kind} sums to {rule.value}, but {' and '.join(parts)}")
    for constraint in lowered.constraints:
        if all(values[c] for c in constraint.cells) and not holds(constraint, values, frame.size):
            k = constraint.rule
            fail(k, f"the givens at {where(constraint.cells)} break this {rules[k].kind}")
    for unit in lowered.units:  # the regions' were met above: these are disjoint groups
        cells = [int(frame.index[r, c]) for r, c in unit]
        twice = _twice([c for c in cells if values[c]], values)
        if twice:
            k = next(k for k, r in enumerate(rules) if r.kind == "disjoint")
            fail(k, f"the givens at {where(twice)} are equal, in one disjoint group")
    for a, b in lowered.peers:
        if values[a] and values[a] == values[b]:
            (ra, ca), (rb, cb) = frame.cell_rc[a], frame.cell_rc[b]
            kind = "antiking" if max(abs(ra - rb), abs(ca - cb)) == 1 else "antiknight"
            k = next(k for k, r in enumerate(rules) if r.kind == kind)
            move = "a king's" if kind == "antiking" else "a knight's"
            fail(k, f"the givens at {where((a, b))} are equal, {move} move apart")


def _twice(cells: Sequence[int], values: list[int]) -> tuple[int, int] | None:
    """Two of ``cells`` holding one value, or None."""
    seen: dict[int, int] = {}
    for c in cells:
        if values[c] in seen:
            return seen[values[c]], c
        seen[values[c]] = c
    return None
