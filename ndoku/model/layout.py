"""Layouts: where the complete sub-sudokus of a canvas are, and what else must differ.

Glossary
--------
sub-grid
    An ``N × N`` window of the canvas that holds one complete sudoku (rows, columns, boxes).
corner
    The canvas ``(row, col)`` of a sub-grid's top-left cell.
box
    ``r × c`` cells with ``r·c = N``: square (3×3 for N = 9) or rectangular (2×3 for N = 6).
    Sub-grids found from the shape start on the box lattice (rows multiple of r, columns of c).
region
    A jigsaw region: a region map (one letter per cell, after the grid) replaces the boxes.
extra unit
    N more cells that must all differ: the diagonals of each sub-grid (X-sudoku), the windoku
    windows, a ``# unit:`` list, or a letter of an extra-unit map.
mask
    Boolean ``rows × cols`` array: True where a cell exists.

A layout is found from the shape (the smallest set of complete, lattice-aligned windows that
covers every cell), declared in the puzzle (``# subgrids: 0,0 0,12 6,6``, ``# box: 2x3``),
or named (``# layout: windmill``, a text file in ``layouts/``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import LayoutError
from ndoku.limits import MAX_SYMBOLS
from ndoku.text.formats import header_key, parse, read_file
from ndoku.text.grid import MISSING, Block, Grid, Header

Corner = tuple[int, int]
Box = tuple[int, int]

#: Largest N: the exact solver keeps a cell's candidates in 64 bits.
#: Square box sides tried when sub-grids are found from the shape: N = n² = 4 .. 64.
BOX_SIDES = range(8, 1, -1)
#: What ``# extra:`` accepts.
EXTRA_KINDS = ("diagonals", "windoku")
#: Environment variable naming extra layout folders (os.pathsep-separated).
LAYOUTS_ENV = "NDOKU_LAYOUTS"
_COVER_NODE_LIMIT = 200_000
_BOX_HEADER = re.compile(r"^(\d+)\s*[x×*]\s*(\d+)$")


@dataclass(frozen=True)
class Extra:
    """An extra unit: its kind (``diagonal``, ``window``, ``unit``, ``map``) and canvas cells."""

    kind: str
    cells: tuple[Corner, ...]


@dataclass(frozen=True, eq=False)
class Layout:
    """The sub-grids of a canvas, their boxes or regions, and any extra units.

    Attributes
    ----------
    mask : ndarray of bool, shape (rows, cols)
        True where a cell exists.
    size : int
        N, the number of symbols and the side of every sub-grid.
    box : (int, int) or None
        Rows and columns of a box; None when a region map replaces the boxes.
    corners : tuple of (int, int)
        Top-left canvas position of each sub-grid, in reading order.
    regions : ndarray of int32 or None
        Region number of each canvas position (-1 where no cell), for jigsaw layouts.
    extras : tuple of Extra
        Extra units, each N cells.
    box_inferred : bool
        True when the box shape was chosen by ndoku (rectangular boxes without ``# box:``).
    name : str or None
        The layout file it came from, if any.
    """

    mask: NDArray[np.bool_]
    size: int
    box: Box | None
    corners: tuple[Corner, ...]
    regions: NDArray[np.int32] | None = None
    extras: tuple[Extra, ...] = ()
    box_inferred: bool = False
    name: str | None = None
    description: str = ""

    @property
    def shape(self) -> tuple[int, int]:
        rows, cols = self.mask.shape
        return int(rows), int(cols)

    @property
    def cells(self) -> int:
        return int(self.mask.sum())

    def corners_text(self) -> str:
        """The sub-grids as written in a ``# subgrids:`` header."""
        return " ".join(f"{r},{c}" for r, c in self.corners)

    def boxes_text(self) -> str:
        """How the boxes are given: ``3×3``, ``2×3 (inferred)`` or ``jigsaw``.

        >>> load_layout("samurai").boxes_text()
        '3×3'
        """
        if self.box is None:
            return "jigsaw"
        return f"{self.box[0]}×{self.box[1]}" + (" (inferred)" if self.box_inferred else "")

    def extras_text(self) -> str:
        """The extra units, counted by kind (``2 diagonals, 4 windows``), or ``""``."""
        kinds: dict[str, int] = {}
        for extra in self.extras:
            kinds[extra.kind] = kinds.get(extra.kind, 0) + 1
        return ", ".join(f"{k} {kind}{'s' if k > 1 else ''}" for kind, k in kinds.items())


def infer_box(size: int) -> Box | None:
    """The box of a sub-grid of ``size`` symbols: the most square r × c, r ≤ c, r ≥ 2.

    >>> infer_box(9), infer_box(6), infer_box(12), infer_box(7)
    ((3, 3), (2, 3), (3, 4), None)
    """
    rows = max((r for r in range(2, int(size**0.5) + 1) if size % r == 0), default=0)
    return (rows, size // rows) if rows else None


def _options(max_value: int, box: Box | None, region_size: int | None) -> list[tuple[int, Box]]:
    """``(N, lattice)`` pairs to try, in order of preference.

    Square boxes first (largest first), then rectangular ones; sizes below the largest value
    are tried only when nothing else fits (and then the value is reported out of range).
    """
    if region_size is not None:
        return [(region_size, (1, 1))]
    if box is not None:
        return [(box[0] * box[1], box)]
    squares = [(n * n, (n, n)) for n in BOX_SIDES]
    rectangles = [
        (size, lattice)
        for size in range(MAX_SYMBOLS, 3, -1)
        if (lattice := infer_box(size)) is not None and lattice[0] != lattice[1]
    ]
    ordered = squares + rectangles
    return [o for o in ordered if o[0] >= max_value] + [o for o in ordered if o[0] < max_value]


def find_layout(
    mask: NDArray[np.bool_],
    grid: Grid | None = None,
    *,
    max_value: int = 0,
    box: Box | None = None,
    region_size: int | None = None,
) -> tuple[int, Box, tuple[Corner, ...]]:
    """Find the sub-grids of a canvas from its shape: ``(N, lattice, corners)``.

    Takes the first size (see :func:`_options`) whose complete, lattice-aligned windows cover
    every cell; of those windows it keeps the smallest set that still covers every cell, and
    refuses when that set is not unique.

    Examples
    --------
    >>> import numpy as np
    >>> samurai = np.ones((21, 21), dtype=bool)
    >>> samurai[0:6, 9:12] = samurai[15:21, 9:12] = False
    >>> samurai[9:12, 0:6] = samurai[9:12, 15:21] = False
    >>> find_layout(samurai, max_value=9)[2]
    ((0, 0), (0, 12), (6, 6), (12, 0), (12, 12))
    >>> find_layout(np.ones((6, 6), dtype=bool), max_value=6)[:2]
    (6, (2, 3))
    """
    side = mask.shape[0]
    if mask.all() and mask.shape[1] == side and side > MAX_SYMBOLS:
        raise LayoutError(
            f"the canvas is {side}×{side} without missing cells, one sudoku of {side} symbols: "
            f"ndoku solves up to {MAX_SYMBOLS} (a cell's candidates are 64 bits); if it is made "
            "of smaller sub-grids, declare them with '# subgrids:'"
        )
    closest: tuple[int, int, Box] | None = None  # (cells covered, N, lattice) of the best try
    for size, lattice in _options(max_value, box, region_size):
        if size > min(mask.shape):
            continue
        windows = _complete_windows(mask, size, _lattice(mask, lattice))
        covered = int(_covered(mask, windows, size).sum())
        if windows and covered == mask.sum():
            return size, lattice, _unique_minimum_cover(mask, windows, size)
        if closest is None or covered > closest[0]:
            closest = (covered, size, lattice)
    if closest is None:
        raise LayoutError("the canvas is smaller than any sub-grid (4×4 at least)")
    raise _uncovered_error(mask, closest[1], closest[2], grid)


def declared_layout(
    mask: NDArray[np.bool_],
    corners: Sequence[Corner],
    line: int | None = None,
    *,
    max_value: int = 0,
    box: Box | None = None,
    region_size: int | None = None,
) -> tuple[int, Box]:
    """N and lattice of declared sub-grid corners: the first size that fits them all.

    >>> import numpy as np
    >>> declared_layout(np.ones((12, 12), dtype=bool), [(0, 0), (0, 3), (3, 0), (3, 3)])
    (9, (3, 3))
    """
    for size, lattice in _options(max_value, box, region_size):
        if len(_complete_windows(mask, size, corners)) != len(corners):
            continue
        if _covered(mask, corners, size).sum() == mask.sum():
            return size, lattice
    raise LayoutError(
        f"the declared sub-grids {' '.join(f'{r},{c}' for r, c in corners)} do not form complete "
        "N×N sudokus covering every cell: each window must lie inside the canvas, have no "
        "missing cell, and every cell must be in one",
        line,
    )


def parse_corners(header: Header) -> list[Corner]:
    """Corners from a ``# subgrids: 0,0 0,12 …`` header.

    >>> parse_corners(Header(1, "0,0 0,12  6,6"))
    [(0, 0), (0, 12), (6, 6)]
    """
    corners = _parse_positions(
        header, "subgrids", "sub-grid corner", "such as '0,0 0,12 6,6' (0-based top-left cells)"
    )
    if not corners:
        raise LayoutError("'# subgrids:' lists no corners", header.line)
    return corners


def parse_box(header: Header) -> Box:
    """The box of a ``# box: 2x3`` header (rows × columns).

    >>> parse_box(Header(1, "3x4"))
    (3, 4)
    """
    match = _BOX_HEADER.match(header.value.strip())
    if not match or int(match[1]) < 1 or int(match[2]) < 1:
        raise LayoutError(
            f"bad box {header.value!r} in '# box:': expected rows x columns such as '2x3'",
            header.line,
        )
    rows, cols = int(match[1]), int(match[2])
    if rows * cols < 4 or rows * cols > MAX_SYMBOLS:
        raise LayoutError(
            f"boxes of {rows}×{cols} make {rows * cols} symbols; ndoku takes 4 to {MAX_SYMBOLS}",
            header.line,
        )
    return rows, cols


def _parse_positions(header: Header, key: str, noun: str, example: str) -> list[Corner]:
    positions = []
    for item in header.value.split():
        parts = item.split(",")
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise LayoutError(
                f"bad {noun} {item!r} in '# {key}:': expected row,col pairs {example}",
                header.line,
            )
        positions.append((int(parts[0]), int(parts[1])))
    return positions


# --- region and extra-unit maps ---------------------------------------------------------


def _read_map(block: Block, shape: tuple[int, int]) -> tuple[NDArray[np.str_], dict[str, int]]:
    """A letter map block: the letter of each canvas position and where each letter first is.

    Letters are single characters, written with or without spaces; ``.`` marks no letter.
    """
    spaced = any(len(text.split()) > 1 for _, text in block.lines)
    first_line = block.lines[0][0]
    if len(block.lines) != shape[0]:
        raise LayoutError(
            f"this map has {len(block.lines)} rows but the grid has {shape[0]}", first_line
        )
    letters = np.full(shape, ".", dtype="<U1")
    lines: dict[str, int] = {}
    for r, (number, text) in enumerate(block.lines):
        tokens = text.split() if spaced else list(text.strip())
        if len(tokens) != shape[1]:
            raise LayoutError(
                f"this map row has {len(tokens)} letters but the grid has {shape[1]} columns",
                number,
            )
        for c, token in enumerate(tokens):
            if len(token) != 1:
                raise LayoutError(
                    f"map entries are single letters (or . for none), found {token!r}", number
                )
            letters[r, c] = token
            lines.setdefault(token, number)
    return letters, lines


def _maps(
    grid: Grid, mask: NDArray[np.bool_]
) -> tuple[NDArray[np.int32] | None, list[tuple[Extra, int]]]:
    """The region map (a letter on every cell) and extra units (maps with ``.``, by line)."""
    regions: NDArray[np.int32] | None = None
    extras: list[tuple[Extra, int]] = []
    for block in grid.extra:
        letters, lines = _read_map(block, mask.shape)
        stray = np.argwhere(~mask & (letters != "."))
        if len(stray):
            r, c = (int(x) for x in stray[0])
            raise LayoutError(
                f"the map has letter {letters[r, c]!r} where the grid has no cell "
                f"(row {r + 1}, column {c + 1})",
                block.lines[r][0],
            )
        names = sorted(set(letters[mask].tolist()) - {"."})
        if (letters[mask] == ".").any():
            for name in names:
                cells = tuple((int(r), int(c)) for r, c in np.argwhere(letters == name))
                extras.append((Extra("map", cells), lines[name]))
            continue
        if regions is not None:
            raise LayoutError(
                "a second region map: a puzzle has one; mark an extra-unit map with '.' "
                "for the cells in none",
                block.lines[0][0],
            )
        regions = np.full(mask.shape, -1, dtype=np.int32)
        for number, name in enumerate(names):
            regions[letters == name] = number
        sizes = {name: int((letters == name).sum()) for name in names}
        common = max(set(sizes.values()), key=list(sizes.values()).count)
        odd = [name for name in names if sizes[name] != common]
        if odd:
            raise LayoutError(
                f"region {odd[0]!r} has {sizes[odd[0]]} cells but most regions have {common}: "
                "every region needs N cells",
                lines[odd[0]],
            )
    return regions, extras


def _declared_extras(grid: Grid, layout: Layout) -> list[Extra]:
    """Extra units from ``# extra:`` and ``# unit:`` headers, for the layout's sub-grids."""
    size = layout.size
    extras: list[Extra] = []
    for header in grid.headers.get("extra", ()):
        for kind in header.value.replace(",", " ").split():
            if kind == "diagonals":
                for r0, c0 in layout.corners:
                    extras.append(Extra("diagonal", tuple((r0 + i, c0 + i) for i in range(size))))
                    extras.append(
                        Extra("diagonal", tuple((r0 + i, c0 + size - 1 - i) for i in range(size)))
                    )
            elif kind == "windoku":
                if layout.box is None or layout.box[0] != layout.box[1]:
                    raise LayoutError("windoku windows need square boxes", header.line)
                n = layout.box[0]
                offsets = [1 + k * (n + 1) for k in range(n - 1)]
                for r0, c0 in layout.corners:
                    for dr in offsets:
                        for dc in offsets:
                            cells = tuple(
                                (r0 + dr + i, c0 + dc + j) for i in range(n) for j in range(n)
                            )
                            extras.append(Extra("window", cells))
            else:
                raise LayoutError(
                    f"unknown extra units {kind!r}: '# extra:' takes {', '.join(EXTRA_KINDS)}",
                    header.line,
                )
    for header in grid.headers.get("unit", ()):
        cells = tuple(_parse_positions(header, "unit", "cell", "such as '0,0 1,1 2,2' (0-based)"))
        rows, cols = layout.shape
        for r, c in cells:
            if not (r < rows and c < cols and layout.mask[r, c]):
                raise LayoutError(f"'# unit:' names {r},{c}, which is not a cell", header.line)
        if len(set(cells)) != len(cells):
            raise LayoutError("'# unit:' names a cell twice", header.line)
        if len(cells) != size:
            raise LayoutError(
                f"'# unit:' lists {len(cells)} cells; a unit holds N = {size}", header.line
            )
        extras.append(Extra("unit", cells))
    return extras


# --- layout files -----------------------------------------------------------------------


def layout_dirs() -> list[Path]:
    """Folders searched for layout files: ``$NDOKU_LAYOUTS`` first, then the bundled ones."""
    extra = [Path(p) for p in os.environ.get(LAYOUTS_ENV, "").split(os.pathsep) if p]
    package = Path(__file__).resolve().parent.parent
    bundled = [package / "layouts", package.parent / "layouts"]  # installed, or a checkout
    return [d for d in [*extra, *bundled] if d.is_dir()]


def available_layouts() -> dict[str, Path]:
    """Layout names and their files, first folder winning."""
    found: dict[str, Path] = {}
    for folder in layout_dirs():
        for path in sorted(folder.glob("*.txt")):
            found.setdefault(path.stem, path)
    return found


def load_layout(name_or_path: str, line: int | None = None) -> Layout:
    """A layout by name (a file in ``layouts/``) or by path to a grid file.

    >>> load_layout("samurai").corners_text()
    '0,0 0,12 6,6 12,0 12,12'
    """
    path = Path(name_or_path)
    if not path.is_file():
        known = available_layouts()
        if name_or_path not in known:
            names = ", ".join(sorted(known)) or "none found"
            raise LayoutError(f"unknown layout {name_or_path!r} (known layouts: {names})", line)
        path = known[name_or_path]
    [grid] = parse(read_file(path), str(path))
    if grid.header("layout") is not None:
        raise LayoutError(f"layout file {path} names another layout; give it a shape instead")
    return replace(layout_of(grid), name=path.stem, description=_description(path))


def layout_of(grid: Grid, override: str | None = None) -> Layout:
    """The layout of a parsed grid: ``override`` (``--layout``), its headers, or its shape.

    A named layout gives the geometry (sub-grids, boxes or regions, its extra units); the
    puzzle may add extra units of its own.
    """
    mask = grid.values != MISSING
    named = grid.header("layout")
    regions, map_extras = _maps(grid, mask)
    box_header = grid.header("box")
    if override is not None or named is not None:
        name = override if override is not None else named.value  # type: ignore[union-attr]
        layout = load_layout(name, None if override is not None else named.line)  # type: ignore[union-attr]
        _check_same_shape(grid, layout)
        _check_agrees(grid, layout, regions)
    else:
        layout = _own_layout(grid, mask, regions, box_header)
        if regions is None and box_header is None:
            layout = _outlined(grid, layout)
    for extra, line in map_extras:
        if len(extra.cells) != layout.size:
            raise LayoutError(
                f"this extra-unit map letter marks {len(extra.cells)} cells; a unit holds "
                f"N = {layout.size}",
                line,
            )
    extras: dict[frozenset[Corner], Extra] = {}  # a unit declared twice counts once
    for extra in [*layout.extras, *(e for e, _ in map_extras), *_declared_extras(grid, layout)]:
        extras.setdefault(frozenset(extra.cells), extra)
    return replace(layout, extras=tuple(extras.values()))


def _own_layout(
    grid: Grid,
    mask: NDArray[np.bool_],
    regions: NDArray[np.int32] | None,
    box_header: Header | None,
) -> Layout:
    """The layout a puzzle describes itself: shape, ``# subgrids:``, ``# box:``, region map."""
    box = parse_box(box_header) if box_header is not None else None
    if box is not None and regions is not None:
        raise LayoutError(
            "'# box:' and a region map both describe the boxes; keep one",
            box_header.line if box_header else None,
        )
    region_size = None if regions is None else int((regions == 0).sum())
    options = {"max_value": int(grid.values.max(initial=0)), "box": box, "region_size": region_size}
    declared = grid.header("subgrids")
    try:
        if declared is not None:
            corners = tuple(sorted(set(parse_corners(declared))))
            size, lattice = declared_layout(mask, corners, declared.line, **options)  # type: ignore[arg-type]
        else:
            size, lattice, corners = find_layout(mask, grid, **options)  # type: ignore[arg-type]
    except LayoutError as error:
        if box is None or box_header is None:
            raise
        size = box[0] * box[1]
        raise LayoutError(
            f"'# box: {box[0]}x{box[1]}' makes {size}×{size} sub-grids, which do not cover this "
            f"canvas: {error}",
            box_header.line,
        ) from None
    if regions is not None:
        return Layout(mask, size, None, corners, regions=regions)
    inferred = box is None and lattice[0] != lattice[1]
    return Layout(mask, size, lattice, corners, box_inferred=inferred)


def _check_agrees(grid: Grid, layout: Layout, regions: NDArray[np.int32] | None) -> None:
    """A puzzle naming a layout may repeat its sub-grids, box or regions, not change them."""
    subgrids, box = grid.header("subgrids"), grid.header("box")
    if subgrids is not None and tuple(sorted(set(parse_corners(subgrids)))) != layout.corners:
        raise LayoutError(
            f"'# subgrids:' differs from layout {layout.name} ({layout.corners_text()}); keep one",
            subgrids.line,
        )
    if box is not None and parse_box(box) != layout.box:
        raise LayoutError(
            f"'# box:' differs from layout {layout.name} ({layout.boxes_text()}); keep one",
            box.line,
        )
    if regions is not None and not (
        layout.regions is not None and _same_partition(regions, layout.regions)
    ):
        raise LayoutError(
            f"the region map differs from the boxes of layout {layout.name}; keep one",
            grid.extra[0].lines[0][0],
        )


def _outlined(grid: Grid, layout: Layout) -> Layout:
    """A drawn single grid whose outlines part it into N regions of N cells other than its
    boxes is a jigsaw (ndoku's ``--pretty`` drawing of one); other outlines say nothing."""
    drawn = grid.outlines
    if drawn is None or len(layout.corners) != 1 or layout.box is None:
        return layout
    counts = np.bincount(drawn[drawn >= 0])
    if len(counts) != layout.size or (counts != layout.size).any():
        return layout
    rows, cols = np.indices(drawn.shape)
    boxes = (rows // layout.box[0]) * (layout.size // layout.box[1]) + cols // layout.box[1]
    if _same_partition(np.where(drawn >= 0, boxes, -1), drawn):
        return layout
    return replace(layout, box=None, regions=drawn, box_inferred=False)


def _same_partition(a: NDArray[np.int32], b: NDArray[np.int32]) -> bool:
    """Whether two region maps group the cells the same way, whatever the letters."""
    pairs = set(zip(a.ravel().tolist(), b.ravel().tolist(), strict=True))
    return len(pairs) == len(set(a.ravel().tolist())) == len(set(b.ravel().tolist()))


def _description(path: Path) -> str:
    """The first comment line of a layout file that is not a header."""
    for raw in path.read_text(encoding="utf-8").splitlines():
        text = raw.strip()
        if text.startswith("#") and header_key(text) is None and text.strip("# "):
            return text.lstrip("#").strip()
    return ""


def _check_same_shape(grid: Grid, layout: Layout) -> None:
    mask = grid.values != MISSING
    name = layout.name or "the layout"
    if mask.shape != layout.mask.shape:
        raise LayoutError(
            f"the puzzle is {mask.shape[0]}×{mask.shape[1]} but {name} is "
            f"{layout.shape[0]}×{layout.shape[1]}"
        )
    diff = np.argwhere(mask != layout.mask)
    if len(diff):
        r, c = (int(x) for x in diff[0])
        what = "has no cell here" if mask[r, c] else "has a cell here, the puzzle has '.'"
        raise grid.error(r, c, f"the shape differs from layout {name}: {name} {what}", LayoutError)


# --- covering ---------------------------------------------------------------------------


def _lattice(mask: NDArray[np.bool_], lattice: Box) -> list[Corner]:
    """Every corner on the box lattice of the canvas."""
    step_r, step_c = lattice
    return [
        (r, c) for r in range(0, mask.shape[0], step_r) for c in range(0, mask.shape[1], step_c)
    ]


def _complete_windows(mask: NDArray[np.bool_], size: int, starts: Iterable[Corner]) -> list[Corner]:
    """The windows among ``starts`` that lie in the canvas with every cell present."""
    return [
        (r, c)
        for r, c in starts
        if r + size <= mask.shape[0]
        and c + size <= mask.shape[1]
        and mask[r : r + size, c : c + size].all()
    ]


def _covered(mask: NDArray[np.bool_], corners: Iterable[Corner], size: int) -> NDArray[np.bool_]:
    covered = np.zeros_like(mask)
    for r, c in corners:
        covered[r : r + size, c : c + size] = True
    return covered & mask


def _uncovered_error(
    mask: NDArray[np.bool_], size: int, lattice: Box, grid: Grid | None
) -> LayoutError:
    """Point at a stray ``.`` when a window nearly fits, else at a cell no window covers."""
    starts = _lattice(mask, lattice)
    windows = _complete_windows(mask, size, starts)
    uncovered = mask & ~_covered(mask, windows, size)
    r, c = (int(x) for x in np.argwhere(uncovered)[0])
    message = (
        f"this cell is covered by no complete {size}×{size} sub-grid (every window on the "
        f"{lattice[0]}×{lattice[1]} box lattice around it has a missing cell); check for a "
        "stray '.', or declare the layout with '# subgrids:' or '# layout:'"
    )
    holes = [
        (int((~mask[wr : wr + size, wc : wc + size]).sum()), wr, wc)
        for wr, wc in starts
        if wr + size <= mask.shape[0]
        and wc + size <= mask.shape[1]
        and uncovered[wr : wr + size, wc : wc + size].any()
    ]
    if holes and min(holes)[0] <= min(lattice):
        count, wr, wc = min(holes)
        dr, dc = (int(x) for x in np.argwhere(~mask[wr : wr + size, wc : wc + size])[0])
        r, c = wr + dr, wc + dc
        message = (
            f"this '.' breaks the {size}×{size} sub-grid at canvas row {wr + 1}, column "
            f"{wc + 1}, which lacks only {count} cell{'s' if count > 1 else ''}; write 0 for an "
            "empty cell, or declare the layout with '# subgrids:' or '# layout:'"
        )
    if grid is None:
        return LayoutError(f"canvas row {r + 1}, column {c + 1}: {message}")
    error = grid.error(r, c, message, LayoutError)
    assert isinstance(error, LayoutError)
    return error


def _unique_minimum_cover(
    mask: NDArray[np.bool_], windows: list[Corner], size: int
) -> tuple[Corner, ...]:
    """The smallest set of windows covering every cell; an error when there are several."""
    cols = mask.shape[1]
    index = np.flatnonzero(mask.ravel())
    position = {int(p): i for i, p in enumerate(index)}
    bits = []
    holders: list[list[int]] = [[] for _ in range(len(index))]
    for w, (r, c) in enumerate(windows):
        b = 0
        for rr in range(r, r + size):
            for p in range(rr * cols + c, rr * cols + c + size):
                b |= 1 << position[p]
                holders[position[p]].append(w)
        bits.append(b)
    full = (1 << len(index)) - 1
    best: list[frozenset[int]] = []
    best_size = len(windows) + 1
    nodes = 0

    def search(chosen: tuple[int, ...], covered: int) -> None:
        nonlocal best_size, nodes
        nodes += 1
        if nodes > _COVER_NODE_LIMIT:
            raise LayoutError(
                f"too many ways to place the {len(windows)} candidate sub-grids; declare them "
                "with '# subgrids:'"
            )
        if covered == full:
            found = frozenset(chosen)
            if len(chosen) < best_size:
                best_size, best[:] = len(chosen), [found]
            elif found not in best:
                best.append(found)
            return
        if len(chosen) >= best_size:
            return
        rest = ~covered & full
        cell = (rest & -rest).bit_length() - 1  # the first cell left: its windows must cover it
        for w in holders[cell]:
            search((*chosen, w), covered | bits[w])

    search((), 0)
    if len(best) > 1:
        common = sorted(frozenset.intersection(*best))
        options = sorted({w for cover in best for w in cover} - set(common))
        name = next(iter(_matching_layout_names(mask)), None)
        hint = f"'# layout: {name}' or " if name else ""
        fmt = " ".join(f"{windows[w][0]},{windows[w][1]}" for w in common)
        alts = " ".join(f"{windows[w][0]},{windows[w][1]}" for w in options)
        raise LayoutError(
            f"the shape does not decide the layout: {len(best)} different sets of "
            f"{best_size} {size}×{size} sub-grids cover it. Every set has {fmt or 'none of'}"
            f" {'and ' if common else ''}some of {alts}. Declare it with {hint}"
            f"'# subgrids: {fmt} …' (row,col of each top-left cell)"
        )
    return tuple(sorted(windows[w] for w in best[0]))


def _matching_layout_names(mask: NDArray[np.bool_]) -> list[str]:
    """Bundled layouts with exactly this shape (suggested when the shape is ambiguous)."""
    names = []
    for name, path in available_layouts().items():
        try:
            [grid] = parse(read_file(path), str(path))
        except Exception:
            continue
        if grid.values.shape == mask.shape and ((grid.values != MISSING) == mask).all():
            names.append(name)
    return names
