"""Puzzles exchanged with f-puzzles and SudokuPad: read from their forms, written as f-puzzles
data.

Reading goes through ndoku's text form (:mod:`ndoku.text.links`), and an error about that text,
which the user never saw, is said of the f-puzzles key and entry it came from. Writing takes a
puzzle of one N×N grid, 4×4 to 16×16: its givens, its boxes or regions (none: ``region: null``
on every cell), its extra units (the diagonals as ``diagonal-`` and ``diagonal+``, others as
``extraregion``) and its rules, each as the f-puzzles key of :data:`~ndoku.text.fpuzzles.SUPPORTED`
and :data:`~ndoku.text.fpuzzles.COSMETIC` that reads back as it. An outside sum is written as
the killer cage it is (its cells lie in one box, so its digits differ anyway).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError, ParseError
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.model.rules import Rule
from ndoku.text.fpuzzles import SIZES, SUPPORTED, Converted
from ndoku.text.rules import KINDS

#: The f-puzzles key of each ndoku kind that has one key.
_KEYS = {kind: key for key, kind in SUPPORTED.items() if kind in KINDS}
_KEYS["outside-sum"] = "killercage"
_GLOBAL = ("antiknight", "antiking", "nonconsecutive", "disjoint")
_NEGATIVE = {"white": "difference", "black": "ratio", "x": "xv", "v": "xv"}

IntArray = NDArray[np.int32]


def read_exchanged(converted: Converted, source: str = "<text>") -> list[Puzzle]:
    """The puzzle of an f-puzzles or SudokuPad form, converted to text by
    :func:`ndoku.text.links.exchanged`.

    Raises
    ------
    ParseError
        As :func:`~ndoku.model.puzzle.read_puzzles` does, said of the key and entry (or grid
        cell) the text came from.

    Examples
    --------
    >>> from ndoku.text.fpuzzles import from_fpuzzles
    >>> grid = [[{"value": 2, "given": True}] * 2 + [{}] * 2] + [[{}] * 4] * 3
    >>> read_exchanged(from_fpuzzles({"size": 4, "grid": grid}))
    Traceback (most recent call last):
    ...
    ndoku.errors.ConflictError: f-puzzles grid R1C2: given 2 repeats the 2 at R1C1 in the same row
    """
    try:
        return read_puzzles(source, text=converted.text)
    except ParseError as exc:
        raise converted.explain(exc) from None


def fpuzzles_data(puzzle: Puzzle) -> dict[str, Any]:
    """A puzzle as f-puzzles data: its givens, boxes or regions, extra units and rules.

    Raises
    ------
    NdokuError
        When f-puzzles cannot hold the puzzle: not one N×N grid of 4×4 to 16×16 (a Samurai),
        pencil marks, a pill whose digits do not read in reading order, a negative
        constraint of X without V.

    Examples
    --------
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 0 0\\n0 0 0 0\\n0 0 0 0\\n\\nthermo: r1c2 r2c2")
    >>> data = fpuzzles_data(p)
    >>> data["grid"][0][:2], data["thermometer"]
    ([{'region': 0, 'value': 1, 'given': True}, {'region': 0}], [{'lines': [['R1C2', 'R2C2']]}])
    """
    layout, size = puzzle.layout, puzzle.size
    if layout.shape != (size, size) or len(layout.corners) != 1:
        raise NdokuError(
            f"f-puzzles holds one grid of N×N cells; this puzzle is {len(layout.corners)} "
            f"sub-grids of {size}×{size} on a {layout.shape[0]}×{layout.shape[1]} canvas"
        )
    if size not in SIZES:
        raise NdokuError(f"f-puzzles holds grids of 4×4 to 16×16, not {size}×{size}")
    if puzzle.candidates is not None:
        raise NdokuError("f-puzzles holds givens, not pencil marks")
    regions: list[list[int | None]] = [[None] * size for _ in range(size)]
    if layout.regions is not None:
        regions = layout.regions.tolist()
    elif layout.box is not None:
        height, width = layout.box
        regions = [[r // height * (size // width) + c // width for c in range(size)]
                   for r in range(size)]  # fmt: skip
    grid = [[{"region": regions[r][c]} for c in range(size)] for r in range(size)]
    for (r, c), value in zip(puzzle.cell_rc.tolist(), puzzle.givens.tolist(), strict=True):
        if value:
            grid[r][c] |= {"value": value, "given": True}
    data: dict[str, Any] = {"size": size, "grid": grid}
    for extra in layout.extras:
        cells = sorted(extra.cells)
        if cells == [(i, i) for i in range(size)]:
            data["diagonal-"] = True
        elif cells == [(i, size - 1 - i) for i in range(size)]:
            data["diagonal+"] = True
        else:
            _put(data, "extraregion", {"cells": [f"R{r + 1}C{c + 1}" for r, c in cells]})
    for rule in puzzle.rules:
        _write_rule(data, rule, puzzle.cell_rc)
    return data


def _names(rc: IntArray, cells: Sequence[int]) -> list[str]:
    """f-puzzles names of cells (``rc``: each cell's canvas row and column)."""
    return [f"R{rc[cell, 0] + 1}C{rc[cell, 1] + 1}" for cell in cells]


def _put(data: dict[str, Any], key: str, entry: dict[str, Any]) -> None:
    data.setdefault(key, []).append(entry)


def _valued(entry: dict[str, Any], value: int | None) -> dict[str, Any]:
    return entry if value is None else {**entry, "value": str(value)}


def _write_rule(data: dict[str, Any], rule: Rule, rc: IntArray) -> None:
    """A rule as the f-puzzles entry that reads back as it."""
    kind, cells, value = rule.kind, rule.cells, rule.value

    def names(cells: Sequence[int]) -> list[str]:
        return _names(rc, cells)

    if kind in _GLOBAL:
        data[_KEYS[kind]] = True
    elif kind == "negative":
        if ("x" in rule.words) != ("v" in rule.words):
            raise NdokuError("f-puzzles's negative constraint holds for X and V together, not one")
        data["negative"] = list(dict.fromkeys(_NEGATIVE[word] for word in rule.words))
    elif rule.clue is not None:
        clue = f"R{rule.clue[0] + 1}C{rule.clue[1] + 1}"
        if kind == "little-killer":
            row, col = rc[cells[0]]
            way = ("D" if row > rule.clue[0] else "U") + ("R" if col > rule.clue[1] else "L")
            entry = {"cell": clue, "cells": names(cells), "direction": way}
            _put(data, _KEYS[kind], _valued(entry, value))
        elif kind == "outside-sum":
            _put(data, _KEYS[kind], _valued({"cells": names(cells)}, value))
        else:  # sandwich, skyscraper
            _put(data, _KEYS[kind], _valued({"cell": clue}, value))
    elif kind in ("cage", "white", "black", "region"):
        _put(data, _KEYS[kind], _valued({"cells": names(cells)}, value))
    elif kind in ("even", "odd"):
        for name in names(cells):
            _put(data, kind, {"cell": name})
    elif kind in ("x", "v"):
        _put(data, "xv", {"cells": names(cells), "value": kind.upper()})
    elif kind == "arrow":
        circle = cells[: rule.head]
        if list(circle) != sorted(circle):  # cell numbers run in reading order
            raise NdokuError(
                "f-puzzles reads a pill's digits left to right, top to bottom: this arrow's "
                f"pill {' '.join(names(circle))} reads in another order"
            )
        line = names([circle[-1], *cells[rule.head :]])
        _put(data, "arrow", {"cells": names(circle), "lines": [line]})
    elif kind in _KEYS:  # the lines
        _put(data, _KEYS[kind], _valued({"lines": [names(cells)]}, value))
    else:
        _write_drawing(data, rule, names(cells))


def _write_drawing(data: dict[str, Any], rule: Rule, cells: list[str]) -> None:
    """A cosmetic rule (its cells named) as the f-puzzles drawing that shows it."""
    text = {"value": rule.words[0]} if rule.words else {}
    if rule.kind == "line":
        _put(data, "line", {"lines": [cells], "outlineC": "#A0A0A0", "width": 0.3})
    elif rule.kind == "circle":
        for name in cells:
            entry = {"cells": [name], "baseC": "#FFFFFF", "outlineC": "#000000"}
            _put(data, "circle", {**entry, "fontC": "#000000", "width": 0.7, "height": 0.7, **text})
    elif rule.kind == "outline":
        entry = {"cells": cells, "outlineC": "#000000", "fontC": "#000000"}
        _put(data, "cage", entry | text)
    else:
        raise NdokuError(f"f-puzzles has no form for ndoku's {rule.kind!r} rule")
