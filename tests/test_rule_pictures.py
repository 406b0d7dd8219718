"""Pictures of variant rules: each kind's shapes in the SVG at the places its cells give (read
back with xml.etree, not compared with an image), cage outlines against a slow reference,
the drawing order, PNG and PDF of every kind, and the terminal's cage map, outside clues and
rule lines."""

from __future__ import annotations

import io
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest
from PIL import Image

from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.model.rules import KINDS, same_rules
from ndoku.picture.book import pages
from ndoku.picture.drawing import THIN, picture
from ndoku.picture.pdf import to_pdf
from ndoku.picture.raster import to_png
from ndoku.picture.rules import (
    ARROW,
    BULB,
    CAGE_INSET,
    CIRCLE,
    PALINDROME,
    PARITY,
    REGION,
    RENBAN,
    THERMO,
    WHISPER,
    outline,
)
from ndoku.picture.scene import Scene
from ndoku.picture.svg import to_svg
from ndoku.tasks.render import draw

if TYPE_CHECKING:
    from conftest import CliRun

ROOT = Path(__file__).parent.parent
NS = "{http://www.w3.org/2000/svg}"
CELL = 20.0
MARGIN = CELL / 4
EMPTY9 = "0" * 81 + "\n"
#: A 9×9 with a rule of every kind (drawn, not solved).
EVERY_KIND = (
    EMPTY9
    + """
cage 10: r1c1 r1c2
little-killer 12 dr: r0c0
outside-sum 10: r0c5
sandwich 5: r4c0
skyscraper 3: r10c2
thermo: r2c1 r2c2 r2c3
slow-thermo: r3c1 r3c2
arrow: r4c2 > r5c3 r6c3
white: r7c1 r7c2
black 3: r8c1 r8c2
x: r9c1 r9c2
v: r9c3 r9c4
even: r5c5
odd: r5c6
antiknight
antiking
nonconsecutive
negative: white
disjoint
region: r6c7 r6c8 r7c7
whisper: r2c5 r2c6 r2c7
renban: r3c5 r3c6
palindrome: r4c5 r4c6 r4c7
line: r8c5 r8c6
circle: r8c8
outline "7": r9c7 r9c8
"""
)


def _puzzle(text: str) -> Puzzle:
    [puzzle] = read_puzzles(text=text)
    return puzzle


def _root(scene: Scene) -> ET.Element:
    return ET.fromstring(to_svg(scene))


def _at(r: float, c: float, up: int = 0, left: int = 0) -> tuple[float, float]:
    """The point (x, y) of canvas point (r, c), as a picture of cell CELL and no title puts
    it (``up`` and ``left``: rows and columns of outside clues before the canvas)."""
    return MARGIN + (left + c) * CELL, MARGIN + (up + r) * CELL


def _segments(d: str) -> list[tuple[float, float, float, float]]:
    """The straight segments of an SVG path as ndoku writes them (M, H, V and L)."""
    out = []
    x = y = 0.0
    for op, args in re.findall(r"([MHVL])([^MHVL]*)", d):
        v = [float(a) for a in args.split()]
        if op == "M":
            x, y = v
            continue
        x1, y1 = (v[0], y) if op == "H" else (x, v[0]) if op == "V" else (v[0], v[1])
        out.append((x, y, x1, y1))
        x, y = x1, y1
    return out


def _rounded(segments: Iterable[Sequence[float]]) -> list[tuple[float, ...]]:
    """Segments sorted, each to a hundredth of a point (as the SVG writes them)."""
    return sorted(tuple(round(v, 2) for v in s) for s in segments)


def _paths(root: ET.Element, **attrs: str) -> list[ET.Element]:
    return [p for p in root.iter(f"{NS}path") if all(p.get(k) == v for k, v in attrs.items())]


@dataclass(frozen=True)
class Round:
    """A rounded rectangle of the SVG (a circle, a pill): its centre, size and colours."""

    cx: float
    cy: float
    w: float
    h: float
    rx: float
    fill: str
    stroke: str


