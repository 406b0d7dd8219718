"""The layout language: rectangular boxes, jigsaw regions, extra units, and their errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ndoku.errors import ConflictError, LayoutError
from ndoku.model.cover import infer_box
from ndoku.model.layout import load_layout
from ndoku.model.puzzle import read_puzzles
from ndoku.model.units import BOX, EXTRA
from ndoku.tasks.verify import problems
from ndoku.text.formats import parse

from helpers import blank_grid


def published(path: Path, puzzle_cells: np.ndarray) -> np.ndarray:
    """The values of a published solution file, in the puzzle's cell order."""
    [grid] = parse(path.read_text())
    return grid.values[puzzle_cells[:, 0], puzzle_cells[:, 1]]


BOXES = {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3), 10: (2, 5), 12: (3, 4), 15: (3, 5)}
BOXES |= {16: (4, 4), 20: (4, 5), 25: (5, 5), 49: (7, 7)}


@pytest.mark.parametrize(("size", "box"), sorted(BOXES.items()))
def test_inferred_box_is_the_most_square(size: int, box: tuple[int, int]) -> None:
    assert infer_box(size) == box


@pytest.mark.parametrize("size", [5, 7, 11, 13])
def test_prime_sizes_have_no_box(size: int) -> None:
    assert infer_box(size) is None


@pytest.mark.parametrize(("size", "r", "c"), [(6, 2, 3), (8, 2, 4), (12, 3, 4), (15, 3, 5)])
def test_rectangular_boxes_declared(size: int, r: int, c: int) -> None:
    [puzzle] = read_puzzles(text=f"# box: {r}x{c}\n" + blank_grid(size))
    units = puzzle.units
    assert puzzle.size == size and puzzle.layout.box == (r, c)
    assert not puzzle.layout.box_inferred
    assert np.bincount(units.kind).tolist() == [size, size, size]
    first_box = units[int(np.flatnonzero(units.kind == BOX)[0])]
    assert sorted(puzzle.cell_rc[first_box][:, 0].tolist()) == sorted(list(range(r)) * c)
    # a cell's peers: its row and column (2(N−1)), its box less what they already hold
    assert {d for _, d in puzzle.graph.degree} == {2 * (size - 1) + (r - 1) * (c - 1)}


def test_rectangular_boxes_inferred_from_the_values() -> None:
    text = "1 2 3 4 5 6\n" + blank_grid(5, 6)
    [puzzle] = read_puzzles(text=text)
    assert puzzle.layout.box == (2, 3) and puzzle.layout.box_inferred
    assert puzzle.layout.boxes_text() == "2×3 (inferred)"


def test_box_declaration_that_does_not_fit_is_named() -> None:
    with pytest.raises(LayoutError, match=r"line 1: '# box: 2x4' makes 8×8 sub-grids"):
        read_puzzles(text="# box: 2x4\n" + blank_grid(6))
    with pytest.raises(LayoutError, match=r"line 1: bad box 'three'"):
        read_puzzles(text="# box: three\n" + blank_grid(6))


def test_interlocked_six_by_six_grids_are_found_from_the_mask() -> None:
    # two 6×6 grids sharing one 2×3 box: top-left at (0,0) and (4,3)
    rows = []
    for r in range(10):
        row = ["0" if (r < 6 and c < 6) or (r >= 4 and c >= 3) else "." for c in range(9)]
        rows.append(" ".join(row))
    rows[0] = "1 2 3 4 5 6 . . ."
    [puzzle] = read_puzzles(text="\n".join(rows))
    assert puzzle.layout.corners_text() == "0,0 4,3" and puzzle.layout.box == (2, 3)
    assert puzzle.n_cells == 2 * 36 - 6 and len(puzzle.units) == 2 * 18 - 1


def test_twodoku_of_sixteen_by_sixteen_grids() -> None:
    layout = load_layout("twodoku16")
    assert layout.size == 16 and layout.corners_text() == "0,0 12,12"


