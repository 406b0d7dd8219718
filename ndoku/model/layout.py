"""Layouts: where the complete sub-sudokus of a canvas are, and what else must differ.

Sub-grids, boxes, regions and units are as in the package glossary (:mod:`ndoku`).

Glossary
--------
corner
    The canvas ``(row, col)`` of a sub-grid's top-left cell.
box shape
    Square (3×3 for N = 9) or rectangular (2×3 for N = 6). Sub-grids found from the shape
    start on the box lattice (rows multiple of r, columns of c).
region map
    One letter per cell, after the grid: its regions replace the boxes (a jigsaw).
extra unit
    The diagonals of each sub-grid (X-sudoku), the windoku windows, a ``# unit:`` list, or a
    letter of an extra-unit map.
mask
    Boolean ``rows × cols`` array: True where a cell exists.

A layout is found from the shape (the smallest set of complete, lattice-aligned windows that
covers every cell), declared in the puzzle (``# subgrids: 0,0 0,12 6,6``, ``# box: 2x3``),
or named (``# layout: windmill``, a text file in ``layouts/``).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import LayoutError
from ndoku.limits import MAX_SYMBOLS
from ndoku.model.cover import Box, Corner, declared_layout, find_layout
from ndoku.text.blocks import map_rows
from ndoku.text.formats import header_key, parse, read_file
from ndoku.text.grid import MISSING, Block, Grid, Header

#: What ``# extra:`` accepts.
EXTRA_KINDS = ("diagonals", "windoku")
#: Environment variable naming extra layout folders (os.pathsep-separated).
LAYOUTS_ENV = "NDOKU_LAYOUTS"
_BOX_HEADER = re.compile(r"^(\d+)\s*[x×*]\s*(\d+)$")


@dataclass(frozen=True)
class Extra:
    """An extra unit: its kind (``diagonal``, ``window``, ``unit``, ``map``, or ``rule``: a
    variant rule's, on a frame only) and canvas cells."""

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
        Rows and columns of a box; None when a region map replaces the boxes, or when the
        sub-grids have none (``# box: none``: Latin squares, rows and columns only).
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

    @property
    def latin(self) -> bool:
        """Whether the sub-grids have neither boxes nor regions: rows and columns only."""
        return self.box is None and self.regions is None

    def corners_text(self) -> str:
        """The sub-grids as written in a ``# subgrids:`` header."""
        return " ".join(f"{r},{c}" for r, c in self.corners)

    def boxes_text(self) -> str:
        """How the boxes are given: ``3×3``, ``2×3 (inferred)``, ``jigsaw`` or ``none``.

        >>> load_layout("samurai").boxes_text()
        '3×3'
        """
        if self.box is None:
            return "none" if self.regions is None else "jigsaw"
        return f"{self.box[0]}×{self.box[1]}" + (" (inferred)" if self.box_inferred else "")

    def extras_text(self) -> str:
        """The extra units, counted by kind (``2 diagonals, 4 windows``), or ``""``."""
        kinds: dict[str, int] = {}
        for extra in self.extras:
            kinds[extra.kind] = kinds.get(extra.kind, 0) + 1
        return ", ".join(f"{k} {kind}{'s' if k > 1 else ''}" for kind, k in kinds.items())


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


def parse_box(header: Header) -> Box | None:
    """The box of a ``# box: 2x3`` header (rows × columns); None for ``# box: none``, sub-grids
    without boxes (Latin squares).

    >>> parse_box(Header(1, "3x4")), parse_box(Header(1, "None"))
    ((3, 4), None)
    """
    if header.value.strip().lower() == "none":
        return None
    match = _BOX_HEADER.match(header.value.strip())
    if not match or int(match[1]) < 1 or int(match[2]) < 1:
        raise LayoutError(
            f"bad box {header.value!r} in '# box:': expected rows x columns such as '2x3', or none",
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
    first_line = block.lines[0][0]
    if len(block.lines) != shape[0]:
        raise LayoutError(
            f"this map has {len(block.lines)} rows but the grid has {shape[0]}", first_line
        )
    letters = np.full(shape, ".", dtype="<U1")
    lines: dict[str, int] = {}
    for r, ((number, _), tokens) in enumerate(zip(block.lines, map_rows(block), strict=True)):
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
    stat = path.stat()
    return _load(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=64)
def _load(path: str, mtime: int, size: int) -> Layout:
    """A layout file read once per process while it stays unchanged (``mtime``, ``size``)."""
    text = read_file(path)
    [grid] = parse(text, path)
    if grid.header("layout") is not None:
        raise LayoutError(f"layout file {path} names another layout; give it a shape instead")
    layout = replace(layout_of(grid), name=Path(path).stem, description=_description(text))
    for shared in (layout.mask, layout.regions):  # every caller gets these arrays
        if shared is not None:
            shared.flags.writeable = False
    return layout


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
    if box_header is not None and regions is not None:
        raise LayoutError(
            "'# box:' and a region map both describe the boxes; keep one", box_header.line
        )
    latin = box_header is not None and box is None
    region_size = None if regions is None else int((regions == 0).sum())
    options = {"max_value": grid.top, "box": box, "region_size": region_size, "latin": latin}
    declared = grid.header("subgrids")
    try:
        if declared is not None:
            corners = tuple(sorted(set(parse_corners(declared))))
            size, lattice = declared_layout(mask, corners, declared.line, **options)  # type: ignore[arg-type]
        else:
            size, lattice, corners = find_layout(
                mask,
                grid,
                suggest=_matching_layout_names,
                **options,  # type: ignore[arg-type]
            )
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
    if latin:
        return Layout(mask, size, None, corners)
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
    boxes = None if box is None else parse_box(box)
    if box is not None and (boxes != layout.box or (boxes is None and not layout.latin)):
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


def _description(text: str) -> str:
    """The first comment line of a layout file's text that is not a header."""
    for raw in text.splitlines():
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