def _spots(root: ET.Element) -> list[Round]:
    out = []
    for rect in root.iter(f"{NS}rect"):
        if rect.get("rx") is None:
            continue
        x, y, w, h, rx = (float(rect.get(k, 0)) for k in ("x", "y", "width", "height", "rx"))
        out.append(
            Round(x + w / 2, y + h / 2, w, h, rx, rect.get("fill", ""), rect.get("stroke", ""))
        )
    return out


def _texts(root: ET.Element) -> list[tuple[str, float, float, ET.Element]]:
    """Each text with its x, y and its group (size and style)."""
    return [
        (t.text or "", float(t.get("x", 0)), float(t.get("y", 0)), g)
        for g in root.iter(f"{NS}g")
        for t in g.iter(f"{NS}text")
    ]


def _near(a: float, b: float, tolerance: float = 0.02) -> bool:
    return abs(a - b) <= tolerance


# -- cage outlines against a slow reference ---------------------------------------------


def _depth(cells: set[tuple[int, int]], r: float, c: float) -> float:
    """How far canvas point (r, c) is from every position outside the cells, in the larger of
    its row and column distances (an inset outline is where this equals the inset)."""
    outside = [(i, j) for i in range(-2, 8) for j in range(-2, 8) if (i, j) not in cells]
    return min(max(max(i - r, 0.0, r - i - 1), max(j - c, 0.0, c - j - 1)) for i, j in outside)


@pytest.mark.parametrize("seed", range(6))
def test_a_cage_outline_is_where_the_cells_are_the_inset_deep(seed: int) -> None:
    rng = random.Random(seed)
    cells = {(r, c) for r in range(5) for c in range(5) if rng.random() < 0.45} or {(2, 2)}
    inset = 0.1
    runs = outline(cells, inset)
    for (r0, c0), (r1, c1) in runs:  # every point of every run is that deep
        assert (r0 == r1 and c0 < c1) or (c0 == c1 and r0 < r1)
        for t in np.linspace(0, 1, 17):
            assert _depth(cells, r0 + t * (r1 - r0), c0 + t * (c1 - c0)) == pytest.approx(inset)
    # and wherever the depth crosses the inset along a row or column of samples, a run crosses
    samples = np.arange(-0.5, 5.5, 0.09) + 0.0123  # off every run's own row and column
    for a in samples:
        depths = {(a, b): _depth(cells, a, b) - inset for b in samples}
        depths |= {(b, a): _depth(cells, b, a) - inset for b in samples}
        for b0, b1 in pairwise(samples):
            if (depths[a, b0] > 0) != (depths[a, b1] > 0):  # along row a
                assert any(c0 == c1 and b0 <= c0 <= b1 and r0 <= a <= r1
                           for (r0, c0), (r1, c1) in runs), (a, b0)  # fmt: skip
            if (depths[b0, a] > 0) != (depths[b1, a] > 0):  # down column a
                assert any(r0 == r1 and b0 <= r0 <= b1 and c0 <= a <= c1
                           for (r0, c0), (r1, c1) in runs), (b0, a)  # fmt: skip


def test_a_single_cell_outline_and_runs_that_go_on_are_joined() -> None:
    i = CAGE_INSET
    assert sorted(outline({(0, 0)}, i)) == sorted(
        [((i, i), (i, 1 - i)), ((1 - i, i), (1 - i, 1 - i)), ((i, i), (1 - i, i)),
         ((i, 1 - i), (1 - i, 1 - i))]
    )  # fmt: skip
    # a row of three: one run along its top, not three
    tops = [run for run in outline({(0, 0), (0, 1), (0, 2)}, i) if run[0][0] == i == run[1][0]]
    assert tops == [((i, i), (i, 3 - i))]


# -- each kind in the SVG ---------------------------------------------------------------


