"""Pencil-marked puzzles through the CLI: hint and explain (with --pretty) on a sukaku line
and on a HoDoKu pencil-mark grid, solve and count, and what is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import CliRun

DATA = Path(__file__).parent / "data"
SUKAKU = DATA / "sukaku" / "diabolical1_step20.sukaku.txt"
HODOKU = DATA / "sukaku" / "diabolical1_step20.hodoku.txt"
NAKED_PAIR = "Naked pair: in row 1, r1c2 and r1c9 hold only 3 and 4; so r1c8 loses 3, 4.\n"


@pytest.mark.parametrize("path", [SUKAKU, HODOKU])
def test_hint_starts_from_the_pencil_marks(run: CliRun, path: Path) -> None:
    # the marks the user removed stay removed: the next step is the naked pair of step 20
    code, out, _ = run("hint", str(path))
    assert code == 0 and out == NAKED_PAIR


def test_two_pencil_mark_grids_in_a_file_are_two_puzzles(run: CliRun, tmp_path: Path) -> None:
    """The second grid of candidate lists is the next puzzle, not a region map of the first."""
    path = tmp_path / "two.txt"
    path.write_text(HODOKU.read_text() + "\n" + HODOKU.read_text())
    code, out, err = run("hint", str(path))
    assert code == 0, err
    assert out == NAKED_PAIR * 2


@pytest.mark.parametrize("path", [SUKAKU, HODOKU])
def test_hint_json_keeps_its_shape(run: CliRun, path: Path) -> None:
    code, out, _ = run("hint", str(path), "--format", "json")
    record = json.loads(out)
    assert code == 0
    assert list(record) == [
        "file", "step", "technique", "rating", "text", "cells", "placements", "eliminations",
    ]  # fmt: skip
    assert record["eliminations"] == [[0, 7, "3"], [0, 7, "4"]]


def test_explain_walks_from_the_marks_to_the_solution(run: CliRun) -> None:
    code, out, _ = run("explain", str(SUKAKU))
    lines = out.splitlines()
    assert code == 0 and lines[0] == "1. " + NAKED_PAIR.strip()
    assert lines[-1].startswith("# solved in ")


def test_hint_pretty_draws_the_step_on_the_candidates(run: CliRun) -> None:
    code, out, _ = run("hint", str(HODOKU), "--pretty")
    lines = out.splitlines()
    assert code == 0 and lines[0] == NAKED_PAIR.strip()
    assert "[34]" in lines[2] and "67-34" in lines[2]  # r1c2 (and r1c9) bracketed, r1c8 loses
    assert lines[-1] == "# [ ] the step's cells, =v placed, -v removed"


def test_explain_pretty_draws_every_step_and_the_end(run: CliRun) -> None:
    code, out, _ = run("explain", str(SUKAKU), "--pretty")
    steps = int(out.splitlines()[-1].split()[3])
    assert code == 0 and out.count("┌") == steps + 1
    assert out.startswith("# [ ] the step's cells")


def test_pretty_leaves_json_alone(run: CliRun) -> None:
    _, plain, _ = run("explain", str(SUKAKU), "--format", "json")
    _, pretty, _ = run("explain", str(SUKAKU), "--format", "json", "--pretty")
    assert plain == pretty


def test_marks_without_a_solution_are_an_error(run: CliRun, tmp_path: Path) -> None:
    text = SUKAKU.read_text()
    bad = tmp_path / "bad.txt"
    bad.write_text(text[:9] + "." * 9 + text[18:])  # r1c2 keeps no candidate
    code, _, err = run("hint", str(bad))
    assert code == 2 and "no solution within its pencil marks" in err
    code, out, err = run("solve", str(bad))
    assert code == 1 and out == "none\n" and "no solution within the pencil marks" in err


def test_solve_and_count_a_sukaku_line(run: CliRun) -> None:
    code, out, _ = run("solve", str(SUKAKU))
    assert code == 0 and len(out.strip()) == 81 and out.startswith("138")
    assert run("count", str(SUKAKU))[:2] == (0, "1\n")
    code, out, _ = run("solve", str(HODOKU), "--method", "hybrid")
    assert code == 0 and out.splitlines()[1].startswith("| 1     3   8")


def test_chains_that_ignore_the_marks_are_refused(run: CliRun) -> None:
    code, _, err = run("solve", str(SUKAKU), "--method", "metropolis")
    assert code == 2 and "does not see pencil marks" in err
    code, _, err = run("rate", str(SUKAKU))
    assert code != 0 and "pencil-marked" in err
    # without the chains, the path rates it within its marks (as explain walks it)
    code, out, _ = run("rate", str(SUKAKU), "--chains", "0", "--format", "json")
    _, explained, _ = run("explain", str(SUKAKU), "--format", "json")
    record, path = json.loads(out), json.loads(explained.splitlines()[-1])
    assert code == 0 and record["techniques"] == path["techniques"]
    assert record["hardest"] == path["hardest"] and record["score"] == path["rating"]


def test_show_draws_the_marks_and_the_drawing_reads_back(run: CliRun, tmp_path: Path) -> None:
    code, out, _ = run("show", str(SUKAKU))
    assert code == 0 and "3467" in out
    drawn = tmp_path / "drawn.txt"
    drawn.write_text(out)
    assert run("hint", str(drawn))[1] == NAKED_PAIR


def test_hint_refuses_a_dot_in_a_pencil_mark_grid_where_it_stands(
    run: CliRun, tmp_path: Path
) -> None:
    dotted = tmp_path / "dotted.txt"
    dotted.write_text(HODOKU.read_text().replace("| 6    2 ", "| 6    . ", 1))
    code, out, err = run("hint", str(dotted))
    assert code == 2 and out == ""
    assert "line 3, column 8: '.' gives this cell no candidates" in err
    assert "write them all (123456789)" in err and "write 0" not in err


@pytest.mark.parametrize("sep", ["", " "])
def test_hint_reads_the_sukaku_written_a_row_per_line(
    run: CliRun, tmp_path: Path, sep: str
) -> None:
    line = SUKAKU.read_text().strip()
    rows = tmp_path / "rows.txt"
    cells = [line[k : k + 9] for k in range(0, 729, 9)]
    rows.write_text("".join(sep.join(cells[r * 9 : r * 9 + 9]) + "\n" for r in range(9)))
    assert run("hint", str(rows)) == (0, NAKED_PAIR, "")
    assert run("solve", str(rows))[1] == run("solve", str(SUKAKU))[1]


def test_hint_refuses_a_misplaced_candidate_in_a_row_at_its_line_and_column(
    run: CliRun, tmp_path: Path
) -> None:
    line = SUKAKU.read_text().strip()
    rows = [line[k : k + 81] for k in range(0, 729, 81)]
    rows[4] = rows[4][:20] + "7" + rows[4][21:]  # r5c3: 7 in the place of 3
    bad = tmp_path / "rows.txt"
    bad.write_text("\n".join(rows) + "\n")
    code, out, err = run("hint", str(bad))
    assert code == 2 and out == ""
    assert "line 5, column 21: '7' stands in the place of 3 among the candidates of r5c3" in err
