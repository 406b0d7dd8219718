"""Layouts: where the complete sub-sudokus of a canvas are.

Glossary
--------
sub-grid
    An ``N × N`` window of the canvas that holds one complete sudoku (rows, columns, boxes).
corner
    The canvas ``(row, col)`` of a sub-grid's top-left cell.
box lattice
    Boxes are ``n × n`` (``N = n²``); sub-grids found from the shape start on multiples of n.
mask
    Boolean ``rows × cols`` array: True where a cell exists.

A layout is found from the shape (the smallest set of complete, lattice-aligned windows that
covers every cell), declared in the puzzle (``# subgrids: 0,0 0,12 6,6``), or named
(``# layout: windmill``, a text file in ``layouts/``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import LayoutError
from ndoku.grid import MISSING, Grid, Header, header_key, parse, read_file

Corner = tuple[int, int]

#: Box sides tried when sub-grids are found from the shape: N = n² = 4 .. 49.
BOX_SIDES = range(7, 1, -1)
#: Environment variable naming extra layout folders (os.pathsep-separated).
LAYOUTS_ENV = "NDOKU_LAYOUTS"
_COVER_NODE_LIMIT = 200_000


@dataclass(frozen=True, eq=False)
class Layout:
    """The sub-grids of a canvas.

    Attributes
    ----------
    mask : ndarray of bool, shape (rows, cols)
        True where a cell exists.
    size : int
        N, the number of symbols and the side of every sub-grid.
    box : (int, int)
        Rows and columns of a box.
    corners : tuple of (int, int)
        Top-left canvas position of each sub-grid, in reading order.
    name : str or None
        The layout file it came from, if any.
    """

    mask: NDArray[np.bool_]
    size: int
    box: tuple[int, int]
    corners: tuple[Corner, ...]
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


def find_layout(mask: NDArray[np.bool_], grid: Grid | None = None) -> Layout:
    """Find the sub-grids of a canvas from its shape.

    Tries box sides n = 7 … 2 (largest first) and takes the first N = n² whose complete,
    lattice-aligned windows cover every cell; of those windows it keeps the smallest set that
    still covers every cell, and refuses when that set is not unique.

    Examples
    --------
    >>> import numpy as np
    >>> samurai = np.ones((21, 21), dtype=bool)
    >>> samurai[0:6, 9:12] = samurai[15:21, 9:12] = False
    >>> samurai[9:12, 0:6] = samurai[9:12, 15:21] = False
    >>> find_layout(samurai).corners
    ((0, 0), (0, 12), (6, 6), (12, 0), (12, 12))
    """
    closest: tuple[int, int] | None = None  # (cells covered, n) of the best partial cover
    for n in BOX_SIDES:
        if n * n > min(mask.shape):
            continue
        windows = _complete_windows(mask, n * n, _lattice(mask, n))
        covered = int(_covered(mask, windows, n * n).sum())
        if windows and covered == mask.sum():
            return Layout(mask, n * n, (n, n), _unique_minimum_cover(mask, windows, n * n))
        if closest is None or covered > closest[0]:
            closest = (covered, n)
    if closest is None:
        raise LayoutError("the canvas is too small for any sudoku (at least 4×4 cells)")
    raise _uncovered_error(mask, closest[1], grid)


def declared_layout(
    mask: NDArray[np.bool_], corners: Sequence[Corner], line: int | None = None
) -> Layout:
    """The layout of declared sub-grid corners; N is the largest size that fits them all.

    >>> import numpy as np
    >>> declared_layout(np.ones((12, 12), dtype=bool), [(0, 0), (0, 3), (3, 0), (3, 3)]).size
    9
    """
    for n in BOX_SIDES:
        size = n * n
        if len(_complete_windows(mask, size, corners)) != len(corners):
            continue
        if _covered(mask, corners, size).sum() == mask.sum():
            return Layout(mask, size, (n, n), tuple(sorted(set(corners))))
    raise LayoutError(
        f"the declared sub-grids {' '.join(f'{r},{c}' for r, c in corners)} do not form complete "
        "N×N sudokus (N = 4, 9, 16, …) covering every cell: each window must lie inside the "
        "canvas, have no missing cell, and every cell must be in one",
        line,
    )


def parse_corners(header: Header) -> list[Corner]:
    """Corners from a ``# subgrids: 0,0 0,12 …`` header.

    >>> parse_corners(Header(1, "0,0 0,12  6,6"))
    [(0, 0), (0, 12), (6, 6)]
    """
    corners = []
    for item in header.value.split():
        parts = item.split(",")
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise LayoutError(
                f"bad sub-grid corner {item!r} in '# subgrids:': expected row,col pairs "
                "such as '0,0 0,12 6,6' (0-based top-left cells)",
                header.line,
            )
        corners.append((int(parts[0]), int(parts[1])))
    if not corners:
        raise LayoutError("'# subgrids:' lists no corners", header.line)
    return corners


# --- layout files -----------------------------------------------------------------------


def layout_dirs() -> list[Path]:
    """Folders searched for layout files: ``$NDOKU_LAYOUTS`` first, then the bundled ones."""
    extra = [Path(p) for p in os.environ.get(LAYOUTS_ENV, "").split(os.pathsep) if p]
    here = Path(__file__).resolve().parent
    bundled = [here / "layouts", here.parent / "layouts"]
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
    layout = layout_of(grid)
    return Layout(
        layout.mask, layout.size, layout.box, layout.corners, path.stem, _description(path)
    )


def layout_of(grid: Grid, override: str | None = None) -> Layout:
    """The layout of a parsed grid: ``override`` (``--layout``), its headers, or its shape."""
    mask = grid.values != MISSING
    named = grid.header("layout")
    if override is not None or named is not None:
        name = override if override is not None else named.value  # type: ignore[union-attr]
        layout = load_layout(name, None if override is not None else named.line)  # type: ignore[union-attr]
        _check_same_shape(grid, layout)
        return layout
    declared = grid.header("subgrids")
    if declared is not None:
        return declared_layout(mask, parse_corners(declared), declared.line)
    return find_layout(mask, grid)


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


def _lattice(mask: NDArray[np.bool_], n: int) -> list[Corner]:
    """Every corner on the n×n box lattice of the canvas."""
    return [(r, c) for r in range(0, mask.shape[0], n) for c in range(0, mask.shape[1], n)]


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


def _uncovered_error(mask: NDArray[np.bool_], n: int, grid: Grid | None) -> LayoutError:
    """Point at a stray ``.`` when a window nearly fits, else at a cell no window covers."""
    size = n * n
    windows = _complete_windows(mask, size, _lattice(mask, n))
    uncovered = mask & ~_covered(mask, windows, size)
    r, c = (int(x) for x in np.argwhere(uncovered)[0])
    message = (
        f"this cell is covered by no complete {size}×{size} sub-grid (every window on the "
        f"{n}×{n} box lattice around it has a missing cell); check for a stray '.', or declare "
        "the layout with '# subgrids:' or '# layout:'"
    )
    holes = [
        (int((~mask[wr : wr + size, wc : wc + size]).sum()), wr, wc)
        for wr, wc in _lattice(mask, n)
        if wr + size <= mask.shape[0]
        and wc + size <= mask.shape[1]
        and uncovered[wr : wr + size, wc : wc + size].any()
    ]
    if holes and min(holes)[0] <= n:
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
    for r, c in windows:
        b = 0
        for rr in range(r, r + size):
            for p in range(rr * cols + c, rr * cols + c + size):
                b |= 1 << position[p]
        bits.append(b)
    full = (1 << len(index)) - 1
    holders = [[w for w, b in enumerate(bits) if b >> i & 1] for i in range(len(index))]
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
        cell = min((i for i in range(len(index)) if rest >> i & 1), key=lambda i: len(holders[i]))
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