def test_a_cage_is_dashed_inset_in_its_cells_with_its_sum_on_white_in_its_first_cell() -> None:
    p = _puzzle(EMPTY9 + "\ncage 17: r3c4 r2c5 r2c4\n")
    root = _root(picture(p, cell=CELL))
    [path] = [p for p in root.iter(f"{NS}path") if p.get("stroke-dasharray")]
    expected = [
        (*_at(r0, c0), *_at(r1, c1))
        for (r0, c0), (r1, c1) in outline({(2, 3), (1, 4), (1, 3)}, CAGE_INSET)
    ]
    assert _rounded(_segments(path.get("d", ""))) == _rounded(expected)
    [(_, x, y, group)] = [t for t in _texts(root) if t[0] == "17"]
    left, top = _at(1, 3)  # r2c4: the first cell in reading order
    assert left < x < left + CELL / 3 and top < y < top + CELL / 3
    assert group.get("text-anchor") == "start" and float(group.get("font-size", 0)) < CELL / 3
    backing = [
        r
        for r in root.iter(f"{NS}rect")
        if r.get("fill") == "#ffffff" and r.get("rx") is None and float(r.get("x", 0)) > 0
    ]
    assert any(
        float(r.get("x", 0)) <= x <= float(r.get("x", 0)) + float(r.get("width", 0))
        and float(r.get("y", 0)) <= y <= float(r.get("y", 0)) + float(r.get("height", 0))
        for r in backing
    )


def test_a_cage_across_the_sub_grids_of_a_samurai_is_outlined_on_the_canvas() -> None:
    grid = (ROOT / "examples/samurai.txt").read_text()
    p = _puzzle(grid + "\ncage 9: r9c9 r10c9 r10c10\ncage: r7c9 r7c10\n")
    root = _root(picture(p, cell=CELL))
    dashed = [p for p in root.iter(f"{NS}path") if p.get("stroke-dasharray")]
    drawn = [s for p in dashed for s in _segments(p.get("d", ""))]
    expected = [
        (*_at(r0, c0), *_at(r1, c1))
        for cells in ({(8, 8), (9, 8), (9, 9)}, {(6, 8), (6, 9)})
        for (r0, c0), (r1, c1) in outline(cells, CAGE_INSET)
    ]
    assert _rounded(drawn) == _rounded(expected)
    assert "9" in [t[0] for t in _texts(root)]


def test_a_thermometer_is_a_grey_bulb_and_a_thick_grey_line_through_its_centres() -> None:
    p = _puzzle(EMPTY9 + "\nthermo: r2c2 r3c3 r3c4\n")
    root = _root(picture(p, cell=CELL))
    [bulb] = [s for s in _spots(root) if s.fill == THERMO]
    assert (bulb.cx, bulb.cy) == pytest.approx(_at(1.5, 1.5), abs=0.01)
    assert bulb.w == pytest.approx(2 * BULB * CELL, abs=0.01) == 2 * bulb.rx
    [line] = _paths(root, stroke=THERMO)
    assert float(line.get("stroke-width", 0)) > 0.2 * CELL
    assert line.get("stroke-linecap") == "round"
    points = [_at(1.5, 1.5), _at(2.5, 2.5), _at(2.5, 3.5)]
    assert _rounded(_segments(line.get("d", ""))) == _rounded((*a, *b) for a, b in pairwise(points))


def test_an_arrow_starts_at_its_circles_edge_and_ends_in_a_head() -> None:
    p = _puzzle(EMPTY9 + "\narrow: r5c5 > r5c6 r5c7\n")
    root = _root(picture(p, cell=CELL))
    [circle] = [s for s in _spots(root) if s.stroke == ARROW]
    assert (circle.cx, circle.cy) == pytest.approx(_at(4.5, 4.5), abs=0.01)
    assert circle.fill == "none" and circle.rx == pytest.approx(CIRCLE * CELL, abs=0.01)
    segments = [s for path in _paths(root, stroke=ARROW) for s in _segments(path.get("d", ""))]
    start = min(segments, key=lambda s: s[0])
    assert start[:2] == pytest.approx(
        (_at(4.5, 4.5)[0] + CIRCLE * CELL, _at(4.5, 4.5)[1]), abs=0.05
    )
    tip_x = max(max(s[0], s[2]) for s in segments)
    assert _at(4.5, 6.5)[0] < tip_x < _at(4.5, 7)[0]  # past the last centre, in its cell
    head = [s for s in segments if _near(s[0], tip_x) and not _near(s[1], s[3])]
    assert len(head) == 2 and {s[3] > s[1] for s in head} == {True, False}  # one up, one down


