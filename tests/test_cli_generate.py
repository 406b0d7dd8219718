"""The generate and rate commands: every option, the output formats, and bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from ndoku.model.layout import available_layouts
from ndoku.model.puzzle import read_puzzles
from ndoku.solvers.exact import solve_exact
from ndoku.tasks.verify import problems

if TYPE_CHECKING:
    from conftest import CliRun


def unique(text: str) -> None:
    [puzzle] = read_puzzles(text=text)
    assert solve_exact(puzzle, limit=10).count == 1


def test_generate_prints_a_puzzle_that_solve_reads(run: CliRun, tmp_path: Path) -> None:
    code, out, err = run("generate", "windmill")
    assert code == 0 and "ndoku: windmill" not in err  # no message about this puzzle
    assert out.startswith("# ndoku generate windmill --seed 0: ")
    assert "# subgrids: 0,3 3,12 6,6 9,0 12,9\n" in out
    unique(out)
    path = tmp_path / "windmill.txt"
    path.write_text(out)
    assert run("count", str(path))[:2] == (0, "1\n")
    code, solved, _ = run("solve", str(path))
    assert code == 0 and "0" not in solved.split()


def test_a_jigsaw_keeps_its_region_map(run: CliRun) -> None:
    code, out, _ = run("generate", "jigsaw9", "--seed", "2")
    assert code == 0
    regions = out.split("\n\n")[1]
    assert regions == available_layouts()["jigsaw9"].read_text().split("\n\n")[1]
    code, solved, _ = run("solve", "-", input=out)
    assert code == 0 and solved.count("\n") == 9


def test_count_seed_and_reproduction(run: CliRun) -> None:
    code, out, _ = run("generate", "9x9", "--count", "3", "--seed", "5")
    assert code == 0
    puzzles = out.split("\n\n")
    assert [p.splitlines()[0].split(":")[0] for p in puzzles] == [
        f"# ndoku generate 9x9 --seed {seed}" for seed in (5, 6, 7)
    ]
    assert run("generate", "9x9", "--seed", "6")[1] == puzzles[1] + "\n"
    for puzzle in puzzles:
        unique(puzzle)
    assert run("generate", "9x9", "-n", "3", "--seed", "5")[1] == out


def test_line_format_is_a_batch_solve_reads(run: CliRun) -> None:
    code, out, _ = run("generate", "9x9", "--count", "4", "--format", "line")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 4 and all(len(line) == 81 for line in lines)
    code, solved, err = run("solve", "-", input=out)
    assert code == 0 and len(solved.splitlines()) == 4 and "4 solved" in err
    code, out, _ = run("generate", "xsudoku", "--count", "2", "--format", "line", "--seed", "1")
    assert code == 0 and out.splitlines()[0] == "# layout: xsudoku"
    for puzzle in read_puzzles(text=out):
        assert len(puzzle.layout.extras) == 2
        assert solve_exact(puzzle).unique


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        ("samurai", "line format holds one grid; samurai has 5 sub-grids"),
        ("6x6", "line format holds n⁴ cells"),
        ("36x36", "one character per symbol"),
    ],
)
def test_line_format_refuses_what_a_line_cannot_hold(
    run: CliRun, layout: str, message: str
) -> None:
    code, out, err = run("generate", layout, "--format", "line")
    assert code == 2 and out == "" and err.startswith("Error: ") and message in err


def test_json_has_the_solution_and_the_rating(run: CliRun) -> None:
    code, out, _ = run("generate", "samurai", "--format", "json", "--count", "2", "--seed", "3")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [r["seed"] for r in records] == [3, 4]
    for record in records:
        [puzzle] = read_puzzles(text=record["puzzle"])
        [solution] = read_puzzles(text=record["solution"])
        assert problems(puzzle, solution.givens) == []
        assert record["givens"] == int((puzzle.givens > 0).sum())
        assert record["rating"]["status"] == "unique" and record["rating"]["level"] in (
            "hard",
            "expert",
        )
        assert record["stop"] == "minimal" and record["reached"] is True
        assert record["layout"] == "samurai" and record["symmetry"] == "none"
        assert record["target"] is None and record["difficulty"] is None


def test_givens_target(run: CliRun) -> None:
    code, out, _ = run("generate", "twodoku", "--givens", "60")
    assert code == 0 and ": 60 givens, " in out.splitlines()[0] and "--givens 60" in out
    unique(out)


def test_a_target_that_cannot_be_reached_is_said_and_printed(run: CliRun) -> None:
    code, out, err = run("generate", "9x9", "--givens", "17")
    assert code == 1 and "stopped at" in err and "above the 17 asked" in err
    unique(out)


def test_difficulty_lands_in_the_band(run: CliRun) -> None:
    for level in ("easy", "medium", "hard", "expert"):
        code, out, _ = run("generate", "9x9", "--difficulty", level, "--format", "json")
        record = json.loads(out)
        assert code == 0 and record["rating"]["level"] == level and record["stop"] == "level"
        code, rated, _ = run("rate", "-", "--chains", "0", input=record["puzzle"])
        assert code == 0 and rated.split()[0] == level


def test_a_band_out_of_reach_is_said(run: CliRun) -> None:
    code, out, err = run("generate", "4x4", "--difficulty", "expert")
    assert code == 1 and "no puzzle landed in the band in 1000 attempts" in err
    assert "rated easy" in err
    unique(out)


def test_symmetry(run: CliRun) -> None:
    code, out, _ = run("generate", "samurai", "--symmetry", "rotational", "--seed", "1")
    assert code == 0 and "--symmetry rotational" in out
    [puzzle] = read_puzzles(text=out)
    shown = puzzle.canvas(puzzle.givens) > 0
    assert np.array_equal(shown, shown[::-1, ::-1])
    code, out, _ = run("generate", "9x9", "--symmetry", "mirror")
    [puzzle] = read_puzzles(text=out)
    shown = puzzle.canvas(puzzle.givens) > 0
    assert code == 0 and np.array_equal(shown, shown[:, ::-1])


def test_timeout(run: CliRun) -> None:
    run("generate", "4x4")  # kernels compiled (after a change) outside the timed calls
    code, out, err = run("generate", "36x36", "--timeout", "0.5")
    assert code == 1 and "timeout stopped the work at" in err
    assert out.startswith("# ndoku generate 36x36")
    code, out, err = run("generate", "9x9", "--timeout", "1e-9", "--count", "2")
    assert code == 1 and out == ""
    assert err.count("no solution of the layout found within 1e-09 s") == 2


def test_a_layout_file(run: CliRun, tmp_path: Path) -> None:
    path = tmp_path / "mine.txt"
    path.write_text("# box: 2x3\n" + "0 0 0 0 0 0\n" * 6)
    code, out, _ = run("generate", str(path), "--format", "grid")
    assert code == 0 and "# box: 2x3\n" in out
    unique(out)
    crossed = tmp_path / "crossed.txt"
    crossed.write_text("# extra: diagonals\n" + "0 0 0 0 0 0 0 0 0\n" * 9)
    code, out, _ = run("generate", str(crossed), "--format", "line", "--count", "2")
    assert code == 0 and out.splitlines()[0] == f"# layout: {crossed}"
    assert [len(p.layout.extras) for p in read_puzzles(text=out)] == [2, 2]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nowhere"], "Error: unknown layout 'nowhere' (known layouts:"),
        (["9x9", "--givens", "7"], "needs at least N − 1 = 8 givens"),
        (["9x9", "--givens", "82"], "more than the 81 cells"),
        (["twodoku", "--symmetry", "mirror"], "layout twodoku has no mirror symmetry: its shape"),
        (["jigsaw9", "--symmetry", "mirror"], "boxes, regions or extra units change"),
        (["9x9", "--givens", "30", "--difficulty", "easy"], "exclude each other"),
        (["9x9", "--difficulty", "fiendish"], "Invalid value for '--difficulty'"),
        (["9x9", "--symmetry", "diagonal"], "Invalid value for '--symmetry'"),
        (["9x9", "--seed", "-1"], "Invalid value for '--seed'"),
        (["9x9", "--count", "0"], "Invalid value for '--count'"),
        (["9x9", "--timeout", "0"], "Invalid value for '--timeout'"),
        (["9x9", "--format", "csv"], "Invalid value for '--format'"),
        (["xsudoku", "--format", "line", "--givens", "3"], "at least N − 1 = 8"),
    ],
)
def test_bad_generate_input_exits_2(run: CliRun, args: list[str], message: str) -> None:
    code, out, err = run("generate", *args)
    assert code == 2 and out == "" and message in err


def test_bad_layout_files_exit_2(run: CliRun, tmp_path: Path, data: Path) -> None:
    puzzle = data / "janko" / "samurai" / "1_21x21.puzzle.txt"
    code, _, err = run("generate", str(puzzle))
    assert code == 2 and "givens; a layout is an empty grid" in err
    ragged = tmp_path / "ragged.txt"
    ragged.write_text("0 0 0 0\n0 0 0\n0 0 0 0\n0 0 0 0\n")
    code, _, err = run("generate", str(ragged))
    assert code == 2 and err.startswith("Error: line 2") and "ragged row" in err


def test_rate_a_batch(run: CliRun, data: Path) -> None:
    path = data / "sudoku9" / "norvig_easy50.txt"
    code, out, err = run("rate", str(path), "--chains", "1")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 50
    assert (
        lines[0].startswith("easy ") and "naked singles" in lines[0] and "(1/1 solved)" in lines[0]
    )
    assert lines[1].startswith("medium ") and "hidden singles" in lines[1]
    assert "50 puzzles: 12 easy, 28 medium, 10 hard, 0 expert; median score 1.00" in err


def test_rate_json_and_several_files(run: CliRun, data: Path) -> None:
    top = data / "sudoku9" / "norvig_top95.txt"
    windmill = data / "janko" / "windmill" / "1_21x21.puzzle.txt"
    options = ["--layout", "windmill", "--format", "json", "--max-proposals", "100000"]
    code, out, _ = run("rate", str(windmill), *options)
    record = json.loads(out)
    assert code == 0 and record["file"] == str(windmill) and record["status"] == "unique"
    assert record["chains"] == 3 and record["proposals"] > 0 and "puzzle" not in record
    samurai = data / "janko" / "samurai" / "2_21x21.puzzle.txt"
    line = top.read_text().splitlines()[0]
    code, out, _ = run("rate", "-", str(samurai), "--chains", "0", input=line)
    lines = out.splitlines()
    # (the path is left out: a checkout's folder may be called "chains")
    assert code == 0 and len(lines) == 6 and "chains" not in out.replace(str(samurai), "")
    assert lines[0] == "# <stdin>" and lines[1].startswith("expert ") and lines[2] == ""
    assert lines[3] == f"# {samurai}" and lines[4].startswith("medium ")


def test_rate_reads_other_symbols(run: CliRun) -> None:
    code, line, _ = run("generate", "4x4", "--format", "line", "--seed", "3")
    lettered = line.translate(str.maketrans("1234", "abcd"))
    code, out, _ = run("rate", "-", "--symbols", "a-d", "--chains", "0", input=lettered)
    assert code == 0 and out.startswith("easy ")
    code, _, err = run("rate", "-", "--chains", "0", input=lettered)
    assert code == 2 and "Error: <stdin>:" in err


def test_rate_says_when_the_chains_gave_up(run: CliRun, data: Path) -> None:
    line = (data / "sudoku9" / "norvig_top95.txt").read_text().splitlines()[0]
    code, out, _ = run("rate", "-", "--chains", "1", "--max-proposals", "1000", input=line)
    assert code == 0 and "chains ≥1,000 proposals (0/1 solved)" in out


def test_rate_does_not_rate_what_is_not_unique(run: CliRun, data: Path) -> None:
    several = (data / "sudoku9" / "serg_benchmark_sample1k.txt").read_text().splitlines()[0]
    code, out, _ = run("rate", "-", input=several)
    assert code == 1 and out == "not rated: more than one solution\n"
    code, out, _ = run("rate", "-", "--format", "json", input=several)
    assert code == 1 and json.loads(out)["level"] is None
    slow = (data / "sudoku25" / "gecode_25x25_shared6.txt").read_text().split()[1].split(",")[0]
    code, out, _ = run("rate", "-", "--timeout", "0.05", input=slow)
    assert code == 1 and out == "not rated: the exact search hit the timeout\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--chains", "-1"], "Invalid value for '--chains'"),
        (["--max-proposals", "0"], "Invalid value for '--max-proposals'"),
        (["--timeout", "0"], "Invalid value for '--timeout'"),
        (["--format", "grid"], "Invalid value for '--format'"),
    ],
)
def test_bad_rate_options_exit_2(run: CliRun, args: list[str], message: str) -> None:
    code, _, err = run("rate", "-", *args, input="0" * 81)
    assert code == 2 and message in err


def test_rate_bad_files_exit_2(run: CliRun, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("1 2 3\n")
    code, out, err = run("rate", str(bad), str(tmp_path / "missing.txt"))
    assert code == 2 and out.count("# ") == 0
    assert f"Error: {bad}:" in err and "cannot read" in err
