"""The generate and rate commands: every option, the output formats, and bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

import ndoku.tasks.generate as gen
from ndoku.model.layout import available_layouts
from ndoku.model.puzzle import read_puzzles
from ndoku.solvers.exact import solve_exact
from ndoku.solvers.logic import LEVELS
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
        rating = record["rating"]
        assert rating["status"] == "unique" and rating["level"] in LEVELS
        assert rating["path"] in ("solved", "timeout") and rating["steps"] > 0
        assert record["stop"] == "minimal" and record["reached"] is True
        assert record["layout"] == "samurai" and record["symmetry"] == "none"
        assert record["target"] is None and record["difficulty"] is None
        assert record["needs"] is None


def test_givens_target(run: CliRun) -> None:
    code, out, _ = run("generate", "twodoku", "--givens", "60")
    assert code == 0 and ": 60 givens, " in out.splitlines()[0] and "--givens 60" in out
    unique(out)


def test_a_target_that_cannot_be_reached_is_said_and_printed(run: CliRun) -> None:
    code, out, err = run("generate", "9x9", "--givens", "17")
    assert code == 1 and "stopped at" in err and "above the 17 asked" in err
    unique(out)


def test_difficulty_gives_the_level(run: CliRun) -> None:
    for level in ("singles", "subsets", "chains"):
        code, out, _ = run("generate", "9x9", "--difficulty", level, "--format", "json")
        record = json.loads(out)
        assert code == 0 and record["rating"]["level"] == level and record["stop"] == "level"
        assert record["difficulty"] == level and f"--difficulty {level}:" in record["puzzle"]
        code, rated, _ = run("rate", "-", "--chains", "0", input=record["puzzle"])
        assert code == 0 and rated.split()[0] == level


def test_needs_gives_the_technique(run: CliRun) -> None:
    code, out, err = run("generate", "9x9", "--needs", "x-wing", "--seed", "2")
    assert code == 0 and err == ""
    assert out.startswith("# ndoku generate 9x9 --seed 2 --needs x-wing: ")
    code, explained, _ = run("explain", "-", input=out)
    assert code == 0 and "X-wing ×" in explained.splitlines()[-1]
    args = ["--needs", "naked pair", "--difficulty", "subsets", "--format", "json"]
    code, out, _ = run("generate", "9x9", *args)
    record = json.loads(out)
    assert code == 0 and record["needs"] == "naked pair" and record["difficulty"] == "subsets"
    assert "naked pair" in record["rating"]["techniques"]
    assert "--needs 'naked pair' --difficulty subsets:" not in record["puzzle"]
    assert "--difficulty subsets --needs 'naked pair':" in record["puzzle"]


def test_a_level_out_of_reach_is_said(run: CliRun, monkeypatch: pytest.MonkeyPatch) -> None:
    # 20 attempts rather than 1 000: the same message, without a minute of 4×4 ratings (and
    # the attempts end before the timeout on a busy machine too)
    attempts = gen.MAX_ATTEMPTS
    monkeypatch.setattr(gen, "MAX_ATTEMPTS", 20)
    code, out, err = run("generate", "4x4", "--difficulty", "forcing chains")
    assert code == 1 and "no puzzle with level forcing chains found in 20 attempts" in err
    assert "the closest is printed (singles (hardest " in err
    unique(out)
    # the timeout must end this one, however fast the machine: every attempt back
    monkeypatch.setattr(gen, "MAX_ATTEMPTS", attempts)
    code, out, err = run("generate", "9x9", "--needs", "guess", "--timeout", "0.3")
    assert code == 1 and "no puzzle with a path using guess found before the timeout" in err
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
        (["9x9", "--givens", "30", "--difficulty", "singles"], "--givens excludes"),
        (["9x9", "--givens", "30", "--needs", "X-wing"], "--givens excludes"),
        (["9x9", "--difficulty", "fiendish"], "unknown difficulty 'fiendish' (known: singles,"),
        (["9x9", "--difficulty", "easy"], "the difficulty 'easy' is gone"),
        (["9x9", "--needs", "unicorn"], "unknown technique 'unicorn' (known: full house,"),
        (["9x9", "--difficulty", "singles", "--needs", "swordfish"], "cannot use swordfish"),
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
    assert lines[0].startswith("singles ") and "(1/1 solved)" in lines[0]
    assert "steps: hidden single ×" in lines[0] and "; search 0 guesses, 1 node;" in lines[0]
    levels = [line.split()[0] for line in lines]
    found = ", ".join(f"{levels.count(level)} {level}" for level in LEVELS if level in levels)
    assert f"50 puzzles: {found}; median score " in err
    assert len(set(levels)) > 1


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
    assert code == 0 and len(lines) == 6 and "proposals" not in out
    assert lines[0] == "# <stdin>" and lines[2] == ""
    assert lines[1].split()[0] in LEVELS and not lines[1].startswith("singles ")
    assert lines[3] == f"# {samurai}" and lines[4].startswith("singles ")


def test_rate_reads_other_symbols(run: CliRun) -> None:
    code, line, _ = run("generate", "4x4", "--format", "line", "--seed", "3")
    lettered = line.translate(str.maketrans("1234", "abcd"))
    code, out, _ = run("rate", "-", "--symbols", "a-d", "--chains", "0", input=lettered)
    assert code == 0 and out.startswith("singles ")
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


def test_rate_says_when_the_path_hit_the_timeout(run: CliRun, data: Path) -> None:
    hardest = (data / "sudoku9" / "forum_hardest_1106_first40.txt").read_text().splitlines()[0]
    code, out, _ = run("rate", "-", "--chains", "0", "--timeout", "0.005", input=hardest)
    assert code == 1 and out.startswith("≥") and " steps before the timeout" in out
    code, out, err = run(
        "rate",
        "-",
        "--chains",
        "0",
        "--timeout",
        "0.005",
        "--format",
        "json",
        input=hardest + "\n" + hardest,
    )
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and [r["path"] for r in records] == ["timeout", "timeout"]
    assert records[0]["status"] == "unique" and records[0]["level"] in LEVELS
    assert "2 puzzles: 2 cut short by the timeout\n" in err


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
    assert f"Error: {bad}:" in err and f"Error: {tmp_path / 'missing.txt'}: no such file" in err