def test_a_pill_is_one_rounded_box_round_its_cells() -> None:
    p = _puzzle(EMPTY9 + "\narrow: r2c2 r2c3 > r3c4\n")
    [pill] = [s for s in _spots(_root(picture(p, cell=CELL))) if s.stroke == ARROW]
    assert (pill.cx, pill.cy) == pytest.approx(_at(1.5, 2), abs=0.01)
    assert pill.w == pytest.approx((2 - 2 * (0.5 - CIRCLE)) * CELL, abs=0.01)
    assert pill.h == pytest.approx(2 * CIRCLE * CELL, abs=0.01) == 2 * pill.rx


@pytest.mark.parametrize(
    ("line", "fill", "number"),
    [("white: r3c3 r3c4", "#ffffff", None), ("black: r3c3 r4c3", "#000000", None),
     ("white 2: r3c3 r3c4", "#ffffff", "2"), ("black 3: r3c3 r4c3", "#000000", "3")],
)  # fmt: skip
def test_a_dot_sits_on_the_edge_between_its_cells(line: str, fill: str, number: str | None) -> None:
    p = _puzzle(EMPTY9 + "\n" + line + "\n")
    root = _root(picture(p, cell=CELL))
    [dot] = [s for s in _spots(root) if s.stroke == "#000000"]
    edge = _at(2.5, 3) if "c4" in line else _at(3, 2.5)
    assert (dot.cx, dot.cy) == pytest.approx(edge, abs=0.01) and dot.fill == fill
    numbers = [t for t in _texts(root) if t[0] == number]
    assert len(numbers) == (number is not None)
    if number:
        assert numbers[0][1] == pytest.approx(edge[0], abs=0.01)


@pytest.mark.parametrize("kind", ["x", "v"])
def test_x_and_v_are_letters_on_the_edge_between_their_cells(kind: str) -> None:
    p = _puzzle(EMPTY9 + f"\n{kind}: r6c6 r7c6\n")
    [(text, x, y, group)] = _texts(_root(picture(p, cell=CELL)))
    mx, my = _at(6, 5.5)
    assert text == kind.upper() and group.get("font-weight") == "bold"
    assert x == pytest.approx(mx, abs=0.01) and my < y < my + CELL / 4  # baseline just below


@pytest.mark.parametrize(
    ("kind", "colour"),
    [("whisper", WHISPER), ("renban", RENBAN), ("palindrome", PALINDROME), ("line", None)],
)
def test_lines_run_through_their_cells_centres_in_their_colour(
    kind: str, colour: str | None
) -> None:
    p = _puzzle(EMPTY9 + f"\n{kind}: r1c1 r2c2 r2c3 r3c3\n")
    root = _root(picture(p, cell=CELL))
    rounded = [p for p in root.iter(f"{NS}path") if p.get("stroke-linecap") == "round"]
    [path] = rounded
    assert colour is None or path.get("stroke") == colour
    points = [_at(0.5, 0.5), _at(1.5, 1.5), _at(1.5, 2.5), _at(2.5, 2.5)]
    assert _rounded(_segments(path.get("d", ""))) == _rounded((*a, *b) for a, b in pairwise(points))


def test_even_squares_odd_circles_and_regions_are_shaded_behind_the_grid() -> None:
    p = _puzzle(EMPTY9 + "\neven: r2c2\nodd: r4c4\nregion: r7c7 r7c8\n")
    root = _root(picture(p, cell=CELL))
    rects = [r for r in root.iter(f"{NS}rect") if r.get("rx") is None]
    squares = [r for r in rects if r.get("fill") == PARITY]
    [square] = squares
    x, y, w = (float(square.get(k, 0)) for k in ("x", "y", "width"))
    assert (x + w / 2, y + w / 2) == pytest.approx(_at(1.5, 1.5), abs=0.01) and w < CELL
    [odd] = [s for s in _spots(root) if s.fill == PARITY]
    assert (odd.cx, odd.cy) == pytest.approx(_at(3.5, 3.5), abs=0.01)
    shaded = {
        (float(r.get("x", 0)), float(r.get("y", 0))) for r in rects if r.get("fill") == REGION
    }
    assert shaded == {_at(6, 6), _at(6, 7)}
    order = list(root)
    first_line = min(order.index(p) for p in root.iter(f"{NS}path"))
    assert all(order.index(e) < first_line for e in [square, *_spot_elements(root, PARITY)])


