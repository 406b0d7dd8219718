"""The exact methods through the command line: auto, exact, hybrid, --unique, count, batches."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from ndoku.model.puzzle import read_puzzles
from ndoku.tasks.verify import problems

if TYPE_CHECKING:
    from conftest import CliRun


def counted(data: Path) -> list[tuple[str, int]]:
    """The tdoku test puzzles with their published solution counts."""
    lines = (data / "sudoku9" / "tdoku_test_puzzles_counts.txt").read_text().split()
    return [(line.split(":")[0], int(line.split(":")[1])) for line in lines]


@pytest.mark.parametrize("method", ["auto", "exact", "metropolis", "hybrid"])
def test_every_method_prints_the_published_solution(run: CliRun, data: Path, method: str) -> None:
    puzzle = data / "janko" / "samurai" / "2_21x21.puzzle.txt"
    code, out, _ = run("solve", str(puzzle), "--method", method)
    assert code == 0
    assert out == (data / "janko" / "samurai" / "2_21x21.solution.txt").read_text()


def test_json_of_the_exact_search(run: CliRun, data: Path) -> None:
    puzzle = data / "janko" / "sumo" / "1_33x33.puzzle.txt"
    code, out, _ = run("solve", str(puzzle), "--format", "json")
    record = json.loads(out)
    assert code == 0 and record["status"] == "solved" and record["method"] == "auto"
    assert record["unique"] is True and record["count"] == 1 and record["stop"] == "complete"
    assert record["guesses"] >= 0 and record["nodes"] >= 1 and record["seconds"] >= 0
    solution = (data / "janko" / "sumo" / "1_33x33.solution.txt").read_text()
    assert record["solution"] + "\n" == solution


def test_batch_statuses_line_up_with_the_input(run: CliRun, data: Path, tmp_path: Path) -> None:
    picks = [p for p, n in counted(data) if n == 1][:3] + [p for p, n in counted(data) if n == 0]
    picks = picks[:4] + [p for p, n in counted(data) if n > 1][:1]
    batch = tmp_path / "batch.txt"
    batch.write_text("\n".join(picks) + "\n")
    code, out, err = run("solve", str(batch))
    lines = out.splitlines()
    assert code == 1 and len(lines) == 5
    assert lines[3] == "none"
    assert "5 puzzles: 3 solved, 1 none, 1 multiple" in err
    for given, answer in zip(picks[:3] + picks[4:], lines[:3] + lines[4:], strict=True):
        [puzzle] = read_puzzles(text=given)
        [solved] = read_puzzles(text=answer)
        assert problems(puzzle, solved.givens) == []
    code, out, _ = run("solve", str(batch), "--unique")
    assert code == 1 and out.splitlines()[4] == "multiple"


def test_unique_refuses_a_puzzle_with_several_solutions(run: CliRun, data: Path) -> None:
    line = (data / "sudoku9" / "serg_benchmark_sample1k.txt").read_text().splitlines()[0]
    code, out, err = run("solve", "-", input=line)
    assert code == 0 and len(out.strip()) == 81 and "more than one solution" in err
    code, out, err = run("solve", "-", "--unique", input=line)
    assert code == 1 and out == "multiple\n" and "refused by --unique" in err
    code, out, _ = run("solve", "-", "--unique", "--format", "json", input=line)
    record = json.loads(out)
    assert record["status"] == "multiple" and record["solution"] is None


def test_count_matches_the_published_counts(run: CliRun, data: Path) -> None:
    puzzles = counted(data)
    text = "\n".join(p for p, _ in puzzles) + "\n"
    code, out, _ = run("count", "-", "--limit", "1000", input=text)
    assert code == 0
    assert out.split() == [str(n) for _, n in puzzles]
    code, out, _ = run("count", "-", input=text)
    assert out.split() == [str(n) if n < 2 else "≥2" for _, n in puzzles]


def test_count_json_and_a_grid_file(run: CliRun, data: Path) -> None:
    puzzle = str(data / "janko" / "windmill" / "1_21x21.puzzle.txt")
    code, out, _ = run("count", puzzle, "--layout", "windmill", "--format", "json")
    record = json.loads(out)
    assert code == 0 and record["count"] == 1 and record["at_least"] is False


def test_node_limit_is_reported(run: CliRun, data: Path) -> None:
    hardest = (data / "sudoku9" / "forum_hardest_1106_first40.txt").read_text().splitlines()[0]
    code, out, err = run("solve", "-", "--max-nodes", "1", input=hardest)
    assert code == 1 and out == "limit\n" and "node limit" in err
    code, out, _ = run("count", "-", "--max-nodes", "1", input=hardest)
    assert code == 1 and out == "≥0 (node limit)\n"


def test_no_solution_is_proved(run: CliRun, data: Path) -> None:
    for none in (p for p, n in counted(data) if n == 0):
        code, out, err = run("solve", "-", input=none)
        assert code == 1 and out == "none\n" and "no solution" in err
        # pruning does not see these contradictions, hybrid's search proves them
        code, out, _ = run("solve", "-", "--method", "hybrid", "--timeout", "0.2", input=none)
        assert code == 1 and out == "none\n"
        # the chain alone runs to its cap, honestly
        args = ("--method", "hybrid", "--restarts", "none", "--timeout", "0.2")
        code, out, _ = run("solve", "-", *args, input=none)
        assert code == 1 and out == "unsolved\n"


def test_hybrid_reports_a_contradiction_found_by_propagation(run: CliRun) -> None:
    # the top-left cell sees 1 in its row and 2, 3, 4 in its column
    text = "0 1 0 0\n2 0 0 0\n3 0 0 0\n4 0 0 0\n"
    code, out, _ = run("solve", "-", "--method", "hybrid", "--format", "json", input=text)
    record = json.loads(out)
    assert code == 1 and record["status"] == "none" and record["stop"] == "propagation"


def test_jobs_give_the_same_answers(run: CliRun, data: Path) -> None:
    text = (data / "sudoku9" / "norvig_top95.txt").read_text()
    assert run("solve", "-", "--jobs", "2", input=text)[1] == run("solve", "-", input=text)[1]


@pytest.mark.parametrize(
    "option", [["--jobs", "0"], ["--max-nodes", "0"], ["--timeout", "-1"], ["--limit", "0"]]
)
def test_bad_limits_exit_2(run: CliRun, option: list[str]) -> None:
    command = "count" if option[0] == "--limit" else "solve"
    code, _, err = run(command, "-", *option, input="0" * 81)
    assert code == 2 and "Invalid value" in err
