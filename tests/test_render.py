"""Drawing puzzles: outlines of boxes and regions, marks, and the show command."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ndoku.cli import main
from ndoku.model.puzzle import read_puzzles
from ndoku.tasks.render import EXTRA_STYLE, STYLES, describe, draw


def test_jigsaw_outlines_follow_the_regions(data: Path) -> None:
    [puzzle] = read_puzzles(data / "janko" / "jigsaw" / "93_9x9.puzzle.txt")
    lines = draw(puzzle).plain.splitlines()
    # region i holds the top row's first five cells: no wall inside them, one after them
    assert lines[1].startswith("│8 . . . .│")
    assert describe(puzzle) == "9×9, jigsaw regions, 81 cells, 20 givens"


def test_givens_solved_conflicts_and_extra_units_are_styled() -> None:
    [puzzle] = read_puzzles("layouts/xsudoku.txt", layout="xsudoku")
    values = puzzle.givens.copy()
    values[0] = values[1] = 5  # a conflict in the top row, on a diagonal
    text = draw(puzzle, values)
    styles = {str(span.style) for span in text.spans}
    assert f"{STYLES['conflict']} {EXTRA_STYLE}" in styles
    assert STYLES["conflict"] in styles and STYLES["empty"] in styles
    assert "extra units: 2 diagonals" in describe(puzzle)


def test_multi_grid_leaves_missing_cells_blank(data: Path) -> None:
    [puzzle] = read_puzzles(data / "janko" / "samurai" / "1_21x21.puzzle.txt")
    lines = draw(puzzle).plain.splitlines()
    assert len(lines) == 21 + 8  # 21 rows of cells and 8 edge rows, every third
    assert lines[1][19:24].strip() == ""  # the gap between the two top grids


def test_show_draws_files_and_layout_names(data: Path) -> None:
    result = CliRunner().invoke(
        main, ["show", "windoku", str(data / "janko" / "16x16" / "301_16x16.puzzle.txt")]
    )
    assert result.exit_code == 0
    assert "extra units: 4 windows" in result.stdout and "16×16, boxes 4×4" in result.stdout
    result = CliRunner().invoke(main, ["show", "-", "--layout", "6x6"], input="1 2 0 0 0 0\n" * 6)
    assert result.exit_code == 2 and "same column" in result.stderr
    rect = CliRunner().invoke(main, ["show", "-"], input="1 2 3 4 5 6\n" + "0 0 0 0 0 0\n" * 5)
    assert rect.exit_code == 0 and "boxes 2×3 (inferred)" in rect.stdout


def test_show_never_wraps_its_comment_lines(tmp_path: Path) -> None:
    """A description longer than the terminal (80 columns here) stays one comment line, so
    that the drawing reads back (its wrapped rest was read as a row; found by fuzzing)."""
    rows = "# extra: diagonals\n" + "0 0 0 0 0 0 0 0 0\n" * 8
    result = CliRunner().invoke(main, ["show", "-"], input=rows)
    assert result.exit_code == 0
    footer = result.stdout.splitlines()[-1]
    assert footer.startswith("# ") and footer.endswith("72 cells, 0 givens") and len(footer) > 80
    [again] = read_puzzles(text=result.stdout)
    assert again.n_cells == 72
