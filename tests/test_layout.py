"""Layouts: found from the shape, declared, named; every bundled template."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from ndoku.errors import LayoutError
from ndoku.model.cover import find_layout
from ndoku.model.layout import available_layouts, load_layout
from ndoku.model.puzzle import read_puzzles

if TYPE_CHECKING:
    from conftest import CliRun

# name: (sub-grid corners, cells, units). Cells = 81·grids − 9·(shared boxes); units =
# 27·grids − (units two grids have in common: shared boxes, and whole shared rows/columns
# where grids sit in line, as in the butterfly and flower).
EXPECTED = {
    "4x4": ("0,0", 16, 12),
    "6x6": ("0,0", 36, 18),
    "8x8": ("0,0", 64, 24),
    "10x10": ("0,0", 100, 30),
    "12x12": ("0,0", 144, 36),
    "jigsaw9": ("0,0", 81, 27),
    "xsudoku": ("0,0", 81, 27 + 2),
    "windoku": ("0,0", 81, 27 + 4),
    "twodoku16": ("0,0 12,12", 2 * 256 - 16, 2 * 48 - 1),
    "9x9": ("0,0", 81, 27),
    "16x16": ("0,0", 256, 48),
    "25x25": ("0,0", 625, 75),
    "36x36": ("0,0", 1296, 108),
    "twodoku": ("0,0 6,6", 153, 53),
    "double": ("0,0 3,3", 126, 50),
    "triple": ("0,0 6,6 12,12", 225, 79),
    "butterfly": ("0,0 0,3 3,0 3,3", 144, 24 + 24 + 16),
    "flower": ("0,3 3,0 3,3 3,6 6,3", 189, 33 + 33 + 21),
    "sohei": ("0,6 6,0 6,12 12,6", 288, 104),
    "windmill": ("0,3 3,12 6,6 9,0 12,9", 333, 127),
    "samurai": ("0,0 0,12 6,6 12,0 12,12", 369, 131),
    "gattai8": ("0,0 0,12 0,24 6,6 6,18 12,0 12,12 12,24", 576, 208),
    "shogun": ("0,0 0,12 0,24 0,36 6,6 6,18 6,30 12,0 12,12 12,24 12,36", 783, 285),
    "sumo": ("0,0 0,12 0,24 6,6 6,18 12,0 12,12 12,24 18,6 18,18 24,0 24,12 24,24", 909, 335),
    # nine grids' units, and the tenth sudoku's rows and columns (and boxes: clueless 2's are
    # the centre boxes, units already)
    "clueless1": ("0,0 0,9 0,18 9,0 9,9 9,18 18,0 18,9 18,18", 729, 9 * 27 + 27),
    "clueless2": ("0,0 0,9 0,18 9,0 9,9 9,18 18,0 18,9 18,18", 729, 9 * 27 + 18),
}


def test_every_bundled_layout_is_expected() -> None:
    assert set(available_layouts()) == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bundled_layout(name: str) -> None:
    corners, cells, units = EXPECTED[name]
    [puzzle] = read_puzzles(available_layouts()[name], layout=name)
    assert puzzle.layout.corners_text() == corners
    assert puzzle.n_cells == cells
    assert len(puzzle.units) == units
    assert puzzle.layout.description
    assert not puzzle.givens.any()


# The shape alone does not decide these: the windmill and flower centres, the rectangular
# boxes of an empty template (no values to rule out smaller square sub-grids), and the
# clueless 27×27 squares (too many ways to cover a full canvas by 9×9 windows to search).
DECLARED = {"windmill", "flower", "6x6", "8x8", "10x10", "12x12", "clueless1", "clueless2"}


@pytest.mark.parametrize("name", sorted(set(EXPECTED) - DECLARED))
def test_bundled_layout_is_found_from_its_shape_alone(name: str) -> None:
    layout = load_layout(name)
    assert find_layout(layout.mask)[2] == layout.corners


def test_windmill_shape_is_refused_without_a_declaration(data: Path) -> None:
    path = data / "janko" / "windmill" / "1_21x21.puzzle.txt"
    with pytest.raises(LayoutError) as info:
        read_puzzles(path)
    message = str(info.value)
    assert "does not decide" in message and "# layout: windmill" in message
    assert "0,3 3,12 9,0 12,9" in message


def test_a_full_grid_beyond_64_symbols_is_refused_by_its_size(run: CliRun) -> None:
    # It used to be searched as a cover by 625 overlapping 9×9 sub-grids for 96 s.
    text = "\n".join(" ".join(["0"] * 81) for _ in range(81)) + "\n"
    code, out, err = run("solve", "-", input=text)
    assert code == 2 and out == ""
    assert "81×81 without missing cells" in err and "up to 64" in err


def test_a_cover_search_without_an_answer_stops_with_advice() -> None:
    mask = np.ones((60, 63), dtype=bool)  # only 9×9 windows on the 3×3 lattice cover it
    with pytest.raises(LayoutError, match="declare them with '# subgrids:'"):
        find_layout(mask)


def test_windmill_is_accepted_with_a_declaration(data: Path) -> None:
    path = data / "janko" / "windmill" / "1_21x21.puzzle.txt"
    text = path.read_text()
    named = read_puzzles(text="# layout: windmill\n" + text)[0]
    declared = read_puzzles(text="# subgrids: 0,3 3,12 6,6 9,0 12,9\n" + text)[0]
    option = read_puzzles(path, layout="windmill")[0]
    by_path = read_puzzles(path, layout=str(available_layouts()["windmill"]))[0]
    for puzzle in (named, declared, option, by_path):
        assert puzzle.layout.corners_text() == "0,3 3,12 6,6 9,0 12,9"
        assert np.array_equal(puzzle.givens, named.givens)


def test_a_layout_that_does_not_fit_the_shape_names_the_cell(data: Path) -> None:
    text = (data / "janko" / "sohei" / "1_21x21.puzzle.txt").read_text()
    with pytest.raises(LayoutError, match=r"line 1, column 1: the shape differs from layout"):
        read_puzzles(text=text, layout="samurai")
    with pytest.raises(LayoutError, match="is 21×21 but 9x9 is 9×9"):
        read_puzzles(text=text, layout="9x9")


def test_declared_sub_grids_must_be_complete() -> None:
    text = "# subgrids: 0,0 0,3\n" + "0 0 0 0 0 0 0 0 0\n" * 9
    with pytest.raises(LayoutError, match="line 1: the declared sub-grids 0,0 0,3"):
        read_puzzles(text=text)


def test_sub_grids_overlapping_in_part_of_a_box_are_refused() -> None:
    text = "# subgrids: 0,0 1,1\n0 0 0 0 .\n" + "0 0 0 0 0\n" * 3 + ". 0 0 0 0\n"
    with pytest.raises(LayoutError, match="overlap in part of a box"):
        read_puzzles(text=text)


def test_user_layout_folder_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    template = load_layout("twodoku")
    rows = [" ".join("0" if cell else "." for cell in row) for row in template.mask]
    (tmp_path / "mytwin.txt").write_text("# My twin grids.\n" + "\n".join(rows) + "\n")
    monkeypatch.setenv("NDOKU_LAYOUTS", str(tmp_path))
    assert "mytwin" in available_layouts()
    layout = load_layout("mytwin")
    assert layout.corners == template.corners and layout.description == "My twin grids."