def test_jigsaw_region_map_replaces_the_boxes(data: Path) -> None:
    [puzzle] = read_puzzles(data / "janko" / "jigsaw" / "93_9x9.puzzle.txt")
    layout = puzzle.layout
    assert layout.box is None and layout.regions is not None
    assert layout.boxes_text() == "jigsaw"
    boxes = puzzle.units.select(puzzle.units.kind == BOX)
    assert len(boxes) == 9 and sorted(np.bincount(boxes.cells).tolist()) == [1] * 81
    # region 'i' of the published map: the top row's first five cells and four more
    first = boxes[int(layout.regions[0, 0])]
    assert {tuple(rc) for rc in puzzle.cell_rc[first].tolist()} == {
        (0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (1, 3), (1, 4), (2, 3), (2, 4)
    }  # fmt: skip


def test_jigsaw_solution_is_verified_against_the_regions(data: Path) -> None:
    [puzzle] = read_puzzles(data / "janko" / "jigsaw" / "93_9x9.puzzle.txt")
    solution = published(data / "janko" / "jigsaw" / "93_9x9.solution.txt", puzzle.cell_rc)
    assert problems(puzzle, solution) == []
    # the same grid breaks the classic boxes, which a jigsaw does not have
    [classic] = read_puzzles(text=blank_grid(9))
    assert any("box" in p for p in problems(classic, solution))


def test_region_names_do_not_matter_and_chars_maps_work() -> None:
    rows = ["1 0 0 0", "0 0 0 0", "0 0 0 0", "0 0 0 0"]
    spaced = "\n".join(rows) + "\n\na a b b\na a b b\nc c d d\nc c d d\n"
    packed = "\n".join(rows) + "\n\nxxyy\nxxyy\nzzww\nzzww\n"
    first, second = read_puzzles(text=spaced)[0], read_puzzles(text=packed)[0]

    def unit_sets(puzzle: object) -> set[frozenset[int]]:
        units = puzzle.units  # type: ignore[attr-defined]
        return {frozenset(units[u].tolist()) for u in range(len(units))}

    assert unit_sets(first) == unit_sets(second)


@pytest.mark.parametrize(
    ("maps", "pattern"),
    [
        ("a a b b\na a b b\nc c d d\n", r"line 6: this map has 3 rows but the grid has 4"),
        ("a a b b\na a b\nc c d d\nc c d d\n", r"line 7: this map row has 3 letters"),
        ("a a b b\na a b b\nc c d d\nc c d a\n", r"line 6: region 'a' has 5 cells"),
        ("a a b b\na a b b\nc c d d\nc c d dd\n", r"line 9: map entries are single letters"),
        (
            "a a b b\na a b b\nc c d d\nc c d d\n\na a b b\na a b b\nc c d d\nc c d d\n",
            r"line 11: a second region map",
        ),
    ],
)
def test_bad_region_maps_name_the_line(maps: str, pattern: str) -> None:
    text = "1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n\n" + maps
    with pytest.raises(LayoutError, match=pattern):
        read_puzzles(text=text)


def test_equal_givens_in_a_region_are_a_conflict() -> None:
    text = "0 1 0 0\n1 0 0 0\n0 0 0 0\n0 0 0 0\n\na a a b\na b b b\nc c d d\nc c d d\n"
    with pytest.raises(ConflictError, match=r"line 2, column 1: .* same region"):
        read_puzzles(text=text)


def test_diagonals_and_windoku_add_extra_units() -> None:
    [x] = read_puzzles(text="# extra: diagonals\n" + blank_grid(9))
    [w] = read_puzzles(text="# extra: windoku\n" + blank_grid(9))
    [both] = read_puzzles(text="# extra: diagonals, windoku\n" + blank_grid(9))
    assert (x.units.kind == EXTRA).sum() == 2
    assert (w.units.kind == EXTRA).sum() == 4
    assert (both.units.kind == EXTRA).sum() == 6
    assert x.layout.extras_text() == "2 diagonals" and w.layout.extras_text() == "4 windows"
    # the centre cell is on both diagonals: 20 peers + 8 + 8 − 4 already in its box/row/col
    centre = int(x.index[4, 4])
    assert x.graph.degree[centre] == 20 + 12
    window = w.layout.extras[0].cells
    assert window[0] == (1, 1) and window[-1] == (3, 3)


def test_extra_units_on_every_sub_grid_of_a_samurai() -> None:
    [puzzle] = read_puzzles(text="# extra: diagonals\n" + Path("layouts/samurai.txt").read_text())
    assert (puzzle.units.kind == EXTRA).sum() == 10


def test_user_units_and_extra_maps() -> None:
    unit = " ".join(f"{r},{(r * 2) % 9}" for r in range(9))
    [declared] = read_puzzles(text=f"# unit: {unit}\n" + blank_grid(9))
    assert (declared.units.kind == EXTRA).sum() == 1
    marks = ["x . . . . . . . ."] * 9
    [mapped] = read_puzzles(text=blank_grid(9) + "\n" + "\n".join(marks) + "\n")
    assert mapped.layout.extras[0].cells == tuple((r, 0) for r in range(9))


@pytest.mark.parametrize(
    ("header", "pattern"),
    [
        ("# unit: 0,0 1,1 2,2", r"line 1: '# unit:' lists 3 cells; a unit holds N = 9"),
        ("# unit: 0,0 0,0 1,1 2,2 3,3 4,4 5,5 6,6 7,7", r"line 1: '# unit:' names a cell twice"),
        ("# unit: 0,0 1,1 2,2 3,3 4,4 5,5 6,6 7,7 9,9", r"line 1: '# unit:' names 9,9"),
        ("# unit: 0,0 x", r"line 1: bad cell 'x'"),
        ("# extra: spiral", r"line 1: unknown extra units 'spiral'"),
    ],
)
def test_bad_extra_units_name_the_line(header: str, pattern: str) -> None:
    with pytest.raises(LayoutError, match=pattern):
        read_puzzles(text=header + "\n" + blank_grid(9))


def test_windoku_needs_square_boxes() -> None:
    with pytest.raises(LayoutError, match="line 2: windoku windows need square boxes"):
        read_puzzles(text="# box: 2x3\n# extra: windoku\n" + blank_grid(6))


def test_extra_map_letter_of_the_wrong_size() -> None:
    marks = ["x . . . . . . . ."] * 8 + [". . . . . . . . ."]
    with pytest.raises(LayoutError, match=r"line 11: this extra-unit map letter marks 8 cells"):
        read_puzzles(text=blank_grid(9) + "\n" + "\n".join(marks) + "\n")


def test_equal_givens_on_a_diagonal_are_a_conflict() -> None:
    rows = blank_grid(9).splitlines()
    rows[0] = "5" + rows[0][1:]
    rows[8] = rows[8].rstrip()[:-1] + "5"
    with pytest.raises(ConflictError, match=r"line 10, column 17: given 5 .* same extra unit"):
        read_puzzles(text="# extra: diagonals\n" + "\n".join(rows))


def test_verify_checks_the_extra_units(data: Path) -> None:
    [plain] = read_puzzles(text=blank_grid(9), layout="jigsaw9")
    [crossed] = read_puzzles(text="# extra: diagonals\n" + blank_grid(9), layout="jigsaw9")
    solution = published(data / "janko" / "jigsaw" / "93_9x9.solution.txt", plain.cell_rc)
    assert problems(plain, solution) == []
    main_diagonal = solution[plain.index[range(9), range(9)]]
    assert sorted(main_diagonal.tolist()) != list(range(1, 10))
    assert any("diagonal" in p for p in problems(crossed, solution))


def test_a_named_layout_may_repeat_but_not_change_its_declarations() -> None:
    text = Path("layouts/jigsaw9.txt").read_text()
    assert read_puzzles(text=text, layout="jigsaw9")[0].layout.box is None
    with pytest.raises(LayoutError, match="line 11: the region map differs"):
        read_puzzles(text=blank_grid(9) + "\n" + "a a a b b b c c c\n" * 9, layout="jigsaw9")
    with pytest.raises(LayoutError, match=r"line 1: '# box:' differs from layout 12x12"):
        read_puzzles(text="# box: 3x3\n# layout: 12x12\n" + blank_grid(12))
