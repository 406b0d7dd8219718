"""The command line, through click's CliRunner: outputs, statuses and error messages."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import networkx as nx
import pytest

from ndoku.cli.common import STDIN_HINT
from ndoku.model.puzzle import read_puzzles
from ndoku.tasks.verify import problems

if TYPE_CHECKING:
    from conftest import CliRun

SHIDOKU = "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n"


def solution_of(path: Path) -> str:
    return Path(str(path).replace(".puzzle.", ".solution.")).read_text()


def test_solve_prints_the_solution_in_the_input_shape(run: CliRun, data: Path) -> None:
    puzzle = data / "janko" / "samurai" / "2_21x21.puzzle.txt"
    code, out, _ = run("solve", str(puzzle), "--seed", "1")
    assert code == 0
    assert out == solution_of(puzzle)


def test_a_comma_separated_samurai_is_answered_with_commas(run: CliRun, data: Path) -> None:
    puzzle = data / "janko" / "samurai" / "2_21x21.puzzle.txt"
    text = puzzle.read_text().replace(" ", ",")
    code, out, _ = run("solve", "-", input=text)
    assert code == 0
    assert out == solution_of(puzzle).replace(" ", ",")


def test_solve_reads_stdin_and_python_m_works(run: CliRun) -> None:
    code, out, _ = run("solve", "-", input=SHIDOKU)
    assert code == 0
    [puzzle] = read_puzzles(text=SHIDOKU)
    [solved] = read_puzzles(text=out)
    assert problems(puzzle, solved.givens) == []
    proc = subprocess.run(
        [sys.executable, "-m", "ndoku", "solve", "-"],
        input=SHIDOKU,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0 and proc.stdout == out


def test_several_files_are_headed_and_separated(run: CliRun, tmp_path: Path) -> None:
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text(SHIDOKU)
    second.write_text(SHIDOKU.replace(".", "0"))
    code, out, _ = run("solve", str(first), str(second))
    assert code == 0
    blocks = out.split("\n\n")
    assert blocks[0].startswith(f"# {first}\n") and blocks[1].startswith(f"# {second}\n")
    assert out.endswith("\n\n")


def test_batch_prints_one_line_per_puzzle(run: CliRun, data: Path, tmp_path: Path) -> None:
    lines = (data / "sudoku9" / "norvig_easy50.txt").read_text().splitlines()[:4]
    batch = tmp_path / "batch.txt"
    batch.write_text("\n".join(lines) + "\n")
    code, out, _ = run("solve", str(batch))
    assert code == 0
    answers = out.splitlines()
    assert len(answers) == 4
    for given, answer in zip(lines, answers, strict=True):
        [puzzle] = read_puzzles(text=given)
        [solved] = read_puzzles(text=answer)
        assert problems(puzzle, solved.givens) == []


def test_json_has_one_object_per_puzzle(run: CliRun, data: Path) -> None:
    puzzle = data / "janko" / "samurai" / "2_21x21.puzzle.txt"
    code, out, _ = run(
        "solve", str(puzzle), "--method", "metropolis", "--format", "json", "--seed", "3"
    )
    assert code == 0
    [line] = out.splitlines()
    record = json.loads(line)
    assert record["file"] == str(puzzle) and record["status"] == "solved"
    assert record["method"] == "metropolis" and record["seed"] == 3
    assert record["solution"] + "\n" == solution_of(puzzle)
    for key in ("proposals", "seconds", "energy"):
        assert key in record
    assert record["energy"] == 0


def test_same_seed_same_json(run: CliRun, data: Path) -> None:
    puzzle = str(data / "janko" / "samurai" / "2_21x21.puzzle.txt")
    first = json.loads(
        run("solve", puzzle, "--method", "metropolis", "--format", "json", "--seed", "5")[1]
    )
    second = json.loads(
        run("solve", puzzle, "--method", "metropolis", "--format", "json", "--seed", "5")[1]
    )
    assert first["proposals"] == second["proposals"] > 0


def test_unsolved_within_limits_exits_1_with_the_best_energy(run: CliRun, data: Path) -> None:
    puzzle = str(data / "janko" / "sumo" / "1_33x33.puzzle.txt")
    code, out, err = run("solve", puzzle, "--method", "metropolis", "--max-proposals", "1000")
    assert code == 1
    assert out == ""
    assert "unsolved" in err and "best energy" in err and "proposal limit" in err
    code, out, _ = run(
        "solve", puzzle, "--method", "metropolis", "--max-proposals", "1000", "--format", "json"
    )
    record = json.loads(out)
    assert code == 1 and record["status"] == "unsolved" and record["solution"] is None
    assert record["best_energy"] > 0 and record["proposals"] == 1000


def test_pretty_shows_borders_and_marks_conflicts(run: CliRun, data: Path) -> None:
    code, out, _ = run("solve", "-", "--pretty", input=SHIDOKU)
    assert code == 0 and "┌" in out and "solved by auto" in out and "unique" in out
    code, out, _ = run("solve", "-", "--pretty", "--method", "metropolis", input=SHIDOKU)
    assert code == 0 and "solved by metropolis" in out
    puzzle = str(data / "janko" / "samurai" / "1_21x21.puzzle.txt")
    code, out, _ = run(
        "solve", puzzle, "--pretty", "--method", "metropolis", "--max-proposals", "10"
    )
    assert code == 1 and "conflicts in red" in out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 2 3 4\n1 2 3\n0 0 0 0\n0 0 0 0\n", "line 2, column 6: ragged row"),
        ("1 2 3 4\n0 0 x 0\n0 0 0 0\n0 0 0 0\n", "line 2, column 5: unknown token 'x'"),
        ("1 2 3 9\n0 0 0 0\n0 0 0 0\n0 0 0 0\n", "line 1, column 7: value 9 is out of range"),
        ("1 2 3 99999999999\n0 0 0 0\n0 0 0 0\n0 0 0 0\n", "column 7: value 99999999999 is out"),
        ("1 0 0 1\n0 0 0 0\n0 0 0 0\n0 0 0 0\n", "line 1, column 7: given 1 repeats the 1 at"),
        ("0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 . .\n", "line 5, column 1: this cell is"),
        ("", "holds no puzzle"),
    ],
)
def test_bad_input_is_an_error_with_exit_2(run: CliRun, text: str, message: str) -> None:
    code, out, err = run("solve", "-", input=text)
    assert code == 2
    assert out == ""
    assert err.startswith("Error: <stdin>: ") and message in err
    assert "Traceback" not in err


def test_binary_and_missing_files_are_errors(run: CliRun, tmp_path: Path) -> None:
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    code, _, err = run("solve", str(junk))
    assert code == 2 and "binary data" in err and "line 1, column 1" in err
    code, _, err = run("solve", str(tmp_path / "absent.txt"))
    assert code == 2 and "absent.txt: no such file" in err


def test_a_bad_file_does_not_stop_the_others(run: CliRun, tmp_path: Path) -> None:
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text(SHIDOKU)
    bad.write_text("1 1 0 0\n")
    code, out, err = run("solve", str(bad), str(good))
    assert code == 2
    assert f"# {good}" in out and f"Error: {bad}" in err


@pytest.mark.parametrize(
    "option",
    [
        ["--temperature", "-1"],
        ["--temperature", "0"],
        ["--timeout", "0"],
        ["--max-proposals", "-5"],
        ["--method", "magic"],
        ["--seed", "x"],
    ],
)
def test_bad_options_exit_2(run: CliRun, option: list[str]) -> None:
    code, _, err = run("solve", "-", *option, input=SHIDOKU)
    assert code == 2 and "Error: Invalid value" in err


def test_layout_option_and_symbols_option(run: CliRun, data: Path, tmp_path: Path) -> None:
    windmill = str(data / "janko" / "windmill" / "1_21x21.puzzle.txt")
    code, _, err = run("solve", windmill)
    assert code == 2 and "# layout: windmill" in err
    hexa = tmp_path / "hexa.txt"
    hexa.write_text("\n".join(["0123456789ABCDEF"] + ["-" * 16] * 15) + "\n")
    code, out, _ = run(
        "solve", str(hexa), "--symbols", "0-F", "--method", "metropolis", "--max-proposals", "0"
    )
    assert code == 1 and out == ""


def test_layouts_lists_every_template(run: CliRun) -> None:
    code, out, _ = run("layouts")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["layout", "canvas", "grid"]
    samurai = next(line for line in lines if line.startswith("samurai "))
    assert samurai.split()[1:8] == ["21×21", "9×9", "5", "3×3", "-", "369", "131"]
    assert len(lines) == 1 + 26


def test_graph_exports_graphml(run: CliRun, tmp_path: Path) -> None:
    target = tmp_path / "samurai.graphml"
    code, out, _ = run("graph", "layouts/samurai.txt", "--graphml", str(target))
    assert code == 0 and out.startswith("369 cells, 131 units")
    graph = nx.read_graphml(target)
    assert graph.number_of_nodes() == 369
    degrees = {d for _, d in graph.degree}
    assert degrees == {20, 32}


def test_version_and_help(run: CliRun) -> None:
    code, out, _ = run("--version")
    assert code == 0 and "ndoku" in out
    code, out, _ = run("solve", "--help")
    assert code == 0 and "--max-proposals" in out


def test_a_terminal_on_stdin_is_told_how_to_end_the_puzzle(run: CliRun, data: Path) -> None:
    """Read from a terminal, the puzzle ends on Ctrl-D, which ndoku says; from a pipe it says
    nothing."""
    line = (data / "sudoku9" / "norvig_top95.txt").read_text().split()[0]
    master, slave = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "ndoku", "solve", "-"],
        stdin=slave,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    os.close(slave)
    os.write(master, line.encode() + b"\n\x04")  # Ctrl-D on a new line: the end of input
    out, err = process.communicate(timeout=120)
    os.close(master)
    assert process.returncode == 0, err
    assert STDIN_HINT in err.decode()
    assert len(out.split()) == 1 and len(out.split()[0]) == 81
    code, _, piped = run("solve", "-", input=line + "\n")
    assert code == 0 and STDIN_HINT not in piped