def _spot_elements(root: ET.Element, fill: str) -> list[ET.Element]:
    return [r for r in root.iter(f"{NS}rect") if r.get("rx") is not None and r.get("fill") == fill]


def test_outside_clues_stand_beside_their_rows_and_columns_in_a_margin_of_their_own() -> None:
    plain = picture(_puzzle(EMPTY9), cell=CELL)
    p = _puzzle(EMPTY9 + "\nsandwich 12: r0c3\nskyscraper 4: r5c10\noutside-sum 14: r2c0\n")
    scene = picture(p, cell=CELL)
    # a column on each side with clues (left, right), a row above, none below
    assert scene.width == pytest.approx(plain.width + 2 * CELL)
    assert scene.height == pytest.approx(plain.height + CELL)
    texts = {t[0]: t for t in _texts(_root(scene))}
    for text, (r, c) in (("12", (-1, 2)), ("4", (4, 9)), ("14", (1, -1))):
        _, x, y, _ = texts[text]
        cx, cy = _at(r + 0.5, c + 0.5, up=1, left=1)
        assert x == pytest.approx(cx, abs=0.01) and cy < y < cy + CELL / 3
    # the grid moved with them: its top-left corner is one cell in and one cell down
    thin = [s for p in _paths(_root(scene)) for s in _segments(p.get("d", ""))]
    assert min(min(s[0], s[2]) for s in thin) == pytest.approx(_at(0, 0, 1, 1)[0], abs=0.01)


def test_a_clue_inside_the_canvas_needs_no_margin() -> None:
    grid = (ROOT / "examples/samurai.txt").read_text()
    plain = picture(_puzzle(grid), cell=CELL)
    scene = picture(_puzzle(grid + "\nsandwich 10: r1c10\n"), cell=CELL)
    assert (scene.width, scene.height) == (plain.width, plain.height)
    [(_, x, _, _)] = [t for t in _texts(_root(scene)) if t[0] == "10"]
    assert x == pytest.approx(_at(0, 9.5)[0], abs=0.01)


@pytest.mark.parametrize(("way", "step"), [("dr", (1, 1)), ("dl", (1, -1))])
def test_a_little_killer_points_along_its_diagonal(way: str, step: tuple[int, int]) -> None:
    p = _puzzle(EMPTY9 + f"\nlittle-killer 23 {way}: r0c5\n")
    root = _root(picture(p, cell=CELL))
    [(_, x, y, _)] = [t for t in _texts(root) if t[0] == "23"]
    left, top = _at(-1, 4, up=1)
    assert left < x < left + CELL and top < y < top + CELL  # in the clue's place, above r1c5
    segments = [s for p in _paths(root, stroke="#000000") for s in _segments(p.get("d", ""))]
    diagonal = [s for s in segments if not _near(s[0], s[2]) and not _near(s[1], s[3])]
    [shaft] = diagonal
    dx, dy = shaft[2] - shaft[0], shaft[3] - shaft[1]
    assert (np.sign(dy), np.sign(dx)) == step and _near(abs(dx), abs(dy))


def test_rules_of_the_whole_grid_are_a_legend_under_it() -> None:
    p = _puzzle(EMPTY9 + "\nantiknight\nnegative: white black\n")
    plain = picture(_puzzle(EMPTY9), cell=CELL, footer="f")
    scene = picture(p, cell=CELL, footer="f")
    texts = _texts(_root(scene))
    [(_, _, y, _)] = [t for t in texts if t[0] == "anti-knight · negative: white, black"]
    assert y > _at(9, 0)[1] and scene.height > plain.height
    [(_, _, footer_y, _)] = [t for t in texts if t[0] == "f"]
    assert y < footer_y


