"""Variant rules drawn the way the puzzle sites draw them: cages, thermometers, arrows, dots,
lines, shaded cells, outside clues, and a legend of the rules of the whole grid.

Each kind has a drawer (:data:`DRAWERS`) that adds its shapes to the layers of
:class:`Layers`, which :func:`ndoku.picture.drawing.picture` puts between the grid's own:
``under`` the grid's lines (shaded regions, even squares, odd circles), ``lines`` (the
lines drawn along cells, under the grid), ``over`` the grid (cage outlines, dots, X and V)
and ``top``, over the values (cage sums on white, outside clues).

Glossary (terms of the package glossary and of :mod:`ndoku.model.rules` apply too)
-------------------------------------------------------------------------------------
place
    A position on the canvas in cells, fractions allowed: ``(row, col)`` floats, ``(2.5,
    3.5)`` the centre of the cell at row 2, column 3 (0-based); :meth:`Paper.at` gives it in
    points.
inset
    How far inside its cells an outline runs (cages are drawn inset, so that neighbouring
    cages and the grid's lines stay apart).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np
from numpy.typing import NDArray

from ndoku.model.rules import KINDS, Rule
from ndoku.picture.scene import DROP, INK, WHITE, Fill, Label, Line, Shape, Spot, circle

#: Colours as the puzzle sites use them.
THERMO = "#c8c8c8"
ARROW = "#8c8c8c"
WHISPER = "#5dc35d"
RENBAN = "#c76bd6"
PALINDROME = "#b0b0b0"
PARITY = "#d2d2d2"  # even squares and odd circles
REGION = "#d9e6f0"  # extra regions
COSMETIC = "#8c8c8c"
#: Widths and sizes, in cells.
CAGE_INSET, CAGE_WIDTH, CAGE_DASH = 0.09, 0.03, 0.08
SUM_SIZE = 0.28  # cage sums and cosmetic texts
CLUE_SIZE = 0.5  # outside clues
BULB = 0.38  # a thermometer's bulb, radius
CIRCLE = 0.4  # an arrow's circle, radius (a pill: half its thickness)
DOT = 0.15  # a kropki dot, radius
#: The names of the rules of the whole grid in the legend under it.
GLOBAL_NAMES = {
    "antiknight": "anti-knight",
    "antiking": "anti-king",
    "nonconsecutive": "non-consecutive",
    "disjoint": "disjoint groups",
    "negative": "negative",
}
#: How a digit's advance compares with its size, in the regular face (cage sums, clues).
DIGIT_ADVANCE = 0.64

Place = tuple[float, float]
Corner = Callable[[float, float], tuple[float, float]]


@dataclass
class Layers:
    """The shapes of a puzzle's rules, by where they go among the grid's own (see the
    module's docstring)."""

    under: list[Shape] = field(default_factory=list)
    lines: list[Shape] = field(default_factory=list)
    over: list[Shape] = field(default_factory=list)
    top: list[Shape] = field(default_factory=list)
    #: Cells whose top-left corner holds a text (a cage sum): the values make room for it.
    corners: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class Paper:
    """What a drawer needs of the picture it draws on: each cell's canvas row and column,
    where a place is in points (``corner``), the side of a cell in points."""

    cell_rc: NDArray[np.int32]
    corner: Corner
    cell: float

    def rc(self, cell: int) -> tuple[int, int]:
        r, c = self.cell_rc[cell]
        return int(r), int(c)

    def centre(self, cell: int) -> Place:
        """The centre of a cell, as a place."""
        r, c = self.rc(cell)
        return r + 0.5, c + 0.5

    def at(self, place: Place) -> tuple[float, float]:
        """A place, in the picture's points."""
        return self.corner(*place)


def reach(places: Iterable[tuple[int, int]], shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """How many rows and columns ``places`` (canvas positions, such as outside clues) stand
    beyond a canvas of ``shape``: above, left, below, right (a picture grows a margin there,
    and only there).

    >>> reach([(-1, 0), (2, 2)], (4, 4)), reach([(1, 4), (4, -1)], (4, 4))
    ((1, 0, 0, 0), (0, 1, 1, 1))
    """
    rows, cols = shape
    r = [rc[0] for rc in places]
    c = [rc[1] for rc in places]
    if not r:
        return 0, 0, 0, 0
    return max(0, -min(r)), max(0, -min(c)), max(0, max(r) - rows + 1), max(0, max(c) - cols + 1)


def legend(rules: Iterable[Rule]) -> str:
    """The rules of the whole grid, in one line (empty when there are none).

    >>> legend([Rule("antiknight"), Rule("negative", words=("white", "x")), Rule("x", (0, 1))])
    'anti-knight · negative: white, X'
    """
    names = []
    for rule in rules:
        if KINDS[rule.kind].cells != "none":
            continue
        name = GLOBAL_NAMES[rule.kind]
        if rule.words:
            name += ": " + ", ".join(w.upper() if len(w) == 1 else w for w in rule.words)
        names.append(name)
    return " · ".join(dict.fromkeys(names))


def draw_rules(rules: Sequence[Rule], paper: Paper) -> Layers:
    """The shapes of every rule, in layers.

    Examples
    --------
    >>> cell_rc = np.array([(r, c) for r in range(4) for c in range(4)], dtype=np.int32)
    >>> paper = Paper(cell_rc, lambda r, c: (10 * c, 10 * r), 10.0)
    >>> layers = draw_rules([Rule("cage", (0, 1), 7), Rule("black", (2, 3))], paper)
    >>> [label.text for label in layers.top if isinstance(label, Label)]
    ['7']
    >>> [(s.x + s.w / 2, s.y + s.h / 2, s.fill) for s in layers.over if isinstance(s, Spot)]
    [(30.0, 5.0, '#000000')]
    """
    layers = Layers()
    for rule in rules:
        DRAWERS[rule.kind](rule, paper, layers)
    _clues(rules, paper, layers)
    return layers


def _nothing(rule: Rule, paper: Paper, layers: Layers) -> None:
    """Rules drawn elsewhere: those of the whole grid (the legend), outside clues (together,
    :func:`_clues`)."""


def _cage(rule: Rule, paper: Paper, layers: Layers) -> None:
    """A dashed outline inset in the cells, the sum small in the top-left corner of the first
    cell in reading order."""
    _outline(rule, paper, layers.over, INK, CAGE_DASH)
    if rule.value is not None:
        _corner_text(str(rule.value), min(rule.cells), paper, layers)


def _outline_kind(rule: Rule, paper: Paper, layers: Layers) -> None:
    """A cosmetic outline: solid, inset as a cage is, its text in the corner."""
    _outline(rule, paper, layers.over, INK, 0.0)
    _cosmetic_text(rule, paper, layers)


def _outline(rule: Rule, paper: Paper, out: list[Shape], colour: str, dash: float) -> None:
    width = CAGE_WIDTH * paper.cell
    for start, stop in outline({paper.rc(c) for c in rule.cells}, CAGE_INSET):
        out.append(Line(*paper.at(start), *paper.at(stop), width, colour, dash=dash * paper.cell))


def outline(cells: set[tuple[int, int]], inset: float) -> list[tuple[Place, Place]]:
    """The outline of a group of canvas positions, ``inset`` inside them, as straight runs
    (each from its top or left end): every side a group's cell shares with no other cell of
    it, shortened or lengthened at the ends so that the runs meet at the corners.

    Examples
    --------
    >>> outline({(0, 0)}, 0.1)  # doctest: +NORMALIZE_WHITESPACE
    [((0.1, 0.1), (0.1, 0.9)), ((0.9, 0.1), (0.9, 0.9)),
     ((0.1, 0.1), (0.9, 0.1)), ((0.1, 0.9), (0.9, 0.9))]
    >>> len(outline({(0, 0), (0, 1), (1, 0)}, 0.1))  # an L: six runs
    6
    """

    def end(r: int, c: int, along: tuple[int, int], out: tuple[int, int], edge: float) -> float:
        """Where a side's run ends, beside the neighbour ``along`` it: short of the corner
        when that is no cell of the group, at the edge when the side goes on, past it when
        the outline turns back round the neighbour beyond."""
        sign = 1 if along[0] + along[1] > 0 else -1
        if (r + along[0], c + along[1]) not in cells:
            return edge - sign * inset
        if (r + along[0] + out[0], c + along[1] + out[1]) not in cells:
            return edge
        return edge + sign * inset

    across: dict[float, list[tuple[float, float]]] = {}  # by row: runs of columns
    down: dict[float, list[tuple[float, float]]] = {}  # by column: runs of rows
    for r, c in cells:
        for dr in (-1, 1):  # the top and bottom sides
            if (r + dr, c) not in cells:
                row = r + (inset if dr < 0 else 1 - inset)
                run = (end(r, c, (0, -1), (dr, 0), c), end(r, c, (0, 1), (dr, 0), c + 1))
                across.setdefault(row, []).append(run)
        for dc in (-1, 1):
            if (r, c + dc) not in cells:
                col = c + (inset if dc < 0 else 1 - inset)
                run = (end(r, c, (-1, 0), (0, dc), r), end(r, c, (1, 0), (0, dc), r + 1))
                down.setdefault(col, []).append(run)
    out = []
    for row, runs in sorted(across.items()):
        out += [((row, a), (row, b)) for a, b in _merged(runs)]
    for col, runs in sorted(down.items()):
        out += [((a, col), (b, col)) for a, b in _merged(runs)]
    return out


def _merged(runs: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Runs along one line, those that touch joined (so that dashes run on evenly).

    >>> _merged([(1.0, 2.0), (0.0, 1.0), (3.0, 4.0)])
    [(0.0, 2.0), (3.0, 4.0)]
    """
    out: list[tuple[float, float]] = []
    for a, b in sorted(runs):
        if out and a <= out[-1][1] + 1e-9:
            out[-1] = (out[-1][0], max(b, out[-1][1]))
        else:
            out.append((a, b))
    return out


def _corner_text(text: str, first: int, paper: Paper, layers: Layers) -> None:
    """Small text in the top-left corner of a cell, on white (it stays readable over the
    outlines and lines it lies on)."""
    cell = paper.cell
    size = SUM_SIZE * cell
    r, c = paper.rc(first)
    x, y = paper.at((r + 0.05, c + 0.05))
    width = DIGIT_ADVANCE * size * len(text) + 0.08 * cell
    layers.corners.add(first)
    layers.top.append(Fill(x, y, width, 1.05 * size, WHITE))
    layers.top.append(Label(x + 0.04 * cell, y + 0.85 * size, text, size, anchor="start"))


def _cosmetic_text(rule: Rule, paper: Paper, layers: Layers) -> None:
    if rule.words and rule.words[0]:
        _corner_text(rule.words[0], rule.cells[0], paper, layers)


def _path(
    places: Sequence[Place], paper: Paper, colour: str, width: float, out: list[Shape]
) -> None:
    """A line through ``places``, ``width`` cells wide, its joins round."""
    for a, b in pairwise(places):
        out.append(Line(*paper.at(a), *paper.at(b), width * paper.cell, colour, cap="round"))


def _thermo(rule: Rule, paper: Paper, layers: Layers) -> None:
    """A thick grey line from a grey bulb (a slow thermometer's bulb is a ring)."""
    centres = [paper.centre(c) for c in rule.cells]
    (r, c), cell = centres[0], paper.cell
    x, y = paper.at((r, c))
    _path(centres, paper, THERMO, 0.3, layers.lines)
    if rule.kind == "thermo":
        layers.lines.append(circle(x, y, BULB * cell, fill=THERMO))
    else:  # slow: a ring, white inside
        layers.lines.append(circle(x, y, (BULB - 0.05) * cell, WHITE, THERMO, 0.1 * cell))


def _line_kind(colour: str, width: float) -> Callable[[Rule, Paper, Layers], None]:
    def draw(rule: Rule, paper: Paper, layers: Layers) -> None:
        _path([paper.centre(c) for c in rule.cells], paper, colour, width, layers.lines)
        if rule.cosmetic:
            _cosmetic_text(rule, paper, layers)

    draw.__doc__ = f"A line through the cells' centres, {colour}, {width} of a cell wide."
    return draw


def _arrow(rule: Rule, paper: Paper, layers: Layers) -> None:
    """The circle (a pill round 2 or 3 cells in a row or column, else a circle each), and a
    thin line from its edge along the arrow's cells to a head past the last one's centre."""
    cell = paper.cell
    head = [paper.rc(c) for c in rule.cells[: rule.head]]
    rows, cols = {r for r, _ in head}, {c for _, c in head}
    straight = (len(rows) == 1 and max(cols) - min(cols) == len(head) - 1) or (
        len(cols) == 1 and max(rows) - min(rows) == len(head) - 1
    )
    inset = 0.5 - CIRCLE
    if straight:
        boxes = [
            (min(rows) + inset, min(cols) + inset, max(rows) + 1 - inset, max(cols) + 1 - inset)
        ]
    else:
        boxes = [(r + inset, c + inset, r + 1 - inset, c + 1 - inset) for r, c in head]
    for top, left, bottom, right in boxes:
        (x0, y0), (x1, y1) = paper.at((top, left)), paper.at((bottom, right))
        layers.lines.append(Spot(x0, y0, x1 - x0, y1 - y0, CIRCLE * cell, None, ARROW, 0.05 * cell))
    places = [paper.centre(c) for c in rule.cells[rule.head - 1 :]]
    box = boxes[0] if straight else boxes[-1]
    places[0] = _leaving(places[0], places[1], box)
    (ra, ca), (rb, cb) = places[-2], places[-1]
    length = math.hypot(rb - ra, cb - ca)
    ur, uc = (rb - ra) / length, (cb - ca) / length
    tip = (rb + 0.3 * ur, cb + 0.3 * uc)
    places[-1] = tip
    _path(places, paper, ARROW, 0.05, layers.lines)
    for turn in (-1, 1):  # the head: two strokes back from the tip, 40° either side
        angle = math.atan2(ur, uc) + math.pi + turn * math.radians(40)
        back = (tip[0] + 0.25 * math.sin(angle), tip[1] + 0.25 * math.cos(angle))
        _path([tip, back], paper, ARROW, 0.05, layers.lines)


def _leaving(inside: Place, outside: Place, box: tuple[float, float, float, float]) -> Place:
    """Where the straight line from ``inside`` to ``outside`` leaves the rounded box (a
    circle or a pill, corners of radius :data:`CIRCLE`), found by halving.

    >>> _leaving((0.5, 0.5), (0.5, 1.5), (0.1, 0.1, 0.9, 0.9))
    (0.5, 0.9)
    """

    def within(p: Place) -> bool:
        top, left, bottom, right = box
        r, c = (
            min(max(p[0], top + CIRCLE), bottom - CIRCLE),
            min(max(p[1], left + CIRCLE), right - CIRCLE),
        )
        return math.hypot(p[0] - r, p[1] - c) <= CIRCLE + 1e-12

    low, high = 0.0, 1.0
    for _ in range(40):  # 2⁻⁴⁰ of a cell
        mid = (low + high) / 2
        point = (
            inside[0] + mid * (outside[0] - inside[0]),
            inside[1] + mid * (outside[1] - inside[1]),
        )
        low, high = (mid, high) if within(point) else (low, mid)
    return (
        round(inside[0] + low * (outside[0] - inside[0]), 6),
        round(inside[1] + low * (outside[1] - inside[1]), 6),
    )


def _dot(rule: Rule, paper: Paper, layers: Layers) -> None:
    """A white or black dot on the edge between the two cells, its number inside when it is
    not the usual one (a difference of 1, a ratio of 2)."""
    cell = paper.cell
    x, y = _edge(rule, paper)
    usual = {"white": 1, "black": 2}[rule.kind]
    number = None if rule.value in (None, usual) else str(rule.value)
    radius = (DOT + (0.04 if number else 0.0)) * cell
    black = rule.kind == "black"
    layers.over.append(circle(x, y, radius, INK if black else WHITE, INK, 0.03 * cell))
    if number:
        size = 0.22 * cell
        colour = WHITE if black else INK
        layers.over.append(Label(x, y + DROP * size, number, size, colour, bold=True))


def _letter(rule: Rule, paper: Paper, layers: Layers) -> None:
    """X or V on the edge between the two cells, on a white disc."""
    cell = paper.cell
    x, y = _edge(rule, paper)
    size = 0.36 * cell
    layers.over.append(circle(x, y, 0.17 * cell, fill=WHITE))
    layers.over.append(Label(x, y + DROP * size, rule.kind.upper(), size, bold=True))


def _edge(rule: Rule, paper: Paper) -> Place:
    """The middle of the edge between a dot's two cells, in points."""
    (ra, ca), (rb, cb) = (paper.centre(c) for c in rule.cells)
    return paper.at(((ra + rb) / 2, (ca + cb) / 2))


def _parity(rule: Rule, paper: Paper, layers: Layers) -> None:
    """Grey squares (even) or circles (odd) behind the digits."""
    cell = paper.cell
    for c in rule.cells:
        x, y = paper.at(paper.centre(c))
        if rule.kind == "even":
            side = 0.7 * cell
            layers.under.append(Fill(x - side / 2, y - side / 2, side, side, PARITY))
        else:
            layers.under.append(circle(x, y, 0.37 * cell, fill=PARITY))


def _region(rule: Rule, paper: Paper, layers: Layers) -> None:
    """The region's cells shaded."""
    for c in rule.cells:
        r, col = paper.rc(c)
        (x0, y0), (x1, y1) = paper.at((r, col)), paper.at((r + 1, col + 1))
        layers.under.append(Fill(x0, y0, x1 - x0, y1 - y0, REGION))


def _circles(rule: Rule, paper: Paper, layers: Layers) -> None:
    """Cosmetic circles: a plain ring in each cell."""
    cell = paper.cell
    for c in rule.cells:
        x, y = paper.at(paper.centre(c))
        layers.lines.append(circle(x, y, 0.42 * cell, None, COSMETIC, 0.04 * cell))
    _cosmetic_text(rule, paper, layers)


def _clues(rules: Sequence[Rule], paper: Paper, layers: Layers) -> None:
    """Outside clues, each number at its place beside the grid (several at one place side by
    side); a little killer's smaller, with a small arrow into the grid along its diagonal."""
    here: dict[tuple[int, int], list[Rule]] = {}
    for rule in rules:
        if rule.clue is not None:
            here.setdefault(rule.clue, []).append(rule)
    for (r, c), clues in here.items():
        text = " ".join(rule.text_value for rule in clues)
        size = CLUE_SIZE * paper.cell * min(1.0, 2 / max(2, len(text)))
        centre = (r + 0.5, c + 0.5)
        steps = [_step(rule, paper) for rule in clues if rule.kind == "little-killer"]
        for sr, sc in steps:
            start = (centre[0] + 0.18 * sr, centre[1] + 0.18 * sc)
            tip = (centre[0] + 0.46 * sr, centre[1] + 0.46 * sc)
            barbs = ((tip[0] - 0.14 * sr, tip[1]), (tip[0], tip[1] - 0.14 * sc))
            for a, b in ((start, tip), (tip, barbs[0]), (tip, barbs[1])):
                _path([a, b], paper, INK, 0.035, layers.top)
        if steps:  # the number moves off the arrow's way
            size *= 0.8
            centre = (centre[0] - 0.1 * steps[0][0], centre[1] - 0.1 * steps[0][1])
        x, y = paper.at(centre)
        layers.top.append(Label(x, y + DROP * size, text, size))


def _step(rule: Rule, paper: Paper) -> tuple[int, int]:
    """The diagonal step of a little killer, from its clue to its first cell."""
    assert rule.clue is not None
    r, c = paper.rc(rule.cells[0])
    return r - rule.clue[0], c - rule.clue[1]


DRAWERS: dict[str, Callable[[Rule, Paper, Layers], None]] = {
    "cage": _cage,
    "little-killer": _nothing,
    "outside-sum": _nothing,
    "sandwich": _nothing,
    "skyscraper": _nothing,
    "thermo": _thermo,
    "slow-thermo": _thermo,
    "arrow": _arrow,
    "white": _dot,
    "black": _dot,
    "x": _letter,
    "v": _letter,
    "even": _parity,
    "odd": _parity,
    "antiknight": _nothing,
    "antiking": _nothing,
    "nonconsecutive": _nothing,
    "negative": _nothing,
    "disjoint": _nothing,
    "region": _region,
    "whisper": _line_kind(WHISPER, 0.2),
    "renban": _line_kind(RENBAN, 0.2),
    "palindrome": _line_kind(PALINDROME, 0.15),
    "line": _line_kind(COSMETIC, 0.1),
    "circle": _circles,
    "outline": _outline_kind,
}
