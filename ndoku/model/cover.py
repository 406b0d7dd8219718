"""Sub-grids of a canvas: found from its shape (the smallest cover by complete windows on a
box lattice), or checked when they are declared.

A *window* is an ``N × N`` square of the canvas; it is *complete* when every position in it
is a cell. Sub-grids found from the shape start on the box lattice (rows multiple of the box
height, columns of its width).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import LayoutError
from ndoku.limits import MAX_CELLS, MAX_SYMBOLS
from ndoku.model.kept import Kept
from ndoku.text.grid import Grid

Corner = tuple[int, int]
Box = tuple[int, int]

#: Square box sides tried when sub-grids are found from the shape: N = n² = 4 .. 64.
BOX_SIDES = range(8, 1, -1)
#: Search nodes of the minimum cover before the shape is declared too ambiguous.
_COVER_NODE_LIMIT = 200_000
#: Sub-grids found, by the shape and what was asked of them: a shape read again (a server's
#: requests, a puzzle read in two alphabets) is covered once.
_FOUND: Kept[Hashable, tuple[int, Box, tuple[Corner, ...]]] = Kept(64)


def infer_box(size: int) -> Box | None:
    """The box of a sub-grid of ``size`` symbols: the most square r × c, r ≤ c, r ≥ 2.

    >>> infer_box(9), infer_box(6), infer_box(12), infer_box(7)
    ((3, 3), (2, 3), (3, 4), None)
    """
    rows = max((r for r in range(2, int(size**0.5) + 1) if size % r == 0), default=0)
    return (rows, size // rows) if rows else None


def _options(
    max_value: int, box: Box | None, region_size: int | None, latin: bool = False
) -> list[tuple[int, Box]]:
    """``(N, lattice)`` pairs to try, in order of preference.

    Square boxes first (largest first), then rectangular ones; without boxes (``latin``),
    every size, largest first, anywhere on the canvas. Sizes below the largest value are
    tried only when nothing else fits (and then the value is reported out of range).
    """
    if region_size is not None:
        return [(region_size, (1, 1))]
    if box is not None:
        return [(box[0] * box[1], box)]
    if latin:
        ordered = [(size, (1, 1)) for size in range(MAX_SYMBOLS, 3, -1)]
        return [o for o in ordered if o[0] >= max_value] + [o for o in ordered if o[0] < max_value]
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
    latin: bool = False,
    suggest: Callable[[NDArray[np.bool_]], list[str]] | None = None,
) -> tuple[int, Box, tuple[Corner, ...]]:
    """Find the sub-grids of a canvas from its shape: ``(N, lattice, corners)``.

    Takes the first size (see :func:`_options`; ``latin``: sub-grids without boxes) whose
    complete, lattice-aligned windows cover every cell; of those windows it keeps the
    smallest set that still covers every cell, and refuses when that set is not unique
    (naming a layout file of this shape that ``suggest`` finds).

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
    >>> find_layout(np.ones((7, 7), dtype=bool), latin=True)[::2]
    (7, ((0, 0),))
    """
    key = (mask.shape, np.packbits(mask).tobytes(), max_value, box, region_size, latin)
    return _FOUND.get_or_build(
        key, lambda: _find_layout(mask, grid, max_value, box, region_size, latin, suggest)
    )


def _find_layout(
    mask: NDArray[np.bool_],
    grid: Grid | None,
    max_value: int,
    box: Box | None,
    region_size: int | None,
    latin: bool,
    suggest: Callable[[NDArray[np.bool_]], list[str]] | None,
) -> tuple[int, Box, tuple[Corner, ...]]:
    """:func:`find_layout`, not kept (its errors name places of ``grid``: none is kept)."""
    side = mask.shape[0]
    if mask.size and not mask.any():
        message = "no cell: every position is '.', a missing cell (0 is an empty one)"
        raise grid.error(0, 0, message, LayoutError) if grid is not None else LayoutError(message)
    if mask.all() and mask.shape[1] == side and side > MAX_SYMBOLS:
        raise LayoutError(
            f"the canvas is {side}×{side} without missing cells, one sudoku of {side} symbols: "
            f"ndoku solves up to {MAX_SYMBOLS} (a cell's candidates are 64 bits); if it is made "
            "of smaller sub-grids, declare them with '# subgrids:'"
        )
    check_cells(mask)
    closest: tuple[int, int, Box] | None = None  # (cells covered, N, lattice) of the best try
    for size, lattice in _options(max_value, box, region_size, latin):
        if size > min(mask.shape):
            continue
        windows = _complete_windows(mask, size, _lattice(mask, lattice))
        covered = int(_covered(mask, windows, size).sum())
        if windows and covered == mask.sum():
            return size, lattice, _unique_minimum_cover(mask, windows, size, suggest)
        if closest is None or covered > closest[0]:
            closest = (covered, size, lattice)
    if closest is None:
        least = f"{max_value}×{max_value} at least for values up to {max_value}"
        message = (
            f"the grid has {mask.shape[0]} rows and {mask.shape[1]} columns: smaller than any "
            f"sub-grid ({least if max_value > 4 else '4×4 at least'})"
        )
        if grid is not None and mask.size:
            raise grid.error(0, 0, message, LayoutError)
        raise LayoutError(message)
    raise _uncovered_error(mask, closest[1], closest[2], grid)


def check_cells(mask: NDArray[np.bool_]) -> None:
    """Refuse a canvas of more than :data:`~ndoku.limits.MAX_CELLS` cells.

    >>> import numpy as np
    >>> check_cells(np.ones((9, 900), dtype=bool))
    Traceback (most recent call last):
    ...
    ndoku.errors.LayoutError: this canvas has 8,100 cells; ndoku takes 4,096 at most (a 64×64 grid)
    """
    cells = int(mask.sum())
    if cells > MAX_CELLS:
        raise LayoutError(
            f"this canvas has {cells:,} cells; ndoku takes {MAX_CELLS:,} at most (a "
            f"{MAX_SYMBOLS}×{MAX_SYMBOLS} grid)"
        )


def declared_layout(
    mask: NDArray[np.bool_],
    corners: Sequence[Corner],
    line: int | None = None,
    *,
    max_value: int = 0,
    box: Box | None = None,
    region_size: int | None = None,
    latin: bool = False,
) -> tuple[int, Box]:
    """N and lattice of declared sub-grid corners: the first size that fits them all
    (``latin``: sub-grids without boxes).

    >>> import numpy as np
    >>> declared_layout(np.ones((12, 12), dtype=bool), [(0, 0), (0, 3), (3, 0), (3, 3)])
    (9, (3, 3))
    """
    check_cells(mask)
    for size, lattice in _options(max_value, box, region_size, latin):
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
        # A pencil-mark grid refuses an empty cell: it lists the cell's candidates instead.
        fill = (
            "its candidates (all of them where any value may go)"
            if grid is not None and grid.marks is not None
            else "0 for an empty cell"
        )
        message = (
            f"this '.' breaks the {size}×{size} sub-grid at canvas row {wr + 1}, column "
            f"{wc + 1}, which lacks only {count} cell{'s' if count > 1 else ''}; write {fill}, "
            "or declare the layout with '# subgrids:' or '# layout:'"
        )
    if grid is None:
        return LayoutError(f"canvas row {r + 1}, column {c + 1}: {message}")
    error = grid.error(r, c, message, LayoutError)
    assert isinstance(error, LayoutError)
    return error


def _unique_minimum_cover(
    mask: NDArray[np.bool_],
    windows: list[Corner],
    size: int,
    suggest: Callable[[NDArray[np.bool_]], list[str]] | None,
) -> tuple[Corner, ...]:
    """The smallest set of windows covering every cell; an error when there are several
    (naming a layout of this shape that ``suggest`` finds)."""
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
        name = next(iter(suggest(mask) if suggest is not None else []), None)
        hint = f"'# layout: {name}' or the option --layout {name}, or with " if name else ""
        fmt = " ".join(f"{windows[w][0]},{windows[w][1]}" for w in common)
        alts = " ".join(f"{windows[w][0]},{windows[w][1]}" for w in options)
        raise LayoutError(
            f"the shape does not decide the layout: {len(best)} different sets of "
            f"{best_size} {size}×{size} sub-grids cover it. Every set has {fmt or 'none of'}"
            f" {'and ' if common else ''}some of {alts}. Declare it with {hint}"
            f"'# subgrids: {fmt} …' (row,col of each top-left cell)"
        )
    return tuple(sorted(windows[w] for w in best[0]))