def test_cosmetic_shapes_are_drawn_plainly_with_their_text() -> None:
    p = _puzzle(EMPTY9 + '\ncircle: r2c2\noutline "6": r5c5 r5c6\n')
    root = _root(picture(p, cell=CELL))
    [ring] = [s for s in _spots(root) if s.fill == "none"]
    assert (ring.cx, ring.cy) == pytest.approx(_at(1.5, 1.5), abs=0.01)
    solid = [p for p in root.iter(f"{NS}path") if p.get("stroke-width") == "0.6"]
    assert len(_segments(solid[0].get("d", ""))) == 4 and not solid[0].get("stroke-dasharray")
    assert "6" in [t[0] for t in _texts(root)]


def test_digits_stay_over_the_decorations_and_cage_sums_over_the_digits() -> None:
    p = _puzzle(
        "6" + EMPTY9[1:] + "\neven: r1c1\nthermo: r1c1 r1c2\ncage 11: r1c1 r1c2\nx: r2c1 r2c2\n"
    )
    root = _root(picture(p, cell=CELL))
    order = list(root)

    def first(test: Callable[[ET.Element], object]) -> int:
        return next(i for i, e in enumerate(order) if test(e))

    [(_, x, y, _)] = [t for t in _texts(root) if t[0] == "11"]

    def backs_the_sum(e: ET.Element) -> bool:
        if e.tag != f"{NS}rect" or e.get("fill") != "#ffffff" or e.get("x") is None:
            return False
        left, top, w, h = (float(e.get(k, 0)) for k in ("x", "y", "width", "height"))
        return left <= x <= left + w and top <= y <= top + h

    fill = first(lambda e: e.get("fill") == PARITY)
    thermo = first(lambda e: e.get("stroke") == THERMO)
    grid = first(lambda e: e.get("stroke-width") == f"{THIN * CELL:g}")
    cage = first(lambda e: e.get("stroke-dasharray"))
    letter = first(lambda e: any(t.text == "X" for t in e))
    digit = first(lambda e: any(t.text == "6" for t in e))
    backing = first(backs_the_sum)
    total = first(lambda e: any(t.text == "11" for t in e))
    assert fill < thermo < grid < cage < letter < digit < backing < total


# -- PNG and PDF ------------------------------------------------------------------------


def test_a_puzzle_of_every_kind_writes_png_and_pdf() -> None:
    p = _puzzle(EVERY_KIND)
    assert {rule.kind for rule in p.rules} == set(KINDS)
    scene = picture(p, p.givens, title="every kind", footer="footer")
    image = Image.open(io.BytesIO(to_png(scene, scale=1)))
    assert image.size == (round(scene.width), round(scene.height))
    pdf = to_pdf([scene])
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    ET.fromstring(to_svg(scene))


def test_the_png_shows_the_dots_where_they_are() -> None:
    p = _puzzle(EMPTY9 + "\nblack: r3c3 r3c4\nwhite: r6c6 r6c7\n")
    image = Image.open(io.BytesIO(to_png(picture(p, cell=CELL), scale=2))).convert("L")

    def at(r: float, c: float) -> int:
        x, y = _at(r, c)
        return int(np.asarray(image)[round(2 * y), round(2 * x)])

    assert at(2.5, 3) < 40 and at(2.5, 3.1) < 40  # black, inside the dot
    assert at(5.5, 6) > 215 or at(5.5, 6.05) > 215  # white inside (a grid line may cross it)
    assert at(5.5, 6.15) < 120  # its dark rim, 0.15 of a cell from its centre


# -- the terminal -----------------------------------------------------------------------


def test_the_terminal_shows_a_cage_map_beside_the_grid_and_the_sums_under_it() -> None:
    p = _puzzle(EMPTY9 + "\ncage 3: r1c1 r1c2\ncage 24: r9c7 r9c8 r9c9\n")
    lines = draw(p).plain.splitlines()
    assert lines[1].split("│")[1:4] == [". . .", ". . .", ". . ."]  # the grid, then the map
    assert lines[1].split("   ")[1].startswith("│a a .│")
    assert lines[11].split("   ")[1] == "│. . .│. . .│b b b│"
    assert lines[13] == "# cages: a=3 b=24"
    assert max(map(len, lines)) <= 80


def test_the_terminal_puts_the_cage_map_under_a_grid_too_wide_for_it() -> None:
    grid = (ROOT / "examples/samurai.txt").read_text()
    lines = draw(_puzzle(grid + "\ncage 7: r3c1 r3c2\n")).plain.splitlines()
    assert max(map(len, lines)) <= 80 and any(line.startswith("│a a ") for line in lines)
    assert lines[-1] == "# cages: a=7"


def test_the_terminal_shows_outside_clues_around_the_grid() -> None:
    p = _puzzle(
        EMPTY9 + "\nsandwich 12: r0c3\nskyscraper 4: r10c9\noutside-sum 14: r2c0\n"
        "outside-sum 9: r5c10\nlittle-killer 20 dl: r0c10\n"
    )
    lines = draw(p).plain.splitlines()
    top, first = lines[0], lines[1]
    column = first.index("┌") + 1 + 3 * 2  # the third column: every column 3 wide, "20↙"
    assert top[column : column + 3].strip() == "12" and top.rstrip().endswith("20↙")
    assert lines[-1].rstrip().endswith("4")
    assert lines[3].lstrip().startswith("14│") and lines[7].rstrip().endswith("│9")


def test_the_terminal_lists_the_other_rules_and_the_drawing_reads_back() -> None:
    text = EMPTY9 + "\nthermo: r1c1 r1c2\nx: r5c5 r5c6\nantiknight\n"
    p = _puzzle(text)
    drawn = draw(p).plain
    assert drawn.splitlines()[-3:] == ["thermo: r1c1 r1c2", "x: r5c5 r5c6", "antiknight"]
    again = _puzzle(drawn)
    assert same_rules(again.rules, p.rules) and (again.givens == p.givens).all()


def test_show_draws_cages_and_clues_and_a_drawing_of_them_is_refused_not_misread(
    tmp_path: Path, run: CliRun
) -> None:
    path = tmp_path / "k.txt"
    path.write_text(EMPTY9 + "\ncage 8: r1c1 r2c1\nskyscraper 2: r0c1\n")
    code, out, _ = run("show", str(path))
    assert code == 0 and "# cages: a=8" in out and out.splitlines()[0].strip() == "2"
    code, _, err = run("show", "-", input=out)
    assert code == 2 and err.startswith("Error: ")


def test_a_page_of_a_book_keeps_the_rules_shapes_scaled_alike() -> None:
    scene = picture(_puzzle(EMPTY9 + "\nthermo: r1c1 r1c2\ncage 5: r3c3 r3c4\n"), cell=CELL)
    [page] = pages([scene])
    scale = page.lines[0].width / scene.lines[0].width
    assert scale > 1
    assert [s.radius * scale for s in scene.spots] == pytest.approx([s.radius for s in page.spots])
    dashes = [(a.dash * scale, b.dash) for a, b in zip(scene.lines, page.lines, strict=True)]
    assert any(a for a, _ in dashes) and all(a == pytest.approx(b) for a, b in dashes)


def test_the_cage_map_stays_beside_its_grid_with_a_clue_row_below_it() -> None:
    lines = draw(_puzzle(EMPTY9 + "\ncage 3: r9c1 r9c2\nskyscraper 2: r10c1\n")).plain.splitlines()
    assert lines[11].endswith("│a a .│. . .│. . .│") and lines[13].strip() == "2"


@pytest.mark.parametrize("seed", range(8))
def test_any_mix_of_rules_is_drawn_in_every_form_and_in_the_terminal(seed: int) -> None:
    rules = EVERY_KIND.split("\n\n")[1].splitlines()
    chosen = random.Random(seed).sample(rules, k=1 + seed * len(rules) // 8)
    p = _puzzle(EMPTY9 + "\n" + "\n".join(chosen) + "\n")
    scene = picture(p, p.givens)
    ET.fromstring(to_svg(scene))
    assert to_png(scene, scale=0.5)[:4] == b"\x89PNG"
    lines = draw(p).plain.splitlines()
    assert max(map(len, lines)) <= 80
    assert all(rule_line in lines for rule_line in chosen if rule_line.split()[0] in
               ("thermo:", "x:", "antiknight", "whisper:", "region:"))  # fmt: skip
